// Page previews (issue 11, additive: GET /documents/{id}/pages/{page}/preview) and the positions
// the playground draws over them: layout lines, table cells and citation boxes (docs/decisions.md#beyond-the-spec:
// citations may carry the quote's bbox).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, CORPUS, Installation, type Server } from '../helpers/folio.js';
import { textPicture, toSharp } from '../helpers/images.js';
import { tablePdf, textPdf } from '../helpers/pdfs.js';

let install: Installation;
let server: Server;
let client: Client;

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  client = new Client(server.url, (await install.workspace()).test);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await install?.destroy();
});

async function completed(name: string, bytes: Uint8Array | Buffer, options?: unknown): Promise<any> {
  const accepted = await client.upload([['file', name, bytes]], options);
  expect(accepted.status, JSON.stringify(accepted.json)).toBe(202);
  const doc = await client.waitFor(accepted.json.id, 120_000);
  expect(doc.status, JSON.stringify(doc.error)).toBe('completed');
  return doc;
}

async function preview(id: string, page: number, query = ''): Promise<{ status: number; type: string | null; bytes: Buffer; json: any }> {
  const response = await fetch(`${server.url}/api/v1/documents/${id}/pages/${page}/preview${query}`, { headers: client.headers() });
  const bytes = Buffer.from(await response.arrayBuffer());
  let json: any = null;
  if (response.headers.get('content-type')?.includes('json')) json = JSON.parse(bytes.toString('utf8'));
  return { status: response.status, type: response.headers.get('content-type'), bytes, json };
}

describe('GET /documents/{id}/pages/{page}/preview', () => {
  it('renders any page of a PDF as a JPEG, 1024 px on the long side unless `size` says otherwise', async () => {
    const doc = await completed('two.pdf', await textPdf([['First page of the preview test.'], ['Second page of the preview test.']]));
    const first = await preview(doc.id, 2);
    expect(first.status).toBe(200);
    expect(first.type).toBe('image/jpeg');
    const meta = await sharp(first.bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width!, meta.height!)).toBe(1024);
    // US Letter keeps its shape.
    expect(meta.width! / meta.height!).toBeCloseTo(612 / 792, 2);
    const small = await sharp((await preview(doc.id, 1, '?size=300')).bytes).metadata();
    expect(Math.max(small.width!, small.height!)).toBe(300);
  });

  it('answers 404 for a page the document does not have and 422 for a size out of range', async () => {
    const doc = await completed('one.pdf', await textPdf([['Only one page here.']]));
    const missing = await preview(doc.id, 2);
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ type: 'not_found', message: expect.stringContaining('1 page') });
    const tooBig = await preview(doc.id, 1, '?size=5000');
    expect(tooBig.status).toBe(422);
    expect(tooBig.json.error.type).toBe('invalid_request');
    expect(Object.keys(tooBig.json.error.details)).toContain('size');
    expect((await preview(doc.id, 0)).status).toBe(422);
    expect((await preview('doc_nonexistent', 1)).status).toBe(404);
  });

  it('turns a sideways scan upright, as its layout was read, so the boxes land on the text', async () => {
    // A landscape picture of text stored turned a quarter (TIFF: no pictures under docs/api.md rule 4,
    // but a preview all the same).
    const picture = await textPicture(['Preview pages stand upright', 'whatever way they were scanned']);
    const upright = await toSharp(picture).metadata();
    const tiff = await toSharp(picture).rotate(90).tiff().toBuffer();
    const doc = await completed('sideways.tiff', tiff);
    const shown = await sharp((await preview(doc.id, 1)).bytes).metadata();
    expect(shown.width! > shown.height!).toBe(upright.width! > upright.height!);
  });

  it('has no drawing for Office files: 404 that says where the positions are', async () => {
    const docx = await readFile(path.join(CORPUS, 'office/docling-word_tables-docx/word_tables.docx'));
    const doc = await completed('tables.docx', docx);
    const answer = await preview(doc.id, 1);
    expect(answer.status).toBe(404);
    expect(answer.json.error.message).toContain('include=layout');
  });

  it('is listed in the OpenAPI document', async () => {
    const spec = (await client.get('/api/v1/openapi.json')).json;
    expect(spec.paths['/api/v1/documents/{id}/pages/{page}/preview']?.get).toBeTruthy();
  });
});

describe('positions to draw', () => {
  it('layout elements carry their lines and table cells their boxes, inside the element', async () => {
    const pdf = await tablePdf([{ header: ['Item', 'Qty'], rows: [['Apples', '3'], ['Pears', '5']], ruled: true }], { before: 'Order summary for the spring market' });
    const doc = await completed('order.pdf', pdf);
    const page = (await client.get(`/api/v1/documents/${doc.id}/pages?include=layout,tables`)).json.data[0];
    const paragraph = page.layout.find((e: any) => e.text.includes('Order summary'));
    expect(paragraph.lines).toHaveLength(1);
    expect(paragraph.lines[0].text).toBe('Order summary for the spring market');
    const inside = (inner: any, outer: any) =>
      inner.left >= outer.left - 0.002 && inner.top >= outer.top - 0.002 && inner.left + inner.width <= outer.left + outer.width + 0.002 && inner.top + inner.height <= outer.top + outer.height + 0.002;
    expect(inside(paragraph.lines[0].bbox, paragraph.bbox)).toBe(true);
    const table = page.tables[0];
    const pears = table.cells.find((c: any) => c.text === 'Pears');
    expect(pears.bbox).toBeTruthy();
    expect(inside(pears.bbox, table.bbox)).toBe(true);
    expect(pears.bbox.height).toBeLessThan(table.bbox.height / 2);
  });

  it("a citation's bbox is the table row holding the quote, not the whole table", async () => {
    const pdf = await tablePdf([{ header: ['Item', 'Qty'], rows: [['Apples', '3'], ['Pears', '5'], ['Plums', '8']], ruled: true }]);
    const doc = await completed('fruit.pdf', pdf);
    const asked = await client.request('POST', `/api/v1/documents/${doc.id}/queries`, { json: { question: 'How many pears?' } });
    expect(asked.status).toBe(202);
    let query = asked.json;
    for (let i = 0; i < 200 && (query.status === 'queued' || query.status === 'processing'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      query = (await client.get(`/api/v1/documents/${doc.id}/queries/${query.id}`)).json;
    }
    expect(query.status).toBe('completed');
    const citation = query.answer.citations[0];
    expect(citation.quote).toContain('5');
    const table = (await client.get(`/api/v1/documents/${doc.id}/pages?include=tables`)).json.data[0].tables[0];
    const row = table.cells.filter((c: any) => c.row === 2).map((c: any) => c.bbox);
    expect(citation.bbox.top).toBeCloseTo(Math.min(...row.map((b: any) => b.top)), 2);
    expect(citation.bbox.height).toBeLessThan(table.bbox.height / 2);
  });
});
