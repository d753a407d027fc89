// Office documents through the HTTP API (issue 7; docs/api.md input types and picture rule 4;
// docs/decisions.md#pages pages): DOCX, XLSX and PPTX read into pages with headings, lists, tables and
// figures, no pictures, `analysis: read`, and Office files that cannot be read.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import CFB from 'cfb';
import { zipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, CORPUS, Installation, type Server } from '../helpers/folio.js';
import { presentationPackage, wordChart, wordPackage, workbookPackage } from '../helpers/office.js';

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

const office = (p: string) => readFile(path.join(CORPUS, 'office', p));

async function read(name: string, bytes: Uint8Array, options?: unknown): Promise<{ doc: any; pages: any[]; markdown: string }> {
  const accepted = await client.upload([['file', name, bytes]], options);
  expect(accepted.status, JSON.stringify(accepted.json)).toBe(202);
  const doc = await client.waitFor(accepted.json.id);
  if (doc.status !== 'completed') return { doc, pages: [], markdown: '' };
  const pages = (await client.get(`/api/v1/documents/${doc.id}/pages?include=tables,key_values,layout,images`)).json.data;
  const markdown = options && (options as any).markdown ? (await client.get(`/api/v1/documents/${doc.id}?include=markdown`)).json.markdown : '';
  return { doc, pages, markdown };
}

