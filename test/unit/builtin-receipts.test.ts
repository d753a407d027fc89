// The built-in engine on shop receipts (issue 23): receipts made in code (test/helpers/receipts.ts)
// in several layouts, currencies, date formats and total labels, read as a PDF through the layout
// analysis, then filled with the quality bench's receipt schema. Every value must pass the
// grounding check any provider's values go through.
import { describe, expect, it } from 'vitest';
import { detectBytes } from '../../src/pipeline/intake/detect.js';
import { readerFor } from '../../src/pipeline/formats/index.js';
import { analyzeDocument } from '../../src/pipeline/analysis/analyze-page.js';
import { pageOutputs } from '../../src/pipeline/outputs/page-outputs.js';
import type { PageOutputs } from '../../src/page-outputs/shapes.js';
import { BuiltinProvider } from '../../src/models/llm/builtin/index.js';
import type { BuiltinField, JsonSchema } from '../../src/models/llm/types.js';
import { PageTexts } from '../../src/pipeline/extraction/grounding.js';
import { groundData } from '../../src/pipeline/extraction/result.js';
import { MINI_MART, RECEIPTS, receiptPdf, type ReceiptSpec } from '../helpers/receipts.js';
import { RECEIPT_SCHEMA } from '../../bench/quality/receipts.js';
import { hasPostcode, opensAddress } from '../../src/models/llm/builtin/seller.js';

async function read(spec: ReceiptSpec): Promise<PageOutputs[]> {
  const bytes = await receiptPdf(spec);
  const reader = readerFor((await detectBytes(bytes)).supported!);
  return analyzeDocument(await reader.read(bytes)).map((page) => pageOutputs(page, false));
}

/** The engine's data for `pages`, as the grounding check keeps it (nothing may be dropped). */
async function extract(pages: PageOutputs[], task: { fields?: BuiltinField[]; schema?: JsonSchema }): Promise<Record<string, any>> {
  const reply = await new BuiltinProvider().run({
    tier: 'swift',
    pages,
    fields: task.fields ?? [],
    schema: task.schema ?? null,
    instructions: null,
    questions: [],
    pictures: [],
    maxOutputTokens: 4096,
    signal: new AbortController().signal,
  });
  const grounded = groundData(reply, null, new PageTexts(pages));
  expect(grounded.dropped, JSON.stringify(reply.citations)).toBe(0);
  return grounded.data;
}

const amountsOf = async (spec: ReceiptSpec) => ((await extract(await read(spec), { fields: ['amounts'] })).amounts as { label: string; amount: number }[]).map(({ label, amount }) => ({ label, amount }));

describe('receipt amounts and their labels', () => {
  it('reads each amount by the label printed level with it, however the page text orders them', async () => {
    // Labels and amounts far apart on their rows: once read as two blocks, now as a table's cells.
    const spec = RECEIPTS.find((r) => r.truth.total === '15.94')!.spec;
    expect(await amountsOf(spec)).toEqual(
      expect.arrayContaining([
        { label: 'Subtotal', amount: 15.9 },
        { label: 'Discount', amount: -1 },
        { label: 'Grand Total', amount: 15.94 },
      ]),
    );
  });

  it('reads a table row cell by cell: a currency after the label stays with it, and a first row of amounts heads no column', async () => {
    expect((await read(MINI_MART))[0].text).toContain('| TOTAL SALES (INCL GST) RM | 28.70 |');
    expect(await amountsOf(MINI_MART)).toEqual(
      expect.arrayContaining([
        { label: 'SUBTOTAL', amount: 28.7 },
        { label: 'TOTAL SALES (INCL GST) RM', amount: 28.7 },
        { label: 'CHANGE RM', amount: 1.3 },
      ]),
    );
  });
});

const receipt = (name: RegExp) => RECEIPTS.find((r) => name.test(r.name))!;
const fill = async (spec: ReceiptSpec) => extract(await read(spec), { schema: RECEIPT_SCHEMA });

