// The order in which a file draws its words. TeX, word processors and most other producers draw a
// page's text in the order it is read, and where they do, that order reads what geometry sorts
// badly: a display formula's numerator, denominator, matrix entries and braces, an inline
// fraction's pieces, a drawing's labels. Geometry still finds the lines and blocks and the order
// between blocks (reading-order.ts); this module decides whether a page's drawing order can be
// trusted inside them, joins the pieces of one formula into one block, and puts a block's lines in
// drawing order (analyze-page.ts's blockText then reads its words in that order).
import { unionBox, verticalOverlap, type Block, type Box, type Line, type Word } from '../page-model.js';

/**
 * Least share of drawn words that continue the word drawn before them (rightwards on its line, or
 * on a line just below) for the drawing order to be trusted. On the corpus, pages drawn in order
 * score 0.7-1 (a page of formulas and figure labels 0.43); the same pages shuffled score 0.03-0.16,
 * up to 0.32 on a page of a few lines.
 */
const IN_SEQUENCE_SHARE = 0.4;

/** Words of two letters or more that make a line running text. */
const PROSE_WORDS = 6;
/** Widest gap, in font sizes, between columns of an aligned display read row by row. */
const ROW_GAP = 8;

/** Whether the file draws the page's words in reading sequence (a page of at least a few words). */
export function drawsInSequence(words: Word[]): boolean {
  if (words.length < 8) return true;
  let continuing = 0;
  for (let i = 1; i < words.length; i++) {
    const a = words[i - 1].box;
    const b = words[i].box;
    const size = Math.max(words[i - 1].fontSize, words[i].fontSize, 1);
    const onLine = verticalOverlap(a, b) >= 0.5 && b.x0 >= a.x1 - 1 && b.x0 - a.x1 < size * 3;
    const justBelow = b.y0 >= a.y1 - 1 && b.y0 - a.y1 < size * 3;
    if (onLine || justBelow) continuing++;
  }
  return continuing >= (words.length - 1) * IN_SEQUENCE_SHARE;
}

/**
 * Blocks whose boxes touch and whose drawing ranges interleave are pieces of one block: a display
 * formula that the line and block finders cut into its numerator, denominator, rows and braces,
 * none continuing another geometrically. They become one block, read in drawing order. Blocks
 * side by side across a gutter never touch, so columns stay apart.
 */
export function joinInterleaved(blocks: Block[], lines: Line[], words: Word[], fontSize: number): Block[] {
  const ranges = blocks.map((block) => {
    let first = Infinity;
    let last = -Infinity;
    for (const l of block.lines) {
      for (const w of lines[l].words) {
        first = Math.min(first, w);
        last = Math.max(last, w);
      }
    }
    return { first, last };
  });
  const alive = blocks.map(() => true);
  const reach = fontSize * 0.5;
  const touch = (a: Box, b: Box) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > -reach && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > -reach;
  const interleave = (i: number, j: number) => ranges[i].first < ranges[j].last && ranges[j].first < ranges[i].last;
  // Blocks side by side whose drawing ranges interleave, without running text, are the columns of
  // an aligned display or a list of symbols and their meanings, drawn row by row: read as drawn,
  // across a wider gap. Columns of running text stay apart, however they are drawn.
  const prose = blocks.map((block) => block.lines.some((l) => lines[l].words.filter((w) => /\p{L}\p{L}/u.test(words[w].text)).length >= PROSE_WORDS));
  const drawnRowByRow = (i: number, j: number) => {
    const a = blocks[i].box;
    const b = blocks[j].box;
    return !prose[i] && !prose[j] && interleave(i, j) && verticalOverlap(a, b) >= 0.5 && Math.max(a.x0 - b.x1, b.x0 - a.x1) < fontSize * ROW_GAP;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < blocks.length; i++) {
      if (!alive[i]) continue;
      for (let j = 0; j < blocks.length; j++) {
        if (i === j || !alive[j]) continue;
        if (!(touch(blocks[i].box, blocks[j].box) && interleave(i, j)) && !drawnRowByRow(i, j)) continue;
        alive[j] = false;
        ranges[i] = { first: Math.min(ranges[i].first, ranges[j].first), last: Math.max(ranges[i].last, ranges[j].last) };
        blocks[i].lines.push(...blocks[j].lines);
        blocks[i].box = unionBox([blocks[i].box, blocks[j].box]);
        prose[i] ||= prose[j];
        changed = true;
      }
    }
  }
  return blocks.filter((_, i) => alive[i]);
}

/** A block's lines in the order their first words were drawn. */
export function linesInDrawingOrder(block: Block, lines: Line[]): number[] {
  const first = new Map(block.lines.map((l) => [l, Math.min(...lines[l].words)]));
  return [...block.lines].sort((a, b) => first.get(a)! - first.get(b)!);
}
