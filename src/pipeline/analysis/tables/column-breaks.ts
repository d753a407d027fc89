// Two tables of aligned text set one straight under the other, with nothing between them to part
// them (no caption, note, heading or double rule), read as one run of rows: the run is parted
// where its columns change. Each table's rows keep their own column gaps open, and where the
// second table starts, its rows run right across gaps the rows above all kept open, as the rows
// above run across its own. Within one table no cell's text runs from one column into the next:
// however its cells' lengths vary from row to row, a column's text stays within the column. One
// table's rows may leave part of a column empty (a gap above that text below fills), or start
// under a header whose cells span columns (a gap below that a header row or two cross): the
// change must hold both ways, in several rows of each part; a part of two rows (a header and one
// row), too few to run across gaps in several, instead sets text in both inside a gap that every
// row of the other part keeps open. So does a lower part of several rows in nearly all of them,
// wholly inside the gap, under an upper part of several that all keep the gap open, its header
// among them: a table's column holds its header's name at the top, and only its last rows (a
// subtotal, a tax, a total) leave columns empty, so a gap open above and filled below is a second
// table's column (a column's longer text reaches into it from the column's edge instead). And so
// do parts of several rows where nearly every row of one sets text beyond the edge of all the
// other's: a narrower table stacked with a wider one, whose rows stop short of its last columns
// (a total row fills the last column, and a header every column). One way, the lower part must
// hold figures in half its rows, as a second table of data does.
import type { Word } from '../../page-model.js';
import type { Row } from './gutters.js';

/** One part holds at least this many rows of two cells or more: fewer tell no columns. */
const MIN_ROWS = 3;
/** The other may hold two: a table's header and one row, or the piece a page break leaves. */
const MIN_PART = 2;
/** A column gap is at least this many font sizes wide. */
const MIN_GAP = 0.4;
/** At least this share of a part's rows (and MIN_ROWS of them) run across a gap of the other part. */
const CROSSING = 0.25;
/**
 * Or nearly all rows of the lower part set text wholly inside a gap that every row of the upper
 * keeps open: a table of narrow columns under one of wide columns whose text happens to fall within its
 * own columns (three over five), so that neither runs across the other's gaps.
 */
const WHOLLY = 0.8;

/**
 * The run of rows (top to bottom, of one page column) in parts, each [first, last] index into
 * `rows`, cut where its columns change; the whole run when they do not.
 */
export function partsByColumns(rows: Row[], size: number, words: Word[]): [number, number][] {
  const cut = bestCut(rows, size, words);
  if (cut === null) return [[0, rows.length - 1]];
  const shift = ([a, b]: [number, number]): [number, number] => [a + cut, b + cut];
  return [...partsByColumns(rows.slice(0, cut), size, words), ...partsByColumns(rows.slice(cut), size, words).map(shift)];
}

/**
 * The row the second table starts at, where the change of columns is clearest; null where none.
 * One-piece lines between the two tables' rows of cells (a cell's wrapped end, a header's
 * spanning label) change no score: they go with the table they stand closer to.
 */
function bestCut(rows: Row[], size: number, words: Word[]): number | null {
  const celled = rows.map((r) => r.chunks.length >= 2);
  const space = (at: number) => rows[at].box.y0 - rows[at - 1].box.y1;
  let best: { at: number; score: number } | null = null;
  for (let at = 1; at < rows.length; at++) {
    const above = rows.slice(0, at).filter((_, i) => celled[i]);
    const below = rows.slice(at).filter((_, i) => celled[at + i]);
    if (Math.min(above.length, below.length) < MIN_PART || Math.max(above.length, below.length) < MIN_ROWS) continue;
    // A part of two rows is set in columns of its own: the other part's rows run across its gaps,
    // and both its rows set text in a gap every row of the other part keeps open.
    const [gapsAbove, gapsBelow] = [gapsOf(above, size), gapsOf(below, size)];
    const down = below.length < MIN_ROWS ? occupied(gapsAbove, below) : mostInOneGap(gapsAbove, below, across, MIN_ROWS);
    const up = above.length < MIN_ROWS ? occupied(gapsBelow, above) : mostInOneGap(gapsBelow, above, across, MIN_ROWS);
    const several = Math.min(above.length, below.length) >= MIN_ROWS && holdsFigures(below, words);
    const inside = several ? Math.max(mostInOneGap(gapsAbove, below, wholly), beyondShare(above, below, size), beyondShare(below, above, size)) : 0;
    if ((down < CROSSING || up < CROSSING) && inside < WHOLLY) continue;
    const score = down + up + inside;
    if (!best || score > best.score || (score === best.score && space(at) > space(best.at))) best = { at, score };
  }
  return best?.at ?? null;
}

