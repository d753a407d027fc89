// Idempotency-Key on POST (docs/decisions.md#beyond-the-spec; issue 3 scope 10): the same key and body within 24 hours
// return the first answer and charge once; another body with the same key is a 422.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { textPdf } from '../helpers/pdfs.js';

let install: Installation;
let server: Server;

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start(['--no-workers']);
});

afterAll(async () => {
  await server?.stop();
  await install?.destroy();
});

const keyed = (key: string) => ({ 'idempotency-key': key });

describe('Idempotency-Key', () => {
  it('replays the first answer of an upload and holds credit once', async () => {
    const ws = await install.workspace({ credits: 1_000_000 });
    const client = new Client(server.url, ws.live);
    const pdf = await textPdf([['Pay once']]);
    const send = () => {
      const form = new FormData();
      form.append('options', JSON.stringify({ markdown: true }));
      form.append('file', new Blob([pdf]), 'invoice.pdf');
      return client.request('POST', '/api/v1/documents', { body: form, headers: keyed('upload-1') });
    };
    const first = await send();
    const second = await send();
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await client.get('/api/v1/documents')).json.data).toHaveLength(1);
    expect((await client.get('/api/v1/account')).json.credits.available_micro).toBe(1_000_000 - 25_000);

    // The same key with another body is refused; another key is another document.
    const other = new FormData();
    other.append('file', new Blob([await textPdf([['Something else']])]), 'other.pdf');
    const mismatch = await client.request('POST', '/api/v1/documents', { body: other, headers: keyed('upload-1') });
    expect(mismatch.status).toBe(422);
    expect(mismatch.json.error.details['Idempotency-Key']).toBeDefined();
    const fresh = await client.request('POST', '/api/v1/documents', { body: other, headers: keyed('upload-2') });
    expect(fresh.status).toBe(202);
    expect(fresh.json.id).not.toBe(first.json.id);
  });

  it('replays a URL submission whatever the order of its JSON keys, and keys are per workspace and mode', async () => {
    const ws = await install.workspace();
    const client = new Client(server.url, ws.test);
    const a = await client.request('POST', '/api/v1/documents', {
      json: { url: 'https://example.com/a.pdf', options: { markdown: true, analysis: 'layout' } },
      headers: keyed('url-1'),
    });
    const b = await client.request('POST', '/api/v1/documents', {
      json: { options: { analysis: 'layout', markdown: true }, url: 'https://example.com/a.pdf' },
      headers: keyed('url-1'),
    });
    expect(b.json.id).toBe(a.json.id);
    const live = new Client(server.url, ws.live);
    const c = await live.request('POST', '/api/v1/documents', { json: { url: 'https://example.com/a.pdf' }, headers: keyed('url-1') });
    expect(c.status).toBe(202);
    expect(c.json.id).not.toBe(a.json.id);
  });

  it('creates one document when the same request arrives many times at once', async () => {
    const ws = await install.workspace();
    const client = new Client(server.url, ws.test);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => client.request('POST', '/api/v1/documents', { json: { url: 'https://example.com/same.pdf' }, headers: keyed('race') })),
    );
    for (const r of responses) expect([202, 409]).toContain(r.status);
    const ids = new Set(responses.filter((r) => r.status === 202).map((r) => r.json.id));
    expect(ids.size).toBe(1);
    expect((await client.get('/api/v1/documents')).json.data).toHaveLength(1);
    const conflict = responses.find((r) => r.status === 409);
    if (conflict) expect(conflict.json.error.type).toBe('conflict');
  });

  it('does not remember a refused request, and forgets a key after 24 hours', async () => {
    const ws = await install.workspace({ credits: 0 });
    const client = new Client(server.url, ws.live);
    const refused = await client.request('POST', '/api/v1/documents', { json: { url: 'https://example.com/b.pdf' }, headers: keyed('retry-me') });
    expect(refused.status).toBe(402);
    await install.admin('credits', 'add', '--workspace', ws.id, '--micro', '100000');
    const retried = await client.request('POST', '/api/v1/documents', { json: { url: 'https://example.com/b.pdf' }, headers: keyed('retry-me') });
    expect(retried.status).toBe(202);

    const tomorrow = await install.start(['--no-workers'], { FOLIO_CLOCK_OFFSET_MS: String(24 * 3600 * 1000 + 60_000) });
    try {
      const again = await new Client(tomorrow.url, ws.live).request('POST', '/api/v1/documents', {
        json: { url: 'https://example.com/b.pdf' },
        headers: keyed('retry-me'),
      });
      expect(again.status).toBe(202);
      expect(again.json.id).not.toBe(retried.json.id);
    } finally {
      await tomorrow.stop();
    }
    const bad = await client.request('POST', '/api/v1/documents', { json: { url: 'https://example.com/b.pdf' }, headers: keyed('x'.repeat(300)) });
    expect(bad.status).toBe(422);
  });

  it('frames every part of the form: file bytes that imitate an options part are another request (issue 37)', async () => {
    const ws = await install.workspace();
    const client = new Client(server.url, ws.test);
    const pdf = await textPdf([['Framed parts']]);
    const options = JSON.stringify({ markdown: true });
    const first = new FormData();
    first.append('file', new Blob([pdf]), 'a.pdf');
    first.append('options', options);
    const a = await client.request('POST', '/api/v1/documents', { body: first, headers: keyed('framed') });
    expect(a.status).toBe(202);
    // The same bytes in order under the old, unframed fingerprint: the file's bytes end with the
    // text of the first request's options part, and no options part follows.
    const forged = new FormData();
    forged.append('file', new Blob([pdf, `field:options\n${options}\n`]), 'a.pdf');
    const b = await client.request('POST', '/api/v1/documents', { body: forged, headers: keyed('framed') });
    expect(b.status).toBe(422);
    expect(b.json.error.details['Idempotency-Key']).toBeDefined();
    // Moving bytes between the filename and the file is another request too.
    const renamed = new FormData();
    renamed.append('file', new Blob([pdf.subarray(1)]), `a.pdf${String.fromCharCode(pdf[0])}`);
    renamed.append('options', options);
    expect((await client.request('POST', '/api/v1/documents', { body: renamed, headers: keyed('framed') })).status).toBe(422);
    // The very same form is still replayed.
    const again = new FormData();
    again.append('file', new Blob([pdf]), 'a.pdf');
    again.append('options', options);
    const c = await client.request('POST', '/api/v1/documents', { body: again, headers: keyed('framed') });
    expect(c.status).toBe(202);
    expect(c.json.id).toBe(a.json.id);
  });

  it('refuses an options part sent twice instead of keeping one of them', async () => {
    const ws = await install.workspace();
    const client = new Client(server.url, ws.test);
    const form = new FormData();
    form.append('options', JSON.stringify({ markdown: true }));
    form.append('options', JSON.stringify({ markdown: false }));
    form.append('file', new Blob([await textPdf([['Twice']])]), 'twice.pdf');
    const r = await client.request('POST', '/api/v1/documents', { body: form });
    expect(r.status).toBe(422);
    expect(r.json.error.details.options).toEqual(['was sent more than once; send the options in one part']);
    expect((await client.get('/api/v1/documents')).json.data).toHaveLength(0);
  });
});
