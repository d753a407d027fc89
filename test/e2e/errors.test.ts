// Every error row of docs/api.md "Errors" that submission and reading can produce, with its status,
// `error.type` and extra fields; docs/decisions.md#errors for 403, unknown routes, JSON size and content type.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, CORPUS, Installation, ROOT, type Server } from '../helpers/folio.js';
import { textPdf } from '../helpers/pdfs.js';

let install: Installation;
let server: Server;
let apiOnly: Server;
let ws: Awaited<ReturnType<Installation['workspace']>>;
let live: Client;
let pdf: Uint8Array;

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  apiOnly = await install.start(['--no-workers']);
  ws = await install.workspace({ credits: 1_000_000 });
  live = new Client(server.url, ws.live);
  pdf = await textPdf([['A one page document']]);
});

afterAll(async () => {
  await server?.stop();
  await apiOnly?.stop();
  await install?.destroy();
});

function expectError(response: { status: number; json: any; headers: Headers }, status: number, type: string) {
  expect(response.status).toBe(status);
  expect(response.json.error.type).toBe(type);
  expect(typeof response.json.error.message).toBe('string');
  expect(response.json.error.message.length).toBeGreaterThan(0);
  expect(JSON.stringify(response.json)).not.toMatch(/at .*\.js:\d+/);
}

describe('401 unauthorized', () => {
  it('for a missing, malformed, unknown, revoked or expired key', async () => {
    expectError(await new Client(server.url, null).get('/api/v1/account'), 401, 'unauthorized');
    const basic = await new Client(server.url, null).request('GET', '/api/v1/account', { headers: { authorization: 'Basic abc' } });
    expectError(basic, 401, 'unauthorized');
    expectError(await new Client(server.url, 'ak_live_doesnotexist00000000000000000').get('/api/v1/account'), 401, 'unauthorized');
    expectError(await new Client(server.url, 'sk_something').get('/api/v1/documents'), 401, 'unauthorized');

    const key = await install.admin('key', 'create', '--workspace', ws.id, '--mode', 'live', '--name', 'temp');
    expect((await new Client(server.url, key.secret).get('/api/v1/account')).status).toBe(200);
    const revoked = await install.admin('key', 'revoke', '--key', key.id);
    expect(revoked).toEqual({ id: key.id, revoked_at: expect.any(String) });
    expectError(await new Client(server.url, key.secret).get('/api/v1/account'), 401, 'unauthorized');

    const expiring = await install.admin('key', 'create', '--workspace', ws.id, '--mode', 'test', '--expires-in', '1');
    await new Promise((r) => setTimeout(r, 1200));
    expectError(await new Client(server.url, expiring.secret).get('/api/v1/account'), 401, 'unauthorized');
  });
});

describe('GET /account', () => {
  it('shows the key prefix, never the secret', async () => {
    const { status, json, text } = await live.get('/api/v1/account');
    expect(status).toBe(200);
    expect(json).toEqual({
      credits: { available_micro: expect.any(Number) },
      key: { id: expect.stringMatching(/^key_/), name: expect.any(String), prefix: ws.live.slice(0, 12), mode: 'live' },
      organization: { id: ws.organizationId, name: expect.any(String), slug: expect.any(String) },
      plan: { id: 'payg', name: 'Pay as you go' },
      rate_limit_per_second: 50,
      limits: { max_concurrent_jobs: 4, max_pages_per_document: 2000, max_retention_seconds: 0, max_upload_bytes: 104857600 },
    });
    expect(text).not.toContain(ws.live);
  });
});

describe('403', () => {
  it('forbidden for a suspended workspace (docs/decisions.md#errors)', async () => {
    const other = await install.workspace();
    await install.admin('workspace', 'suspend', '--workspace', other.id);
    expectError(await new Client(server.url, other.live).get('/api/v1/account'), 403, 'forbidden');
    await install.admin('workspace', 'resume', '--workspace', other.id);
    expect((await new Client(server.url, other.live).get('/api/v1/account')).status).toBe(200);
  });

  it('not_entitled with `feature` for an option outside the plan (docs/decisions.md#errors)', async () => {
    await install.admin('plan', 'create', '--id', 'basic', '--name', 'Basic', '--features', 'markdown');
    const basic = await install.workspace({ plan: 'basic' });
    const client = new Client(server.url, basic.test);
    const response = await client.upload([['file', 'a.pdf', pdf]], { queries: ['What is this?'] });
    expectError(response, 403, 'not_entitled');
    expect(response.json.error.feature).toBe('queries');
    expect((await client.upload([['file', 'a.pdf', pdf]], { markdown: true })).status).toBe(202);
  });
});

