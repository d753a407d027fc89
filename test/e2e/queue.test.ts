// The queue's promises (issue 2, scope 7): a worker killed with SIGKILL mid-document loses
// nothing — the lease runs out, another worker takes the document and it completes once, with
// one set of results and one charge; the plan's max_concurrent_jobs holds across workers;
// SIGTERM hands work back.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { longPdf, textPdf } from '../helpers/pdfs.js';

let install: Installation;
let api: Server;
const servers: Server[] = [];

// Short leases so a dead worker's document is taken over within seconds.
const FAST = { FOLIO_LEASE_MS: '1500', FOLIO_POLL_MS: '100' };

beforeAll(async () => {
  install = await Installation.create(FAST);
  api = await install.start(['--no-workers']);
});

// Each test's workers end with it, so no test's documents are taken by another test's worker.
afterEach(async () => {
  for (const s of servers.splice(0)) await s.kill();
});

afterAll(async () => {
  await api?.kill();
  await install?.destroy();
});

async function waitUntil<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a worker killed mid-document', () => {
  it('is replaced: the document completes exactly once, charged once', async () => {
    const ws = await install.workspace({ credits: 1_000_000_000 });
    const client = new Client(api.url, ws.live);
    const pages = 400;
    const accepted = await client.upload([['file', 'long.pdf', await longPdf(pages)]]);
    expect(accepted.status).toBe(202);
    const id = accepted.json.id;

    const doomed = await install.start(['worker']);
    servers.push(doomed);
    // Kill it as soon as it is reading (the 400 pages take it well over a second).
    await waitUntil(async () => (await client.get(`/api/v1/documents/${id}`)).json.stage === 'analyzing');
    await doomed.kill();
    const orphaned = (await client.get(`/api/v1/documents/${id}`)).json;
    expect(orphaned.status).toBe('processing');

    const rescuer = await install.start(['worker']);
    servers.push(rescuer);
    const done = await client.waitFor(id, 60_000);
    expect(done.status).toBe('completed');
    expect(done.page_count).toBe(pages);

    const full = (await client.get(`/api/v1/documents/${id}?include=pages,usage`)).json;
    expect(full.pages.map((p: any) => p.page)).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
    expect(full.pages[pages - 1].text).toContain(`Page marker ${pages}`);
    expect(full.usage.records).toHaveLength(1);
    expect(full.usage.records[0]).toMatchObject({ sku: 'pages.layout', quantity: pages, amount_micro: pages * 25_000 });
    expect(full.cost.settled_micro).toBe(pages * 25_000);
    const account = (await client.get('/api/v1/account')).json;
    expect(account.credits.available_micro).toBe(1_000_000_000 - pages * 25_000);
    await rescuer.stop();
  });
});

describe('max_concurrent_jobs', () => {
  it('is never exceeded across two worker processes', async () => {
    await install.admin('plan', 'create', '--id', 'solo', '--name', 'Solo', '--max-concurrent-jobs', '1');
    const ws = await install.workspace({ plan: 'solo' });
    const client = new Client(api.url, ws.test);
    const ids: string[] = [];
    // Long enough that two workers would be seen processing at once if the limit let them (the
    // list is sampled many times per document), short enough to finish on a loaded CI machine.
    for (let i = 0; i < 4; i++) ids.push((await client.upload([['file', `d${i}.pdf`, await longPdf(80)]])).json.id);
    // Sampling starts before the workers do, so no document can run unobserved.
    let maxProcessing = 0;
    const completed = new Set<string>();
    const sampling = waitUntil(async () => {
      const list = (await client.get('/api/v1/documents?limit=100')).json.data;
      maxProcessing = Math.max(maxProcessing, list.filter((d: any) => d.status === 'processing').length);
      for (const d of list) if (d.status === 'completed') completed.add(d.id);
      return completed.size === ids.length;
    }, 110_000);
    servers.push(...(await Promise.all([install.start(['worker']), install.start(['worker'])])));
    await sampling;
    expect(maxProcessing).toBe(1);
  }, 120_000);
});

describe('SIGTERM', () => {
  it('lets a worker finish or hand back its document; nothing is lost', async () => {
    const ws = await install.workspace();
    const client = new Client(api.url, ws.test);
    const worker = await install.start(['worker'], { FOLIO_SHUTDOWN_GRACE_MS: '0' });
    servers.push(worker);
    // No other worker runs in this installation now, so `worker` is the one that claims it.
    const id = (await client.upload([['file', 'long.pdf', await longPdf(300)]])).json.id;
    await waitUntil(async () => (await client.get(`/api/v1/documents/${id}`)).json.status === 'processing');
    await worker.stop();
    // On failure, say how it ended and what it logged last.
    expect([worker.process.exitCode, worker.process.signalCode], worker.logs.slice(-3000)).toEqual([0, null]);
    const after = (await client.get(`/api/v1/documents/${id}`)).json;
    expect(['queued', 'completed']).toContain(after.status);
    const next = await install.start(['worker']);
    servers.push(next);
    expect((await client.waitFor(id, 60_000)).status).toBe('completed');
    await next.stop();
  });
});

describe('a small document', () => {
  it('is picked up by an idle worker without waiting for a poll', async () => {
    const ws = await install.workspace();
    const client = new Client(api.url, ws.test);
    const worker = await install.start(['worker'], { FOLIO_POLL_MS: '60000' });
    servers.push(worker);
    // On PostgreSQL the API's NOTIFY wakes the worker; SQLite has no cross-process signal, so
    // there the fallback poll does it (FOLIO_POLL_MS is long here only on PostgreSQL's behalf).
    if (process.env.FOLIO_TEST_STORE === 'postgres') {
      const id = (await client.upload([['file', 'a.pdf', await textPdf([['wake up']])]])).json.id;
      expect((await client.waitFor(id, 10_000)).status).toBe('completed');
    }
    await worker.stop();
  });
});

describe('a document that meets a fault in the code', () => {
  it('fails on its second attempt instead of going round the queue until given up', async () => {
    const ws = await install.workspace();
    const client = new Client(api.url, ws.test);
    const id = (await client.upload([['file', 'a.pdf', await textPdf([['fault']])]])).json.id;
    // Stored options no API could have written: the run meets a TypeError, as it would a bug,
    // every time it is claimed.
    await install.select('UPDATE documents SET options = ? WHERE id = ? RETURNING id', ['null', id]);
    const worker = await install.start(['worker']);
    servers.push(worker);
    const failed = await client.waitFor(id, 30_000);
    expect(failed).toMatchObject({ status: 'failed', error: { type: 'processing_failed' } });
    expect(failed.error.message).toMatch(/internal error/);
    await worker.logLine([id, 'given up']);
    expect(worker.logs.split('\n').filter((line) => line.includes(id) && line.includes('given up'))).toHaveLength(1);
    // One attempt went back to the queue (the fault might have been passing), the second gave up.
    expect(worker.logs.split('\n').filter((line) => line.includes(id) && line.includes('"run crashed"'))).toHaveLength(1);
  });
});
