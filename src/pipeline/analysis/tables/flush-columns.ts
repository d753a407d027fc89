// Columns that meet with no more than a word space between them: a column of figures set flush
// right, then a column of words set flush left one space after it ("67,049.60 charge"), as
// word processors and tightly padded tables set them. No band of white stays open between the
// two, so the gaps of aligned.ts do not part them; but their edges line up row after row, the
// figures' right edges at one x and the words' left edges a space further on, which neither the
// words of prose nor those of one column do.
import type { Word } from '../../page-model.js';
import type { Row } from './gutters.js';
import { LIST_MARKER } from '../markers.js';

/** A section's number in an outline: "2.1", "3.1.1", "4.". */
const SECTION_NUMBER = /^\d{1,3}(?:\.\d{1,3})+\.?$|^\d{1,3}\.$/;

/** How far apart, in font sizes, two edges may stand and still line up. */
const EDGE_TOLERANCE = 0.1;

/**
 * The spaces, as [right edge of the word before, left edge of the word after], where the rows'
 * words part into two columns flush against each other: half the rows (three at least) hold a
 * word ending at the one x and the next word starting at the other; the words before do not all
 * start at one place and no more than half the words after end at one place (a bullet or a
 * repeated word before text lines up on both of its edges, and so does a year ending a date set
 * flush right, "16 April 2017", or a right-to-left line's first words); and most words before
 * are not sections' numbers starting at one place (an outline or a table of contents: "2.1
 * Partial total").
 */
export function flushGaps(rows: Row[], words: Word[], size: number): [number, number][] {
  const tolerance = size * EDGE_TOLERANCE;
  const needed = Math.max(3, Math.ceil(rows.length / 2));
  // Only a figure (a word without letters) beside a word counts: two words of text meeting at
  // the same places row after row are lines of text whose words happen to line up (short lines
  // set flush right, as right-to-left ones are, do so often).
  const figure = (i: number) => !/\p{L}/u.test(words[i].text);
  const pairs = rows.map((row) =>
    row.chunks.flatMap((chunk) => chunk.words.slice(1).map((after, k) => ({ before: chunk.words[k], after }))).filter((p) => figure(p.before) || figure(p.after)),
  );
  const at = (right: number, left: number) => (p: { before: number; after: number }) =>
    Math.abs(words[p.before].box.x1 - right) <= tolerance && Math.abs(words[p.after].box.x0 - left) <= tolerance;
  const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
  const mostlyAligned = (xs: number[]) => Math.max(...xs.map((x) => xs.filter((y) => Math.abs(y - x) <= tolerance).length)) > xs.length / 2;
  const found: [number, number][] = [];
  for (const row of pairs) {
    for (const { before, after } of row) {
      const [right, left] = [words[before].box.x1, words[after].box.x0];
      if (left <= right || isFlushSpace(right, left, found, size)) continue;
      const matches = pairs.map((r) => r.find(at(right, left))).filter((p) => p !== undefined);
      if (matches.length < needed) continue;
      if (spread(matches.map((p) => words[p.before].box.x0)) <= tolerance || mostlyAligned(matches.map((p) => words[p.after].box.x1))) continue;
      // Most words before are the numbers of an outline's sections, starting at one place.
      const leading = matches.map((p) => words[p.before]);
      const numbering = leading.filter((w) => LIST_MARKER.test(w.text) || SECTION_NUMBER.test(w.text));
      if (numbering.length > leading.length / 2 && numbering.filter((w) => Math.abs(w.box.x0 - numbering[0].box.x0) <= tolerance).length > numbering.length / 2) continue;
      found.push([right, left]);
    }
  }
  return found;
}

/** Whether the space from `from` to `to` between two words is one of the flush gaps among `gaps`. */
export function isFlushSpace(from: number, to: number, gaps: [number, number][], size: number): boolean {
  const tolerance = size * EDGE_TOLERANCE;
  return gaps.some(([a, b]) => Math.abs(a - from) <= tolerance && Math.abs(b - to) <= tolerance);
}