describe('the total of a receipt', () => {
  it('is what was paid, tendered less change, whatever the label of the amount printed for it', async () => {
    const { spec, truth } = receipt(/cash less change says it/);
    expect(await amountsOf(spec)).toEqual(expect.arrayContaining([{ label: 'TOTAL SALES (INCLUSIVE GST) RM', amount: 52.08 }, { label: 'ROUNDING RM', amount: 52.1 }]));
    expect((await fill(spec)).total).toBe(truth.total);
  });

  it('is the rounded total, printed after the total it rounds', async () => {
    const { spec, truth } = receipt(/rounded total, cash and change/);
    expect((await fill(spec)).total).toBe(truth.total);
  });

  it('is a total whose label says the tax is included, in either order', async () => {
    const { spec, truth } = receipt(/tax is included after the tax word/);
    expect(await amountsOf(spec)).toEqual(expect.arrayContaining([{ label: 'TOTAL (GST INCL)', amount: 4.5 }]));
    expect((await fill(spec)).total).toBe(truth.total);
  });

  it("is written with the decimal mark the receipt's other amounts use: a point misread as a comma is a point again, a comma receipt keeps its commas", async () => {
    const body = (mark: '.' | ','): [string, string][] => [
      ['KOPI SUSU', '4.50'],
      ['ROTI BAKAR', '3.20'],
      ['NASI LEMAK', '6.80'],
      ['TOTAL', '14.50'],
      ['CASH', '20.00'],
      ['CHANGE', '5.50'],
    ].map(([label, amount]) => [label, mark === ',' ? amount.replace('.', ',') : amount]);
    const header = ['KEDAI KOPI MAJU', 'NO 3, JALAN BUNGA, 43000 KAJANG'];
    // The total alone printed (or read by OCR) with a comma among amounts with points.
    const misread = body('.').map(([label, amount]): [string, string] => [label, label === 'TOTAL' ? '14,50' : amount]);
    expect((await fill({ header, meta: ['12/03/2018'], body: misread })).total).toBe('14.50');
    expect((await fill({ header, meta: ['12/03/2018'], body: body(',') })).total).toBe('14,50');
  });

  it('is the last total before the lines that settle the bill, not a tax summary printed after them', async () => {
    const { spec, truth } = receipt(/paid by card, a tax summary/);
    expect(await amountsOf(spec)).toEqual(expect.arrayContaining([{ label: 'Total', amount: 15.03 }, { label: 'Total', amount: 12.2 }]));
    expect((await fill(spec)).total).toBe(truth.total);
  });
});

describe('receipts in Malay', () => {
  it('reads Jumlah as the total, Tunai as cash tendered and Baki as the change', async () => {
    const { spec, truth } = receipt(/Malay labels/);
    expect(await amountsOf(spec)).toEqual([
      { label: 'JUMLAH', amount: 11.7 },
      { label: 'TUNAI', amount: 20 },
      { label: 'BAKI', amount: 8.3 },
    ]);
    expect((await fill(spec)).total).toBe(truth.total);
  });
});

