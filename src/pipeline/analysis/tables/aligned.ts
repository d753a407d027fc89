// Tables without drawn cell borders, found from how their words line up: runs of text rows that
// break into several chunks at wide gaps, where the gaps of the rows line up into columns that no
// row crosses. Horizontal rules (booktabs style) mark the header and the table's ends when present.
// Multi-line cells are joined back into one row when a row continues the one above it, told by
// the pitch of the lines where it tells (wrappedLines). A table keeps to its page column, unless
// its rows run across the gutter as a table's do (acrossGutters); the gutters are gutters.ts's.
import { type Box, type Segment, type Word } from '../../page-model.js';
import type { GridTable } from './grid.js';
import { CAPTION_LABEL, LIST_MARKER, TABLE_CAPTION_LABEL } from '../markers.js';
import { centerX, centerY } from '../lines.js';
import { HEADING_SIZE } from '../document-stats.js';
import type { CodeFace } from '../code-and-formulas.js';
import { chunksOf, median, pageGutters, PROSE_WORDS, type Chunk, type Row } from './gutters.js';
import { flushGaps, isFlushSpace } from './flush-columns.js';
import { visualRows, WIDE_SPACE } from './visual-rows.js';
import { partsByColumns } from './column-breaks.js';
import { figuresLevel, spacing, startsLabel, wrappedLines } from './line-pitches.js';
import { alignedCells, columnAt } from './aligned-cells.js';
import { brokeWithin, CELL_WORDS, lineBreak, contents, justifiedLine, labelledValues, mostlyLines, numberedLines, paragraphInColumn, runningText } from './look-alikes.js';

export type { Chunk, Row };

/** The page the tables are searched on: its size, and its prose leading as a share of the type size (visual-rows.ts proseLeading). */
export interface TablePage {
  width: number;
  height: number;
  leading: number | null;
  /** The lines of the page's table notes ("Note: ..."), each of which closes the table above it. */
  notes?: Box[];
  /** The page's horizontal lines as drawn (rules, not the edges of fills). */
  lines?: Segment[];
}

/** Lines this many times the page's leading apart, or more, are not one cell's (a cell's text wraps at the leading of the text around it). */
const ROW_SPACING = 1.2;

/** Whether two lines of a table, `pitch` apart in type of `size`, stand further apart than the page's prose `leading` lets one cell's lines stand. */
export function apartByLeading(pitch: number, size: number, leading: number | null): boolean {
  return leading !== null && pitch > leading * size * ROW_SPACING;
}

/** Rows further apart than this many line heights do not belong to one table. */
const ROW_GAP = 2.2;
/** Pieces whose type sizes differ by more than this share of the larger are not of one table. */
const SAME_SIZE = 0.15;

export function alignedGrids(words: Word[], available: number[], horizontalRules: Segment[], page: TablePage, codeFace: CodeFace = () => false): GridTable[] {
  // Running headers and footers (a page number across from a title) are not table rows.
  // A row of three cells or more in that band, set close over (or under) a row of as many, is a
  // table's first (or last) row on a page with narrow margins.
  const inBody = (r: Row, i: number, all: Row[]) => {
    const top = r.box.y0 <= page.height * 0.06;
    if (!top && r.box.y1 < page.height * 0.94) return true;
    const neighbour = top ? all[i + 1] : all[i - 1];
    if (!neighbour || r.chunks.length < 3 || neighbour.chunks.length !== r.chunks.length) return false;
    const gap = top ? neighbour.box.y0 - r.box.y1 : r.box.y0 - neighbour.box.y1;
    return gap <= Math.max(r.size, neighbour.size) * ROW_GAP;
  };
  const rows = visualRows(words, available).filter(inBody);
  // A table keeps to its page column: each is searched alone, and tables across them apart.
  const gutters = pageGutters(rows, words);
  if (gutters.length === 0) return gridsIn(rows, words, horizontalRules, page, codeFace);
  const bounds = [-Infinity, ...gutters, Infinity];
  const grids: GridTable[] = [];
  for (let g = 0; g + 1 < bounds.length; g++) {
    const side = available.filter((i) => {
      const cx = (words[i].box.x0 + words[i].box.x1) / 2;
      return cx > bounds[g] && cx < bounds[g + 1];
    });
    grids.push(...gridsIn(visualRows(words, side).filter(inBody), words, horizontalRules, page, codeFace));
  }
  // A table across the gutter replaces the grids of the page columns it meets when it is at least
  // half as tall as each of them; a shorter one is a stretch of a column's table, and goes.
  const meets = (a: Box, b: Box) => overlapsX(a, b) && a.y0 < b.y1 && b.y0 < a.y1;
  const tall = (b: Box) => b.y1 - b.y0;
  const spanning = acrossGutters(rows, gutters, words, horizontalRules, page, codeFace).filter((s) => grids.every((grid) => !meets(s.box, grid.box) || tall(s.box) >= tall(grid.box) / 2));
  return [...spanning, ...grids.filter((grid) => !spanning.some((s) => meets(s.box, grid.box)))];
}

