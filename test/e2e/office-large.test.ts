// Large Office files through the HTTP API (issue 22): the submission is counted from the
// package's small parts, a large workbook within the limits is read whole, and one beyond them
// fails with document_too_large in Folio's words, charged nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { withUnreadablePart, xlsxPackage } from '../helpers/office.js';

/** The limit README.md states: cells (with a value, in a workbook) of one Office file. */
const MAX_OFFICE_CELLS = 200_000;

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

describe('large Office files', () => {
  it('reads a workbook of 150,000 cells whole: one page, one table, its last row included', async () => {
    const accepted = await client.upload([['file', 'ledger.xlsx', xlsxPackage([{ name: 'Ledger', rows: 3_000, columns: 50 }], 1)]]);
    expect(accepted.status, accepted.text).toBe(202);
    const doc = await client.waitFor(accepted.json.id, 120_000);
    expect(doc).toMatchObject({ status: 'completed', page_count: 1 });
    const pages = (await client.get(`/api/v1/documents/${doc.id}/pages?include=tables`)).json.data;
    expect(pages[0].tables).toHaveLength(1);
    expect(pages[0].tables[0].columns).toBe(50);
    expect(pages[0].tables[0].rows).toHaveLength(3_000);
    expect(pages[0].tables[0].rows[2_999][0]).toBe('Item 2999');
  });

  it('counts a submitted workbook from its workbook part: sheets that cannot be unpacked are counted, then fail the read', async () => {
    let bytes = xlsxPackage([
      { name: 'One', rows: 2, columns: 2 },
      { name: 'Two', rows: 2, columns: 2 },
      { name: 'Three', rows: 2, columns: 2 },
    ]);
    for (const n of [1, 2, 3]) bytes = withUnreadablePart(bytes, `xl/worksheets/sheet${n}.xml`);
    const accepted = await client.upload([['file', 'broken.xlsx', bytes]]);
    expect(accepted.status, accepted.text).toBe(202);
    expect((await client.get(`/api/v1/documents/${accepted.json.id}`)).json.page_count).toBe(3);
    const doc = await client.waitFor(accepted.json.id);
    expect(doc).toMatchObject({ status: 'failed', error: { type: 'analysis_failed', stage: 'analyzing' } });
  });

  it(`fails a workbook of more than ${MAX_OFFICE_CELLS.toLocaleString('en')} cells with document_too_large, naming the limit and its count`, async () => {
    const bytes = xlsxPackage(
      [
        { name: 'Big', rows: MAX_OFFICE_CELLS / 50, columns: 50 },
        { name: 'Small', rows: 10, columns: 10 },
      ],
      1,
    );
    const accepted = await client.upload([['file', 'big.xlsx', bytes]]);
    expect(accepted.status, accepted.text).toBe(202);
    const doc = await client.waitFor(accepted.json.id, 60_000);
    expect(doc).toMatchObject({
      status: 'failed',
      page_count: 2,
      error: {
        type: 'document_too_large',
        stage: 'analyzing',
        message: `The workbook has ${(MAX_OFFICE_CELLS + 100).toLocaleString('en')} cells with a value; Folio reads Office files of at most ${MAX_OFFICE_CELLS.toLocaleString('en')} cells.`,
      },
    });
  });
});
