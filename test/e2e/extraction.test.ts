// The model layer through the HTTP API (issue 8; docs/api.md ExtractionResult, "Model choice", docs/decisions.md#money):
// built-in fields, a JSON Schema, per-page extraction and questions at submission with the
// built-in provider; every value cited with a quote that is really on its page; tokens charged
// per SKU and held before the model runs; too long for a pinned swift fails at extracting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { longPdf, textPdf } from '../helpers/pdfs.js';

let install: Installation;
let server: Server;
let live: Client;
let test: Client;

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  const ws = await install.workspace({ credits: 50_000_000 });
  live = new Client(server.url, ws.live);
  test = new Client(server.url, ws.test);
});

afterAll(async () => {
  await server?.stop();
  await install?.destroy();
});

const INVOICE = [
  'INVOICE',
  'Northwind Traders GmbH',
  'Invoice number: INV-2024-0042',
  'Invoice date: 12 March 2024',
  'Due date: 11 April 2024',
  'Bill to: Contoso Ltd',
  'Consulting services, March 2024',
  'Subtotal: EUR 1,200.00',
  'VAT 19%: EUR 228.00',
  'Total due: EUR 1,428.00',
  'Payment is due within 30 days of the invoice date.',
];

/** Words as the grounding check compares them. */
const squash = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim();

async function pagesOf(client: Client, id: string): Promise<{ page: number; text: string; result: any }[]> {
  return (await client.get(`/api/v1/documents/${id}/pages`)).json.data;
}

