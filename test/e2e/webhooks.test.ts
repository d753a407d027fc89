// Signed webhooks (issue 26 scope 2; docs/api.md, Webhook): created, listed and deleted per
// workspace and mode, the secret shown once; events POSTed to a local receiver with a signature
// that verifyWebhook accepts and that a wrong secret or a changed byte breaks; retried after a
// failing answer; delivered after the worker sending them is killed; private addresses refused
// when created and when delivered; attempts listed with their status codes.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from 'folio-api/client';
import { Client, Installation, ROOT, type Server } from '../helpers/folio.js';
import { textPdf } from '../helpers/pdfs.js';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1: records every request; `answer` decides the status per path
 * (the default 200), and `hold` keeps a request open without answering.
 */
class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received, nth: number) => number | 'hold' = () => 200;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      this.received.push(request);
      const status = this.answer(request, this.received.filter((r) => r.path === request.path).length);
      if (status === 'hold') return;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'thanks' : 'receiver is down for maintenance');
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(pathname: string): string {
    const { port } = this.server.address() as { port: number };
    return `http://127.0.0.1:${port}${pathname}`;
  }

  at(pathname: string): Received[] {
    return this.received.filter((r) => r.path === pathname);
  }

  /** Waits until `pathname` has had `count` requests. */
  async waitFor(pathname: string, count = 1, timeoutMs = 30_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.at(pathname).length < count) {
      if (Date.now() > deadline) throw new Error(`${pathname} had ${this.at(pathname).length} requests, not ${count}, after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return this.at(pathname);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const ENV = { FOLIO_WEBHOOK_RETRY_BASE_MS: '20', FOLIO_WEBHOOK_TIMEOUT_MS: '2000', FOLIO_SWEEP_MS: '200' };

let install: Installation;
let server: Server;
let live: Client;
let test: Client;
let receiver: Receiver;
let pdf: Uint8Array;
let n = 0;
/** A path of its own for each webhook, so tests never read each other's requests. */
const hookPath = () => `/hook-${++n}`;

beforeAll(async () => {
  install = await Installation.create(ENV);
  server = await install.start();
  const ws = await install.workspace();
  live = new Client(server.url, ws.live);
  test = new Client(server.url, ws.test);
  receiver = await new Receiver().start();
  pdf = await textPdf([['INVOICE', 'Northwind Traders GmbH', 'Total due: EUR 310.00'], ['Terms', 'Payment is due within 14 days of the invoice date.']]);
});

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await install?.destroy();
});

async function createHook(client: Client, url: string, events: string[]): Promise<{ id: string; secret: string }> {
  const created = await client.request('POST', '/api/v1/webhooks', { json: { url, events } });
  expect(created.status).toBe(201);
  return created.json;
}

async function upload(client: Client, bytes = pdf, name = 'report.pdf'): Promise<string> {
  const accepted = await client.upload([['file', name, bytes]]);
  expect(accepted.status).toBe(202);
  return accepted.json.id;
}

/** The delivery attempts of a webhook once `count` are listed (the log is written just after the receiver answers). */
async function attempts(client: Client, hookId: string, count: number): Promise<any[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const listed = await client.get(`/api/v1/webhooks/${hookId}/deliveries`);
    expect(listed.status).toBe(200);
    if (listed.json.data.length >= count || Date.now() > deadline) return listed.json.data;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhooks (docs/api.md, Webhook)', () => {
  it('creates one with its secret shown once, lists it without, refuses bad bodies, and deletes it', async () => {
    const url = receiver.url(hookPath());
    const created = await live.request('POST', '/api/v1/webhooks', { json: { url, events: ['document.completed', 'query.failed'] } });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^whk_[0-9a-z]{26}$/),
      object: 'webhook',
      url,
      events: ['document.completed', 'query.failed'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    const listed = await live.get('/api/v1/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.json).toMatchObject({ object: 'list', has_more: false });
    const item = listed.json.data.find((h: any) => h.id === created.json.id);
    expect(item).toEqual({ id: created.json.id, object: 'webhook', url, events: ['document.completed', 'query.failed'], created_at: created.json.created_at });
    expect(JSON.stringify(listed.json)).not.toContain('whsec_');

    const bad = [
      [{ url, events: ['document.started'] }, 'events'],
      [{ url, events: [] }, 'events'],
      [{ url, events: ['document.failed', 'document.failed'] }, 'events'],
      [{ events: ['document.failed'] }, 'url'],
      [{ url: 'ftp://127.0.0.1/hook', events: ['document.failed'] }, 'url'],
      [{ url: 'not a url', events: ['document.failed'] }, 'url'],
      [{ url, events: ['document.failed'], secret: 'mine' }, 'secret'],
    ] as const;
    for (const [body, field] of bad) {
      const refused = await live.request('POST', '/api/v1/webhooks', { json: body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.json.error.type).toBe('invalid_request');
      expect(Object.keys(refused.json.error.details), JSON.stringify(body)).toContain(field);
    }

    expect((await live.request('DELETE', `/api/v1/webhooks/${created.json.id}`)).status).toBe(204);
    expect((await live.get('/api/v1/webhooks')).json.data.map((h: any) => h.id)).not.toContain(created.json.id);
    expect((await live.request('DELETE', `/api/v1/webhooks/${created.json.id}`)).json.error.type).toBe('not_found');
    expect((await live.get(`/api/v1/webhooks/${created.json.id}/deliveries`)).status).toBe(404);
  });

  it('shows credentials in a webhook URL as *** and sends them as basic authentication (issue 37)', async () => {
    const where = hookPath();
    const withCredentials = receiver.url(where).replace('http://', 'http://hook-user:s3cret-pass@');
    const created = await test.request('POST', '/api/v1/webhooks', { json: { url: withCredentials, events: ['document.completed'] } });
    expect(created.status).toBe(201);
    const shown = receiver.url(where).replace('http://', 'http://***@');
    expect(created.json.url).toBe(shown);
    const listed = await test.get('/api/v1/webhooks');
    expect(listed.json.data.find((h: any) => h.id === created.json.id).url).toBe(shown);
    expect(JSON.stringify(listed.json)).not.toContain('s3cret-pass');
    expect(JSON.stringify(listed.json)).not.toContain('hook-user');
    await test.waitFor(await upload(test));
    const [request] = await receiver.waitFor(where, 1);
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:s3cret-pass').toString('base64')}`);
    expect((await test.request('DELETE', `/api/v1/webhooks/${created.json.id}`)).status).toBe(204);
  });

  it('sends document.completed and document.failed with the Document, signed so that verifyWebhook accepts it and nothing else', async () => {
    const where = hookPath();
    const hook = await createHook(test, receiver.url(where), ['document.completed', 'document.failed']);
    const good = await upload(test);
    const broken = await upload(test, await readFile(path.join(ROOT, 'test/fixtures/password-protected.pdf')), 'locked.pdf');
    expect((await test.waitFor(good)).status).toBe('completed');
    expect((await test.waitFor(broken)).status).toBe('failed');

    const requests = await receiver.waitFor(where, 2);
    const events = requests.map((r) => JSON.parse(r.body));
    const completed = events.find((e) => e.type === 'document.completed');
    const failed = events.find((e) => e.type === 'document.failed');
    expect(Object.keys(completed).sort()).toEqual(['created_at', 'data', 'id', 'type']);
    expect(completed.id).toMatch(/^evt_/);
    // The Document as GET /documents/{id} shows it, less `result` (and `retrieved_at`, set by that GET).
    const fetched = (await test.get(`/api/v1/documents/${good}`)).json;
    const { result: _result, retrieved_at: _retrieved, ...shown } = fetched;
    expect(completed.data.object).toEqual({ ...shown, retrieved_at: null });
    expect(completed.data.object).not.toHaveProperty('result');
    expect(Date.parse(completed.created_at)).toBeGreaterThanOrEqual(Date.parse(fetched.completed_at));
    expect(failed.data.object).toMatchObject({ id: broken, object: 'document', status: 'failed', error: { type: 'analysis_failed', stage: 'analyzing' } });

    for (const request of requests) {
      expect(request.headers['content-type']).toBe('application/json');
      const header = String(request.headers['folio-signature']);
      expect(header).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
      const t = Number(/t=(\d+)/.exec(header)![1]);
      expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
      expect(await verifyWebhook(request.body, header, hook.secret)).toBe(true);
      expect(await verifyWebhook(new TextEncoder().encode(request.body), header, hook.secret)).toBe(true);
      expect(await verifyWebhook(request.body, header, `${hook.secret.slice(0, -1)}x`)).toBe(false);
      expect(await verifyWebhook(request.body.replace('"document', '"documenT'), header, hook.secret)).toBe(false);
      expect(await verifyWebhook(`${request.body} `, header, hook.secret)).toBe(false);
      // Past the tolerance (300 s by default) the same request is refused as a replay.
      expect(await verifyWebhook(request.body, header, hook.secret, { now: t + 301 })).toBe(false);
      expect(await verifyWebhook(request.body, header, hook.secret, { now: t + 3600, toleranceSeconds: 7200 })).toBe(true);
    }
    expect(await verifyWebhook(requests[0].body, 'v1=00', hook.secret)).toBe(false);

    // The attempts, with their status codes, newest first.
    const listed = await attempts(test, hook.id, 2);
    expect(listed).toHaveLength(2);
    for (const attempt of listed) {
      expect(attempt).toMatchObject({ object: 'webhook_attempt', attempt: 1, status_code: 200, error: null, response_excerpt: 'thanks', next_attempt_at: null });
      expect(attempt.delivered_at).toEqual(expect.any(String));
    }
    expect(listed.map((a: any) => a.event_id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(listed[0].id > listed[1].id).toBe(true);
  });

  it('sends query.completed with the Query', async () => {
    const where = hookPath();
    const hook = await createHook(test, receiver.url(where), ['query.completed']);
    const documentId = await upload(test);
    expect((await test.waitFor(documentId)).status).toBe('completed');
    const asked = await test.request('POST', `/api/v1/documents/${documentId}/queries`, { json: { question: 'Within how many days is payment due?' } });
    expect(asked.status).toBe(202);
    const [request] = await receiver.waitFor(where, 1);
    const event = JSON.parse(request.body);
    expect(event).toMatchObject({ type: 'query.completed', data: { object: { id: asked.json.id, object: 'query', document_id: documentId, status: 'completed' } } });
    expect(event.data.object.answer).toMatchObject({ answer: '14', not_found: false });
    expect(event.data.object).toEqual((await test.get(`/api/v1/documents/${documentId}/queries/${asked.json.id}`)).json);
    expect(await verifyWebhook(request.body, String(request.headers['folio-signature']), hook.secret)).toBe(true);
    // Only what it asked for: the document's own completion was not sent to it.
    expect(receiver.at(where)).toHaveLength(1);
  });

  it('sends document.expired when the sweeper purges a result', async () => {
    const where = hookPath();
    await createHook(test, receiver.url(where), ['document.expired']);
    const accepted = await test.upload([['file', 'short.pdf', pdf]], { retention_seconds: 1 });
    // Fetched once, so it expires after its retention rather than after the unfetched minimum.
    expect((await test.waitFor(accepted.json.id)).status).toBe('completed');
    const [request] = await receiver.waitFor(where, 1);
    const event = JSON.parse(request.body);
    expect(event).toMatchObject({ type: 'document.expired', data: { object: { id: accepted.json.id, status: 'expired', purged_at: expect.any(String) } } });
  });

  it('tries again after an answer other than 2xx, and lists both attempts', async () => {
    const where = hookPath();
    const before = receiver.answer;
    receiver.answer = (request, nth) => (request.path === where && nth === 1 ? 500 : before(request, nth));
    try {
      const hook = await createHook(test, receiver.url(where), ['document.completed']);
      await upload(test);
      const [first, second] = await receiver.waitFor(where, 2);
      expect(JSON.parse(second.body).id).toBe(JSON.parse(first.body).id);
      // Signed afresh for the new attempt, with the same secret.
      expect(await verifyWebhook(second.body, String(second.headers['folio-signature']), hook.secret)).toBe(true);
      const listed = await attempts(test, hook.id, 2);
      expect(listed).toHaveLength(2);
      const [retry, failure] = listed;
      expect(failure).toMatchObject({
        attempt: 1,
        status_code: 500,
        error: 'The receiver answered HTTP 500.',
        response_excerpt: 'receiver is down for maintenance',
        delivered_at: null,
        next_attempt_at: expect.any(String),
      });
      expect(retry).toMatchObject({ attempt: 2, status_code: 200, error: null, next_attempt_at: null, delivered_at: expect.any(String), delivery_id: failure.delivery_id });
      // The retry base is 20 ms here: the first retry is due 20 ms after the failure.
      expect(Date.parse(failure.next_attempt_at) - Date.parse(failure.attempted_at)).toBeLessThan(1000);
      expect(Date.parse(retry.attempted_at)).toBeGreaterThanOrEqual(Date.parse(failure.next_attempt_at));
    } finally {
      receiver.answer = before;
    }
  });

  it('records a receiver that cannot be reached as an attempt with no status code', async () => {
    const closed = await new Receiver().start();
    const url = closed.url('/gone');
    await closed.close();
    const hook = await createHook(test, url, ['document.completed']);
    await upload(test);
    // Newest first, and with a 20 ms retry base a second attempt may already be listed: the first.
    const attempt = (await attempts(test, hook.id, 1)).find((a) => a.attempt === 1);
    expect(attempt).toMatchObject({ attempt: 1, status_code: null, delivered_at: null, next_attempt_at: expect.any(String) });
    expect(attempt.error).toBe('The receiver could not be reached: its server refused the connection.');
    await test.request('DELETE', `/api/v1/webhooks/${hook.id}`);
  });

  it('keeps modes apart: a test key neither sees live webhooks nor sets them off', async () => {
    const livePath = hookPath();
    const testPath = hookPath();
    const liveHook = await createHook(live, receiver.url(livePath), ['document.completed']);
    await createHook(test, receiver.url(testPath), ['document.completed']);
    expect((await test.get('/api/v1/webhooks')).json.data.map((h: any) => h.id)).not.toContain(liveHook.id);
    expect((await test.get(`/api/v1/webhooks/${liveHook.id}/deliveries`)).status).toBe(404);
    const refused = await test.request('DELETE', `/api/v1/webhooks/${liveHook.id}`);
    expect(refused.status).toBe(404);
    expect(refused.json.error.type).toBe('not_found');

    const documentId = await upload(test);
    const [request] = await receiver.waitFor(testPath, 1);
    expect(JSON.parse(request.body).data.object).toMatchObject({ id: documentId, mode: 'test' });
    // A live delivery would have been recorded in the same transaction as the test one.
    expect(await install.select('SELECT id FROM webhook_deliveries WHERE webhook_id = ?', [liveHook.id])).toEqual([]);
    expect((await live.get(`/api/v1/webhooks/${liveHook.id}/deliveries`)).json.data).toEqual([]);
    expect(receiver.at(livePath)).toEqual([]);
    expect((await live.get('/api/v1/webhooks')).json.data.map((h: any) => h.id)).toContain(liveHook.id);
  });
});