/**
 * Tables set across the gutter, their labels in one page column and their figures in the other:
 * grids of the rows that hold no line of prose (a row may hold one long cell among two or more
 * others), searched across the whole page, with no such line among their rows, whose every row
 * (with its wrapped lines) has text on both sides of each gutter it crosses or standing across it
 * (lines of two page columns that merely share their baselines fall out of step with each other
 * within a few rows), set as cells in each page column.
 */
function acrossGutters(rows: Row[], gutters: number[], words: Word[], horizontalRules: Segment[], page: TablePage, codeFace: CodeFace): GridTable[] {
  // A line of prose fills its page column, and its neighbour across the gutter another; a table's
  // row may hold one long cell among short ones. Narrow page columns hold fewer words a line than
  // a long cell: there, a row whose text in every page column it meets is one line of words
  // spaced alike (justifiedLine) is prose, where a table's row holds cells apart or figures.
  const linesOfText = (r: Row) => {
    const pieces = piecesBetween(r, gutters, words).filter((piece) => piece.length > 0);
    return pieces.length >= 2 && pieces.every((piece) => justifiedLine(piece, words));
  };
  const plain = rows.filter((r) => {
    const long = r.chunks.filter((c) => c.words.length >= PROSE_WORDS).length;
    return (long === 0 || (long === 1 && r.chunks.length >= 3)) && !linesOfText(r);
  });
  const prose = rows.filter((r) => !plain.includes(r));
  return gridsIn(plain, words, horizontalRules, page, codeFace).filter((grid) => {
    const crossed = gutters.filter((x) => grid.box.x0 < x && grid.box.x1 > x);
    if (crossed.length === 0) return false;
    // Its rows follow each other: a line of prose between two of them belongs to a page column,
    // unless it keeps inside the table's first column (a long label wrapped onto a line alone;
    // the border after that column may run along the widest label's end).
    const labelsEnd = Math.min(...grid.cells.filter((c) => c.column === 1).map((c) => c.box.x0));
    if (prose.some((r) => centerY(r.box) > grid.box.y0 && centerY(r.box) < grid.box.y1 && r.box.x1 > labelsEnd + r.size * 0.5)) return false;
    // Each of its rows, its wrapped lines with it, holds text on both sides of every gutter it
    // crosses; the first may stand on one side alone (a header's line of units over one column),
    // and so may a row between two that do (a label, a cell spanning two header rows set between
    // them): lines of two page columns out of step leave runs of such rows.
    const rowsOfGrid = Array.from({ length: grid.rowCount }, (_, r) => {
      const band = grid.cells.find((c) => c.row === r)!.box;
      return plain.filter((line) => centerY(line.box) > band.y0 && centerY(line.box) < band.y1).flatMap((line) => line.chunks);
    });
    // (A cell standing across the gutter holds text on both sides: no line of prose does.)
    const bothSides = (chunks: Chunk[], x: number) => chunks.some((c) => c.x0 < x && c.x1 > x) || (chunks.some((c) => c.x1 < x) && chunks.some((c) => c.x0 > x));
    const spread = rowsOfGrid.map((chunks) => crossed.every((x) => bothSides(chunks, x)));
    if (!spread.every((both, r) => both || r === 0 || (spread[r - 1] && spread[r + 1] === true))) return false;
    // In each page column its pieces are cells, not lines of text (mostlyLines), in the type of
    // the others (short lines of prose or of code beside a table in the next page column are not).
    const bounds = [-Infinity, ...crossed, Infinity];
    const sides = bounds.slice(1).map((to, b) => rowsOfGrid.flat().filter((c) => (c.x0 + c.x1) / 2 > bounds[b] && (c.x0 + c.x1) / 2 < to));
    const sizes = sides.map((pieces) => median(pieces.flatMap((c) => c.words.map((w) => words[w].fontSize))));
    // Nor are most of its rows justified lines on either side (runningText): the gutter between
    // two such lines is wider than their spaces, so the row as a whole does not look justified.
    const lines = plain.filter((line) => centerY(line.box) > grid.box.y0 && centerY(line.box) < grid.box.y1);
    const justified = lines.filter((line) => piecesBetween(line, crossed, words).some((piece) => justifiedLine(piece, words)));
    return (
      Math.max(...sizes) - Math.min(...sizes) <= Math.max(...sizes) * SAME_SIZE &&
      sides.every((pieces) => !mostlyLines(pieces.map((c) => c.words.length))) &&
      justified.length < lines.length * 0.6
    );
  });
}

