// GET /documents/{id}/chunks (issue 26): chunks cut along the structure, over the corpus' laid-out
// PDFs, tables and Office files: a heading starts a chunk, no table row is cut, every box lies on
// one of the chunk's pages, every piece of text is its pages' text, and no chunk is over the limit.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, CORPUS, Installation, STORE, type Server } from '../helpers/folio.js';
import { tablePdf } from '../helpers/pdfs.js';

interface CorpusCase {
  id: string;
  category: string;
  dir: string;
  document: string;
}

let install: Installation;
let server: Server;
let client: Client;

beforeAll(async () => {
  install = await Installation.create();
  // The corpus is sent at once: a plan whose request rate does not stand in the way.
  await install.admin('plan', 'create', '--id', 'bulk', '--name', 'Bulk', '--rate-limit-per-second', '100000');
  server = await install.start();
  client = new Client(server.url, (await install.workspace({ plan: 'bulk' })).test);
});

afterAll(async () => {
  await server?.stop();
  await install?.destroy();
});

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The invariants every document's chunks keep, whatever its kind. */
function checkChunks(chunks: any[], pages: any[], maxTokens: number, structured: boolean, label = ''): void {
  const pageText = new Map<number, string>(pages.map((p) => [p.page, p.text]));
  expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  const headings = new Set<string>();
  const tableRows: string[] = [];
  for (const page of pages) {
    for (const element of page.layout) if (element.type === 'heading' || element.type === 'title') headings.add(element.text.trim());
    for (const table of page.tables) for (const [i, line] of table.markdown.split('\n').entries()) if (i !== 1 && line.length <= maxTokens * 4 - 100) tableRows.push(line);
  }
  const opening = new Set<string>();
  const lines = new Set<string>();
  for (const chunk of chunks) {
    expect(chunk.tokens).toBe(Math.ceil(chunk.text.length / 4));
    expect(chunk.tokens).toBeLessThanOrEqual(maxTokens);
    expect(chunk.text.trim().length).toBeGreaterThan(0);
    // Boxes on the chunk's own pages, inside them; the pages are those of its boxes.
    const where = `${label} chunk ${chunk.index} (${chunk.text.slice(0, 60)})`;
    expect(chunk.boxes.length, where).toBeGreaterThan(0);
    for (const box of chunk.boxes) {
      expect(chunk.pages).toContain(box.page);
      expect(pageText.has(box.page)).toBe(true);
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.left + box.width).toBeLessThanOrEqual(1.0002);
      expect(box.top + box.height).toBeLessThanOrEqual(1.0002);
    }
    expect(chunk.pages).toEqual([...new Set(chunk.boxes.map((b: any) => b.page))].sort((a: any, b: any) => a - b));
    // Every piece is text of its pages: a paragraph (or a part of one) whole, a table row by row.
    const text = squash(chunk.pages.map((p: number) => pageText.get(p)).join(' '));
    const pieces = chunk.text.split('\n\n');
    for (const piece of pieces) {
      const parts = piece.startsWith('|') ? piece.split('\n').filter((l: string) => !/^\| (---( \| )?)+ ?\|?$/.test(l) && !/^\|( --- \|)+$/.test(l)) : [piece];
      for (const part of parts) expect(text, where).toContain(squash(part));
    }
    for (const line of chunk.text.split('\n')) lines.add(line);
    // The headings that open the chunk, before its first other piece.
    for (const piece of pieces) {
      if (!headings.has(piece.trim())) break;
      opening.add(piece.trim());
    }
    if (!structured) expect(chunk.headings).toEqual([]);
    else for (const heading of chunk.headings) expect(headings.has(heading)).toBe(true);
  }
  // A heading starts a chunk (with the headings just above it); a table row is never cut.
  if (structured) for (const heading of headings) if (heading.length <= maxTokens * 4) expect(opening, `${label}: ${heading}`).toContain(heading);
  for (const row of tableRows) expect(lines, `${label}: ${row}`).toContain(row);
}

async function processed(name: string, bytes: Uint8Array, options?: unknown): Promise<string> {
  const upload = await client.upload([['file', name, bytes]], options);
  expect(upload.status).toBe(202);
  return upload.json.id;
}

