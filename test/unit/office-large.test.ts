// Large and hostile Office files (issue 22): page counts at submission come from the package's
// small parts only, long parts are read a slice at a time, and files beyond Folio's limits are
// refused with document_too_large in Folio's words instead of exhausting a worker.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { office, OfficeTooLarge } from '../../src/pipeline/formats/office/index.js';
import { countDocxPages } from '../../src/pipeline/formats/office/docx.js';
import { itemSize, MAX_OFFICE_CELLS, MAX_OFFICE_WORDS, refuseItems } from '../../src/pipeline/formats/office/limits.js';
import { childSlices } from '../../src/pipeline/formats/office/package.js';
import { countPptxPages } from '../../src/pipeline/formats/office/pptx.js';
import { countXlsxPages, readXlsx, valuesIn } from '../../src/pipeline/formats/office/xlsx.js';
import { readDocx } from '../../src/pipeline/formats/office/docx.js';
import run from '../../src/pipeline/threads/reader-thread.js';
import { CORPUS } from '../helpers/folio.js';
import { docxPackage, pptxPackage, withUnreadablePart, xlsxPackage } from '../helpers/office.js';

// Files of hundreds of thousands of cells take seconds on a busy machine: no test here is about time.
describe('page count at submission', { timeout: 120_000 }, () => {
  // The parts that hold the content cannot be unpacked: reading fails, counting must not.
  it('counts a workbook’s visible sheets from the workbook part and the parts list, never unpacking a sheet', async () => {
    let bytes = xlsxPackage([
      { name: 'Data', rows: 2, columns: 2 },
      { name: 'Secret', rows: 2, columns: 2, hidden: true },
      { name: 'Notes', rows: 2, columns: 2 },
    ]);
    for (const n of [1, 2, 3]) bytes = withUnreadablePart(bytes, `xl/worksheets/sheet${n}.xml`);
    bytes = withUnreadablePart(bytes, 'xl/sharedStrings.xml');
    expect(countXlsxPages(bytes)).toBe(2);
    expect(await office.xlsx.count(bytes)).toBe(2);
    await expect(office.xlsx.read(bytes, 'layout')).rejects.toThrow(/cannot be unpacked/);
  });

  it('counts a deck’s slides from the presentation part and the parts list, never unpacking a slide', async () => {
    let bytes = pptxPackage({ slides: 3 });
    for (const n of [1, 2, 3]) bytes = withUnreadablePart(bytes, `ppt/slides/slide${n}.xml`);
    expect(countPptxPages(bytes)).toBe(3);
    expect(await office.pptx.count(bytes)).toBe(3);
    await expect(office.pptx.read(bytes, 'layout')).rejects.toThrow(/not a valid Office document/);
  });

  it('counts a Word document’s pages from docProps/app.xml, never unpacking the body; 1 when the file does not say', async () => {
    const unreadable = (appPages: number | null) => withUnreadablePart(docxPackage({ paragraphs: 10, appPages }), 'word/document.xml');
    expect(countDocxPages(unreadable(7))).toBe(7);
    expect(await office.docx.count(unreadable(7))).toBe(7);
    expect(countDocxPages(unreadable(null))).toBe(1);
    await expect(office.docx.read(unreadable(7), 'layout')).rejects.toThrow(/not a valid Office document/);
  });

  it('is within one page of the pages read for every Office file of the corpus', async () => {
    const root = path.join(CORPUS, 'office');
    let files = 0;
    let exact = 0;
    for (const dir of await readdir(root)) {
      for (const name of await readdir(path.join(root, dir))) {
        const kind = /\.(docx|xlsx|pptx)$/.exec(name)?.[1] as keyof typeof office | undefined;
        if (!kind) continue;
        const bytes = new Uint8Array(await readFile(path.join(root, dir, name)));
        const counted = await office[kind].count(bytes);
        const read = (await office[kind].read(bytes, 'read')).length;
        expect(Math.abs(counted - read), `${dir}: counted ${counted}, read ${read}`).toBeLessThanOrEqual(1);
        files++;
        if (counted === read) exact++;
      }
    }
    expect(files).toBeGreaterThanOrEqual(20);
    expect(exact / files).toBeGreaterThan(0.9);
  });
});