/** A row's words in each page column between the gutters (x positions), by the words' middles, left to right. */
function piecesBetween(row: Row, gutters: number[], words: Word[]): number[][] {
  const bounds = [-Infinity, ...gutters, Infinity];
  const all = row.chunks.flatMap((c) => c.words);
  return bounds.slice(1).map((to, b) => all.filter((w) => centerX(words[w].box) > bounds[b] && centerX(words[w].box) < to));
}

function gridsIn(rows: Row[], words: Word[], horizontalRules: Segment[], page: TablePage, codeFace: CodeFace): GridTable[] {
  const grids: GridTable[] = [];
  // A listing's lines and the rows of a table beside it are never one run: a row set wholly in
  // the code face and a row that is not stand apart however closely they follow each other.
  const code = rows.map((r) => r.chunks.every((c) => c.words.every((w) => codeFace(words[w]))));
  // Nor is a caption ("Table 2: ...") a row: it heads or closes a table, and two tables stacked
  // in one column with the second one's caption between them are two. A note ("Note: ...", not
  // among the rows) closes the table above it: the rows below it start another. So do two rules
  // with no text between them, apart by more than a double rule's or two cells' borders are (half
  // the text's size): the foot of one table and the head of the next; one table rules the space
  // between two of its rows once.
  const rowText = rows.map((r) => r.chunks.flatMap((c) => c.words.map((w) => words[w].text)).join(' '));
  const caption = rowText.map((text) => CAPTION_LABEL.test(text));
  const tableCaption = rowText.map((text) => TABLE_CAPTION_LABEL.test(text));
  const noteBetween = (a: number, b: number) => page.notes?.some((n) => centerY(n) > rows[a].box.y1 && centerY(n) < rows[b].box.y0) ?? false;
  const rulesBetween = (a: number, b: number) => {
    const [top, bottom] = [rows[a].box.y1, rows[b].box.y0];
    const across = { x0: Math.min(rows[a].box.x0, rows[b].box.x0), x1: Math.max(rows[a].box.x1, rows[b].box.x1) };
    const ys = (page.lines ?? []).filter((l) => l.y0 > top && l.y0 < bottom && overlapsX(l, across)).map((l) => l.y0);
    return ys.length >= 2 && Math.max(...ys) - Math.min(...ys) > Math.min(rows[a].size, rows[b].size) / 2;
  };
  // Two rows, a above b, that may be rows of one run.
  const close = (a: number, b: number) => code[a] === code[b] && !caption[b] && rows[b].box.y0 - rows[a].box.y1 <= Math.max(rows[a].size, rows[b].size) * ROW_GAP && !noteBetween(a, b) && !rulesBetween(a, b);
  let i = 0;
  while (i < rows.length) {
    if (rows[i].chunks.length < 2 || caption[i]) {
      i++;
      continue;
    }
    // A run of rows that stay close together, most with several chunks.
    let end = i;
    while (end + 1 < rows.length && close(end, end + 1)) {
      if (rows[end + 1].chunks.length >= 2) {
        end++;
        continue;
      }
      // Short one-chunk rows between rows of cells: one within the table's width is a wrapped
      // cell or a section label; several in a row (a section label, a subsection label and the
      // wrapped end of the label above them, a header cell's second line, rows whose values are
      // empty) each stand in one column of the rows around them, under at most one cell of the
      // row above and over at most one of the row below. One set at a heading's size beside the
      // rows above heads what follows instead.
      let next = end + 1;
      const runSize = median(rows.slice(i, end + 1).map((r) => r.size));
      const label = (r: Row) => r.chunks.length === 1 && r.chunks[0].words.length <= 8 && r.size < runSize * HEADING_SIZE;
      while (next < rows.length && label(rows[next]) && (next === end + 1 || close(next - 1, next))) next++;
      const labels = rows.slice(end + 1, next);
      const inOneColumn = (r: Row, around: Row) => around.chunks.filter((k) => overlapsX(r.box, k)).length <= 1;
      const within = (r: Row) => overlapsX(r.box, runBox(rows, i, next)) && (labels.length === 1 || (inOneColumn(r, rows[end]) && inOneColumn(r, rows[next])));
      if (next < rows.length && rows[next].chunks.length >= 2 && close(next - 1, next) && labels.every(within)) {
        end = next;
        continue;
      }
      break;
    }
    const start = headAbove(rows, i, close, words);
    // A table's caption right above or below the run says what the run is.
    const captionAt = (k: number, a: number, b: number) => k >= 0 && k < rows.length && tableCaption[k] && rows[b].box.y0 - rows[a].box.y1 <= Math.max(rows[a].size, rows[b].size) * ROW_GAP;
    const run = rows.slice(start, end + 1);
    for (const [from, to] of partsByColumns(run, median(run.map((r) => r.size)), words)) {
      const grid = gridOf(run.slice(from, to + 1), words, horizontalRules, page);
      const [first, last] = [start + from, start + to];
      if (grid) grids.push(captionAt(first - 1, first - 1, first) || captionAt(last + 1, last, last + 1) ? { ...grid, captioned: true } : grid);
    }
    i = end + 1;
  }
  return grids;
}

