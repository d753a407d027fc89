// Page embeddings (issue 9; docs/api.md EmbeddingOptions, Page.embedding, Limits, docs/decisions.md#test-mode, docs/decisions.md#money): one vector
// per page of the chosen length, only through GET /pages?include=embeddings; the built-in
// embedding is deterministic and its 512 and 256 vectors are the 1024 one folded; tokens are
// charged as embedding.input; each chunk of the default cut has a vector too (issue 26), read
// through GET /chunks?include=embeddings and charged the same way; an OpenAI-compatible server is asked with `dimensions`, and one
// that fails or ignores `dimensions` fails the document with embedding_failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { ModelVendor } from '../helpers/model-vendor.js';
import { textPdf } from '../helpers/pdfs.js';

const PAGES = [
  ['Invoice', 'Invoice number 7 for consulting services delivered in March.', 'The invoice total is due within 30 days.'],
  ['Invoices', 'All invoices are payable by bank transfer; invoices list the services delivered.'],
  ['Photosynthesis', 'Green plants turn sunlight, water and carbon dioxide into sugar and oxygen.'],
];

let vendor: ModelVendor;
const installs: Installation[] = [];
const servers: Server[] = [];
let live: Client;
let test: Client;
let remote: Client;
let remoteServer: Server;
let pdf: Uint8Array;

async function start(env: NodeJS.ProcessEnv = {}): Promise<{ live: Client; test: Client; server: Server }> {
  const install = await Installation.create(env);
  installs.push(install);
  const server = await install.start();
  servers.push(server);
  const ws = await install.workspace({ credits: 10_000_000 });
  return { live: new Client(server.url, ws.live), test: new Client(server.url, ws.test), server };
}

beforeAll(async () => {
  vendor = await ModelVendor.start();
  const [local, openai] = await Promise.all([
    start(),
    start({
      FOLIO_EMBEDDING_PROVIDER: 'openai',
      FOLIO_EMBEDDING_BASE_URL: `${vendor.url}/v1`,
      FOLIO_EMBEDDING_API_KEY: 'sk-embed',
      FOLIO_EMBEDDING_MODEL: 'mock-embed-3',
      FOLIO_MODEL_RETRIES: '2',
      FOLIO_MODEL_RETRY_BASE_MS: '10',
    }),
  ]);
  ({ live, test } = local);
  remote = openai.live;
  remoteServer = openai.server;
  pdf = await textPdf(PAGES);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(installs.map((i) => i.destroy()));
  await vendor?.stop();
});

async function embedded(client: Client, embeddings: unknown, bytes = pdf): Promise<{ doc: any; pages: any[] }> {
  const doc = await client.waitFor((await client.upload([['file', 'doc.pdf', bytes]], { embeddings })).json.id);
  expect(doc.status).toBe('completed');
  const pages = await client.get(`/api/v1/documents/${doc.id}/pages?include=embeddings`);
  expect(pages.status).toBe(200);
  return { doc, pages: pages.json.data };
}

const dot = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + v * b[i], 0);
const norm = (a: number[]) => Math.sqrt(dot(a, a));

/** What a client can do with a 1024 vector to get the 256 one: fold and make unit length. */
function fold(vector: number[], dimensions: number): number[] {
  const out = new Array(dimensions).fill(0);
  vector.forEach((v, i) => (out[i % dimensions] += v));
  const length = norm(out);
  return out.map((v) => v / length);
}

