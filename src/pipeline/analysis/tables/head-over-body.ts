// A table whose drawing frames its head only (a shaded band of header cells, a group's name ruled
// over its columns) over a body set without drawing: the frame is read as one table and the body,
// found from its alignment, as another, the head's cells spanning whole groups of the body's
// columns. Joined here into one grid whose columns are the body's.
import type { Box, Word } from '../../page-model.js';
import type { CellRegion, GridTable } from './grid.js';
import { WIDE_SPACE } from './visual-rows.js';
import { chunksOf, median } from './gutters.js';

/** The body's columns as x ranges, each reaching halfway to its neighbours. */
function columnRanges(body: GridTable): [number, number][] {
  const spans = Array.from({ length: body.columnCount }, (_, c) => {
    const own = body.cells.filter((cell) => cell.column === c && cell.columnSpan === 1);
    return own.length ? [Math.min(...own.map((cell) => cell.box.x0)), Math.max(...own.map((cell) => cell.box.x1))] : null;
  });
  if (spans.some((s) => s === null)) return [];
  const xs = spans as [number, number][];
  return xs.map(([x0, x1], c) => [c === 0 ? x0 : (xs[c - 1][1] + x0) / 2, c + 1 === xs.length ? x1 : (x1 + xs[c + 1][0]) / 2]);
}

/**
 * The head and the body as one grid, or null where they are no one table. They are when the body
 * stands right under the head, no word between, within the height of one of its rows; spans the
 * head's width (four fifths of it at least, inside it); and no border of the head's cells runs through one of the body's columns (the
 * body's columns part the head's, as a group's columns part its name's cell). The head's rows
 * keep their cells where their words fall in one of the body's columns or are set across several
 * (a group's name); a head cell whose words fall in two or more of the body's columns, apart, is
 * split at them (the head's own column headers, or a first row the frame took, read by the
 * body's columns).
 */
export function headOverBody(head: GridTable, body: GridTable, words: Word[], free: number[]): GridTable | null {
  if (body.rowCount <= head.rowCount || body.columnCount < head.columnCount) return null;
  const size = median(free.map((i) => words[i].fontSize)) || 10;
  const rowHeight = (body.box.y1 - body.box.y0) / body.rowCount;
  const gap = body.box.y0 - head.box.y1;
  if (gap < -size * 0.5 || gap > rowHeight) return null;
  const slack = size;
  if (body.box.x0 < head.box.x0 - slack || body.box.x1 > head.box.x1 + slack) return null;
  if ((body.box.x1 - body.box.x0) < (head.box.x1 - head.box.x0) * 0.8) return null;
  const between: Box = { x0: head.box.x0, y0: head.box.y1, x1: head.box.x1, y1: body.box.y0 };
  if (free.some((i) => inside(words[i].box, between))) return null;
  const columns = columnRanges(body);
  if (columns.length === 0) return null;
  // Each border of the head's cells falls between two of the body's columns' text.
  const textOf = Array.from({ length: body.columnCount }, (_, c) => {
    const own = body.cells.filter((cell) => cell.column === c && cell.columnSpan === 1).flatMap((cell) => free.filter((i) => inside(words[i].box, cell.box)).map((i) => words[i].box));
    return own.length ? [Math.min(...own.map((b) => b.x0)), Math.max(...own.map((b) => b.x1))] : null;
  });
  const borders = [...new Set(head.cells.flatMap((c) => [c.box.x0, c.box.x1]))].filter((x) => x > head.box.x0 + slack && x < head.box.x1 - slack);
  if (borders.some((x) => textOf.some((t) => t !== null && x > t[0] + 1 && x < t[1] - 1))) return null;
  const columnAt = (x: number) => Math.max(0, columns.findIndex(([x0, x1], c) => (x >= x0 || c === 0) && (x < x1 || c + 1 === columns.length)));
  // Pieces of text set apart by more than a word space, each in a body column of its own.
  const apart = (indices: number[]) => {
    const sorted = [...indices].sort((a, b) => words[a].box.x0 - words[b].box.x0);
    const pieces = chunksOf(sorted, words, (piece, w) => w.box.x0 - piece.x1 >= w.fontSize * WIDE_SPACE);
    const hit = new Set(pieces.map(({ x0, x1 }) => columnAt((x0 + x1) / 2)));
    return hit.size >= 2;
  };
  const { cells: headCells, rowCount: headRows } = splitByLines(head, words, free, apart);
  const cells: CellRegion[] = [];
  for (const cell of headCells) {
    // The body's columns whose middles the cell holds (or the one under its middle).
    const under = columns.map(([x0, x1], c) => ({ c, middle: (x0 + x1) / 2 })).filter(({ middle }) => middle >= cell.box.x0 && middle <= cell.box.x1);
    const first = under.length ? under[0].c : columnAt((cell.box.x0 + cell.box.x1) / 2);
    const last = under.length ? under[under.length - 1].c : first;
    if (last > first && apart(free.filter((i) => inside(words[i].box, cell.box)))) {
      for (let c = first; c <= last; c++) {
        const x0 = Math.max(cell.box.x0, columns[c][0]);
        const x1 = Math.min(cell.box.x1, columns[c][1]);
        cells.push({ row: cell.row, column: c, rowSpan: cell.rowSpan, columnSpan: 1, box: { x0: c === first ? cell.box.x0 : x0, y0: cell.box.y0, x1: c === last ? cell.box.x1 : x1, y1: cell.box.y1 } });
      }
    } else cells.push({ row: cell.row, column: first, rowSpan: cell.rowSpan, columnSpan: last - first + 1, box: cell.box });
  }
  for (const cell of body.cells) cells.push({ ...cell, row: cell.row + headRows });
  return {
    box: { x0: Math.min(head.box.x0, body.box.x0), y0: head.box.y0, x1: Math.max(head.box.x1, body.box.x1), y1: body.box.y1 },
    rowCount: headRows + body.rowCount,
    columnCount: body.columnCount,
    cells,
    source: head.source,
    headerRows: head.headerRows < 0 ? -1 : head.headerRows + (headRows - head.rowCount),
  };
}