/**
 * Where a run that starts at `first` starts with the lines above it that belong to its first row:
 * a header set at the foot of its row leaves the first lines of its taller cells above the row
 * ("Significant" over "Warehouse  Entry  section (%)"). Such a line stands close above, holds fewer
 * pieces than the row, and each of its pieces, a cell's few words, stands over one piece of the
 * row alone (a title stands over several), which runs on from it in lower case; a line of prose
 * beside a table runs on in lower case too, but in more words than a cell holds.
 */
function headAbove(rows: Row[], first: number, close: (a: number, b: number) => boolean, words: Word[]): number {
  let from = first;
  while (from > 0 && close(from - 1, from)) {
    const [upper, lower] = [rows[from - 1], rows[from]];
    const under = (piece: Chunk) => lower.chunks.filter((k) => k.x0 < piece.x1 && piece.x0 < k.x1);
    const runsOn = (piece: Chunk) => {
      const below = under(piece);
      return below.length === 1 && piece.words.length <= CELL_WORDS && below[0].words.length <= CELL_WORDS && /^\p{Ll}/u.test(words[below[0].words[0]].text);
    };
    if (upper.chunks.length >= lower.chunks.length || !upper.chunks.every(runsOn)) break;
    from--;
  }
  return from;
}

function overlapsX(a: { x0: number; x1: number }, b: { x0: number; x1: number }): boolean {
  return Math.min(a.x1, b.x1) > Math.max(a.x0, b.x0);
}

function runBox(rows: Row[], from: number, to: number): Box {
  const boxes = rows.slice(from, to + 1).map((r) => r.box);
  return { x0: Math.min(...boxes.map((b) => b.x0)), y0: boxes[0].y0, x1: Math.max(...boxes.map((b) => b.x1)), y1: boxes[boxes.length - 1].y1 };
}

/**
 * Gaps between columns, as [from, to] x ranges: bands at least 0.4 font sizes wide that almost no
 * chunk of the given rows covers (a few spanning cells may cross a real column gap). Figures set
 * closer than a font size apart (a wide table in a typewriter font) join into one chunk in some
 * rows; a band most rows leave open, that the others cross only by a space of at least half a font
 * size, is a column gap too where most rows hold text on both sides of it. Columns are separated
 * at their middles.
 */
export function columnGaps(rows: Row[], left: number, right: number, size: number, words: Word[]): [number, number][] {
  return gapsOver(rows, left, size, words, chunkCoverage(rows, left, right));
}

/** How many of the rows' chunks cover each x from `left` to `right`, one count per whole unit. */
function chunkCoverage(rows: { chunks: { x0: number; x1: number }[] }[], left: number, right: number): Uint16Array {
  const coverage = new Uint16Array(Math.ceil(right - left) + 1);
  for (const row of rows) cover(row.chunks, left, coverage);
  return coverage;
}

function cover(spans: { x0: number; x1: number }[], left: number, into: Uint16Array): void {
  for (const span of spans) {
    for (let x = Math.max(0, Math.floor(span.x0 - left)); x <= Math.ceil(span.x1 - left) && x < into.length; x++) into[x]++;
  }
}

