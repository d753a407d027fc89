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

/** How wide lineWords sets `text` in type of `size`: its letters and the gaps between its words. */
export function lineWidth(text: string, size = 10): number {
  const parts = text.split(' ');
  return parts.reduce((sum, t) => sum + t.length * size * 0.5, 0) + (parts.length - 1) * size * 0.3;
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

/**
 * A letter's width in font sizes in a proportional face (about Helvetica's). The word helpers give
 * every letter half a size, which measures as a monospaced face (analysis/font-pitch.ts); tests of
 * what tells faces apart set their words with these widths instead.
 */
export function proportionalWidth(letter: string): number {
  return /[iljtf.,:;()'!|]/.test(letter) ? 0.28 : /[mwMW]/.test(letter) ? 0.85 : /[A-Z]/.test(letter) ? 0.66 : 0.52;
}

/** The words of one line set again from the first's left edge with proportional letters, in `fontName`. */
export function setProportionally(words: Word[], fontName: string): Word[] {
  let x = words[0].box.x0;
  return words.map((w) => {
    const x1 = x + [...w.text].reduce((sum, c) => sum + proportionalWidth(c), 0) * w.fontSize;
    const set = { ...w, fontName, box: { ...w.box, x0: x, x1 } };
    x = x1 + w.fontSize * 0.28;
    return set;
  });
}