/** The gaps, as [from, to], between the leftmost and rightmost text of the rows, that no chunk of theirs covers. */
function gapsOf(rows: Row[], size: number): [number, number][] {
  const left = Math.min(...rows.map((r) => r.box.x0));
  const right = Math.max(...rows.map((r) => r.box.x1));
  const spans = rows.flatMap((r) => r.chunks).sort((a, b) => a.x0 - b.x0);
  const gaps: [number, number][] = [];
  let reach = left;
  for (const span of spans) {
    if (span.x0 - reach >= size * MIN_GAP) gaps.push([reach, span.x0]);
    reach = Math.max(reach, span.x1);
  }
  return gaps.filter(([, to]) => to < right);
}

/** Where a piece of text stands against a gap [from, to]. */
type Stands = (piece: { x0: number; x1: number }, from: number, to: number) => boolean;
/** Right across it, from one side to the other. */
const across: Stands = (c, from, to) => c.x0 <= from && c.x1 >= to;
/**
 * Wholly inside it: a column's text longer in some rows than in others reaches into the gap its
 * short text leaves, from the column's own edge, and never stands wholly inside it.
 */
const wholly: Stands = (c, from, to) => c.x0 > from && c.x1 < to;
/** Inside it by its middle. */
const byMiddle: Stands = (c, from, to) => (c.x0 + c.x1) / 2 > from && (c.x0 + c.x1) / 2 < to;

/** The largest share of `rows` that set a piece of text so against one of the gaps; 0 where fewer than `least` rows do. */
function mostInOneGap(gaps: [number, number][], rows: Row[], stands: Stands, least = 1): number {
  let most = 0;
  for (const [from, to] of gaps) {
    const count = rows.filter((r) => r.chunks.some((c) => stands(c, from, to))).length;
    if (count >= least) most = Math.max(most, count / rows.length);
  }
  return most;
}

/** 1 where every one of `rows` sets text inside one gap (a chunk's middle between its ends), else 0. */
function occupied(gaps: [number, number][], rows: Row[]): number {
  return mostInOneGap(gaps, rows, byMiddle) === 1 ? 1 : 0;
}

/**
 * Whether half the rows after the first (a header's) hold a digit: one way, the change of columns
 * is taken only where the part below holds figures, as a second table of data does; the last
 * rows of one table whose figures a scan's reading lost stop short of its last columns too, and
 * hold none.
 */
function holdsFigures(rows: Row[], words: Word[]): boolean {
  const digits = (r: Row) => r.chunks.some((c) => c.words.some((w) => /\d/.test(words[w].text)));
  return rows.slice(1).filter(digits).length * 2 >= rows.length - 1;
}

/**
 * The share of `rows` that set a piece of text wholly beyond the text of every one of `others`,
 * right of its right end or left of its left end: columns one table has and a narrower table
 * stacked with it has not.
 */
function beyondShare(rows: Row[], others: Row[], size: number): number {
  const left = Math.min(...others.map((r) => r.box.x0)) - size * MIN_GAP;
  const right = Math.max(...others.map((r) => r.box.x1)) + size * MIN_GAP;
  return rows.filter((r) => r.chunks.some((c) => c.x0 > right || c.x1 < left)).length / rows.length;
}
