// Which faces are monospaced, measured on the page rather than guessed from their names: a face
// sets every character at one advance, so its words are as wide as their letters times that
// advance, whatever the letters; in a proportional face "ill" is a third as wide as "mmm". Files name
// their faces as they please (a house face for listings, "F3", a subset tag), and the name alone
// misses them. Only words of printable ASCII, mostly letters, are measured (figures are set at one
// advance in most faces, to line up in tables), and a face is judged only when it sets
// mostly such words: CJK faces set their ideographs at one advance too, and many set their Latin
// letters half as wide, yet a page of them is no listing.
import type { RawPage } from '../page-model.js';

/**
 * Per face, some of its distinct words with their advance per character (hundredths of the font
 * size; -1 for a word not measured: not ASCII). The worker keeps one per page until the document's
 * statistics are made, so it keeps few words.
 */
export type PitchTally = [font: string, words: [advance: number, word: string][]][];

/** Words of fewer characters say little of the advance (one glyph's side bearings weigh in). */
const MIN_CHARS = 3;
/** A face is judged on this many distinct measured words at least (a word repeated, "Yes" down a column, is one). */
const MIN_WORDS = 6;
/** Share of a face's words that must be ASCII for it to be judged. */
const ASCII_SHARE = 0.9;
/** Share of its measured words at its commonest advance, to the hundredth of a size either way, that makes a face monospaced. */
const ONE_ADVANCE_SHARE = 0.8;
/** Words a page tally keeps per face: twice what judging a face asks, few to keep for every page. */
const PER_FACE = 2 * MIN_WORDS;

const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;
/** Letters a proportional face sets narrow, and wide. */
const NARROW = /[iljtfI]/;
const WIDE = /[mwMW]/;

/** A page's distinct words by face with their advance per character; OCR's boxes are the engine's, not the font's, and are not measured. */
export function pitchTally(page: Pick<RawPage, 'words' | 'textSource'>): PitchTally {
  if (page.textSource === 'ocr') return [];
  const seen = new Map<string, Map<string, number>>();
  for (const word of page.words) {
    if (word.turn || word.letterSpacing || !(word.fontSize > 0)) continue;
    const chars = [...word.text].length;
    if (chars < MIN_CHARS) continue;
    const ascii = PRINTABLE_ASCII.test(word.text);
    // Figures say nothing: most faces set them at one advance, so that they line up in tables.
    if (ascii && (word.text.match(/[A-Za-z]/g) ?? []).length * 2 < chars) continue;
    const face = seen.get(word.fontName) ?? new Map<string, number>();
    seen.set(word.fontName, face);
    if (face.size < PER_FACE && !face.has(word.text)) face.set(word.text, ascii ? Math.round(((word.box.x1 - word.box.x0) / chars / word.fontSize) * 100) : -1);
  }
  return [...seen].map(([font, face]) => [font, [...face].map(([text, advance]): [number, string] => [advance, text])]);
}

/** The faces the tallies of a document's pages show to be monospaced. */
export function monospacedFaces(tallies: PitchTally[]): string[] {
  const byFace = new Map<string, Map<string, number>>();
  for (const tally of tallies) {
    for (const [font, measured] of tally) {
      const face = byFace.get(font) ?? new Map<string, number>();
      for (const [advance, text] of measured) if (!face.has(text)) face.set(text, advance);
      byFace.set(font, face);
    }
  }
  const faces: string[] = [];
  for (const [font, face] of byFace) {
    const advances = new Map<number, number>();
    let measured = 0;
    for (const advance of face.values()) {
      if (advance < 0) continue;
      measured++;
      advances.set(advance, (advances.get(advance) ?? 0) + 1);
    }
    if (measured < MIN_WORDS || measured < face.size * ASCII_SHARE) continue;
    let commonest = -1;
    for (const [advance, n] of advances) if (commonest < 0 || n > advances.get(commonest)!) commonest = advance;
    const atOne = (advances.get(commonest - 1) ?? 0) + advances.get(commonest)! + (advances.get(commonest + 1) ?? 0);
    if (atOne < measured * ONE_ADVANCE_SHARE) continue;
    // Only narrow and wide letters at one advance tell a monospaced face: capitals alone ("EUR",
    // "USD", "GBP") are near one width in a proportional face too.
    const alike = [...face].filter(([, advance]) => advance >= 0 && Math.abs(advance - commonest) <= 1).map(([text]) => text);
    if (alike.some((t) => NARROW.test(t)) && alike.some((t) => WIDE.test(t))) faces.push(font);
  }
  return faces.sort();
}
