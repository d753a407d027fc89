// The `pages` option (issue 26): only the selected pages are read, charged, drawn, embedded and
// given to the model; `page_count` stays the file's; a malformed selection, or one naming a page
// the file does not have, is a 422 with details['options.pages'] (a URL document, counted only
// once fetched, fails with analysis_failed instead).
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { pptxPackage } from '../helpers/office.js';
import { textPdf } from '../helpers/pdfs.js';

let install: Installation;
let server: Server;
let live: Client;
let files: HttpServer;
let pdfUrl: string;
let pdf: Uint8Array;

const PAGES = [1, 2, 3, 4, 5].map((n) => [`Page ${n} heading`, `This is the text of page number ${n}, about topic ${'abcde'[n - 1]}.`]);

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  live = new Client(server.url, (await install.workspace({ credits: 10_000_000 })).live);
  pdf = await textPdf(PAGES);
  files = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf));
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  pdfUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/five.pdf`;
});

afterAll(async () => {
  files?.close();
  await server?.stop();
  await install?.destroy();
});

describe('page selection', () => {
  it('reads, charges, embeds and returns only the selected pages; page_count stays the file\'s', async () => {
    const upload = await live.upload([['file', 'five.pdf', pdf]], { pages: '5, 2-3,3', embeddings: true, markdown: true });
    expect(upload.status).toBe(202);
    const doc = await live.waitFor(upload.json.id);
    expect(doc).toMatchObject({ status: 'completed', page_count: 5 });
    const full = (await live.get(`/api/v1/documents/${doc.id}?include=options,usage,text,markdown`)).json;
    expect(full.options.pages).toBe('2-3,5');
    expect(full.usage.records.find((r: any) => r.sku === 'pages.layout')).toMatchObject({ quantity: 3, amount_micro: 3 * 25_000 });
    expect(full.cost.estimated_micro).toBeGreaterThanOrEqual(3 * 25_000);
    expect(full.cost.estimated_micro).toBeLessThan(4 * 25_000);
    expect(full.text).toMatch(/^=== Page 2 ===\n/);
    expect(full.text).toContain('=== Page 5 ===');
    expect(full.text).not.toContain('page number 1');
    expect(full.text).not.toContain('page number 4');
    expect(full.markdown).toContain('page number 3');
    expect(full.markdown).not.toContain('page number 4');

    const pages = (await live.get(`/api/v1/documents/${doc.id}/pages?include=embeddings,images`)).json.data;
    expect(pages.map((p: any) => p.page)).toEqual([2, 3, 5]);
    for (const page of pages) {
      expect(page.text).toContain(`page number ${page.page}`);
      expect(page.embedding.vector).toHaveLength(1024);
    }
    expect((await live.get(`/api/v1/documents/${doc.id}/pages?page=4`)).json.data).toEqual([]);
    const chunks = (await live.get(`/api/v1/documents/${doc.id}/chunks`)).json.data;
    expect([...new Set(chunks.flatMap((c: any) => c.pages))]).toEqual([2, 3, 5]);
    const preview = await live.get(`/api/v1/documents/${doc.id}/pages/4/preview`);
    expect(preview.status).toBe(404);
    expect(preview.json.error.message).toContain('page selection');
    expect((await live.get(`/api/v1/documents/${doc.id}/pages/5/preview`)).status).toBe(200);
  });

  it('refuses a malformed selection and one past the file\'s last page with 422 details["options.pages"]', async () => {
    for (const pages of ['0', '3-1', 'two', '', '1,,2', '1-2-3']) {
      const refused = await live.upload([['file', 'five.pdf', pdf]], { pages });
      expect(refused.status, pages).toBe(422);
      expect(refused.json.error.type).toBe('invalid_request');
      expect(refused.json.error.details, pages).toHaveProperty(['options.pages']);
    }
    const past = await live.upload([['file', 'five.pdf', pdf]], { pages: '2,9' });
    expect(past.status).toBe(422);
    expect(past.json.error.details['options.pages'][0]).toContain('names page 9, but the file has 5 pages');
  });

  it('fails a URL document whose selection names a page the file does not have, charging nothing', async () => {
    const bad = await live.request('POST', '/api/v1/documents', { json: { url: pdfUrl, options: { pages: '4-6' } } });
    expect(bad.status).toBe(202);
    const failed = await live.waitFor(bad.json.id);
    expect(failed).toMatchObject({ status: 'failed', error: { type: 'analysis_failed', stage: 'analyzing' } });
    expect(failed.error.message).toContain('names page 6, but the file has 5 pages');
    expect(failed.cost.settled_micro).toBe(0);

    const good = await live.waitFor((await live.request('POST', '/api/v1/documents', { json: { url: pdfUrl, options: { pages: '4' } } })).json.id);
    expect(good).toMatchObject({ status: 'completed', page_count: 5, cost: { settled_micro: 25_000 } });
    expect((await live.get(`/api/v1/documents/${good.id}/pages`)).json.data.map((p: any) => p.page)).toEqual([4]);
  });

  it('cuts an Office file to the selection after reading it whole', async () => {
    const deck = pptxPackage({ slides: 4 });
    const doc = await live.waitFor((await live.upload([['file', 'deck.pptx', deck]], { pages: '1,4' })).json.id);
    expect(doc).toMatchObject({ status: 'completed', page_count: 4 });
    expect((await live.get(`/api/v1/documents/${doc.id}/pages`)).json.data.map((p: any) => p.page)).toEqual([1, 4]);
    const usage = (await live.get(`/api/v1/documents/${doc.id}?include=usage`)).json.usage;
    expect(usage.by_sku['pages.layout'].quantity).toBe(2);
  });
});
