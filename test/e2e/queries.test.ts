// Questions asked after submission (docs/decisions.md#queries; docs/api.md Query, QueryAnswer, docs/decisions.md#money): created on a
// completed document, answered by a worker with the built-in provider, each answer cited with
// words of its page; charged with stage `query` and the query's id; refused before the document
// is done; a question the credit cannot cover is accepted and fails; DELETE waits for queries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { expectMoneyKept } from '../helpers/money.js';
import { invoicePdf, textPdf } from '../helpers/pdfs.js';

let install: Installation;
let server: Server;
let live: Client;
let test: Client;
let invoice: Uint8Array;
let ws: { id: string; live: string; test: string };
const CREDITS = 10_000_000;

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  ws = await install.workspace({ credits: CREDITS });
  live = new Client(server.url, ws.live);
  test = new Client(server.url, ws.test);
  invoice = await textPdf([
    ['INVOICE', 'Northwind Traders GmbH', 'Invoice number: INV-7', 'Invoice date: 3 June 2024', 'Bill to: Contoso Ltd', 'Total due: EUR 310.00'],
    ['Terms', 'Payment is due within 14 days of the invoice date.'],
  ]);
});

afterAll(async () => {
  await server?.stop();
  await install?.destroy();
});

async function completedDocument(client: Client, bytes = invoice): Promise<string> {
  const id = (await client.upload([['file', 'invoice.pdf', bytes]])).json.id;
  expect((await client.waitFor(id)).status).toBe('completed');
  return id;
}