/** columnGaps over the rows' chunk coverage (`byChunk`), counted once by the caller. */
function gapsOver(rows: Row[], left: number, size: number, words: Word[], byChunk: Uint16Array): [number, number][] {
  const width = byChunk.length;
  // A row's chunks cut further where a space between two words is at least `space` wide.
  const spacedChunks = (row: Row, space: number) => row.chunks.flatMap((chunk) => chunksOf(chunk.words, words, (current, w) => w.box.x0 - current.x1 >= space));
  const bySpace = new Uint16Array(width);
  for (const row of rows) cover(spacedChunks(row, row.size * WIDE_SPACE), left, bySpace);
  const allowed = Math.floor(rows.length * 0.1);
  // Needed only where most rows carry a chunk over a band by a wide space.
  const byWiderSpace = new Uint16Array(width);
  if (bySpace.some((n, x) => n <= allowed && byChunk[x] > rows.length / 2)) {
    for (const row of rows) {
      // The row's own word space: its narrowest (a monospaced face's is half a font size and more).
      const spaces = row.chunks.flatMap((chunk) => chunk.words.slice(1).map((w, k) => words[w].box.x0 - words[chunk.words[k]].box.x1));
      const wordSpace = spaces.length ? Math.max(0, Math.min(...spaces)) : Infinity;
      cover(spacedChunks(row, Math.max(row.size * WIDE_SPACE, wordSpace * 2)), left, byWiderSpace);
    }
  }
  const gaps = openBands(width, size, (x) => byChunk[x] <= allowed);
  const tight = openBands(width, size, (x) => bySpace[x] <= allowed && (byChunk[x] <= rows.length / 2 || byWiderSpace[x] === 0)).filter(([from, to]) => {
    if (gaps.some(([a, b]) => a < to && b > from)) return false;
    const before = Math.max(0, ...gaps.filter(([, b]) => b <= from).map(([, b]) => b));
    const after = Math.min(width, ...gaps.filter(([a]) => a >= to).map(([a]) => a));
    const holds = (row: Row, x0: number, x1: number) =>
      row.chunks.some((c) => c.words.some((w) => (words[w].box.x0 + words[w].box.x1) / 2 - left > x0 && (words[w].box.x0 + words[w].box.x1) / 2 - left < x1));
    return rows.filter((row) => holds(row, before, from) && holds(row, to, after)).length >= rows.length / 2;
  });
  const open = [...gaps.map((gap) => clearest(gap, byChunk)), ...tight].map(([from, to]): [number, number] => [left + from, left + to]);
  const flush = flushGaps(rows, words, size).filter(([from, to]) => !open.some(([a, b]) => a <= to && b >= from));
  return [...open, ...flush].sort((a, b) => a[0] - b[0]);
}

/**
 * Column gaps of a table's rows whose top row may hold cells spanning columns: a group's name set
 * over the columns it heads crosses the gap between them, which every row below it leaves open.
 * A band the rows below the top one (two at least) leave open between their chunks, meeting no
 * gap of all the rows, is a gap; not a band only their word spaces leave (as columnGaps' second
 * kind): the lines of a listing under its first line leave some by chance. The coverage of the
 * rows below is that of all rows less the top row's, counted once.
 */
export function columnGapsUnderHead(rows: Row[], left: number, right: number, size: number, words: Word[]): [number, number][] {
  const byChunk = chunkCoverage(rows, left, right);
  const gaps = gapsOver(rows, left, size, words, byChunk);
  if (rows.length < 3) return gaps;
  const top = chunkCoverage(rows.slice(0, 1), left, right);
  const belowCoverage = byChunk.map((n, x) => n - top[x]);
  const allowed = Math.floor((rows.length - 1) * 0.1);
  const below = openBands(byChunk.length, size, (x) => belowCoverage[x] <= allowed)
    .map((gap) => clearest(gap, belowCoverage))
    .map(([from, to]): [number, number] => [left + from, left + to])
    .filter(([from, to]) => !gaps.some(([a, b]) => a < to && b > from));
  return below.length === 0 ? gaps : [...gaps, ...below].sort((a, b) => a[0] - b[0]);
}

/**
 * The part of a gap the fewest rows cross, where the columns' boundary runs: a gap that a few
 * spanning cells may cross is as wide as the clear band plus the stretches they reach into, and
 * its middle could cut through one of them.
 */
function clearest([from, to]: [number, number], coverage: Uint16Array): [number, number] {
  let least = Infinity;
  for (let x = from; x < to; x++) least = Math.min(least, coverage[x]);
  let best: [number, number] | null = null;
  let start = -1;
  for (let x = from; x <= to; x++) {
    const clear = x < to && coverage[x] === least;
    if (clear && start < 0) start = x;
    if (!clear && start >= 0) {
      if (!best || x - start > best[1] - best[0]) best = [start, x];
      start = -1;
    }
  }
  return best ?? [from, to];
}

