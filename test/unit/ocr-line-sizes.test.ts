// The type size of an OCR line is told from the words that reach the ascender line and not the
// descender line, so a heading without descenders reads larger than the body lines below it.
import { describe, expect, it } from 'vitest';
import type { OcrWord } from '../../src/models/ocr/engine.js';
import { lineSizes } from '../../src/pipeline/scans/scan-words.js';

/** A word's ink box for type of `size` pixels: capitals and ascenders 0.72 of it, descenders 0.22 below the baseline, x-height 0.5. */
function inked(text: string, x0: number, baseline: number, size: number, line: string): OcrWord {
  const top = /[A-Z0-9bdfhklt]/.test(text) ? 0.72 : 0.5;
  const bottom = /[gjpqy,]/.test(text) ? 0.22 : 0;
  return { text, x0, y0: baseline - top * size, x1: x0 + text.length * size * 0.5, y1: baseline + bottom * size, confidence: 95, line, paragraph: line };
}

describe('OCR line sizes (scans/scan-words.ts)', () => {
  it('a 14-pixel heading without descenders is larger than 10-pixel body lines with them', () => {
    const heading = ['Abstract', 'Results'].map((t, i) => inked(t, 100 + i * 80, 100, 14, 'h'));
    const body = ['the', 'quality', 'of', 'paper', 'was', 'good,', 'and', 'lightly', 'yellowed'].map((t, i) => inked(t, 100 + i * 40, 130, 10, 'b'));
    const sizes = lineSizes([...heading, ...body]);
    expect(sizes.get('h')! / sizes.get('b')!).toBeCloseTo(1.4, 1);
  });

  it('a line of no word reaching the ascender line alone is sized by its tallest word', () => {
    const sizes = lineSizes(['was', 'man', 'saw'].map((t, i) => inked(t, 100 + i * 40, 100, 10, 'x')));
    expect(sizes.get('x')).toBeCloseTo(5 * 0.95, 5);
  });
});