describe('extraction and questions at submission (built-in provider)', () => {
  it('fills built-in fields and a schema, cites every value with words of its page, and answers questions in order', async () => {
    const accepted = await live.upload([['file', 'invoice.pdf', await textPdf([INVOICE])]], {
      extraction: {
        fields: ['title', 'dates', 'amounts', 'parties', 'summary'],
        schema: { type: 'object', properties: { invoice_number: { type: 'string', description: 'The invoice number' }, total_due: { type: 'number' } } },
      },
      queries: ['What is the total due?', 'Who signed the peace treaty of Westphalia?'],
    });
    expect(accepted.status).toBe(202);
    // The hold covers the page and the model's tokens (docs/decisions.md#money), so it is more than the page price.
    expect(accepted.json.estimated_cost_micro).toBeGreaterThan(25_000);
    const doc = await live.waitFor(accepted.json.id);
    expect(doc).toMatchObject({ status: 'completed', model: { requested: 'auto', used: 'svc-swift-1' } });
    const result = doc.result;
    expect(Object.keys(result.data).sort()).toEqual(expect.arrayContaining(['amounts', 'dates']));
    for (const key of Object.keys(result.data)) expect(['title', 'dates', 'amounts', 'parties', 'summary', 'invoice_number', 'total_due']).toContain(key);
    expect(result.data.amounts).toEqual(expect.arrayContaining([expect.objectContaining({ amount: 1428, currency: 'EUR' })]));
    expect(result.data.dates).toEqual(expect.arrayContaining([expect.objectContaining({ date: '2024-03-12' })]));
    expect(result.data.invoice_number).toBe('INV-2024-0042');
    expect(result.data.total_due).toBe(1428);
    expect(result.data.parties).toEqual(expect.arrayContaining([{ name: 'Contoso Ltd', role: 'customer' }]));
    // The customer is who the invoice is for, never who it is from.
    expect(result.data.summary).not.toMatch(/from Contoso/);

    // Every value has a citation, and every citation quotes words of its page.
    const pages = await pagesOf(live, doc.id);
    expect(result.citations.length).toBeGreaterThan(0);
    for (const citation of result.citations) {
      expect(citation.path).toMatch(/^data\./);
      expect(citation.confidence).toBeGreaterThanOrEqual(0);
      expect(citation.confidence).toBeLessThanOrEqual(1);
      expect(squash(pages[citation.page - 1].text)).toContain(squash(citation.quote));
    }

    expect(result.answers).toHaveLength(2);
    expect(result.answers[0]).toMatchObject({ question: 'What is the total due?', not_found: false, page: 1 });
    expect(result.answers[0].answer).toMatch(/1,428/);
    expect(squash(pages[0].text)).toContain(squash(result.answers[0].quote));
    expect(result.answers[1]).toMatchObject({ question: 'Who signed the peace treaty of Westphalia?', answer: '', not_found: true });
    expect(result.per_page).toBeUndefined();

    // Tokens are charged per SKU with stage `extraction`; the settled cost is the usage's sum.
    const usage = (await live.get(`/api/v1/documents/${doc.id}?include=usage`)).json.usage;
    expect(Object.keys(usage.by_sku).sort()).toEqual(['pages.layout', 'swift.input', 'swift.output']);
    const input = usage.records.find((r: any) => r.sku === 'swift.input');
    expect(input).toMatchObject({ stage: 'extraction', model: 'svc-swift-1', unit_price_micro: 1_000_000, unit_divisor: 1_000_000 });
    expect(input.amount_micro).toBe(Math.ceil(input.quantity));
    expect(usage.amount_micro).toBe(doc.cost.settled_micro);
    expect(doc.cost.settled_micro).toBeLessThanOrEqual(doc.cost.estimated_micro);
  });

  it('runs per page with per_page: each page its own data and citations, on the document and on its pages', async () => {
    const id = (
      await live.upload([['file', 'two.pdf', await textPdf([['Invoice date: 2 May 2024', 'Total: USD 50.00'], ['Invoice date: 9 May 2024', 'Total: USD 75.00']])]], {
        extraction: { fields: ['dates', 'amounts'], per_page: true },
      })
    ).json.id;
    const doc = await live.waitFor(id);
    expect(doc.status).toBe('completed');
    expect(doc.result.per_page).toBe(true);
    expect(doc.result.data).toBeUndefined();
    expect(doc.result.pages.map((p: any) => p.page)).toEqual([1, 2]);
    expect(doc.result.pages[0].data.dates).toEqual([expect.objectContaining({ date: '2024-05-02' })]);
    expect(doc.result.pages[1].data.amounts).toEqual([expect.objectContaining({ amount: 75, currency: 'USD' })]);
    const pages = await pagesOf(live, id);
    expect(pages[1].result).toEqual({ data: doc.result.pages[1].data, citations: doc.result.pages[1].citations });
    for (const page of doc.result.pages) for (const c of page.citations) expect(c.page).toBe(page.page);
  });

  it('leaves out what the document does not say, and documents without extraction keep a null result', async () => {
    const id = (await live.upload([['file', 'note.pdf', await textPdf([['A short note without money or dates.']])]], { extraction: { fields: ['amounts', 'dates'] } })).json.id;
    const doc = await live.waitFor(id);
    expect(doc.status).toBe('completed');
    expect(doc.result.data).toEqual({});
    expect(doc.result.citations).toEqual([]);
    const plain = (await live.upload([['file', 'note.pdf', await textPdf([['Plain reading only.']])]])).json.id;
    expect((await live.waitFor(plain)).result).toBeNull();
  });

  it('is the same, byte for byte, on every run with a test key, and free (docs/decisions.md#test-mode)', async () => {
    const options = { extraction: { fields: ['title', 'amounts', 'key_facts'] }, queries: ['When is payment due?'] };
    const bytes = await textPdf([INVOICE]);
    const a = await test.waitFor((await test.upload([['file', 'i.pdf', bytes]], options)).json.id);
    const b = await test.waitFor((await test.upload([['file', 'i.pdf', bytes]], options)).json.id);
    expect(JSON.stringify(a.result)).toBe(JSON.stringify(b.result));
    expect(a.cost).toEqual({ estimated_micro: 0, settled_micro: 0 });
    const usage = (await test.get(`/api/v1/documents/${a.id}?include=usage`)).json.usage;
    expect(usage.by_sku['swift.input'].quantity).toBeGreaterThan(0);
    expect(usage.amount_micro).toBe(0);
  });

  it('a document too long for a pinned swift is read and charged for its pages, then fails at extracting; auto moves to summit', async () => {
    // About 300k tokens of text: over swift's 180k context, within summit's.
    const bytes = await longPdf(400, 600);
    const pinned = await live.waitFor((await live.upload([['file', 'long.pdf', bytes]], { model: 'swift', extraction: { fields: ['title'] } })).json.id, 120_000);
    expect(pinned).toMatchObject({ status: 'failed', error: { type: 'document_too_large', stage: 'extracting' }, cost: { settled_micro: 400 * 25_000 } });
    const usage = (await live.get(`/api/v1/documents/${pinned.id}?include=usage`)).json.usage;
    expect(Object.keys(usage.by_sku)).toEqual(['pages.layout']);

    const auto = await test.waitFor((await test.upload([['file', 'long.pdf', bytes]], { extraction: { fields: ['title'] } })).json.id, 120_000);
    expect(auto).toMatchObject({ status: 'completed', model: { used: 'svc-summit-1' } });
  }, 240_000);
});