/** Runs of x (from 0 to width) where `open` holds, at least 0.4 font sizes wide and inside. */
function openBands(width: number, size: number, open: (x: number) => boolean): [number, number][] {
  const bands: [number, number][] = [];
  let start = -1;
  for (let x = 0; x <= width; x++) {
    const isOpen = x < width && open(x);
    if (isOpen && start < 0) start = x;
    if (!isOpen && start >= 0) {
      if (start > 0 && x < width && x - start >= size * 0.4) bands.push([start, x]);
      start = -1;
    }
  }
  return bands;
}

/** Share of a table's pieces of text that are short (CELL_WORDS words at most). */
export const SHORT_SHARE = 0.6;

/**
 * The run without the rows at its ends that run across its columns: a table's columns are those
 * of its rows with the most common number of chunks (as Camelot's stream mode counts them), and
 * a line of prose below it (a source note, the next heading) or above it (a title) that crosses
 * them is not one of its rows. At the top, a short piece of text over several columns is a header
 * that spans them and stays.
 */
function withinColumns(run: Row[], words: Word[], size: number): Row[] {
  const counts = new Map<number, number>();
  for (const row of run) if (row.chunks.length >= 2) counts.set(row.chunks.length, (counts.get(row.chunks.length) ?? 0) + 1);
  const [mode] = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0] ?? [0];
  const core = run.filter((r) => r.chunks.length === mode);
  if (core.length < 2) return run;
  const left = Math.min(...core.map((r) => r.box.x0));
  const right = Math.max(...core.map((r) => r.box.x1));
  const gaps = columnGaps(core, left, right, size, words);
  // A chunk that only a wide space carries over a gap is two cells, as gridOf cuts it (splitAtGaps).
  const crosses = (row: Row, long: boolean) => splitAtGaps(row, gaps, words).chunks.some((c) => (!long || c.words.length > CELL_WORDS) && gaps.some(([a, b]) => c.x0 < a && c.x1 > b));
  let [from, to] = [0, run.length];
  while (to - from > 2 && crosses(run[to - 1], false)) to--;
  while (to - from > 2 && crosses(run[from], true)) from++;
  return run.slice(from, to);
}

