// Where the page's text columns part: the gutters the table finder keeps each search within
// (aligned.ts), told from lines of prose on either side of a band of white and none across it;
// and the pieces the table finder cuts lines into (Chunk, Row, chunksOf), which the gutters read.
import type { Box, Word } from '../../page-model.js';
import { centerY } from '../lines.js';

/** Words of one visual row that stand together, between gaps wider than a cell's (aligned.ts). */
export interface Chunk {
  x0: number;
  x1: number;
  words: number[];
}

/** Words, left to right, into chunks: a word starts a new chunk where `splits` says so. */
export function chunksOf(indices: number[], words: Word[], splits: (chunk: Chunk, word: Word) => boolean): Chunk[] {
  const chunks: Chunk[] = [];
  for (const i of indices) {
    const w = words[i];
    const last = chunks[chunks.length - 1];
    if (last && !splits(last, w)) {
      last.words.push(i);
      last.x1 = Math.max(last.x1, w.box.x1);
    } else {
      chunks.push({ x0: w.box.x0, x1: w.box.x1, words: [i] });
    }
  }
  return chunks;
}

/** A visual row of words across the page, cut into chunks at wide gaps (visualRows). */
export interface Row {
  box: Box;
  size: number;
  chunks: Chunk[];
  bold: boolean;
}

/** A piece of a line with this many words or more is a line of prose. */
export const PROSE_WORDS = 6;

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * x positions of gutters between text columns of the page: bands with at least three lines of
 * prose (six or more words in one chunk) on either side, each the piece of its row next to the
 * band (a table's column of dates between its long labels and its long remarks is no page's
 * column, though its gaps are as clear as a gutter), none across them in the stretch of the
 * page where the two sides run beside each other, and fewer across them above or below that
 * stretch (a title or an abstract set across the columns) than beside them on either side. The
 * gap between two columns of a table's long cells is no gutter: the page's body runs across it.
 * Narrow columns set few lines of six words; there, five rows or more whose pieces on both sides
 * of the band are lines of three words or more tell the gutter, by the same rule. Its known cost:
 * a table filling a page with two neighbouring columns of such cells is searched as two.
 * Lines are read in pieces cut at their wide spaces (atWideSpaces), so two page columns set
 * barely a cell's gap apart are two pieces on every line, and a band half a font size wide is
 * wide enough: LaTeX sets its page columns 10 points apart whatever the type's size, under a
 * font size for 11- and 12-point type; the lines on both sides and none across are the evidence.
 */
export function pageGutters(visual: Row[], words: Word[]): number[] {
  const rows = visual.map((r) => ({ ...r, chunks: r.chunks.flatMap((c) => atWideSpaces(c, words, r.size)) }));
  const lineLike = (c: Chunk) => c.words.length >= 3 && c.words.filter((w) => /\p{L}{2}/u.test(words[w].text)).length >= 2;
  const isLine = rows.map((r) => r.chunks.map(lineLike));
  // Each piece with the reach of white beside it on its row: up to the next piece's start, back to the previous one's end.
  const pieces = rows.flatMap((r, k) =>
    r.chunks.map((c, i) => ({
      x0: c.x0,
      x1: c.x1,
      y: centerY(r.box),
      size: r.size,
      prose: c.words.length >= PROSE_WORDS,
      line: isLine[k][i],
      whiteFrom: r.chunks[i - 1]?.x1 ?? Number.NEGATIVE_INFINITY,
      whiteTo: r.chunks[i + 1]?.x0 ?? Number.POSITIVE_INFINITY,
    })),
  );
  const prose = pieces.filter((c) => c.prose);
  const texts = pieces.filter((c) => c.line);
  if (texts.length < 6) return [];
  const left = Math.min(...texts.map((c) => c.x0));
  const right = Math.max(...texts.map((c) => c.x1));
  const size = median(texts.map((c) => c.size));
  // Lines beside the band on each side (by their heights down the page) and across it: none across
  // where the two sides run together, and fewer across elsewhere than beside it on either side.
  const separates = (before: number[], after: number[], across: number[], least: number) => {
    if (before.length < least || after.length < least) return false;
    const top = Math.max(Math.min(...before), Math.min(...after));
    const bottom = Math.min(Math.max(...before), Math.max(...after));
    return across.length < Math.min(before.length, after.length) && !across.some((y) => y >= top && y <= bottom);
  };
  const heights = (list: { y: number }[]) => list.map((c) => c.y);
  // The gaps between two such lines next to each other in a row.
  const between = rows.flatMap((r, k) =>
    r.chunks.slice(1).flatMap((after, i) => (isLine[k][i] && isLine[k][i + 1] ? [{ x0: r.chunks[i].x1, x1: after.x0, y: centerY(r.box) }] : [])),
  );
  // How many of those lines cross each x, counted once for the page (a difference array).
  const from0 = Math.floor(left);
  const crossing = new Int32Array(Math.ceil(right) - from0 + 3);
  for (const c of texts) {
    crossing[Math.floor(c.x0) + 1 - from0]++;
    crossing[Math.ceil(c.x1) - from0]--;
  }
  for (let i = 1; i < crossing.length; i++) crossing[i] += crossing[i - 1];
  const across = (list: { x0: number; x1: number; y: number }[], x: number) => heights(list.filter((c) => c.x0 < x && c.x1 > x));
  const open = (x: number) => {
    // Lines across the band must be fewer than those beside it on either side: where a third of
    // the page's lines cross it (inside a column of text), neither rule can hold.
    if (crossing[x - from0] * 3 >= texts.length) return false;
    // A line of prose beside the band is the one next to it on its row: a column of dates or
    // figures between it and the band is a table's, whose long cells stand on either side.
    const besideBefore = prose.filter((c) => c.x1 <= x && c.whiteTo >= x);
    const besideAfter = prose.filter((c) => c.x0 >= x && c.whiteFrom <= x);
    if (prose.length >= 6 && separates(heights(besideBefore), heights(besideAfter), across(prose, x), 3)) return true;
    // Rows with a line of three words or more right before the band and another right after it:
    // each row is beside it on both sides at once.
    const level = heights(between.filter((g) => g.x0 <= x && g.x1 >= x));
    return separates(level, level, across(texts, x), 5);
  };
  const gutters: number[] = [];
  let from: number | null = null;
  for (let x = Math.floor(left); x <= right + 1; x++) {
    if (x <= right && open(x)) {
      from ??= x;
      continue;
    }
    if (from !== null && x - from >= size / 2) gutters.push((from + x - 1) / 2);
    from = null;
  }
  return gutters;
}

/**
 * A chunk cut where a space is more than twice its middle word space and half a font size wide:
 * two page columns set about a font size apart (LaTeX's default 10pt between columns of 10pt type)
 * join into one chunk wherever that gap falls just under a cell's (visual-rows.ts), though no
 * line spaces its own words so far apart.
 */
function atWideSpaces(chunk: Chunk, words: Word[], size: number): Chunk[] {
  if (chunk.words.length < 3) return [chunk];
  const spaces = chunk.words.slice(1).map((w, k) => words[w].box.x0 - words[chunk.words[k]].box.x1);
  const wide = Math.max(size * 0.5, median(spaces) * 2);
  return chunksOf(chunk.words, words, (piece, w) => w.box.x0 - piece.x1 > wide);
}
