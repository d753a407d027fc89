// Rows a drawn table leaves to its text. Many tables rule only their header and their ends: the
// body between two rulings holds one text line per row, and the rulings alone would read it as
// one row with every cell a column of figures. Inside each drawn row, a text line starts a row of
// its own where the first column starts a new label; a line whose label continues the one above
// (its first word would not have fitted on the line above) or whose first column is empty belongs
// to the row above, as wrapped cell text and multi-line headers do.
import type { Segment, Word } from '../../page-model.js';
import type { CellRegion, GridTable } from './grid.js';
import type { Rulings } from './ruled.js';
import { CELL_WORDS, LEADER, SHORT_SHARE, visualRows } from './aligned.js';

/**
 * The frame with row borders added between the text lines of a drawn row that start rows of their
 * own (see above); each added border runs through the columns no word of which it would cut. Null
 * when the text adds no row.
 */
export function withTextRows(frame: Rulings, grid: GridTable, words: Word[], free: number[]): Rulings | null {
  const { box } = grid;
  const centre = (i: number) => {
    const b = words[i].box;
    return { x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2 };
  };
  const cellOf = new Map<number, CellRegion>();
  for (const i of free) {
    const { x, y } = centre(i);
    if (x <= box.x0 || x >= box.x1 || y <= box.y0 || y >= box.y1) continue;
    const cell = grid.cells.find((c) => x >= c.box.x0 && x <= c.box.x1 && y >= c.box.y0 && y <= c.box.y1);
    if (cell) cellOf.set(i, cell);
  }
  if (cellOf.size === 0) return null;
  const first = Math.min(...[...cellOf.values()].map((c) => c.column));
  // The left edge of each column's text, over the whole table: a cell's text starts this far in
  // from its left border, and stops as far short of its right one.
  const textLeft = new Map<number, number>();
  for (const [i, cell] of cellOf) textLeft.set(cell.column, Math.min(textLeft.get(cell.column) ?? Infinity, words[i].box.x0));
  const xs = [...new Set(grid.cells.flatMap((c) => [c.box.x0, c.box.x1]))].sort((a, b) => a - b);
  const lines = visualRows(words, [...cellOf.keys()]).map((line) => line.chunks.flatMap((c) => c.words));
  const part = (line: number[], cell: CellRegion) => line.filter((i) => cellOf.get(i) === cell);
  const added: Segment[] = [];
  // Each drawn cell of the first column, with the text lines that run through it. A cell across
  // the whole table is a title or a note, not a row label.
  const labels = grid.cells.filter((c) => c.column === first && c.column + c.columnSpan < grid.columnCount);
  for (const label of labels) {
    const through = lines.filter((line) => {
      const y = (Math.min(...line.map((i) => words[i].box.y0)) + Math.max(...line.map((i) => words[i].box.y1))) / 2;
      return y > label.box.y0 && y < label.box.y1;
    });
    // A cell whose first line holds no label (a header label set lower down) keeps its lines.
    if (through.length < 2 || part(through[0], label).length === 0) continue;
    // Lines beside running text (two columns of prose in a frame) are no rows of figures: the
    // other columns must hold short values, as in the rows of a table found from alignment.
    const values = through.flatMap((line) => [...new Set(line.map((i) => cellOf.get(i)!))].filter((c) => c !== label).map((c) => part(line, c).length));
    if (values.length === 0 || values.filter((n) => n <= CELL_WORDS).length < values.length * SHORT_SHARE) continue;
    for (let l = 1; l < through.length; l++) {
      const [above, below] = [through[l - 1], through[l]];
      if (part(below, label).length === 0) continue;
      // Two lines are one row when every cell both fill reads on from the upper line to the lower.
      const cells = new Set(below.map((i) => cellOf.get(i)!));
      const starts = [...cells].some((cell) => {
        const upper = part(above, cell);
        if (upper.length === 0 && cell !== label) return false;
        return !wraps(upper, part(below, cell), cell, textLeft.get(cell.column)!, words);
      });
      if (!starts) continue;
      const y = (Math.max(...above.map((i) => words[i].box.y1)) + Math.min(...below.map((i) => words[i].box.y0))) / 2;
      for (let c = 0; c + 1 < xs.length; c++) {
        const [x0, x1] = [xs[c], xs[c + 1]];
        const cut = [...cellOf.keys()].some((i) => {
          const b = words[i].box;
          const cx = (b.x0 + b.x1) / 2;
          return cx > x0 && cx < x1 && b.y0 < y && b.y1 > y;
        });
        if (!cut) added.push({ x0, y0: y, x1, y1: y });
      }
    }
  }
  if (added.length === 0) return null;
  return { horizontal: [...frame.horizontal, ...added], vertical: frame.vertical };
}

/**
 * Whether the lower words of a cell continue the upper ones as wrapped text: the first lower word
 * holds a letter (figures are never wrapped onto a line of their own) and would not have fitted
 * after the last upper word, leader dots aside (they fill a label out to its value and are no
 * text to wrap), within the cell's text width.
 */
function wraps(upper: number[], lower: number[], cell: CellRegion, textLeft: number, words: Word[]): boolean {
  const text = upper.map((i) => words[i]).filter((w) => !LEADER.test(w.text));
  if (text.length === 0 || lower.length === 0) return false;
  const last = text.reduce((a, b) => (b.box.x1 > a.box.x1 ? b : a));
  const next = lower.map((i) => words[i]).reduce((a, b) => (b.box.x0 < a.box.x0 ? b : a));
  if (!/\p{L}/u.test(next.text)) return false;
  const padding = Math.max(0, textLeft - cell.box.x0);
  const space = next.fontSize * 0.25;
  return last.box.x1 + space + (next.box.x1 - next.box.x0) > cell.box.x1 - padding;
}
