// Where the page's text columns part: the gutters the table finder keeps each search within
// (aligned.ts), told from lines of prose on either side of a band of white and none across it.
import type { Box, Word } from '../../page-model.js';
import { centerY } from '../lines.js';

/** Words of one visual row that stand together, between gaps wider than a cell's (aligned.ts). */
export interface Chunk {
  x0: number;
  x1: number;
  words: number[];
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
 * prose (six or more words in one chunk) on either side, none across them in the stretch of the
 * page where the two sides run beside each other, and fewer across them above or below that
 * stretch (a title or an abstract set across the columns) than beside them on either side. The
 * gap between two columns of a table's long cells is no gutter: the page's body runs across it.
 * Narrow columns set few lines of six words; there, five rows or more whose pieces on both sides
 * of the band are lines of three words or more tell the gutter, by the same rule. Its known cost:
 * a table filling a page with two neighbouring columns of such cells is searched as two.
 */
export function pageGutters(rows: Row[], words: Word[]): number[] {
  const prose = rows.flatMap((r) => r.chunks.filter((c) => c.words.length >= PROSE_WORDS).map((c) => ({ x0: c.x0, x1: c.x1, y: centerY(r.box), size: r.size })));
  const lineLike = (c: Chunk) => c.words.length >= 3 && c.words.filter((w) => /\p{L}{2}/u.test(words[w].text)).length >= 2;
  const texts = rows.flatMap((r) => r.chunks.filter(lineLike).map((c) => ({ x0: c.x0, x1: c.x1, y: centerY(r.box), size: r.size })));
  if (texts.length < 6) return [];
  const left = Math.min(...texts.map((c) => c.x0));
  const right = Math.max(...texts.map((c) => c.x1));
  const size = median(texts.map((c) => c.size));
  type Piece = { x0: number; x1: number; y: number };
  const separates = (before: Piece[], after: Piece[], across: Piece[], least: number) => {
    if (before.length < least || after.length < least) return false;
    const top = Math.max(Math.min(...before.map((c) => c.y)), Math.min(...after.map((c) => c.y)));
    const bottom = Math.min(Math.max(...before.map((c) => c.y)), Math.max(...after.map((c) => c.y)));
    return across.length < Math.min(before.length, after.length) && !across.some((c) => c.y >= top && c.y <= bottom);
  };
  // The gaps between two such lines next to each other in a row.
  const between = rows.flatMap((r) =>
    r.chunks.slice(1).flatMap((after, i) => (lineLike(r.chunks[i]) && lineLike(after) ? [{ x0: r.chunks[i].x1, x1: after.x0, y: centerY(r.box) }] : [])),
  );
  // How many of those lines cross each x, counted once for the page (a difference array).
  const from0 = Math.floor(left);
  const crossing = new Int32Array(Math.ceil(right) - from0 + 3);
  for (const c of texts) {
    crossing[Math.floor(c.x0) + 1 - from0]++;
    crossing[Math.ceil(c.x1) - from0]--;
  }
  for (let i = 1; i < crossing.length; i++) crossing[i] += crossing[i - 1];
  const open = (x: number) => {
    // Lines across the band must be fewer than those beside it on either side: where a third of
    // the page's lines cross it (inside a column of text), neither rule can hold.
    if (crossing[x - from0] * 3 >= texts.length) return false;
    const across = texts.filter((c) => c.x0 < x && c.x1 > x);
    if (prose.length >= 6 && separates(prose.filter((c) => c.x1 <= x), prose.filter((c) => c.x0 >= x), prose.filter((c) => c.x0 < x && c.x1 > x), 3)) return true;
    // Rows with a line of three words or more right before the band and another right after it.
    const level = between.filter((g) => g.x0 <= x && g.x1 >= x);
    return level.length >= 5 && separates(level, level, across, 5);
  };
  const gutters: number[] = [];
  let from: number | null = null;
  for (let x = Math.floor(left); x <= right + 1; x++) {
    if (x <= right && open(x)) {
      from ??= x;
      continue;
    }
    if (from !== null && x - from >= size) gutters.push((from + x - 1) / 2);
    from = null;
  }
  return gutters;
}
