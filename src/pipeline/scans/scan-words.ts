// The engine's words as page-model words: each line's type size measured from its letters, a
// hyphen ending a line marked as a break inside a word (as the PDF reader marks soft hyphens), and
// lines the engine read up or down the page marked as turned, the micro sign in a Greek word read
// as the letter it is, and the direction marks the engine adds left out.
//
// Tesseract finds text set up or down a page itself (a preprint's identifier in the margin, a
// side tab, a table's sideways header) and reads it, but its word boxes stay in the page's frame:
// such a line's words are taller than wide. Left upright, their height reads as a type size many
// times the body's (a heading) and they are laid out as if they ran across the page.
import type { OcrWord } from '../../models/ocr/engine.js';
import type { Segment, Word } from '../page-model.js';
import { textLines } from './line-sheet.js';

/** Words whose letters reach the capital or ascender line and none the descender line ("Abstract", "2024", "the"). */
const ASCENDING = /[A-Z0-9bdfhklt]/;
const DESCENDING = /[gjpqyQ,;()[\]{}|/_$@]/;
/** A capital's or an ascender's height as a share of the type size, in common text faces. */
const ASCENDER_SHARE = 0.72;

/**
 * A word of three letters or digits set across the page is never half again as tall as it is
 * wide (its height is a line's, its width at least three letters'); set along a vertical line,
 * it is two to five times taller.
 */
const VERTICAL_RATIO = 1.5;

/** How many letters and digits the word holds. */
function letterCount(w: OcrWord): number {
  return w.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
}

/**
 * The engine's lines read along a vertical line, with the quarter turn that makes them read left
 * to right: a line whose every word of three letters or more runs vertically. The engine gives a
 * line's words in reading order, so words climbing the page read upwards (90); descending, downwards
 * (270); a line of one word, most often a stamp read upwards, is taken to read so.
 */
export function turnedLines(words: OcrWord[]): Map<string, 90 | 270> {
  const turns = new Map<string, 90 | 270>();
  for (const { words: members } of textLines(words)) {
    const long = members.filter((w) => letterCount(w) >= 3);
    if (long.length === 0 || !long.every((w) => w.y1 - w.y0 >= (w.x1 - w.x0) * VERTICAL_RATIO)) continue;
    const first = members[0];
    const last = members[members.length - 1];
    turns.set(first.line, last.y0 + last.y1 > first.y0 + first.y1 ? 270 : 90);
  }
  return turns;
}

/**
 * The type size of each text line: from its words that reach the ascender line and not the
 * descender line, whose ink is about ASCENDER_SHARE of the size whatever else the line holds; from
 * its tallest word where it has none. A line's tallest word alone reads a heading without
 * descenders ("Abstract") as no larger than the body lines below it, which have both. A turned
 * line's words are measured across the line, as their width on the page.
 */