describe('DOCX', () => {
  it('reads headings, nested lists, a table and a figure with its caption, pages at rendered page breaks', async () => {
    const { doc, pages, markdown } = await read('word.docx', await office('docling-word_sample-docx/word_sample.docx'), { markdown: true });
    expect(doc).toMatchObject({ status: 'completed', content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' });
    // Word last laid the document out on two pages (one w:lastRenderedPageBreak).
    expect(doc.page_count).toBe(2);
    expect(pages).toHaveLength(2);
    expect(markdown).toContain('# Swimming in the lake');
    expect(markdown).toContain('## Let’s swim!');
    expect(markdown).toContain('- You can relax and look around\n- Paddle about\n- Enjoy summer warmth');
    expect(markdown).toContain('1. Wear sunglasses\n2. Don’t forget to drink water\n3. Use sun cream');
    expect(markdown).toContain('<!-- image -->\n\nFigure 1: This is a cute duckling');
    const table = pages[1].tables[0];
    expect(table).toMatchObject({ columns: 3, rows: [['', 'Food', 'Calories per portion'], ['Leaves', 'Ash, Elm, Maple', '50'], ['Berries', 'Blueberry, Strawberry, Cranberry', '150'], ['Grain', 'Corn, Buckwheat, Barley', '200']] });
    // Office files get no pictures (docs/api.md picture rule 4).
    expect(pages.flatMap((p: any) => p.images)).toEqual([]);
    expect(pages[0].layout.find((e: any) => e.type === 'figure')).toMatchObject({ text: 'Figure 1: This is a cute duckling' });
  });

  it('reads merged cells of Word tables as spanning cells', async () => {
    const { pages } = await read('tables.docx', await office('docling-word_tables-docx/word_tables.docx'));
    const spans = pages.flatMap((p: any) => p.tables.flatMap((t: any) => t.cells)).filter((c: any) => c.row_span > 1 || c.column_span > 1);
    expect(spans.length).toBeGreaterThan(0);
  });
});

describe('XLSX', () => {
  it('gives one page per sheet headed by its name, cells as displayed, tables cut at blank rows, charts with their data', async () => {
    const { doc, pages } = await read('book.xlsx', await office('docling-xlsx_01-xlsx/xlsx_01.xlsx'));
    expect(doc.page_count).toBe(pages.length);
    expect(pages.map((p: any) => p.text.split('\n')[0])).toEqual(['Sheet1', 'Sheet2', 'Sheet3', 'Sheet4'].slice(0, pages.length));
    expect(pages[0].tables[0].rows[0]).toEqual(['first', 'second', 'third']);
    expect(pages[1].tables.length).toBeGreaterThanOrEqual(3);
    // A chart's title, its kind and its cached data as a table follow its [FIGURE] marker.
    expect(pages[1].text).toContain("[FIGURE]\n\n'col-3'\n\nLine chart\n\n|  | col-3 |");
    const formats = await read('data.xlsx', await office('docling-xlsx_07_gap_tolerance_-xlsx/xlsx_07_gap_tolerance_.xlsx'));
    // The cell holds 1 with the number format \1\.0# : Excel shows 1.01.
    expect(formats.pages[0].text).toContain('| 1.01 |');
  });
});

describe('PPTX', () => {
  it('gives one page per slide: the title first, text by position, bullets and numbers, merged table cells; no speaker notes', async () => {
    const { doc, pages, markdown } = await read('deck.pptx', await office('docling-powerpoint_sample-pptx/powerpoint_sample.pptx'), { markdown: true });
    expect(doc.page_count).toBe(3);
    expect(pages[0].layout[0]).toMatchObject({ type: 'title', text: 'Test Table Slide' });
    expect(pages[0].tables[0].cells).toContainEqual(expect.objectContaining({ text: 'Class1', column_span: 3 }));
    expect(markdown).toContain('# Second slide title\n\nA rectangle shape with this text inside.\n\nLet’s introduce a list\n\n- With foo\n- Bar\n- And baz things');
    expect(markdown).toContain('1. List item4\n2. List item5\n3. List item6');
    const text = pages.map((p: any) => p.text).join('\n');
    expect(text).not.toContain('Some notes on the second slide');
    expect(text).not.toContain('Final notes on the third slide');
    expect(pages.flatMap((p: any) => p.images)).toEqual([]);
  });

  it('with analysis read, reads the text with no tables or key/values', async () => {
    const { doc, pages } = await read('deck.pptx', await office('docling-powerpoint_sample-pptx/powerpoint_sample.pptx'), { analysis: 'read' });
    expect(doc.status).toBe('completed');
    expect(pages[0].tables).toEqual([]);
    expect(pages[0].text).toContain('R1 True False False True True');
    expect(pages[0].text).not.toContain('|');
  });
});

describe('equations, charts and reviewer comments (issue 23)', () => {
  it('gives a Word equation as LaTeX, a chart as its title, kind and data, and a comment as a footnote ending its page', async () => {
    const r = (text: string) => `<m:r><m:t xml:space="preserve">${text}</m:t></m:r>`;
    const body = [
      `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Growth</w:t></w:r></w:p>`,
      `<w:p><w:commentRangeStart w:id="0"/><w:r><w:t xml:space="preserve">The mean is </w:t></w:r><m:oMath><m:acc>${'<m:e>' + r('x') + '</m:e>'}</m:acc></m:oMath><w:r><w:t>.</w:t></w:r><w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p>`,
      `<w:p><m:oMathPara><m:oMath><m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${r('i=1')}</m:sub><m:sup>${r('n')}</m:sup><m:e><m:f><m:num>${r('x')}</m:num><m:den>${r('n')}</m:den></m:f></m:e></m:nary></m:oMath></m:oMathPara></w:p>`,
      wordChart('rIdChart1'),
    ].join('');
    const docx = wordPackage({
      body,
      comments: [{ author: 'Jane Editor', initials: 'JE', date: '2026-01-04T05:48:07Z', text: 'Arithmetic mean?' }],
      charts: { rIdChart1: { kind: 'lineChart', title: 'Sales by quarter', categories: ['Q1', 'Q2'], series: [{ name: 'North', values: [10, 12.5] }] } },
    });
    const { doc, pages, markdown } = await read('growth.docx', docx, { markdown: true });
    expect(doc.status).toBe('completed');
    expect(pages[0].text).toContain('The mean is $\\hat{x}$.');
    expect(markdown).toContain('$$\\sum_{i=1}^{n}\\frac{x}{n}$$');
    expect(markdown).toContain('Sales by quarter\n\nLine chart\n\n|  | North |');
    expect(pages[0].tables[0]).toMatchObject({ rows: [['', 'North'], ['Q1', '10'], ['Q2', '12.5']] });
    const last = pages[0].layout.at(-1);
    expect(last).toMatchObject({ type: 'footnote', text: '[author: Jane Editor (JE), time: 2026-01-04T05:48:07.000+00:00]: Arithmetic mean?' });
    expect(markdown.trimEnd().endsWith('[author: Jane Editor (JE), time: 2026-01-04T05:48:07.000+00:00]: Arithmetic mean?')).toBe(true);
  });

  it("ends a sheet and a slide with their comments, and leaves a slide's speaker notes out", async () => {
    const xlsx = workbookPackage([{ name: 'Ducks', cells: { A1: 'Year', B1: 'Count', A2: 2019, B2: 120 }, threads: { B2: [{ author: 'Jane Smith (JS)', date: '2026-06-18T17:12:37.41', text: 'Highest count' }] } }]);
    const sheet = await read('ducks.xlsx', xlsx);
    expect(sheet.pages[0].text.endsWith('[author: Jane Smith (JS), time: 2026-06-18T17:12:37.410]: Highest count')).toBe(true);
    const pptx = presentationPackage([{ title: 'Plan', bullets: ['Hire'], notes: ['Say hiring comes first.'], comments: [{ author: 'John Reviewer', initials: 'JR', text: 'Budget?' }] }], 'modern');
    const deck = await read('plan.pptx', pptx);
    expect(deck.pages[0].text).toContain('[author: John Reviewer (JR)]: Budget?');
    expect(deck.pages[0].text).not.toContain('Say hiring comes first');
  });
});

describe('Office files that cannot be read', () => {
  it('a truncated DOCX fails with analysis_failed', async () => {
    const docx = await office('docling-lorem_ipsum-docx/lorem_ipsum.docx');
    const { doc } = await read('cut.docx', docx.subarray(0, Math.floor(docx.length * 0.6)));
    expect(doc).toMatchObject({ status: 'failed', error: { type: 'analysis_failed', stage: 'analyzing' } });
    expect(doc.error.message).toMatch(/not a valid Office document/);
  });

  it('a zip bomb posing as a DOCX is refused without being unpacked', async () => {
    const bomb = zipSync(
      {
        '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
        'word/document.xml': new Uint8Array(200 * 1024 * 1024),
      },
      { level: 1 },
    );
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const { doc } = await read('bomb.docx', bomb);
    expect(doc).toMatchObject({ status: 'failed', error: { type: 'analysis_failed' } });
    expect(doc.error.message).toMatch(/zip bomb/);
  });

  it('a password-protected XLSX is accepted as XLSX and fails saying it is encrypted', async () => {
    // The container Office writes a protected file in: EncryptionInfo and EncryptedPackage streams.
    const container = CFB.utils.cfb_new();
    CFB.utils.cfb_add(container, '/EncryptionInfo', Buffer.from([4, 0, 4, 0, 0x40, 0, 0, 0]));
    CFB.utils.cfb_add(container, '/EncryptedPackage', Buffer.alloc(4096, 0x5a));
    const bytes = Buffer.from(CFB.write(container, { type: 'buffer' }) as Buffer);
    const { doc } = await read('budget.xlsx', bytes);
    expect(doc).toMatchObject({ status: 'failed', content_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', error: { type: 'analysis_failed' } });
    expect(doc.error.message).toMatch(/encrypted/);
    // A legacy Office file in the same container format is not supported at all.
    expect((await client.upload([['file', 'old.xls', await office('docling-legacy_sample-xls/legacy_sample.xls')]])).status).toBe(415);
  });
});
