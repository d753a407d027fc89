// Where a cited quote stands on its page (docs/decisions.md#beyond-the-spec: citations may carry the quote's `bbox`):
// the lines or table cells that hold it, not the whole block or table around it.
import { describe, expect, it } from 'vitest';
import { PageTexts } from '../../src/pipeline/extraction/grounding.js';
import { quoteSpan } from '../../src/page-outputs/text-matching.js';
import type { PageOutputs } from '../../src/page-outputs/shapes.js';

const box = (left: number, top: number, width = 0.5, height = 0.02) => ({ left, top, width, height });

function outputs(partial: Partial<PageOutputs>): PageOutputs {
  return { page: 1, text: '', wordCount: 0, tables: [], keyValues: {}, layout: [], markdown: null, ...partial };
}

const paragraph = {
  type: 'paragraph',
  text: 'The lease starts on 1 March 2024 and runs for two years. Rent is paid monthly in advance.',
  bbox: box(0.1, 0.1, 0.8, 0.1),
  reading_order: 0,
  lines: [
    { text: 'The lease starts on 1 March 2024 and', bbox: box(0.1, 0.1, 0.8) },
    { text: 'runs for two years. Rent is paid', bbox: box(0.1, 0.13, 0.7) },
    { text: 'monthly in advance.', bbox: box(0.1, 0.16, 0.3) },
  ],
};

const table = {
  rows: [
    ['Item', 'Amount'],
    ['Rent', '1,200.00'],
    ['Deposit', '2,400.00'],
  ],
  columns: 2,
  markdown: '',
  header_rows: 1,
  cells: [
    ['Item', 0, 0],
    ['Amount', 0, 1],
    ['Rent', 1, 0],
    ['1,200.00', 1, 1],
    ['Deposit', 2, 0],
    ['2,400.00', 2, 1],
  ].map(([text, row, column]) => ({ row: row as number, column: column as number, row_span: 1, column_span: 1, text: text as string, bbox: box(0.1 + (column as number) * 0.3, 0.5 + (row as number) * 0.05, 0.3, 0.05) })),
  bbox: box(0.1, 0.5, 0.6, 0.15),
  continued_from_previous_page: false,
  continues_on_next_page: false,
};

const page = outputs({
  text: `${paragraph.text}\n\n| Item | Amount |\n| Rent | 1,200.00 |\n| Deposit | 2,400.00 |`,
  layout: [paragraph, { type: 'table', text: '| Item | Amount |', bbox: table.bbox, reading_order: 1 }],
  tables: [table],
});

describe('PageTexts.locate', () => {
  const texts = new PageTexts([page]);

  it('gives the one line holding a quote', () => {
    expect(texts.locate(1, '1 March 2024')).toEqual(box(0.1, 0.1, 0.8));
  });

  it('gives the union of the lines a quote runs across', () => {
    expect(texts.locate(1, 'two years. Rent is paid monthly')).toEqual({ left: 0.1, top: 0.13, width: 0.7, height: 0.05 });
  });

  it('gives the table cell holding a value, not the table', () => {
    expect(texts.locate(1, '2,400.00')).toEqual(box(0.4, 0.6, 0.3, 0.05));
  });

  it('gives the cells of a row a quote spans', () => {
    expect(texts.locate(1, 'Rent 1,200.00')).toEqual({ left: 0.1, top: 0.55, width: 0.6, height: 0.05 });
  });

  it('falls back to the element when its lines are not stored (pages read before lines existed)', () => {
    const old = new PageTexts([outputs({ text: paragraph.text, layout: [{ ...paragraph, lines: undefined }] })]);
    expect(old.locate(1, '1 March 2024')).toEqual(paragraph.bbox);
  });

  it('gives null for words that are not on the page', () => {
    expect(texts.locate(1, 'five years')).toBeNull();
  });
});

describe('quoteSpan (the playground marks a cited quote in its page text)', () => {
  const mark = (text: string, quote: string) => {
    const span = quoteSpan(text, quote);
    return span && text.slice(span.start, span.end);
  };

  it('finds the quote across line breaks, runs of spaces and table pipes, as verification compares', () => {
    expect(mark('The lease starts on\n1 March   2024.', '1 March 2024')).toBe('1 March   2024');
    expect(mark('| Pooled | 23889 | 30.9 |\n| --- |', 'Pooled 23889 30.9')).toBe('Pooled | 23889 | 30.9');
  });

  it('matches typographic quotes and dashes, and accents written as combining marks', () => {
    // Punctuation at the quote's ends does not count (normalizeQuote), so the mark starts at the word.
    expect(mark('He said \u201cpaid in full\u201d \u2014 twice.', '"paid in full" - twice')).toBe('paid in full\u201d \u2014 twice');
    expect(mark('Caf\u0065\u0301 au lait', 'Caf\u00e9 au lait')).toBe('Caf\u0065\u0301 au lait');
  });

  it('keeps to word boundaries and gives null when the words are not there', () => {
    expect(mark('total 12 and 125', '12')).toBe('12');
    expect(quoteSpan('total 125', '12')).toBeNull();
    expect(quoteSpan('anything', '')).toBeNull();
  });

  it('agrees with verification on the page text', () => {
    const texts = new PageTexts([page]);
    for (const quote of ['1 March 2024', 'Rent 1,200.00', 'two years. Rent is paid']) {
      expect(texts.verify(1, quote)).toBe(true);
      expect(quoteSpan(page.text, quote)).not.toBeNull();
    }
  });
});