describe('page embeddings with the built-in provider', () => {
  it('gives every page and every chunk a unit vector of 1024 numbers, charged as embedding.input tokens of their texts', async () => {
    const { doc, pages } = await embedded(live, true);
    expect(pages).toHaveLength(3);
    for (const page of pages) {
      expect(page.embedding).toMatchObject({ model: 'folio-hashed-ngrams-1', dimensions: 1024 });
      expect(page.embedding.vector).toHaveLength(1024);
      expect(norm(page.embedding.vector)).toBeCloseTo(1, 4);
    }
    // Pages that share words (and parts of words) are closer than a page about something else.
    const [invoice, invoices, plants] = pages.map((p: any) => p.embedding.vector);
    expect(dot(invoice, invoices)).toBeGreaterThan(dot(invoice, plants) + 0.1);

    const chunks = (await live.get(`/api/v1/documents/${doc.id}/chunks?include=embeddings`)).json.data;
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) {
      expect(chunk.embedding).toMatchObject({ model: 'folio-hashed-ngrams-1', dimensions: 1024 });
      expect(norm(chunk.embedding.vector)).toBeCloseTo(1, 4);
    }
    // A chunk's vector is made from its own text: a chunk that is a whole page has that page's vector.
    const single = await embedded(live, true, await textPdf([['Invoice number 7 for consulting services delivered in March.']]));
    const [only] = (await live.get(`/api/v1/documents/${single.doc.id}/chunks?include=embeddings`)).json.data;
    expect(only.text).toBe(single.pages[0].text);
    expect(only.embedding.vector).toEqual(single.pages[0].embedding.vector);
    expect(chunks[0].embedding.vector).not.toEqual(only.embedding.vector);

    const usage = (await live.get(`/api/v1/documents/${doc.id}?include=usage`)).json.usage;
    const record = usage.records.find((r: any) => r.sku === 'embedding.input');
    const texts = (await live.get(`/api/v1/documents/${doc.id}/pages`)).json.data.map((p: any) => p.text as string);
    const tokens = (list: string[]) => list.reduce((sum: number, t: string) => sum + Math.ceil(t.length / 4), 0);
    expect(record).toMatchObject({ stage: 'embedding', model: 'folio-hashed-ngrams-1', quantity: tokens(texts) + tokens(chunks.map((c: any) => c.text)) });
    expect(record.amount_micro).toBe(Math.ceil((record.quantity * 20_000) / 1_000_000));
    expect(doc.cost.settled_micro).toBe(3 * 25_000 + record.amount_micro);

    // Vectors come only from the pages and chunks endpoints, and only when asked for; chunk
    // vectors only for the default cut.
    const plain = (await live.get(`/api/v1/documents/${doc.id}/pages`)).json.data;
    expect(plain[0]).not.toHaveProperty('embedding');
    expect((await live.get(`/api/v1/documents/${doc.id}/chunks`)).json.data[0]).not.toHaveProperty('embedding');
    expect((await live.get(`/api/v1/documents/${doc.id}?include=embeddings`)).status).toBe(422);
    const otherCut = await live.get(`/api/v1/documents/${doc.id}/chunks?max_tokens=128&include=embeddings`);
    expect(otherCut.status).toBe(422);
    expect(otherCut.json.error.details).toHaveProperty('include');
  });

  it('256 and 512 are the 1024 vector folded, and the same document gives the same vectors, free, in test mode (docs/decisions.md#test-mode)', async () => {
    const full = (await embedded(test, { dimensions: 1024 })).pages;
    const small = (await embedded(test, { dimensions: 256, granularity: 'page' })).pages;
    const middle = (await embedded(test, { dimensions: 512 })).pages;
    for (let i = 0; i < full.length; i++) {
      expect(small[i].embedding.dimensions).toBe(256);
      expect(small[i].embedding.vector).toHaveLength(256);
      expect(middle[i].embedding.vector).toHaveLength(512);
      fold(full[i].embedding.vector, 256).forEach((v, k) => expect(v).toBeCloseTo(small[i].embedding.vector[k], 5));
      fold(middle[i].embedding.vector, 256).forEach((v, k) => expect(v).toBeCloseTo(small[i].embedding.vector[k], 5));
    }
    const again = await embedded(test, { dimensions: 1024 });
    expect(JSON.stringify(again.pages)).toBe(JSON.stringify(full));
    const usage = (await test.get(`/api/v1/documents/${again.doc.id}?include=usage`)).json.usage;
    expect(usage.by_sku['embedding.input']).toEqual({ quantity: expect.any(Number), amount_micro: 0 });
    expect(usage.by_sku['embedding.input'].quantity).toBeGreaterThan(0);
  });

  it('refuses other dimensions and include=embeddings on a document sent without embeddings (422)', async () => {
    const refused = await live.upload([['file', 'doc.pdf', pdf]], { embeddings: { dimensions: 768 } });
    expect(refused.status).toBe(422);
    expect(refused.json.error.details).toHaveProperty(['options.embeddings.dimensions']);
    const granularity = await live.upload([['file', 'doc.pdf', pdf]], { embeddings: { granularity: 'sentence' } });
    expect(granularity.status).toBe(422);

    const doc = await live.waitFor((await live.upload([['file', 'doc.pdf', pdf]])).json.id);
    const asked = await live.get(`/api/v1/documents/${doc.id}/pages?include=embeddings`);
    expect(asked.status).toBe(422);
    expect(JSON.stringify(asked.json.error.details)).toMatch(/embeddings/);
    const chunks = await live.get(`/api/v1/documents/${doc.id}/chunks?include=embeddings`);
    expect(chunks.status).toBe(422);
    expect(JSON.stringify(chunks.json.error.details)).toMatch(/embeddings/);
  });

  it('embeds at most the first 20,000 bytes of a page', async () => {
    // Two pages that agree on their first 20,000 bytes and differ only after them.
    const line = 'Quarterly figures for the northern region grew steadily over the year. ';
    const lines = Array.from({ length: 320 }, () => line);
    const bytes = await textPdf([lines, [...lines.slice(0, 300), ...Array.from({ length: 20 }, () => 'Completely different closing words about gardening and tomatoes. ')]], { fontSize: 1 });
    const { doc, pages } = await embedded(test, true, bytes);
    const texts = (await test.get(`/api/v1/documents/${doc.id}/pages`)).json.data.map((p: any) => p.text as string);
    expect(Buffer.byteLength(texts[0])).toBeGreaterThan(20_000);
    expect(texts[1].slice(0, 20_000)).toBe(texts[0].slice(0, 20_000));
    expect(pages[0].embedding.vector).toEqual(pages[1].embedding.vector);
  });
});

