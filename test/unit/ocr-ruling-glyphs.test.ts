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
    expect(withoutRulingGlyphs(words, [rule]).map((w) => w.text)).toEqual(['Report', '5.6%']);
  });

  it('a bar glyph away from any ruling, or a letter on one, stays', () => {
    const words = [ocrWord('I', 300, 306), ocrWord('|', 397, 403, 700, 730), ocrWord('A', 396, 410)];
    expect(withoutRulingGlyphs(words, [rule]).map((w) => w.text)).toEqual(['I', '|', 'A']);
    // A horizontal ruling through a glyph is an underline or a strike, not a bar read as text.
    expect(withoutRulingGlyphs([ocrWord('l', 397, 403)], [{ x0: 100, y0: 115, x1: 700, y1: 115 }])).toHaveLength(1);
  });
});