/** Column separators of a run of rows, its grid, or null when it does not look like a table. */
function gridOf(run: Row[], words: Word[], rules: Segment[], page: TablePage): GridTable | null {
  const size = median(run.map((r) => r.size));
  const rows = withinColumns(run, words, size);
  const multi = rows.filter((r) => r.chunks.length >= 2);
  if (multi.length < 2) return null;
  // Prose in two page columns also breaks into two chunks per row; table cells are short.
  const chunkWords = multi.flatMap((r) => r.chunks.map((c) => c.words.length));
  const shortShare = chunkWords.filter((n) => n <= CELL_WORDS).length / chunkWords.length;
  if (shortShare < SHORT_SHARE) return null;

  const left = Math.min(...rows.map((r) => r.box.x0));
  const right = Math.max(...rows.map((r) => r.box.x1));
  const gaps = columnGapsUnderHead(multi, left, right, size, words);
  const separators = gaps.map(([from, to]) => (from + to) / 2);
  if (separators.length === 0) return null;
  const xs = [left, ...separators, right];
  const columns = xs.length - 1;
  const columnOf = (x: number) => columnAt(xs, x);

  const cutRows = rows.map((row) => splitAtGaps(row, gaps, words));
  // Rows: each visual row, continuation rows joined to the row above.
  const logical: Row[][] = [];
  const rowGaps = rows.slice(1).map((r, i) => r.box.y0 - rows[i].box.y1);
  const typicalGap = median(rowGaps);
  const columnsOf = (r: Row) => new Set(r.chunks.map((c) => columnOf((c.x0 + c.x1) / 2)));
  const wordsOf = (r: Row) => r.chunks.flatMap((c) => c.words);
  const wordColumn = (w: number) => columnOf((words[w].box.x0 + words[w].box.x1) / 2);
  // Pair i is lines i and i + 1.
  const pairs = cutRows.slice(1).map((row, i) => ({
    ...spacing(cutRows[i].box, row.box),
    above: columnsOf(cutRows[i]),
    below: columnsOf(row),
    newLabel: startsLabel(row.chunks.filter((c) => columnOf((c.x0 + c.x1) / 2) === 0).flatMap((c) => c.words), words),
    figuresAgain: figuresLevel(wordsOf(cutRows[i]), wordsOf(row), wordColumn, words),
  }));
  const wrapped = wrappedLines(pairs, size);
  // Where the pitches do not tell: where each column's text ends at the widest, how far a cell's
  // line may run before it breaks (continuesRow).
  const columnEnds = new Array<number>(columns).fill(Number.NEGATIVE_INFINITY);
  if (!wrapped) {
    for (const row of cutRows) {
      for (const k of row.chunks) {
        const c = columnOf((k.x0 + k.x1) / 2);
        if (k.x0 >= xs[c] && k.x1 <= xs[c + 1]) columnEnds[c] = Math.max(columnEnds[c], k.x1);
      }
    }
  }
  // A rule, or the edge of a fill, drawn between two lines under both of them parts them: a
  // header band over a first row that leaves its label to the row above, on the page before.
  // Only the rules within the run's height can; the page's others are left out once.
  const within = rules.filter((r) => r.y0 > cutRows[0].box.y0 && r.y0 < cutRows[cutRows.length - 1].box.y1);
  const ruledApart = (above: Box, below: Box) =>
    within.some((r) => r.y0 >= above.y1 - size * 0.1 && r.y0 <= below.y0 + size * 0.1 && r.x0 <= Math.max(above.x0, below.x0) + size && r.x1 >= Math.min(above.x1, below.x1) - size);
  cutRows.forEach((row, i) => {
    const previous = logical[logical.length - 1];
    // A line further from the one above than the page's prose leading allows starts a row
    // (withTextRows), as does one a rule parts from it.
    const apart = i > 0 && ((!wrapped && apartByLeading(centerY(row.box) - centerY(cutRows[i - 1].box), size, page.leading)) || ruledApart(cutRows[i - 1].box, row.box));
    // A line holding a figure under a figure of the line above starts a row, its first column
    // empty or not (figuresLevel: a row of a group whose name only the group's first row carries).
    const continues = !apart && (wrapped ? wrapped.has(i - 1) : previous && !pairs[i - 1].figuresAgain && continuesRow(previous, row, rowGaps[i - 1], typicalGap, columnOf, columnEnds, words));
    if (previous && continues) previous.push(row);
    else logical.push([row]);
  });
  if (logical.length < 2) return null;
  if (paragraphInColumn(logical, columns, columnOf, words)) return null;
  // At least two columns must hold text in more than one row.
  // Bullets or numbers before list text line up like a column; a list is not a table.
  const columnWords = Array.from({ length: columns }, (_, c) => multi.flatMap((r) => r.chunks.filter((k) => columnOf((k.x0 + k.x1) / 2) === c).map((k) => k.words)));
  const columnCells = columnWords.map((cells) => cells.map((cell) => cell.map((w) => words[w].text)));
  if (columnCells.some((cells) => cells.length > 0 && cells.every((k) => k.every((w) => LIST_MARKER.test(w))))) return null;
  if (labelledValues(columnCells) || numberedLines(columnCells) || contents(cutRows, words, columnWords) || runningText(columnCells, multi, words)) return null;
  const filled = new Array<number>(columns).fill(0);
  for (const group of logical) {
    const used = new Set<number>();
    for (const row of group) for (const chunk of row.chunks) used.add(columnOf((chunk.x0 + chunk.x1) / 2));
    for (const c of used) filled[c]++;
  }
  if (filled.filter((n) => n >= 2).length < 2) return null;
  if (multi.length < 3 && columns < 3) return null;

  const ys = logical.map((group) => group[0].box.y0);
  ys.push(logical[logical.length - 1].at(-1)!.box.y1);
  // Boundaries between rows sit midway between the text of one and the next.
  for (let r = 1; r < logical.length; r++) ys[r] = (logical[r - 1].at(-1)!.box.y1 + logical[r][0].box.y0) / 2;
  const cells = alignedCells(logical, gaps, xs, ys, size);
  const box: Box = { x0: left, y0: ys[0], x1: right, y1: ys[ys.length - 1] };
  const halves = columns === 2 && xs[1] - xs[0] > page.width * 0.25 && xs[2] - xs[1] > page.width * 0.25 && Math.abs(xs[1] - page.width / 2) < page.width * 0.1;
  const header = headerRows(logical, rules, box);
  return { box, rowCount: logical.length, columnCount: columns, cells, source: 'aligned', headerRows: header.rows, headerFrom: header.from, halves };
}

/**
 * The row with each chunk cut where a space between two of its words, wider than a word space,
 * reaches into a column gap of the other rows: a symbol set closer than a font size to its
 * description ("P(M) Potenzmenge") still fills two cells, not one cell spanning both columns.
 */
function splitAtGaps(row: Row, gaps: [number, number][], words: Word[]): Row {
  const intoGap = (from: number, to: number) =>
    (to - from >= row.size * WIDE_SPACE && gaps.some(([x0, x1]) => Math.min(x1, to) > Math.max(x0, from))) || isFlushSpace(from, to, gaps, row.size);
  const chunks = row.chunks.flatMap((chunk) => chunksOf(chunk.words, words, (current, w) => intoGap(current.x1, w.box.x0)));
  return chunks.length === row.chunks.length ? row : { ...row, chunks };
}