/**
 * The head's rows, each parted in two where one of its cells holds lines of which the last falls
 * into the body's columns apart (`apart`) under lines that do not: a group's name over its
 * columns' own headers, drawn as one cell. The group's name keeps the upper part, the headers get
 * a row of their own, and the row's other cells span both.
 */
function splitByLines(head: GridTable, words: Word[], free: number[], apart: (indices: number[]) => boolean): { cells: CellRegion[]; rowCount: number } {
  const cells: CellRegion[] = [];
  let added = 0;
  for (let r = 0; r < head.rowCount; r++) {
    const row = head.cells.filter((c) => c.row === r);
    const cuts = row.map((cell) => {
      if (cell.rowSpan !== 1) return null;
      const lines = textLines(free.filter((i) => inside(words[i].box, cell.box)), words);
      if (lines.length < 2) return null;
      const last = lines[lines.length - 1];
      if (!apart(last) || lines.slice(0, -1).some((line) => apart(line))) return null;
      const upper = Math.max(...lines[lines.length - 2].map((i) => words[i].box.y1));
      const lower = Math.min(...last.map((i) => words[i].box.y0));
      return (upper + lower) / 2;
    });
    const cut = cuts.find((y) => y !== null) ?? null;
    // A row that a cell of a row above reaches down into stays whole.
    if (cut === null || head.cells.some((c) => c.row < r && c.row + c.rowSpan > r)) {
      for (const cell of row) cells.push({ ...cell, row: cell.row + added });
      continue;
    }
    for (const cell of row) {
      if (cell.rowSpan !== 1 || cuts[row.indexOf(cell)] === null) {
        cells.push({ ...cell, row: cell.row + added, rowSpan: cell.rowSpan + 1 });
        continue;
      }
      cells.push({ ...cell, row: r + added, box: { ...cell.box, y1: cut } });
      cells.push({ ...cell, row: r + added + 1, box: { ...cell.box, y0: cut } });
    }
    added++;
  }
  return { cells, rowCount: head.rowCount + added };
}

/** Words grouped into text lines, top to bottom: a word whose middle lies below a line's foot starts the next. */
function textLines(indices: number[], words: Word[]): number[][] {
  const lines: number[][] = [];
  let foot = Number.NEGATIVE_INFINITY;
  for (const i of [...indices].sort((a, b) => words[a].box.y0 - words[b].box.y0)) {
    const middle = (words[i].box.y0 + words[i].box.y1) / 2;
    if (lines.length === 0 || middle > foot) lines.push([i]);
    else lines[lines.length - 1].push(i);
    foot = lines[lines.length - 1].length === 1 ? words[i].box.y1 : Math.max(foot, words[i].box.y1);
  }
  return lines;
}

function inside(b: Box, region: Box): boolean {
  const cx = (b.x0 + b.x1) / 2;
  const cy = (b.y0 + b.y1) / 2;
  return cx >= region.x0 && cx <= region.x1 && cy >= region.y0 && cy <= region.y1;
}