describe('webhook deliveries and the worker', () => {
  it('delivers an event whose worker was killed mid-delivery once a worker runs again', async () => {
    const own = await Installation.create(ENV);
    const hooks = await new Receiver().start();
    let first: Server | null = await own.start();
    let second: Server | null = null;
    try {
      const client = new Client(first.url, (await own.workspace()).test);
      // The first attempt is left unanswered: its worker dies holding the lease.
      hooks.answer = (_request, nth) => (nth === 1 ? 'hold' : 200);
      const hook = await createHook(client, hooks.url('/slow'), ['document.completed']);
      const documentId = await upload(client);
      const [held] = await hooks.waitFor('/slow', 1);
      await first.kill();
      first = null;

      second = await own.start();
      // Taken over once the lease ran out (twice the 2 s time limit and a second), and sent again.
      const [, again] = await hooks.waitFor('/slow', 2, 30_000);
      expect(JSON.parse(again.body).id).toBe(JSON.parse(held.body).id);
      expect(JSON.parse(again.body).data.object.id).toBe(documentId);
      expect(await verifyWebhook(again.body, String(again.headers['folio-signature']), hook.secret)).toBe(true);
      const listed = await attempts(new Client(second.url, client.key), hook.id, 1);
      expect(listed[0]).toMatchObject({ attempt: 2, status_code: 200 });
    } finally {
      await first?.kill();
      await second?.stop();
      await hooks.close();
      await own.destroy();
    }
  });

  it('refuses a private address when created without FOLIO_URL_ALLOW_PRIVATE=1, and again when delivering', async () => {
    const own = await Installation.create({ ...ENV, FOLIO_URL_ALLOW_PRIVATE: '0' });
    const hooks = await new Receiver().start();
    // Created while private addresses were allowed, delivered once they no longer are.
    let open: Server | null = await own.start([], { FOLIO_URL_ALLOW_PRIVATE: '1' });
    let strict: Server | null = null;
    try {
      const key = (await own.workspace()).test;
      const before = await createHook(new Client(open.url, key), hooks.url('/inside'), ['document.completed']);
      await open.stop();
      open = null;

      strict = await own.start();
      const client = new Client(strict.url, key);
      const embedded = ['http://[::7f00:1]/hook', 'http://[::127.0.0.1]/hook', 'http://[::ffff:127.0.0.1]/hook', 'http://[64:ff9b::a00:1]/hook'];
      for (const url of [hooks.url('/inside'), 'http://localhost:8080/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'http://10.1.2.3/hook', ...embedded]) {
        const refused = await client.request('POST', '/api/v1/webhooks', { json: { url, events: ['document.completed'] } });
        expect(refused.status, url).toBe(422);
        expect(refused.json.error).toMatchObject({ type: 'invalid_request', details: { url: ['must not point to a private or reserved network address'] } });
      }
      await upload(client);
      const [attempt] = await attempts(client, before.id, 1);
      expect(attempt).toMatchObject({ status_code: null, error: 'The webhook URL points to a private or reserved network address, which Folio does not call.' });
      expect(hooks.received).toEqual([]);
    } finally {
      await open?.stop();
      await strict?.stop();
      await hooks.close();
      await own.destroy();
    }
  });
});