async function waitForQuery(client: Client, documentId: string, queryId: string): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { status, json } = await client.get(`/api/v1/documents/${documentId}/queries/${queryId}`);
    expect(status).toBe(200);
    if (json.status === 'completed' || json.status === 'failed') return json;
    if (Date.now() > deadline) throw new Error(`query still ${json.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const squash = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim();

describe('queries (docs/decisions.md#queries)', () => {
  it('answers a question with a citation on the right page, charges it as a query, and lists it', async () => {
    const documentId = await completedDocument(live);
    const created = await live.request('POST', `/api/v1/documents/${documentId}/queries`, { json: { question: 'Within how many days is payment due?' } });
    expect(created.status).toBe(202);
    expect(created.json).toMatchObject({ object: 'query', document_id: documentId, question: 'Within how many days is payment due?', status: 'queued', model: { requested: 'auto' } });
    expect(created.json.id).toMatch(/^qry_/);
    expect(created.json.cost.estimated_micro).toBeGreaterThan(0);

    const done = await waitForQuery(live, documentId, created.json.id);
    expect(done).toMatchObject({ status: 'completed', model: { used: 'svc-swift-1' }, answer: { not_found: false } });
    expect(done.answer.answer).toBe('14');
    expect(done.answer.citations[0].page).toBe(2);
    const pages = (await live.get(`/api/v1/documents/${documentId}/pages`)).json.data;
    expect(squash(pages[1].text)).toContain(squash(done.answer.citations[0].quote));
    expect(done.completed_at).toEqual(expect.any(String));

    const usage = (await live.get(`/api/v1/documents/${documentId}?include=usage`)).json.usage;
    const queryRecords = usage.records.filter((r: any) => r.stage === 'query');
    expect(queryRecords.map((r: any) => r.sku).sort()).toEqual(['swift.input', 'swift.output']);
    for (const record of queryRecords) expect(record.query_id).toBe(done.id);
    expect(done.cost.settled_micro).toBe(queryRecords.reduce((sum: number, r: any) => sum + r.amount_micro, 0));
    // The document's usage total covers its queries (docs/api.md `usage.amount_micro`).
    expect(usage.amount_micro).toBe(usage.records.reduce((sum: number, r: any) => sum + r.amount_micro, 0));

    const list = (await live.get(`/api/v1/documents/${documentId}/queries`)).json;
    expect(list).toMatchObject({ object: 'list', has_more: false });
    expect(list.data.map((q: any) => q.id)).toEqual([done.id]);
    await expectMoneyKept(install, ws, server.url, CREDITS);
  });

  it('says not found, with an empty answer, when the document does not answer', async () => {
    const documentId = await completedDocument(test);
    const id = (await test.request('POST', `/api/v1/documents/${documentId}/queries`, { json: { question: 'What is the capital of Mongolia?' } })).json.id;
    const done = await waitForQuery(test, documentId, id);
    expect(done).toMatchObject({ status: 'completed', answer: { answer: '', not_found: true, citations: [] }, cost: { estimated_micro: 0, settled_micro: 0 } });
  });

  it('answers from the words that answer, not from a date printed beside them, asked later or at submission (issue 22)', async () => {
    // The invoice date and the payment terms are read into one passage; the terms answer.
    const terms = await invoicePdf();
    const documentId = await completedDocument(test, terms);
    const page = squash((await test.get(`/api/v1/documents/${documentId}/pages`)).json.data[0].text);
    const asked = async (question: string) => {
      const id = (await test.request('POST', `/api/v1/documents/${documentId}/queries`, { json: { question } })).json.id;
      return (await waitForQuery(test, documentId, id)).answer;
    };
    const due = await asked('When is payment due?');
    expect(due).toMatchObject({ answer: 'within 30 days of the invoice date', not_found: false, citations: [{ page: 1 }] });
    expect(due.citations[0].quote).toContain('Payment is due within 30 days');
    expect(page).toContain(squash(due.citations[0].quote));
    expect(await asked('What is the invoice date?')).toMatchObject({ answer: 'March 14, 2024', not_found: false });
    expect(await asked('When was the contract terminated?')).toMatchObject({ answer: '', not_found: true, citations: [] });

    const accepted = await test.upload([['file', 'invoice.pdf', terms]], { queries: ['When is payment due?', 'What is the total amount?'] });
    expect(accepted.status).toBe(202);
    const doc = await test.waitFor(accepted.json.id);
    expect(doc.status).toBe('completed');
    expect(doc.result.answers).toEqual([
      expect.objectContaining({ question: 'When is payment due?', answer: 'within 30 days of the invoice date', page: 1, not_found: false }),
      expect.objectContaining({ question: 'What is the total amount?', answer: '$1,440.00', page: 1, not_found: false }),
    ]);
    expect(doc.result.warnings ?? []).toEqual([]);
  });

  it('honours Idempotency-Key: the same question asked twice with one key is one query, held and charged once', async () => {
    const documentId = await completedDocument(live);
    const ask = (question: string, key = 'ask-once') =>
      live.request('POST', `/api/v1/documents/${documentId}/queries`, { json: { question }, headers: { 'idempotency-key': key } });
    const first = await ask('Who is billed?');
    expect(first.status).toBe(202);
    const again = await ask('Who is billed?');
    expect(again.status).toBe(202);
    expect(again.json.id).toBe(first.json.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // The key with another question is refused (docs/decisions.md: same key and body).
    const other = await ask('What is the total?');
    expect(other.status).toBe(422);
    expect(other.json.error.details['Idempotency-Key']).toBeDefined();
    expect((await waitForQuery(live, documentId, first.json.id)).status).toBe('completed');
    const listed = (await live.get(`/api/v1/documents/${documentId}/queries`)).json.data;
    expect(listed.map((q: any) => q.id)).toEqual([first.json.id]);
    const usage = (await live.get(`/api/v1/documents/${documentId}?include=usage`)).json.usage.records;
    expect(new Set(usage.filter((r: any) => r.stage === 'query').map((r: any) => r.query_id))).toEqual(new Set([first.json.id]));
    await expectMoneyKept(install, ws, server.url, CREDITS);
  });

  it('follows a schema sent with the question', async () => {
    const documentId = await completedDocument(test);
    const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, total_due: { type: 'number' } } };
    const id = (await test.request('POST', `/api/v1/documents/${documentId}/queries`, { json: { question: 'What are the invoice number and total?', schema } })).json.id;
    const done = await waitForQuery(test, documentId, id);
    expect(done).toMatchObject({ status: 'completed', schema, answer: { not_found: false, answer: { invoice_number: 'INV-7', total_due: 310 } } });
  });

  it('refuses bad questions, unknown documents and documents that are not done', async () => {
    const documentId = await completedDocument(test);
    const empty = await test.request('POST', `/api/v1/documents/${documentId}/queries`, { json: { question: '' } });
    expect(empty.status).toBe(422);
    expect(empty.json.error.type).toBe('invalid_request');
    const long = await test.request('POST', `/api/v1/documents/${documentId}/queries`, { json: { question: 'x'.repeat(2001) } });
    expect(long.status).toBe(422);
    const badSchema = await test.request('POST', `/api/v1/documents/${documentId}/queries`, { json: { question: 'Total?', schema: { type: 'array' } } });
    expect(badSchema.status).toBe(422);
    expect(badSchema.json.error.details.schema).toBeDefined();
    expect((await test.request('POST', '/api/v1/documents/doc_missing/queries', { json: { question: 'Total?' } })).status).toBe(404);
    // Another mode's key does not see the document.
    expect((await live.request('POST', `/api/v1/documents/${documentId}/queries`, { json: { question: 'Total?' } })).status).toBe(404);
    expect((await test.get(`/api/v1/documents/${documentId}/queries/qry_missing`)).status).toBe(404);

    const slow = (await test.upload([['file', 'big.pdf', await textPdf(Array.from({ length: 60 }, (_, i) => [`Page ${i + 1}`]))]])).json.id;
    const early = await test.request('POST', `/api/v1/documents/${slow}/queries`, { json: { question: 'Total?' } });
    if (early.status === 409) {
      expect(early.json.error).toMatchObject({ type: 'document_not_ready', status: expect.stringMatching(/queued|processing/) });
    } else {
      // The document finished first on a fast machine; the question was then accepted.
      expect(early.status).toBe(202);
    }
    await test.waitFor(slow);
  });

  it('accepts a question the credit cannot cover, then fails it with insufficient_credits and charges nothing', async () => {
    const poorWs = await install.workspace({ credits: 30_000 });
    const poor = new Client(server.url, poorWs.live);
    // One page (25,000) leaves 5,000: some credit, less than the question's estimate.
    const documentId = await completedDocument(poor, await textPdf([['Payment is due within 14 days.']]));
    const account = (await poor.get('/api/v1/account')).json;
    expect(account.credits.available_micro).toBeGreaterThan(0);
    const created = await poor.request('POST', `/api/v1/documents/${documentId}/queries`, { json: { question: 'Within how many days is payment due?' } });
    expect(created.status).toBe(202);
    const done = await waitForQuery(poor, documentId, created.json.id);
    expect(done).toMatchObject({ status: 'failed', error: { type: 'insufficient_credits' }, cost: { settled_micro: 0 } });
    expect((await poor.get('/api/v1/account')).json.credits.available_micro).toBe(account.credits.available_micro);
    await expectMoneyKept(install, poorWs, server.url, 30_000);
  });

  it('DELETE of the document answers 409 conflict while a query waits, and works once it is done', async () => {
    const documentId = await completedDocument(test);
    // Stop the workers so the query stays queued.
    await server.stop();
    server = await install.start(['--no-workers']);
    test = new Client(server.url, test.key);
    live = new Client(server.url, live.key);
    const id = (await test.request('POST', `/api/v1/documents/${documentId}/queries`, { json: { question: 'Total due?' } })).json.id;
    const refused = await test.request('DELETE', `/api/v1/documents/${documentId}`);
    expect(refused.status).toBe(409);
    expect(refused.json.error.type).toBe('conflict');
    await server.stop();
    server = await install.start();
    test = new Client(server.url, test.key);
    live = new Client(server.url, live.key);
    await waitForQuery(test, documentId, id);
    expect((await test.request('DELETE', `/api/v1/documents/${documentId}`)).status).toBe(204);
    expect((await test.get(`/api/v1/documents/${documentId}/queries/${id}`)).status).toBe(404);
    // The deleted document's usage records are kept, and the credit still adds up.
    await expectMoneyKept(install, ws, server.url, CREDITS);
  });
});