describe('404 not_found', () => {
  it('for unknown documents, unknown routes and methods, always JSON with X-Request-Id', async () => {
    expectError(await live.get('/api/v1/documents/doc_01aaaaaaaaaaaaaaaaaaaaaaaa'), 404, 'not_found');
    expectError(await live.get('/api/v1/documents/nonsense/pages'), 404, 'not_found');
    const unknown = await live.get('/api/v1/nothing-here');
    expectError(unknown, 404, 'not_found');
    expect(unknown.headers.get('content-type')).toMatch(/application\/json/);
    expectError(await live.request('PUT', '/api/v1/documents'), 404, 'not_found');
    // `/` is the playground (issue 11); other paths outside the API are JSON 404s.
    expectError(await new Client(server.url, null).get('/nothing-here'), 404, 'not_found');
    for (const response of [unknown, await live.get('/api/v1/account'), await new Client(server.url, null).get('/api/v1/account')]) {
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });
});

describe('409 document_not_ready', () => {
  it('for pages, images and an image download before the document is done, with `status`', async () => {
    // An installation without workers: its documents stay queued.
    const quiet = await Installation.create();
    const api = await quiet.start(['--no-workers']);
    const client = new Client(api.url, (await quiet.workspace()).test);
    try {
    const { json } = await client.upload([['file', 'a.pdf', pdf]]);
    for (const p of [`/api/v1/documents/${json.id}/pages`, `/api/v1/documents/${json.id}/images`, `/api/v1/documents/${json.id}/images/img_01aaaaaaaaaaaaaaaaaaaaaaaa`]) {
      const response = await client.get(p);
      expectError(response, 409, 'document_not_ready');
      expect(response.json.error.status).toBe('queued');
    }
    // The document itself answers 200 while queued, without result or error.
    const doc = await client.get(`/api/v1/documents/${json.id}?include=text,pages`);
    expect(doc.status).toBe(200);
    expect(doc.json).toMatchObject({ status: 'queued', stage: 'received', cost: { settled_micro: null } });
    expect(doc.json.result).toBeUndefined();
    expect(doc.json.started_at).toBeUndefined();
    expect(doc.json.text).toBeUndefined();
    } finally {
      await api.stop();
      await quiet.destroy();
    }
  });
});

describe('402 insufficient_credits', () => {
  it('with balance_micro and top_up_url when the estimate is not covered; test mode never gets it', async () => {
    const poor = await install.workspace({ credits: 30_000 });
    const client = new Client(apiOnly.url, poor.live);
    const big = await textPdf([['one'], ['two']]);
    const refused = await client.upload([['file', 'big.pdf', big]]);
    expectError(refused, 402, 'insufficient_credits');
    expect(refused.json.error.balance_micro).toBe(30_000);
    expect(refused.json.error.top_up_url).toMatch(/^https?:\/\//);
    expect((await client.upload([['file', 'one.pdf', pdf]])).status).toBe(202);
    // 5,000 left: a one-page document (25,000) is refused; then with nothing left, even a URL.
    expectError(await client.upload([['file', 'one.pdf', pdf]]), 402, 'insufficient_credits');
    await install.admin('credits', 'add', '--workspace', poor.id, '--micro=-5000');
    const url = await client.request('POST', '/api/v1/documents', { json: { url: 'https://example.com/a.pdf' } });
    expectError(url, 402, 'insufficient_credits');
    expect(url.json.error.balance_micro).toBe(0);
    expect((await new Client(apiOnly.url, poor.test).upload([['file', 'big.pdf', big]])).status).toBe(202);
  });

  it('as its own entry of a batch, without stopping the other files', async () => {
    const poor = await install.workspace({ credits: 60_000 });
    const client = new Client(apiOnly.url, poor.live);
    const text = new TextEncoder().encode('just some text, not a document');
    const response = await client.upload([
      ['files[]', 'a.pdf', pdf],
      ['files[]', 'notes.txt', text],
      ['files[]', 'b.pdf', pdf],
      ['files[]', 'c.pdf', pdf],
    ]);
    expect(response.status).toBe(202);
    const entries = response.json.documents;
    expect(entries).toHaveLength(4);
    expect(entries[0]).toMatchObject({ object: 'document', status: 'queued', estimated_cost_micro: 25_000 });
    expect(entries[1].error.type).toBe('unsupported_media_type');
    expect(entries[2]).toMatchObject({ object: 'document', status: 'queued' });
    expect(entries[3].error).toMatchObject({ type: 'insufficient_credits', balance_micro: 10_000, top_up_url: expect.any(String) });
  });
});

describe('413 payload_too_large', () => {
  it("for a file over the plan's max_upload_bytes, and a JSON body over 1 MiB (docs/decisions.md#errors)", async () => {
    await install.admin('plan', 'create', '--id', 'tiny', '--name', 'Tiny', '--max-upload-bytes', '2000');
    const tiny = await install.workspace({ plan: 'tiny' });
    const client = new Client(apiOnly.url, tiny.test);
    const big = new Uint8Array(5_000_000).fill(65);
    expectError(await client.upload([['file', 'big.pdf', big]]), 413, 'payload_too_large');
    const batch = await client.upload([['files[]', 'big.pdf', big], ['files[]', 'a.pdf', await textPdf([['x']])]]);
    expect(batch.status).toBe(202);
    expect(batch.json.documents[0].error.type).toBe('payload_too_large');
    expect(batch.json.documents[1].status).toBe('queued');
    const json = await live.request('POST', '/api/v1/documents', { json: { url: `https://example.com/${'a'.repeat(1_100_000)}` } });
    expectError(json, 413, 'payload_too_large');
  });
});

describe('415 unsupported_media_type', () => {
  it('for bytes that are none of the nine types, whatever the name says', async () => {
    const cases: [string, Uint8Array][] = [
      ['report.pdf', new TextEncoder().encode('plain text pretending to be a PDF')],
      ['empty.pdf', new Uint8Array(0)],
      ['legacy.doc', await readFile(path.join(CORPUS, 'office/docling-legacy_sample-doc/legacy_sample.doc'))],
      ['picture.webp', await readFile(path.join(CORPUS, 'ocr_scans/docling-webp-test/webp-test.webp'))],
    ];
    for (const [name, bytes] of cases) {
      expectError(await new Client(apiOnly.url, ws.test).upload([['file', name, bytes]]), 415, 'unsupported_media_type');
    }
  });
});

describe('422 invalid_request', () => {
  const client = () => new Client(apiOnly.url, ws.test);

  async function expectDetails(response: any, fields: string[]) {
    expectError(response, 422, 'invalid_request');
    expect(Object.keys(response.json.error.details).sort()).toEqual([...fields].sort());
    for (const messages of Object.values(response.json.error.details)) {
      expect(Array.isArray(messages)).toBe(true);
      expect((messages as string[]).length).toBeGreaterThan(0);
    }
  }

  it('names each bad option by its path', async () => {
    const c = client();
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], { analysis: 'fast' }), ['options.analysis']);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], { extraction: { fields: ['title', 'colour'] } }), ['options.extraction.fields']);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], { extraction: {} }), ['options.extraction']);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], { extraction: { instructions: 'x'.repeat(4001), fields: ['title'] } }), ['options.extraction.instructions']);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], { markdwon: true }), ['options.markdwon']);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], { embeddings: { dimensions: 100 } }), ['options.embeddings.dimensions']);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], { retention_seconds: -1, images: 'yes' }), ['options.retention_seconds', 'options.images']);
    await expectDetails(
      await c.upload([['file', 'a.pdf', pdf]], { extraction: { fields: ['title'], schema: { type: 'object', properties: { title: { type: 'string' } } } } }),
      ['options.extraction.schema'],
    );
  });

  it('refuses markdown with analysis read, duplicate or too many queries', async () => {
    const c = client();
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], { analysis: 'read', markdown: true }), ['options.markdown']);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], { queries: ['Who signed?', 'who  signed?'] }), ['options.queries']);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], { queries: Array.from({ length: 51 }, (_, i) => `Question ${i}?`) }), ['options.queries']);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], { queries: ['x'.repeat(2001)] }), ['options.queries']);
  });

  it("refuses retention above a capped plan's ceiling and clamps 0 to it", async () => {
    const trial = await install.workspace({ plan: 'trial' });
    const c = new Client(apiOnly.url, trial.test);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], { retention_seconds: 604_801 }), ['options.retention_seconds']);
    const clamped = await c.upload([['file', 'a.pdf', pdf]], { retention_seconds: 0 });
    expect(clamped.status).toBe(202);
    expect((await c.get(`/api/v1/documents/${clamped.json.id}?include=options`)).json.options.retention_seconds).toBe(604_800);
  });

  it('refuses a document with more pages than the plan allows', async () => {
    await install.admin('plan', 'create', '--id', 'short', '--name', 'Short', '--max-pages-per-document', '2');
    const short = await install.workspace({ plan: 'short' });
    const response = await new Client(apiOnly.url, short.test).upload([['file', 'three.pdf', await textPdf([['1'], ['2'], ['3']])]]);
    await expectDetails(response, ['file']);
  });

  it('refuses malformed upload forms', async () => {
    const c = client();
    await expectDetails(await c.upload([]), ['file']);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], '{not json'), ['options']);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf], ['files[]', 'b.pdf', pdf]]), ['file']);
    await expectDetails(await c.upload(Array.from({ length: 11 }, (_, i) => ['files[]', `${i}.pdf`, pdf] as [string, string, Uint8Array])), ['files[]']);
    await expectDetails(await c.upload([['file', 'a.pdf', pdf]], undefined, { url: 'https://example.com/a.pdf' }), ['url']);
    await expectDetails(await c.upload([['document', 'a.pdf', pdf]]), ['document', 'file']);
  });

  it('refuses malformed URL requests, bad JSON and a wrong content type (docs/decisions.md#errors)', async () => {
    const c = client();
    await expectDetails(await c.request('POST', '/api/v1/documents', { json: {} }), ['url']);
    await expectDetails(await c.request('POST', '/api/v1/documents', { json: { url: 'not a url' } }), ['url']);
    await expectDetails(await c.request('POST', '/api/v1/documents', { json: { url: 'ftp://example.com/a.pdf' } }), ['url']);
    await expectDetails(await c.request('POST', '/api/v1/documents', { json: { url: `https://example.com/${'a'.repeat(8200)}` } }), ['url']);
    await expectDetails(await c.request('POST', '/api/v1/documents', { json: { url: 'https://example.com/a.pdf', extra: 1 } }), ['extra']);
    await expectDetails(await c.request('POST', '/api/v1/documents', { json: { url: 'https://example.com/a.pdf', options: { model: 'huge' } } }), ['options.model']);
    await expectDetails(await c.request('POST', '/api/v1/documents', { body: '{"url": ', headers: { 'content-type': 'application/json' } }), ['body']);
    await expectDetails(await c.request('POST', '/api/v1/documents', { body: 'hello', headers: { 'content-type': 'text/plain' } }), ['body']);
  });

  it('refuses unknown include values, and tables or key_values without pages', async () => {
    const c = client();
    const { json } = await c.upload([['file', 'a.pdf', pdf]]);
    await expectDetails(await c.get(`/api/v1/documents/${json.id}?include=text,everything`), ['include']);
    await expectDetails(await c.get(`/api/v1/documents/${json.id}?include=tables`), ['include']);
    await expectDetails(await c.get('/api/v1/usage?since=yesterday'), ['since']);
  });
});

