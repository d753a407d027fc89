// `analysis: layout` through the HTTP API (docs/api.md: "layout also finds tables, key/value pairs,
// figures, reading order"; Page `text`, `tables`, `key_values`, `layout`; picture rules; issue 5):
// tables from rulings and from alignment, tables split across pages, figures drawn with vector
// paths, pages printed sideways, printed key/values, `analysis: read`, and files that cannot be
// read or take too long.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, CORPUS, Installation, type Server } from '../helpers/folio.js';
import { sidewaysPdf, tablePdf, vectorChartPdf } from '../helpers/pdfs.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

let install: Installation;
let server: Server;
let client: Client;

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  client = new Client(server.url, (await install.workspace()).test);
});

afterAll(async () => {
  await server?.stop();
  await install?.destroy();
});

async function read(bytes: Uint8Array, options?: unknown, include = 'tables,key_values,layout'): Promise<{ doc: any; pages: any[] }> {
  const id = (await client.upload([['file', 'doc.pdf', bytes]], options)).json.id;
  const doc = await client.waitFor(id);
  const pages = doc.status === 'completed' ? (await client.get(`/api/v1/documents/${id}/pages?include=${include}`)).json.data : [];
  return { doc, pages };
}

const header = ['Region', 'Revenue', 'Growth'];
const rows = [
  ['North', '1,200', '4%'],
  ['South', '950', '2%'],
  ['East', '1,410', '7%'],
];

describe('tables', () => {
  it('are found from drawn rulings, with rows, columns, markdown and the header row', async () => {
    const { pages } = await read(await tablePdf([{ header, rows, ruled: true }], { before: 'Sales by region in 2024.' }), { markdown: true });
    const [table] = pages[0].tables;
    expect(pages[0].tables).toHaveLength(1);
    expect(table).toMatchObject({ rows: [header, ...rows], columns: 3, header_rows: 1, continued_from_previous_page: false, continues_on_next_page: false });
    expect(table.markdown.split('\n')).toEqual(['| Region | Revenue | Growth |', '| --- | --- | --- |', '| North | 1,200 | 4% |', '| South | 950 | 2% |', '| East | 1,410 | 7% |']);
    expect(table.cells[0]).toMatchObject({ row: 0, column: 0, row_span: 1, column_span: 1, text: 'Region' });
    // Each cell's box (additive): the first cell starts where the table does.
    expect(table.cells[0].bbox.left).toBeCloseTo(table.bbox.left, 2);
    expect(table.cells[0].bbox.top).toBeCloseTo(table.bbox.top, 2);
    expect(table.bbox.left).toBeCloseTo(72 / 612, 2);
    // Page text holds the table as markdown, in reading order after the line above it.
    expect(pages[0].text).toBe(`Sales by region in 2024.\n\n${table.markdown}`);
    expect(pages[0].layout.map((e: any) => e.type)).toEqual(['paragraph', 'table']);
  });

  it('are found from the alignment of their text when nothing is drawn', async () => {
    const { pages } = await read(await tablePdf([{ header, rows, ruled: false }], { before: 'Sales by region in 2024.', after: 'All figures in thousands of euros.' }));
    expect(pages[0].tables).toHaveLength(1);
    expect(pages[0].tables[0].rows).toEqual([header, ...rows]);
    expect(pages[0].text.startsWith('Sales by region in 2024.\n\n| Region |')).toBe(true);
    expect(pages[0].text.endsWith('| East | 1,410 | 7% |\n\nAll figures in thousands of euros.')).toBe(true);
  });

  it('split across a page break are flagged on both pages, and the document markdown joins them into one table', async () => {
    const more = [['West', '800', '1%'], ['Centre', '640', '3%']];
    const { doc, pages } = await read(await tablePdf([{ header, rows, ruled: true }, { header, rows: more, ruled: true }], { before: 'Sales by region in 2024.' }), { markdown: true });
    expect(pages[0].tables[0]).toMatchObject({ continued_from_previous_page: false, continues_on_next_page: true, continues_table: null });
    expect(pages[1].tables[0]).toMatchObject({ continued_from_previous_page: true, continues_on_next_page: false, continues_table: 0, rows: [header, ...more] });
    const markdown = (await client.get(`/api/v1/documents/${doc.id}?include=markdown`)).json.markdown;
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    expect(markdown).toBe(`Sales by region in 2024.\n\n${[line(header), line(header.map(() => '---')), ...[...rows, ...more].map(line)].join('\n')}\n`);
  });

  it('match the ICDAR 2013 truth of a real government report, merged header cells included', async () => {
    const dir = path.join(CORPUS, 'tables/icdar2013-us-003');
    const truth = JSON.parse(await readFile(path.join(dir, 'truth.tables.json'), 'utf8'));
    const { pages } = await read(await readFile(path.join(dir, 'us-003.pdf')));
    expect(pages[0].tables.map((t: any) => t.rows)).toContainEqual(truth.tables[0].grid);
    const camelot = path.join(CORPUS, 'tables/camelot-twotables_2');
    const two = await read(await readFile(path.join(camelot, 'twotables_2.pdf')));
    const spans = two.pages[0].tables[0].cells.filter((c: any) => c.column_span > 1 || c.row_span > 1);
    expect(spans).toContainEqual(expect.objectContaining({ text: 'Literacy Status', column_span: 6 }));
  });

  it('are not returned, nor key/values, with analysis read: their words are plain text', async () => {
    const { doc, pages } = await read(await tablePdf([{ header, rows, ruled: true }]), { analysis: 'read' });
    expect(doc.analysis).toBe('read');
    expect(pages[0].tables).toEqual([]);
    expect(pages[0].key_values).toEqual({});
    expect(pages[0].text).toContain('North 1,200 4%');
    expect(pages[0].text).not.toContain('|');
  });
});