describe('page embeddings from an OpenAI-compatible server', () => {
  it('asks for the chosen dimensions in batches and stores what the server returns', async () => {
    vendor.reset();
    vendor.script({ kind: 'embed' }, { kind: 'embed' });
    const { doc, pages } = await embedded(remote, { dimensions: 256 });
    // One request for the pages, one for the chunks.
    expect(vendor.requests).toHaveLength(2);
    const chunks = (await remote.get(`/api/v1/documents/${doc.id}/chunks?include=embeddings`)).json.data;
    expect(vendor.requests[1].body.input).toEqual(chunks.map((c: any) => c.text));
    expect(chunks[0].embedding).toMatchObject({ model: 'mock-embed-3', dimensions: 256 });
    const request = vendor.requests[0];
    expect(request.path).toBe('/v1/embeddings');
    expect(request.headers.authorization).toBe('Bearer sk-embed');
    expect(request.body).toMatchObject({ model: 'mock-embed-3', dimensions: 256, encoding_format: 'float' });
    expect(request.body.input).toHaveLength(3);
    expect(request.body.input[2]).toContain('Photosynthesis');
    expect(pages[2].embedding).toMatchObject({ model: 'mock-embed-3', dimensions: 256 });
    expect(pages[2].embedding.vector[0]).toBeCloseTo(Math.sin(request.body.input[2].length), 5);
    const usage = (await remote.get(`/api/v1/documents/${doc.id}?include=usage`)).json.usage;
    expect(usage.records.find((r: any) => r.sku === 'embedding.input')).toMatchObject({ stage: 'embedding', model: 'mock-embed-3' });
  });

  it('fails the document with embedding_failed when the server keeps failing or ignores dimensions, charging only the pages', async () => {
    vendor.reset();
    vendor.fallback = { kind: 'error', status: 500, message: 'embedding backend down' };
    const down = await remote.waitFor((await remote.upload([['file', 'doc.pdf', pdf]], { embeddings: true })).json.id);
    vendor.fallback = { kind: 'error', status: 500, message: 'no step scripted' };
    expect(down).toMatchObject({ status: 'failed', error: { type: 'embedding_failed', stage: 'embedding' } });
    expect(down.error.message).toContain('answered 500');
    expect(down.error.message).not.toContain('embedding backend down');
    await remoteServer.logLine([down.id, 'embedding backend down']);
    expect(vendor.requests).toHaveLength(3);
    const usage = (await remote.get(`/api/v1/documents/${down.id}?include=usage`)).json.usage;
    expect(Object.keys(usage.by_sku)).toEqual(['pages.layout']);

    vendor.reset();
    vendor.script({ kind: 'embed', length: 1536 });
    const ignored = await remote.waitFor((await remote.upload([['file', 'doc.pdf', pdf]], { embeddings: { dimensions: 512 } })).json.id);
    expect(ignored).toMatchObject({ status: 'failed', error: { type: 'embedding_failed' } });
    expect(ignored.error.message).toMatch(/1536 numbers, not the 512/);
  });
});
