// The HTTP model providers (issue 8 scope 4, docs/api.md ExtractionResult and picture rule 6, docs/decisions.md#test-mode,
// docs/decisions.md#queries) against a local server speaking each vendor's documented format: OpenAI-compatible chat
// completions with JSON-schema output and Anthropic Messages with a forced tool call. Requests
// carry the pages, the pictures in place and the configured model names; rate limits and
// timeouts are retried; quotes the page does not bear out are dropped with a warning; a final
// failure is processing_failed on the document and query_failed on a query; test keys never
// reach the vendor.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { ModelVendor } from '../helpers/model-vendor.js';
import { invoicePdf, pdfWithFigure, textPdf } from '../helpers/pdfs.js';

const INVOICE = ['INVOICE', 'Northwind Traders GmbH', 'Invoice number: INV-2024-0042', 'Bill to: Contoso Ltd', 'Total due: EUR 1,428.00'];
const SCHEMA = { type: 'object', properties: { invoice_number: { type: 'string' }, total_due: { type: 'number' } } };

let vendor: ModelVendor;
const installs: Installation[] = [];
const servers: Server[] = [];

async function folioWith(env: NodeJS.ProcessEnv): Promise<{ live: Client; test: Client; server: Server; install: Installation }> {
  const install = await Installation.create({
    FOLIO_MODEL_API_KEY: 'sk-mock',
    FOLIO_MODEL_SWIFT: 'mock-small',
    FOLIO_MODEL_SUMMIT: 'mock-large',
    FOLIO_MODEL_RETRIES: '3',
    FOLIO_MODEL_RETRY_BASE_MS: '20',
    FOLIO_MODEL_TIMEOUT_MS: '1500',
    ...env,
  });
  installs.push(install);
  const server = await install.start();
  servers.push(server);
  const ws = await install.workspace({ credits: 50_000_000 });
  return { live: new Client(server.url, ws.live), test: new Client(server.url, ws.test), server, install };
}

let openai: Awaited<ReturnType<typeof folioWith>>;
let anthropic: Awaited<ReturnType<typeof folioWith>>;
let invoice: Uint8Array;

/** Blobs stored under a document's pictures, wherever the installation keeps blobs. */
async function pictureBlobs(install: Installation, documentId: string): Promise<number> {
  if (install.env.DATABASE_URL) {
    const found = await install.database((db) => db.query(`SELECT count(DISTINCT key)::int AS n FROM blob_chunks WHERE key LIKE $1`, [`images/${documentId}/%`]));
    return found.rows[0].n;
  }
  return (await readdir(path.join(install.dataDir, 'blobs', 'images', documentId)).catch(() => [])).length;
}

beforeAll(async () => {
  vendor = await ModelVendor.start();
  [openai, anthropic] = await Promise.all([
    folioWith({ FOLIO_MODEL_PROVIDER: 'openai', FOLIO_MODEL_BASE_URL: `${vendor.url}/v1` }),
    folioWith({ FOLIO_MODEL_PROVIDER: 'anthropic', FOLIO_MODEL_BASE_URL: vendor.url }),
  ]);
  invoice = await textPdf([INVOICE]);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(installs.map((i) => i.destroy()));
  await vendor?.stop();
});

/** A reply as a good model writes it, plus one value whose quote is not on the page. */
const invoiceReply = () => ({
  data: { invoice_number: 'INV-2024-0042', total_due: 1428, title: 'Invoice from the Moon' },
  citations: [
    { path: 'data.invoice_number', page: 1, quote: 'Invoice number: INV-2024-0042', confidence: 0.95 },
    { path: 'data.total_due', page: 1, quote: 'Total due: EUR 1,428.00', confidence: 0.9 },
    { path: 'data.title', page: 1, quote: 'Invoice from the Moon', confidence: 0.5 },
  ],
  answers: [{ answer: 'EUR 1,428.00', not_found: false, confidence: 0.9, citations: [{ page: 1, quote: 'Total due: EUR 1,428.00' }] }],
});

async function usageOf(client: Client, id: string): Promise<any[]> {
  return (await client.get(`/api/v1/documents/${id}?include=usage`)).json.usage.records;
}