export function lineSizes(words: OcrWord[], turned: ReadonlyMap<string, number> = new Map()): Map<string, number> {
  const tallest = new Map<string, number>();
  const ascending = new Map<string, number[]>();
  for (const w of words) {
    const height = turned.has(w.line) ? w.x1 - w.x0 : w.y1 - w.y0;
    tallest.set(w.line, Math.max(tallest.get(w.line) ?? 0, height));
    const letters = w.text.replace(/^[^\p{L}\p{N}]+|[.:!?'"’”]+$/gu, '');
    if (letters.length >= 2 && ASCENDING.test(letters) && !DESCENDING.test(letters) && /^[\p{Script=Latin}\p{N}.-]+$/u.test(letters)) {
      (ascending.get(w.line) ?? ascending.set(w.line, []).get(w.line)!).push(height);
    }
  }
  const sizes = new Map<string, number>();
  for (const [line, height] of tallest) {
    const heights = (ascending.get(line) ?? []).sort((a, b) => a - b);
    sizes.set(line, heights.length ? heights[heights.length >> 1] / ASCENDER_SHARE : height * 0.95);
  }
  return sizes;
}

/** Direction marks (LRM, RLM, embeddings, isolates): the Hebrew and Arabic models put them after Latin words in a right-to-left line; they are not print. */
const BIDI_MARKS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The micro sign inside a Greek word is the letter mu: Tesseract's Greek model reads the two alike
 * and often answers the sign ("ηµέρα"), which no search for the word finds. Beside digits it stays
 * a unit ("5 µm").
 */
function greekMu(text: string): string {
  return text.includes('\u00b5') && /\p{Script=Greek}/u.test(text.replace(/\u00b5/g, '')) ? text.replace(/\u00b5/g, '\u03bc') : text;
}

/** The engine's words, in its reading order, as page-model words in the page's units (`scale` converts pixels). */
export function toWords(words: OcrWord[], scale: (v: number) => number): Word[] {
  const turns = turnedLines(words);
  const lineHeight = lineSizes(words, turns);
  const lineNumber = new Map<string, number>();
  const paragraphNumber = new Map<string, number>();
  const number = (keys: Map<string, number>, key: string) => keys.get(key) ?? keys.set(key, keys.size).get(key)!;
  for (const w of words) {
    number(lineNumber, w.line);
    number(paragraphNumber, w.paragraph);
  }
  return words.map((w, i) => {
    const endsLine = words[i + 1]?.line !== w.line;
    const hyphenated = endsLine && i + 1 < words.length && /\p{L}[-‐]$/u.test(w.text);
    const turn = turns.get(w.line);
    const text = greekMu(w.text.replace(BIDI_MARKS, ''));
    return {
      text: hyphenated ? text.slice(0, -1) : text,
      box: { x0: scale(w.x0), y0: scale(w.y0), x1: scale(w.x1), y1: scale(w.y1) },
      fontName: '',
      fontSize: scale(lineHeight.get(w.line) ?? (w.y1 - w.y0) * 0.95),
      bold: false,
      italic: false,
      confidence: Math.round(w.confidence),
      hyphenated,
      ocrLine: lineNumber.get(w.line),
      ocrParagraph: paragraphNumber.get(w.paragraph),
      ...(turn ? { turn } : {}),
    };
  });
}

/** Glyphs the engine reads a stretch of vertical ruling as. */
const BAR_GLYPHS = /^[|[\]!Il1]+$/;

/** Bar glyphs follow one another up a rule this many of their heights apart at most (a row's padding between two lines' bars). */
const BAR_STEP = 2;

/**
 * The words that are not a ruling read as text, and the vertical rulings with the stretches only
 * the engine saw: it reads a table's vertical rule, where it passes a line of text, as a bar
 * ("|", "[", "l"), which then stands in a cell as a word. A word of bar glyphs whose box a
 * vertical ruling found in the picture runs through, over most of its height, is that ruling;
 * print never lies on a rule. So are bars standing one above another in line with a ruling, each within
 * BAR_STEP of its heights of the ruling or of the next bar on to it: a faint stretch of the rule
 * that the picture's measure lost and the engine still read, which the ruling is drawn on through.
 */
export function withoutRulingGlyphs(words: OcrWord[], segments: Segment[]): { words: OcrWord[]; segments: Segment[] } {
  const vertical = segments.filter((s) => s.x0 === s.x1);
  if (vertical.length === 0) return { words, segments };
  const inLineWith = (s: Segment, w: OcrWord) => s.x0 >= w.x0 - 1 && s.x0 <= w.x1 + 1;
  const onRuling = (w: OcrWord) => vertical.some((s) => inLineWith(s, w) && Math.min(s.y1, w.y1) - Math.max(s.y0, w.y0) >= (w.y1 - w.y0) / 2);
  const bars = words.filter((w) => BAR_GLYPHS.test(w.text));
  const taken = new Set<OcrWord>(bars.filter(onRuling));
  const drawn = segments.map((s) => {
    if (s.x0 !== s.x1) return s;
    // Bars on or touching another ruling are that ruling's: the stretch between two rulings in
    // line (two tables' column borders) stays open.
    const another = (w: OcrWord) => vertical.some((r) => r !== s && inLineWith(r, w) && r.y0 <= w.y1 + 1 && r.y1 >= w.y0 - 1);
    const inLine = bars.filter((w) => !taken.has(w) && inLineWith(s, w) && !another(w)).sort((a, b) => a.y0 - b.y0);
    let [top, bottom] = [s.y0, s.y1];
    // On up the page from the ruling's top, and down from its foot, bar by bar.
    for (const w of inLine.filter((b) => b.y1 <= top + 1).reverse()) {
      if (top - w.y1 > (w.y1 - w.y0) * BAR_STEP) break;
      top = w.y0;
    }
    for (const w of inLine.filter((b) => b.y0 >= bottom - 1)) {
      if (w.y0 - bottom > (w.y1 - w.y0) * BAR_STEP) break;
      bottom = w.y1;
    }
    for (const w of inLine) if (w.y0 >= top - 1 && w.y1 <= bottom + 1) taken.add(w);
    return top === s.y0 && bottom === s.y1 ? s : { ...s, y0: top, y1: bottom };
  });
  return { words: words.filter((w) => !taken.has(w)), segments: drawn };
}
