// Extracted values are kept only when a quote on the cited page bears them out (issue 8); a
// number given as text is held to the quote's numbers as a number is (issue 23: the built-in
// engine's "8.50" for a receipt printing "RM8.50" was dropped, its words not being the quote's).
import { describe, expect, it } from 'vitest';
import { PageTexts } from '../../src/pipeline/extraction/grounding.js';
import { groundData } from '../../src/pipeline/extraction/result.js';
import type { PageOutputs } from '../../src/page-outputs/shapes.js';

const page: PageOutputs = { page: 1, text: 'Total Amount: RM8.48\nNett Total: RM8.50\nTotal 1,428.00 EUR', wordCount: 0, tables: [], keyValues: {}, layout: [], markdown: null };
const texts = new PageTexts([page]);
const kept = (value: unknown, quote: string) => groundData({ data: { total: value }, citations: [{ path: 'data.total', page: 1, quote, confidence: 0.9 }] }, null, texts).data.total;

describe('grounding of a number given as text', () => {
  it('keeps it where the quote prints that number, a currency against it or grouped', () => {
    expect(kept('8.50', 'Nett Total: RM8.50')).toBe('8.50');
    expect(kept('1428.00', 'Total 1,428.00 EUR')).toBe('1428.00');
    expect(kept(8.5, 'Nett Total: RM8.50')).toBe(8.5);
  });

  it('drops it where the quote prints another number', () => {
    expect(kept('8.50', 'Total Amount: RM8.48')).toBeUndefined();
    expect(kept('8.48', 'Nett Total: RM8.50')).toBeUndefined();
  });
});