describe('OpenAPI (docs/decisions.md#beyond-the-spec)', () => {
  it('describes every endpoint as OpenAPI 3.1', async () => {
    const { status, json } = await new Client(server.url, null).get('/api/v1/openapi.json');
    expect(status).toBe(200);
    expect(json.openapi).toBe('3.1.0');
    // The package's name, as package.json has it, and where its client is imported from.
    const { name } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
    expect(json.info.description).toContain(`npm package ${name} `);
    expect(json.info.description).toContain(`'${name}/client'`);
    expect(Object.keys(json.paths).sort()).toEqual(
      [
        '/api/v1/account',
        '/api/v1/documents',
        '/api/v1/documents/{id}',
        '/api/v1/documents/{id}/images',
        '/api/v1/documents/{id}/images/{image_id}',
        '/api/v1/documents/{id}/pages',
        '/api/v1/documents/{id}/pages/{page}/preview',
        '/api/v1/documents/{id}/chunks',
        '/api/v1/documents/{id}/queries',
        '/api/v1/documents/{id}/queries/{query_id}',
        '/api/v1/usage',
        '/api/v1/webhooks',
        '/api/v1/webhooks/{id}',
        '/api/v1/webhooks/{id}/deliveries',
      ].sort(),
    );
    expect(json.paths['/api/v1/documents/{id}/chunks'].get.responses['200']).toBeDefined();
    expect(json.paths['/api/v1/webhooks'].post.responses['201']).toBeDefined();
    expect(json.paths['/api/v1/documents/{id}/queries'].post.responses['202']).toBeDefined();
    const post = json.paths['/api/v1/documents'].post;
    expect(Object.keys(post.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(post.responses['202']).toBeDefined();
    expect(post.responses['415']).toBeDefined();
  });
});