describe('OpenAI-compatible provider', () => {
  it('sends the pages and the reply schema, waits out a 429, keeps grounded values and drops the rest', async () => {
    vendor.reset();
    vendor.script({ kind: 'error', status: 429, retryAfter: '0', message: 'Rate limit reached' }, { kind: 'reply', answer: invoiceReply, outputTokens: 321 });
    const accepted = await openai.live.upload([['file', 'invoice.pdf', invoice]], {
      extraction: { fields: ['title'], schema: SCHEMA },
      queries: ['What is the total due?'],
    });
    const doc = await openai.live.waitFor(accepted.json.id);
    expect(doc).toMatchObject({ status: 'completed', model: { used: 'svc-swift-1' } });
    expect(doc.result.data).toEqual({ invoice_number: 'INV-2024-0042', total_due: 1428 });
    expect(doc.result.citations.map((c: any) => c.path).sort()).toEqual(['data.invoice_number', 'data.total_due']);
    expect(doc.result.warnings).toEqual([expect.stringMatching(/^1 value was left out/)]);
    expect(doc.result.answers).toEqual([expect.objectContaining({ question: 'What is the total due?', answer: 'EUR 1,428.00', page: 1, not_found: false })]);

    expect(vendor.requests).toHaveLength(2);
    const request = vendor.requests[1];
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-mock');
    expect(request.body).toMatchObject({ model: 'mock-small', max_completion_tokens: 4096, response_format: { type: 'json_schema' } });
    expect(request.body.messages[0].role).toBe('system');
    expect(Object.keys(request.body.response_format.json_schema.schema.properties.data.properties).sort()).toEqual(['invoice_number', 'title', 'total_due']);
    expect(request.text).toContain('=== Page 1 ===');
    expect(request.text).toContain('Invoice number: INV-2024-0042');
    expect(request.text).toContain('What is the total due?');

    // Output is what the vendor says it wrote; input is Folio's own count (README).
    const records = await usageOf(openai.live, doc.id);
    expect(records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ stage: 'extraction', sku: 'swift.output', quantity: 321 }),
        expect.objectContaining({ stage: 'extraction', sku: 'swift.input', quantity: expect.any(Number) }),
      ]),
    );
  });

  it('fails the document with processing_failed at extracting when the vendor keeps failing, charging only the pages', async () => {
    vendor.reset();
    vendor.fallback = { kind: 'error', status: 503, message: 'The server is overloaded' };
    const doc = await openai.live.waitFor((await openai.live.upload([['file', 'invoice.pdf', invoice]], { extraction: { schema: SCHEMA } })).json.id);
    vendor.fallback = { kind: 'error', status: 500, message: 'no step scripted' };
    expect(doc).toMatchObject({ status: 'failed', error: { type: 'processing_failed', stage: 'extracting' } });
    // Folio says what happened; the vendor's own words stay in the log, under the document id.
    expect(doc.error.message).toContain('answered 503');
    expect(doc.error.message).not.toContain('The server is overloaded');
    await openai.server.logLine([doc.id, 'The server is overloaded']);
    // The first attempt and three more (FOLIO_MODEL_RETRIES=3).
    expect(vendor.requests).toHaveLength(4);
    expect((await usageOf(openai.live, doc.id)).map((r: any) => r.sku)).toEqual(['pages.layout']);
    // Its page picture was stored at rendering, before extracting failed, and is removed again.
    expect(doc.timings.rendering_ms).toEqual(expect.any(Number));
    expect(await pictureBlobs(openai.install, doc.id)).toBe(0);
  });

  it('gives up at once on a request the vendor refuses for good (401), and retries a request that times out', async () => {
    vendor.reset();
    vendor.script({ kind: 'error', status: 401, message: 'Incorrect API key provided' });
    const refused = await openai.live.waitFor((await openai.live.upload([['file', 'invoice.pdf', invoice]], { extraction: { schema: SCHEMA } })).json.id);
    expect(refused).toMatchObject({ status: 'failed', error: { type: 'processing_failed' } });
    expect(refused.error.message).toMatch(/answered 401 \(the API key set for it was refused\)/);
    expect(refused.error.message).not.toContain('Incorrect API key provided');
    await openai.server.logLine([refused.id, 'Incorrect API key provided']);
    expect(vendor.requests).toHaveLength(1);

    vendor.reset();
    vendor.script({ kind: 'hang', ms: 3_000 }, { kind: 'reply', answer: invoiceReply });
    const slow = await openai.live.waitFor((await openai.live.upload([['file', 'invoice.pdf', invoice]], { extraction: { schema: SCHEMA } })).json.id);
    expect(slow).toMatchObject({ status: 'completed', result: { data: { invoice_number: 'INV-2024-0042' } } });
    expect(vendor.requests).toHaveLength(2);
  });

  it("holds the vendor's answers to their quotes: an answer stating a date the cited words do not hold is not found (issue 22)", async () => {
    const terms = await invoicePdf();
    const TERMS = 'Payment is due within 30 days of the invoice date.';
    // A due date the document never prints, worked out and cited to the terms, whose words it
    // mostly repeats; then the terms as they stand.
    const reply = (answer: string) => () => ({ data: {}, citations: [], answers: [{ answer, not_found: false, confidence: 0.9, citations: [{ page: 1, quote: TERMS }] }] });
    vendor.reset();
    vendor.script({ kind: 'reply', answer: reply('Within 30 days of the invoice date, by April 13, 2024.') }, { kind: 'reply', answer: reply('Within 30 days of the invoice date.') });
    const doc = await openai.live.waitFor((await openai.live.upload([['file', 'invoice.pdf', terms]], { queries: ['When is payment due?'] })).json.id);
    expect(doc.status).toBe('completed');
    expect(doc.result.answers).toEqual([expect.objectContaining({ question: 'When is payment due?', answer: '', quote: '', not_found: true })]);
    expect(doc.result.warnings).toEqual([expect.stringMatching(/^1 value was left out/)]);

    const asked = await openai.live.request('POST', `/api/v1/documents/${doc.id}/queries`, { json: { question: 'When is payment due?' } });
    const answered = await waitForQuery(openai.live, doc.id, asked.json.id);
    expect(answered).toMatchObject({ status: 'completed', answer: { answer: 'Within 30 days of the invoice date.', not_found: false, citations: [{ page: 1, quote: TERMS }] } });
    expect(vendor.requests).toHaveLength(2);
  });

  it('answers test keys with the built-in engine and never calls the vendor (docs/decisions.md#test-mode)', async () => {
    vendor.reset();
    const doc = await openai.test.waitFor((await openai.test.upload([['file', 'invoice.pdf', invoice]], { extraction: { schema: SCHEMA } })).json.id);
    expect(doc).toMatchObject({ status: 'completed', result: { data: { invoice_number: 'INV-2024-0042' } } });
    expect(vendor.requests).toHaveLength(0);
  });
});