describe('chunks', () => {
  // What the corpus' files read into does not depend on the store: the sweep runs on SQLite; the
  // tests below take chunks from the stored pages on both stores.
  it.skipIf(STORE === 'postgres')('follow the structure of every laid-out PDF, table document and Office file of the corpus', async () => {
    const index = JSON.parse(await readFile(path.join(CORPUS, 'index.json'), 'utf8')) as { cases: CorpusCase[] };
    const cases = index.cases.filter((c) => ['layout_markdown', 'tables', 'office'].includes(c.category));
    expect(cases.length).toBeGreaterThan(50);
    // Legacy Office files (.doc, .xls, .ppt) are refused with 415; every other case is chunked.
    const uploads = await Promise.all(cases.map(async (c) => client.upload([['file', c.document, new Uint8Array(await readFile(path.join(CORPUS, c.dir, c.document)))]])));
    expect(uploads.every((u) => u.status === 202 || u.status === 415)).toBe(true);
    const ids = uploads.map((u) => (u.status === 202 ? (u.json.id as string) : null));
    let chunked = 0;
    for (const [i, id] of ids.entries()) {
      if (id === null) continue;
      const doc = await client.waitFor(id, 120_000);
      if (doc.status !== 'completed') continue;
      const pages = (await client.get(`/api/v1/documents/${id}/pages?include=layout,tables`)).json.data;
      for (const maxTokens of [512, 96]) {
        const response = await client.get(`/api/v1/documents/${id}/chunks${maxTokens === 512 ? '' : `?max_tokens=${maxTokens}`}`);
        expect(response.status, cases[i].id).toBe(200);
        expect(response.json).toMatchObject({ object: 'list', document_id: id });
        checkChunks(response.json.data, pages, maxTokens, true, `${cases[i].id} at ${maxTokens}`);
        if (pages.some((p: any) => p.text.trim())) expect(response.json.data.length, cases[i].id).toBeGreaterThan(0);
      }
      chunked++;
    }
    expect(chunked).toBeGreaterThan(ids.filter((id) => id !== null).length * 0.9);
  }, 600_000);

  it('join a table continued on the next page, and cut a long one between rows under its header', async () => {
    const header = ['Region', 'Quarter', 'Sales'];
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => [`Region ${from + i}`, `Q${((from + i) % 4) + 1}`, `${1000 + from + i}`]);
    const id = await processed('sales.pdf', await tablePdf([{ header, rows: rows(0, 25), ruled: true }, { header, rows: rows(25, 25), ruled: true }], { before: 'Sales by region.' }));
    expect((await client.waitFor(id)).status).toBe('completed');
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    const whole = (await client.get(`/api/v1/documents/${id}/chunks`)).json.data;
    expect(whole.map((c: any) => c.text)).toEqual([`Sales by region.\n\n${[line(header), line(header.map(() => '---')), ...rows(0, 50).map(line)].join('\n')}`]);
    expect(whole[0].pages).toEqual([1, 2]);
    // One box per line of text and per table row.
    expect(whole[0].boxes).toHaveLength(1 + 51);

    const cut = (await client.get(`/api/v1/documents/${id}/chunks?max_tokens=64`)).json.data;
    expect(cut.length).toBeGreaterThan(3);
    const body: string[] = [];
    for (const chunk of cut.slice(1)) {
      const lines = chunk.text.split('\n');
      expect(lines.slice(0, 2)).toEqual([line(header), line(header.map(() => '---'))]);
      body.push(...lines.slice(2));
    }
    expect(body).toEqual(rows(0, 50).map(line));
    const pages = (await client.get(`/api/v1/documents/${id}/pages?include=layout,tables`)).json.data;
    checkChunks(cut, pages, 64, true);
  });

  it('of a read document are whole paragraphs without headings', async () => {
    const bytes = await readFile(path.join(CORPUS, 'layout_markdown/docling-normal_4pages/normal_4pages.pdf'));
    const id = await processed('normal.pdf', bytes, { analysis: 'read' });
    expect((await client.waitFor(id)).status).toBe('completed');
    const chunks = (await client.get(`/api/v1/documents/${id}/chunks?max_tokens=256`)).json.data;
    expect(chunks.length).toBeGreaterThan(3);
    const pages = (await client.get(`/api/v1/documents/${id}/pages?include=layout,tables`)).json.data;
    checkChunks(chunks, pages, 256, false);
  });

  it('answer 409 before the document is completed, 404 for another workspace, 422 for a limit out of range', async () => {
    // A book of 117 pages is not read by the time the next request arrives.
    const bytes = await readFile(path.join(CORPUS, 'text_pdf/pypdfbench-geotopo-book/GeoTopo-komprimiert.pdf'));
    const id = await processed('book.pdf', bytes);
    const early = await client.get(`/api/v1/documents/${id}/chunks`);
    expect(early.status).toBe(409);
    expect(early.json.error.type).toBe('document_not_ready');
    expect((await client.waitFor(id)).status).toBe('completed');
    const other = new Client(server.url, (await install.workspace({ plan: 'bulk' })).test);
    expect((await other.get(`/api/v1/documents/${id}/chunks`)).status).toBe(404);
    for (const bad of ['10', '5000', 'many']) {
      const response = await client.get(`/api/v1/documents/${id}/chunks?max_tokens=${bad}`);
      expect(response.status).toBe(422);
      expect(response.json.error.type).toBe('invalid_request');
    }
    expect((await client.get(`/api/v1/documents/${id}/chunks?max_tokens=64`)).status).toBe(200);
  });
});