describe('figures drawn with vector paths', () => {
  it('are cropped as PNG with their caption; their labels follow the [FIGURE] marker in the text', async () => {
    const { doc, pages } = await read(await vectorChartPdf(), undefined, 'layout,images');
    const [figure] = pages[0].images;
    expect(pages[0].images).toHaveLength(1);
    expect(figure).toMatchObject({ kind: 'figure', figure_index: 0, media_type: 'image/png', caption: 'Figure 2: Nodes per year' });
    // The chart spans x 100-400 and y 400-600 in PDF space (origin bottom-left).
    expect(figure.bbox.left).toBeCloseTo(96 / 612, 1);
    expect(figure.bbox.top).toBeCloseTo((792 - 600) / 792, 1);
    expect(pages[0].text.split('\n\n')).toEqual([
      'Growth of the network over ten years, as the chart below shows in detail.',
      '[FIGURE]',
      '2 4 6 8 10\nyears',
      'Figure 2: Nodes per year',
      'The network kept growing after the last year shown.',
    ]);
    expect(pages[0].layout.map((e: any) => e.type)).toEqual(['paragraph', 'figure', 'caption', 'paragraph']);
    expect(doc.status).toBe('completed');
  });
});

describe('a page printed sideways', () => {
  it('is read turned upright, and its picture is rendered upright', async () => {
    const { pages } = await read(await sidewaysPdf(['First line of the sideways page', 'Second line follows it']), undefined, 'images');
    expect(pages[0].text).toBe('First line of the sideways page Second line follows it');
    // Fewer than 25 words: the page is kept whole, landscape like the turned text.
    const [picture] = pages[0].images;
    expect(picture).toMatchObject({ kind: 'page', width: 1568 });
    expect(picture.height).toBeLessThan(picture.width);
  });
});

describe('printed key/values', () => {
  it('are read from "Label: value" lines and labels above their values, with lower confidence than form fields', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    page.drawText('Invoice No: INV-2024-117', { x: 72, y: 720, size: 11, font });
    page.drawText('Date: 14 March 2024', { x: 72, y: 700, size: 11, font });
    page.drawText('Due:', { x: 320, y: 700, size: 11, font });
    page.drawText('28 March 2024', { x: 400, y: 700, size: 11, font });
    page.drawText('Ship to:', { x: 72, y: 660, size: 11, font });
    page.drawText('12 Harbour Road, Leith', { x: 72, y: 646, size: 11, font });
    page.drawText('Thank you for your business. Payment is due within fourteen days of the invoice date.', { x: 72, y: 600, size: 11, font });
    const { pages } = await read(await doc.save());
    const kv = pages[0].key_values;
    const box = (left: number, baseline: number, width: number, lines = 1) => ({
      left: expect.closeTo(left / 612, 2),
      top: expect.closeTo((792 - baseline - 11 - (lines - 1) * 14) / 792, 1),
      width: expect.closeTo(width / 612, 1),
      height: expect.closeTo((11 + (lines - 1) * 14) / 792, 1),
    });
    expect(kv['Invoice No']).toEqual({ value: 'INV-2024-117', key_confidence: 85, value_confidence: 80, selection_status: null, bbox: box(72, 720, 128) });
    expect(kv['Date']).toMatchObject({ value: '14 March 2024' });
    // Label and value apart on one line: the box holds both.
    expect(kv['Due']).toMatchObject({ value: '28 March 2024', bbox: box(320, 700, 150) });
    // A label above its value: the box runs down over both lines.
    expect(kv['Ship to']).toEqual({ value: '12 Harbour Road, Leith', key_confidence: 70, value_confidence: 65, selection_status: null, bbox: box(72, 646, 115, 2) });
    expect(kv['Ship to'].bbox.top).toBeLessThan((792 - 660) / 792);
    expect(kv['Ship to'].bbox.top + kv['Ship to'].bbox.height).toBeGreaterThan((792 - 646) / 792);
    expect(Object.keys(kv)).toHaveLength(4);
  });
});

describe('files that cannot be read', () => {
  it('a password-protected PDF fails with analysis_failed saying so; one with only an owner password opens', async () => {
    const locked = await read(await readFile(path.join(FIXTURES, 'password-protected.pdf')));
    expect(locked.doc).toMatchObject({ status: 'failed', error: { type: 'analysis_failed', stage: 'analyzing' } });
    expect(locked.doc.error.message).toMatch(/password/);
    const open = await read(await readFile(path.join(FIXTURES, 'owner-password-only.pdf')));
    expect(open.pages[0].text).toContain('A confidential memo about the merger');
  });

  it('a document over its time limit is stopped and fails with analysis_failed', async () => {
    const slow = await Installation.create({ FOLIO_TIME_LIMIT_BASE_MS: '1', FOLIO_TIME_LIMIT_PER_PAGE_MS: '0' });
    const slowServer = await slow.start();
    try {
      const c = new Client(slowServer.url, (await slow.workspace()).test);
      const failed = await c.waitFor((await c.upload([['file', 'a.pdf', await tablePdf([{ header, rows, ruled: true }])]])).json.id);
      expect(failed).toMatchObject({ status: 'failed', error: { type: 'analysis_failed' } });
      expect(failed.error.message).toMatch(/time limit/);
      // The worker is free again: a later document with a sane limit is not stuck behind it.
      expect((await c.get('/api/v1/documents')).json.data).toHaveLength(1);
    } finally {
      await slowServer.stop();
      await slow.destroy();
    }
  });
});