/**
 * Where the line pitches do not tell (wrappedLines), a line continues the row above it (a cell's
 * text wrapped onto a line of its own) when it is closer to it than rows usually are, or when its
 * first column is empty and its text sits only in columns the line above also fills (the caller
 * has ruled out a figure under a figure, figuresLevel), or when it holds the first column alone and goes on in lower case, or when it fills fewer columns than the
 * row's first line (and more than the first alone), only columns that line fills, and in each the
 * text above it broke there: its first word would not have fitted after the line above within the
 * column's widest line (`columnEnds`); or, cells set at the foot of the row, when the row so far
 * fills fewer columns than the line, and the text above broke in each of them. A row's own line
 * starts its cells afresh, whatever room the row above left.
 */
function continuesRow(rowAbove: Row[], row: Row, gap: number, typicalGap: number, columnOf: (x: number) => number, columnEnds: number[], words: Word[]): boolean {
  const above = rowAbove[rowAbove.length - 1];
  const columnsOf = (r: Row) => new Set(r.chunks.map((c) => columnOf((c.x0 + c.x1) / 2)));
  const mine = columnsOf(row);
  const theirs = columnsOf(above);
  const full = columnsOf(rowAbove[0]);
  const inColumn = (r: Row, c: number) => r.chunks.filter((k) => columnOf((k.x0 + k.x1) / 2) === c);
  const brokeAbove = (c: number) => {
    const upper = inColumn(above, c).at(-1);
    const lower = inColumn(row, c)[0];
    if (!upper || !lower || Math.abs(lower.x0 - upper.x0) > row.size) return false;
    const at = lineBreak(upper.words.map((w) => words[w]), lower.words.map((w) => words[w]));
    // Words wrap; figures, set flush right to one edge, would all seem to. A capital in the first
    // column starts a row's own label, as below.
    if (!/\p{L}{2}/u.test(at.next.text) || at.rightToLeft || (c === 0 && /^\p{Lu}/u.test(at.next.text))) return false;
    return brokeWithin(at, Number.NEGATIVE_INFINITY, columnEnds[c]);
  };
  // (A first column alone is a label of its own unless it runs on in lower case: below.)
  const labelAlone = mine.size === 1 && mine.has(0);
  if (!labelAlone && mine.size < full.size && [...mine].every((c) => full.has(c) && brokeAbove(c))) return true;
  // Cells set at the foot of their row: the row so far fills fewer columns than this line, only
  // columns it fills, and in each this line's text runs on from the text above.
  const sofar = new Set(rowAbove.flatMap((r) => [...columnsOf(r)]));
  if (sofar.size < mine.size && [...sofar].every((c) => mine.has(c) && brokeAbove(c))) return true;
  // A label run on to a line of its own: the first column alone, going on in lower case from a
  // label that did not end a sentence (a row's own label starts as labels do, capitalised).
  if (labelAlone && theirs.has(0)) {
    const first = words[row.chunks[0].words[0]].text;
    const label = above.chunks.find((c) => columnOf((c.x0 + c.x1) / 2) === 0)!;
    return /^\p{Ll}/u.test(first) && !/[.:;!?]$/.test(words[label.words[label.words.length - 1]].text);
  }
  if (mine.has(0)) return false;
  const inside = [...mine].every((c) => theirs.has(c));
  if (!inside) return false;
  return gap < typicalGap * 0.8 || mine.size < theirs.size;
}

/** Header rows: those above the first rule that cuts through the table, else bold rows on top; -1 when neither tells. */
function headerRows(rows: Row[][], rules: Segment[], box: Box): { rows: number; from?: 'rule' | 'bold' } {
  const inner = rules.filter((r) => r.x0 <= box.x0 + (box.x1 - box.x0) * 0.2 && r.x1 >= box.x1 - (box.x1 - box.x0) * 0.2 && r.y0 > box.y0 + 1 && r.y0 < box.y1 - 1);
  if (inner.length > 0) {
    const first = Math.min(...inner.map((r) => r.y0));
    const above = rows.filter((group) => group.at(-1)!.box.y1 <= first + 1).length;
    if (above > 0 && above < rows.length) return { rows: above, from: 'rule' };
  }
  let bold = 0;
  while (bold < rows.length && rows[bold].every((r) => r.bold)) bold++;
  return bold > 0 && bold < rows.length ? { rows: bold, from: 'bold' } : { rows: -1 };
}