describe('long parts read a slice at a time', { timeout: 120_000 }, () => {
  it('cuts an element’s content only between whole children, whatever their attributes, comments and CDATA hold', () => {
    const children = [
      '<w:p a="x > y" b=\'/>\'><w:r><w:t>one</w:t></w:r></w:p>',
      '<!-- </w:body> <w:p> -->',
      '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>nested</w:t></w:r></w:p><w:tbl><w:tr><w:tc><w:p/></w:tc></w:tr></w:tbl></w:tc></w:tr></w:tbl>',
      '<w:p/>',
      '<w:p><w:r><w:t><![CDATA[ </w:p> <w:p> ]]></w:t></w:r></w:p>',
      '<?pi data?>',
      '<w:sectPr w:rsid="1"/>',
    ];
    const content = children.join('');
    const bytes = Buffer.from(`<w:body>${content}</w:body>`);
    const from = '<w:body>'.length;
    const to = bytes.length - '</w:body>'.length;
    // The smallest slices: every cut falls between two of the children.
    const slices = [...childSlices(bytes, from, to, 1)].map(([a, b]) => bytes.subarray(a, b).toString());
    expect(slices).toEqual(children);
    // Larger slices hold several whole children.
    const larger = [...childSlices(bytes, from, to, 120)].map(([a, b]) => bytes.subarray(a, b).toString());
    expect(larger.join('')).toBe(content);
    for (const slice of larger) expect(children.some((c) => slice.startsWith(c))).toBe(true);
    expect(larger.length).toBeLessThan(children.length);
  });

  it('reads a Word body of many slices whole and in order', () => {
    // About 1.9 MB of body: more than one slice.
    const pages = readDocx(docxPackage({ paragraphs: 12_000 }));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toHaveLength(12_000);
    expect(pages[0][0]).toEqual({ kind: 'heading', level: 1, text: 'Section 1' });
    expect(pages[0][11_999]).toMatchObject({ kind: 'paragraph', text: expect.stringMatching(/^11999\. The committee/) });
  });

  it('reads a Word table longer than a slice a slice of rows at a time, its vertical merge across slices, in its place', () => {
    const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const cell = (text: string, merge = '') => `<w:tc><w:tcPr>${merge}<w:tcW w:w="2000" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;
    const rows = Array.from({ length: 20_000 }, (_, r) => `<w:tr>${cell(r === 0 ? 'Region' : '', r === 0 ? '<w:vMerge w:val="restart"/>' : '<w:vMerge/>')}${cell(`R${r + 1}`)}</w:tr>`);
    const body = `<w:p><w:r><w:t>Before</w:t></w:r></w:p><w:tbl><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>${rows.join('')}</w:tbl><w:p><w:r><w:t>After</w:t></w:r></w:p>`;
    const documentXml = `<w:document ${W}><w:body>${body}<w:sectPr/></w:body></w:document>`;
    expect(documentXml.length).toBeGreaterThan(3 * 1024 * 1024);
    const [page] = readDocx(docxPackage({ documentXml }));
    expect(page.map((item) => item.kind)).toEqual(['paragraph', 'table', 'paragraph']);
    const table = page[1];
    if (table.kind !== 'table') throw new Error('not a table');
    expect(table).toMatchObject({ rowCount: 20_000, columnCount: 2 });
    expect(table.cells).toHaveLength(20_001);
    expect(table.cells[0]).toEqual({ row: 0, column: 0, rowSpan: 20_000, columnSpan: 1, text: 'Region' });
    expect(table.cells[20_000]).toEqual({ row: 19_999, column: 1, rowSpan: 1, columnSpan: 1, text: 'R20000' });
  });

  it('reads a sheet of 150,000 cells into one table of them all', () => {
    const [page] = readXlsx(xlsxPackage([{ name: 'Ledger', rows: 3_000, columns: 50 }], 1));
    expect(page[0]).toEqual({ kind: 'heading', level: 1, text: 'Ledger' });
    const table = page[1];
    if (table.kind !== 'table') throw new Error('not a table');
    expect(table).toMatchObject({ rowCount: 3_000, columnCount: 50, headerRows: 1 });
    expect(table.cells).toHaveLength(150_000);
    expect(table.cells[table.cells.length - 50]).toEqual({ row: 2_999, column: 0, rowSpan: 1, columnSpan: 1, text: 'Item 2999' });
  });
});

describe('limits', { timeout: 120_000 }, () => {
  it('counts the cells that hold a value from the sheet’s bytes', () => {
    const sheet = strToU8(
      '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" s="2"/><c r="C1"><f>A1</f><v xml:space="preserve">3</v></c>' +
        '<c r="docs/decisions.md#running" t="inlineStr"><is><t>x</t></is></c><c r="E1"><v/></c></row></sheetData><extLst><vm/></extLst></worksheet>',
    );
    expect(valuesIn(sheet)).toBe(3);
  });

  it(`refuses a workbook of more than ${MAX_OFFICE_CELLS.toLocaleString('en')} cells, over all its sheets, before parsing one`, async () => {
    const bytes = xlsxPackage(
      [
        { name: 'Big', rows: MAX_OFFICE_CELLS / 50, columns: 50 },
        { name: 'One more', rows: 1, columns: 1 },
      ],
      1,
    );
    const error = await office.xlsx.read(bytes, 'layout').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OfficeTooLarge);
    expect((error as Error).message).toBe(`The workbook has ${(MAX_OFFICE_CELLS + 1).toLocaleString('en')} cells with a value; Folio reads Office files of at most ${MAX_OFFICE_CELLS.toLocaleString('en')} cells.`);
    // The submission count is unaffected: it reads the workbook part only.
    expect(await office.xlsx.count(bytes)).toBe(2);
  });

  it(`refuses a Word document of more than ${MAX_OFFICE_WORDS.toLocaleString('en')} words before typesetting it`, async () => {
    // 23 words a paragraph, 2 for the heading every 50: 13,300 paragraphs are 300,314 words.
    expect(MAX_OFFICE_WORDS).toBeLessThan(300_314);
    const error = await office.docx.read(docxPackage({ paragraphs: 13_300 }), 'read').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OfficeTooLarge);
    expect((error as Error).message).toBe(`The document has 300,314 words; Folio reads Office files of at most ${MAX_OFFICE_WORDS.toLocaleString('en')} words.`);
  });

  it(`refuses a Word document of more than ${MAX_OFFICE_CELLS.toLocaleString('en')} table cells before typesetting it`, async () => {
    const error = await office.docx.read(docxPackage({ table: { rows: MAX_OFFICE_CELLS / 10 + 1, columns: 10 } }), 'layout').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OfficeTooLarge);
    expect((error as Error).message).toBe(`The document has ${(MAX_OFFICE_CELLS + 10).toLocaleString('en')} table cells; Folio reads Office files of at most ${MAX_OFFICE_CELLS.toLocaleString('en')} cells.`);
  });

  it('counts words as the typesetter sets them (list markers and table cells included, figures none) and table cells', () => {
    const pages = [
      [
        { kind: 'heading' as const, level: 1, text: 'Two words' },
        { kind: 'list_item' as const, text: 'three more\twords', depth: 0, marker: '1.' },
        { kind: 'figure' as const, caption: 'not set' },
        { kind: 'table' as const, rowCount: 1, columnCount: 2, headerRows: 0, cells: [{ row: 0, column: 0, rowSpan: 1, columnSpan: 1, text: 'a\u00a0b' }, { row: 0, column: 1, rowSpan: 1, columnSpan: 1, text: ' ' }] },
      ],
      [{ kind: 'paragraph' as const, text: 'line one\nline two' }],
    ];
    expect(itemSize(pages)).toEqual({ words: 2 + 4 + 2 + 4, cells: 2 });
    expect(() => refuseItems(pages, { cells: 2, words: 12 })).not.toThrow();
    expect(() => refuseItems(pages, { cells: 2, words: 11 })).toThrow(new OfficeTooLarge('The document has 12 words; Folio reads Office files of at most 11 words.'));
    expect(() => refuseItems(pages, { cells: 1, words: 12 })).toThrow(new OfficeTooLarge('The document has 2 table cells; Folio reads Office files of at most 1 cells.'));
  });

  it('comes out of the reader thread as document_too_large, in Folio’s words', async () => {
    const bytes = xlsxPackage([{ name: 'Big', rows: MAX_OFFICE_CELLS / 50 + 1, columns: 50 }], 1);
    const mediaType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const outcome = await run({ kind: 'readStructured', mediaType, bytes, analysis: 'layout', batch: { markdown: true, mediaType, images: false, uploadBytes: bytes.byteLength, joinsTables: false } });
    expect(outcome).toEqual({
      ok: false,
      errorType: 'document_too_large',
      message: `The workbook has ${(MAX_OFFICE_CELLS + 50).toLocaleString('en')} cells with a value; Folio reads Office files of at most ${MAX_OFFICE_CELLS.toLocaleString('en')} cells.`,
    });
  });
});
