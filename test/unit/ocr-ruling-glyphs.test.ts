// A table's vertical rule, where it passes a line of text, is read by the engine as a bar glyph;
// found in the picture as a ruling, it is left out of the words (scans/scan-words.ts).
import { describe, expect, it } from 'vitest';
import type { OcrWord } from '../../src/models/ocr/engine.js';
import type { Segment } from '../../src/pipeline/page-model.js';
import { withoutRulingGlyphs } from '../../src/pipeline/scans/scan-words.js';

const ocrWord = (text: string, x0: number, x1: number, y0 = 100, y1 = 130): OcrWord => ({ text, x0, y0, x1, y1, confidence: 80, line: '1.1.1.1', paragraph: '1.1.1' });

describe('words read from a ruling', () => {
  const rule: Segment = { x0: 400, y0: 50, x1: 400, y1: 600 };

  it('a bar glyph on a vertical ruling is the ruling, not a word', () => {
    const words = [ocrWord('Report', 200, 380), ocrWord('|', 397, 403), ocrWord('[', 398, 404, 140, 170), ocrWord('5.6%', 420, 500)];
    expect(withoutRulingGlyphs(words, [rule]).words.map((w) => w.text)).toEqual(['Report', '5.6%']);
  });

  it('a bar glyph away from any ruling, or a letter on one, stays', () => {
    const words = [ocrWord('I', 300, 306), ocrWord('|', 397, 403, 700, 730), ocrWord('A', 396, 410)];
    expect(withoutRulingGlyphs(words, [rule]).words.map((w) => w.text)).toEqual(['I', '|', 'A']);
    // A horizontal ruling through a glyph is an underline or a strike, not a bar read as text.
    expect(withoutRulingGlyphs([ocrWord('l', 397, 403)], [{ x0: 100, y0: 115, x1: 700, y1: 115 }]).words).toHaveLength(1);
  });

  it('bars in line with a ruling, one above another up to its top, are a stretch of it the picture lost', () => {
    // The rule found from y 300 down; the engine read bars on three lines above it, 40 px apart.
    const found: Segment = { x0: 400, y0: 300, x1: 400, y1: 600 };
    const bars = [ocrWord('|', 397, 403, 180, 210), ocrWord('l', 398, 404, 220, 250), ocrWord('|', 397, 403, 260, 290)];
    const stray = ocrWord('|', 397, 403, 20, 50);
    const read = withoutRulingGlyphs([ocrWord('Report', 200, 380, 180, 210), ...bars, stray], [found]);
    expect(read.words.map((w) => w.text)).toEqual(['Report', '|']);
    expect(read.segments).toEqual([{ x0: 400, y0: 180, x1: 400, y1: 600 }]);
    // Two tables one under the other, their column borders in line: the bar where the lower one's
    // border starts is its own, and the upper one's border does not run on down through it.
    const upper: Segment = { x0: 400, y0: 50, x1: 400, y1: 160 };
    const lower: Segment = { x0: 400, y0: 172, x1: 400, y1: 600 };
    const apart = withoutRulingGlyphs([ocrWord('|', 397, 403, 168, 200)], [upper, lower]);
    expect(apart.segments).toEqual([upper, lower]);
    expect(apart.words).toEqual([]);
  });
});