describe('the seller and its address', () => {
  it('is the name printed above the address, not a name printed higher up', async () => {
    const { spec, truth } = receipt(/A person above the seller/);
    const data = await fill(spec);
    expect(data.company).toBe(truth.company);
    expect(data.address).toBe(truth.address);
  });

  it('is a name, not the number a "Company No" label prints', async () => {
    const { spec, truth } = receipt(/labelled "Company No"/);
    const data = await fill(spec);
    expect(data.company).toBe(truth.company);
    expect(data.address).toBe(truth.address);
  });

  it('is the name with a legal suffix above the address; an outlet name between them is no part of the address', async () => {
    const { spec, truth } = receipt(/An outlet name between the seller/);
    const data = await fill(spec);
    expect(data.company).toBe(truth.company);
    expect(data.address).toBe(truth.address);
  });

  it('is the shop named above the address, not the company owning it named after it', async () => {
    const { spec, truth } = receipt(/A shop named at the top/);
    const data = await fill(spec);
    expect(data.company).toBe(truth.company);
    expect(data.address).toBe(truth.address);
  });

  it("begins the address with a line naming a street where none opens like an address (a building's name first)", async () => {
    const { spec, truth } = receipt(/An address opening with a building's name/);
    const data = await fill(spec);
    expect(data.company).toBe(truth.company);
    expect(data.address).toBe(truth.address);
  });

  it("ends the address with its postcode's place: the town and state under a postcode ending its line, the state under one with its town", async () => {
    for (const name of [/A postcode ending its line/, /a postcode with its town, the state, then a station/, /A heading right under the postcode line/]) {
      const { spec, truth } = receipt(name);
      expect((await fill(spec)).address).toBe(truth.address);
    }
  });
});

describe('what reads as an address', () => {
  it('begins with a house, lot, unit or floor number, or a street', () => {
    for (const line of ['12, JALAN TAMPOI 7/4', '176 JLN SUNGEI BESI,', 'NO.37-1, PLAZA DANAU DESA 2,', '3RD FLR, AEON TAMAN MALURI SC', 'JALAN LAPANGAN TERBANG SUBANG', 'Blk 123 Ang Mo Kio Avenue 3', '14 High Street', 'LOT 6, JALAN BATAI,', 'G-23, JALAN SS 2/24,', 'JALAN 109F, TAMAN DANAU DESA,']) {
      expect(opensAddress(line), line).toBe(true);
    }
    for (const line of ['99 SPEED MART (519537-X)', '10 JUN 2018 18:23', 'SUSHI MENTAI PLAZA DANAU', 'IKEA CHERAS', '(81109-A)', 'TAX INVOICE', 'DR. TAN CLINIC']) {
      expect(opensAddress(line), line).toBe(false);
    }
  });

  it('has a postcode where a number of four to six digits is no house or lot number', () => {
    for (const line of ['81100 JOHOR BAHRU,', 'CHERAS, 55100 KUALA LUMPUR', '53200, KUALA LUMPUR.', 'Singapore 560123', 'Oxford OX1 4AB', 'TAMPOI,81200 JOHOR BAHRU,JOHOR']) {
      expect(hasPostcode(line), line).toBe(true);
    }
    for (const line of ['LOT 34817 JALAN BATU AMBAR', 'LOT P.T. 2811, JALAN ANGSA,', '12345 Main Street', 'SELANGOR 1214-JINJANG UTARA', 'JALAN PUTERI 1/1, BDR PUTERI', 'NO 290, JALAN AIR PANAS,']) {
      expect(hasPostcode(line), line).toBe(false);
    }
  });
});

describe('values read from key/values', () => {
  it('are cited by the line printing the part of the value used, when the pair as read is not the page\'s words', async () => {
    // OCR read "Date" with the time of the line below as one pair; the date itself is printed whole.
    const box = { left: 0.1, top: 0.2, width: 0.5, height: 0.02 };
    const page: PageOutputs = {
      page: 1,
      text: 'IKANO HANDEL SDN BHD\n\nDate: 25/04/18 Staff:\n\nTime: 11:06\n\nTotal 22.00',
      wordCount: 9,
      tables: [],
      keyValues: { Date: { value: 'Time: 11:06 25/04/18', key_confidence: 80, value_confidence: 80, selection_status: null, bbox: box } },
      layout: [],
      markdown: null,
    };
    const data = await extract([page], { schema: RECEIPT_SCHEMA });
    expect(data.date).toBe('25/04/18');
  });
});

/** A scanned page as OCR and the layout give it: each piece a layout element of one printed
 * line, at its place (fractions of the page), in the reading order given. */
function scannedPage(pieces: { text: string; top: number; left: number }[]): PageOutputs {
  // A character is about 0.019 of the page's width and a line 0.02 of its height, as on a till roll.
  const bbox = (p: { text: string; top: number; left: number }) => ({ left: p.left, top: p.top, width: p.text.length * 0.019, height: 0.02 });
  return {
    page: 1,
    text: pieces.map((p) => p.text).join('\n\n'),
    wordCount: pieces.reduce((n, p) => n + p.text.split(' ').length, 0),
    tables: [],
    keyValues: {},
    layout: pieces.map((p, i) => ({ type: 'paragraph', text: p.text, bbox: bbox(p), reading_order: i, lines: [{ text: p.text, bbox: bbox(p) }] })),
    markdown: null,
  };
}

describe('a printed line the OCR split at wide word gaps', () => {
  // The seller's name in four pieces, the address's first line in two read right piece first,
  // the date in two: each piece its own block in the page text.
  const page = scannedPage([
    { text: 'KEDAI', top: 0.05, left: 0.2 },
    { text: 'RUNCIT SRI MAJU', top: 0.05, left: 0.33 },
    { text: 'SDN', top: 0.05, left: 0.65 },
    { text: 'BHD', top: 0.05, left: 0.73 },
    { text: '(123456-X)', top: 0.085, left: 0.4 },
    { text: 'JALAN MAWAR 3,', top: 0.118, left: 0.43 },
    { text: 'NO 12,', top: 0.117, left: 0.29 },
    { text: 'TAMAN SERI INDAH,', top: 0.15, left: 0.33 },
    { text: '43000 KAJANG, SELANGOR.', top: 0.182, left: 0.27 },
    { text: 'TEL: 03-8736 1234', top: 0.215, left: 0.33 },
    { text: 'INVOICE NO: CS-00123', top: 0.28, left: 0.07 },
    { text: 'DATE: 25 Dec', top: 0.31, left: 0.07 },
    { text: '2018 14:05', top: 0.31, left: 0.32 },
    { text: 'TOTAL', top: 0.5, left: 0.07 },
    { text: '30.40', top: 0.5, left: 0.8 },
  ]);

  it('is read whole again: the seller, the address in the order printed, the date', async () => {
    expect(page.text).toContain('JALAN MAWAR 3,\n\nNO 12,');
    const data = await extract([page], { schema: RECEIPT_SCHEMA });
    expect(data).toEqual({ company: 'KEDAI RUNCIT SRI MAJU SDN BHD', address: 'NO 12, JALAN MAWAR 3, TAMAN SERI INDAH, 43000 KAJANG, SELANGOR.', date: '25 Dec 2018', total: '30.40' });
  });
});