describe('Anthropic provider', () => {
  it('forces the report tool, shows the figure in place, and bills its pictures as input tokens', async () => {
    vendor.reset();
    vendor.script({
      kind: 'reply',
      answer: () => ({
        data: { title: 'Quarterly report' },
        citations: [{ path: 'data.title', page: 1, quote: 'Quarterly report', confidence: 0.9 }],
        answers: [],
      }),
      outputTokens: 40,
    });
    const doc = await anthropic.live.waitFor((await anthropic.live.upload([['file', 'report.pdf', await pdfWithFigure()]], { extraction: { fields: ['title'] } })).json.id);
    expect(doc).toMatchObject({ status: 'completed', result: { data: { title: 'Quarterly report' } } });
    expect(vendor.requests).toHaveLength(1);
    const request = vendor.requests[0];
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('sk-mock');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.body).toMatchObject({ model: 'mock-small', max_tokens: 4096, tool_choice: { type: 'tool', name: 'report' } });
    expect(request.body.tools[0].input_schema.properties.data.properties).toHaveProperty('title');
    // The figure travels as a PNG after its page's text, introduced with its caption.
    expect(request.images).toHaveLength(1);
    expect(request.images[0].mediaType).toBe('image/png');
    expect(request.images[0].bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(request.text).toContain('Monthly revenue by region');

    const images = (await anthropic.live.get(`/api/v1/documents/${doc.id}/images`)).json.data;
    const pictureTokens = images.reduce((sum: number, i: any) => sum + Math.min(1600, Math.ceil((i.width * i.height) / 750)), 0);
    const input = (await usageOf(anthropic.live, doc.id)).find((r: any) => r.sku === 'swift.input');
    expect(pictureTokens).toBeGreaterThan(0);
    expect(input.quantity).toBeGreaterThan(pictureTokens);
  });

  it('answers a query through the vendor, and fails it with query_failed when the vendor keeps failing', async () => {
    vendor.reset();
    const liveId = (await anthropic.live.upload([['file', 'invoice.pdf', invoice]])).json.id;
    expect((await anthropic.live.waitFor(liveId)).status).toBe('completed');
    // Without extraction or questions at submission the model does not run.
    expect(vendor.requests).toHaveLength(0);

    vendor.script({
      kind: 'reply',
      answer: () => ({ data: {}, citations: [], answers: [{ answer: 'Contoso Ltd', not_found: false, confidence: 0.8, citations: [{ page: 1, quote: 'Bill to: Contoso Ltd' }] }] }),
    });
    const asked = await anthropic.live.request('POST', `/api/v1/documents/${liveId}/queries`, { json: { question: 'Who is billed?' } });
    expect(asked.status).toBe(202);
    const answered = await waitForQuery(anthropic.live, liveId, asked.json.id);
    expect(answered).toMatchObject({ status: 'completed', answer: { answer: 'Contoso Ltd', not_found: false, citations: [{ page: 1, quote: 'Bill to: Contoso Ltd' }] } });
    expect(vendor.requests[0].text).toContain('Who is billed?');

    vendor.reset();
    vendor.fallback = { kind: 'error', status: 529, message: 'Overloaded' };
    const failing = await anthropic.live.request('POST', `/api/v1/documents/${liveId}/queries`, { json: { question: 'When is payment due?' } });
    const failed = await waitForQuery(anthropic.live, liveId, failing.json.id);
    vendor.fallback = { kind: 'error', status: 500, message: 'no step scripted' };
    expect(failed).toMatchObject({ status: 'failed', error: { type: 'query_failed' } });
    expect(failed.error.message).toContain('answered 529');
    expect(failed.error.message).not.toContain('Overloaded');
    await anthropic.server.logLine([failing.json.id, 'Overloaded']);
    expect(vendor.requests).toHaveLength(4);
    const records = await usageOf(anthropic.live, liveId);
    expect(records.filter((r: any) => r.query_id === failing.json.id)).toEqual([]);
  });
});

async function waitForQuery(client: Client, documentId: string, queryId: string): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { json } = await client.get(`/api/v1/documents/${documentId}/queries/${queryId}`);
    if (json.status === 'completed' || json.status === 'failed') return json;
    if (Date.now() > deadline) throw new Error(`query still ${json.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
