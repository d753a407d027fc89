// Synthetic words for unit tests of layout analysis: boxes have the origin at the top-left and y
// growing downwards (page-model.ts); a character is half the font size wide, a word one font
// size tall.
import type { Word } from '../../src/pipeline/page-model.js';

export interface WordOptions {
  size?: number;
  bold?: boolean;
  hyphenated?: boolean;
  confidence?: number;
}

export function word(text: string, x0: number, y0: number, { size = 10, bold = false, hyphenated = false, confidence = 100 }: WordOptions = {}): Word {
  return {
    text,
    box: { x0, y0, x1: x0 + text.length * size * 0.5, y1: y0 + size },
    fontName: bold ? 'Helvetica-Bold' : 'Helvetica',
    fontSize: size,
    bold,
    italic: false,
    confidence,
    hyphenated,
  };
}

/** The words of `text` from x0, a word gap (0.3 x the font size) apart. */
export function lineWords(text: string, x0: number, y0: number, options: WordOptions = {}): Word[] {
  const size = options.size ?? 10;
  const out: Word[] = [];
  let x = x0;
  for (const t of text.split(' ')) {
    const w = word(t, x, y0, options);
    out.push(w);
    x = w.box.x1 + size * 0.3;
  }
  return out;
}
