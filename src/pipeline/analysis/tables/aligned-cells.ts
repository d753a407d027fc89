// The cells of a table found from aligned text (aligned.ts): each logical row's pieces of text
// (chunks) placed in the columns its gaps part, a piece wider than its column spanning the
// columns it covers, and each cell's sides set so that every piece's words fall in its own cell.
import type { CellRegion } from './grid.js';
import type { Row } from './gutters.js';

/** The column, of those whose borders stand at `xs` (sides and separators), that x lies in; the last for x past them. */
export function columnAt(xs: number[], x: number): number {
  const columns = xs.length - 1;
  for (let c = 0; c < columns; c++) if (x < xs[c + 1]) return c;
  return columns - 1;
}

interface Placed {
  first: number;
  last: number;
  x0: number;
  x1: number;
}

/**
 * The cells of `logical` rows (each the visual rows it joins) in the columns `gaps` part: column
 * c runs from xs[c] to xs[c + 1] (the gaps' middles and the table's sides), row r from ys[r] to
 * ys[r + 1]; `size` is the table's type size.
 */
export function alignedCells(logical: Row[][], gaps: [number, number][], xs: number[], ys: number[], size: number): CellRegion[] {
  const columns = xs.length - 1;
  const right = xs[columns];
  // A chunk that starts inside a column gap and ends flush with the right edge of the column
  // after it (the next gap's start, or the table's right) is that column's alone: a header set
  // flush right over figures narrower than it, however far into the gap it starts. Any other
  // starts in the column its start lies nearer to (a name centred over the columns it spans).
  // Ending inside a column gap, past its middle, is not reaching into the next column.
  const place = (x0: number, x1: number): Placed => {
    const startGap = gaps.findIndex(([from, to]) => from <= x0 + 0.5 && x0 + 0.5 < to);
    const columnEnd = startGap < 0 ? 0 : startGap + 1 === gaps.length ? right : gaps[startGap + 1][0];
    const ownColumn = startGap >= 0 && x1 > gaps[startGap][1] && Math.abs(x1 - columnEnd) <= size * 0.5;
    const first = ownColumn ? startGap + 1 : columnAt(xs, x0 + 0.5);
    return { first, last: Math.max(first, gaps.filter(([, to]) => to < x1 - 0.5).length), x0, x1 };
  };
  const placedRows = logical.map((group) => group.flatMap((row) => row.chunks.map((chunk) => place(chunk.x0, chunk.x1))));
  centredOverGroups(placedRows, xs, size);
  const cells: CellRegion[] = [];
  logical.forEach((group, r) => {
    const placed = placedRows[r];
    const row: CellRegion[] = [];
    let c = 0;
    while (c < columns) {
      // A chunk wider than its column spans the columns it covers.
      const span = placed.filter((p) => p.first <= c && p.last >= c && p.last > p.first).reduce<Placed | null>((widest, p) => (widest && widest.last >= p.last ? widest : p), null);
      const last = span && span.first === c ? span.last : c;
      row.push({ row: r, column: c, rowSpan: 1, columnSpan: last - c + 1, box: { x0: xs[c], y0: ys[r], x1: xs[last + 1], y1: ys[r + 1] } });
      c = last + 1;
    }
    // The border between two cells of the row runs past the middle of their gap where a chunk of
    // one of them reaches over it: the chunk's words are its cell's, not its neighbour's.
    for (let k = 1; k < row.length; k++) {
      const [before, after] = [row[k - 1], row[k]];
      const starts = Math.min(...placed.filter((p) => p.first === after.column).map((p) => p.x0));
      const ends = Math.max(...placed.filter((p) => p.last === before.column + before.columnSpan - 1 && p.first >= before.column).map((p) => p.x1));
      // Only where the two cells' pieces do not overlap (a side with none is at ±Infinity).
      const apart = ends <= starts;
      const border = after.box.x0;
      const moved = apart && starts < border ? starts - 0.5 : apart && ends > border ? ends + 0.5 : border;
      before.box.x1 = moved;
      after.box.x0 = moved;
    }
    cells.push(...row);
  });
  return cells;
}

/** A label is centred on a run of columns when its middle lies this many font sizes at most from the run's middle between its borders... */
const CENTRED = 0.5;
/** ...and this many from the middle of the run's text. */
const TEXT_CENTRED = 1;

/**
 * The labels of a header's upper rows that name a group of columns, spanning them: in the rows
 * at the table's top whose pieces leave some column empty (above the first row with text in
 * every column), a piece spans the widest run of columns around its own, empty in its row, that
 * it is centred on, as a word processor centres a merged cell's text over the columns it merges.
 * Centred by two measures that err differently, as one alone is met by chance over a run of
 * four columns: within CENTRED font sizes of the run's middle between its borders (at the
 * middles of the gaps, which ragged text leaves uncertain), and within TEXT_CENTRED of the
 * middle of the run's text (which a header or figures set to one side of a column moves). A
 * piece set flush with one side of its own column's text (measured in the rows from the first
 * full one down) more closely than it is centred on the run stays its column's alone: a
 * header's upper line set left, or right over figures. A label over three columns is centred
 * on the middle one as well; the widest run it is centred on is the one it names.
 */
function centredOverGroups(placedRows: Placed[][], xs: number[], size: number): void {
  const columns = xs.length - 1;
  const fills = (placed: Placed[]) => Array.from({ length: columns }, (_, c) => placed.some((p) => p.first <= c && p.last >= c)).every(Boolean);
  const full = placedRows.findIndex(fills);
  if (full <= 0) return;
  const text = Array.from({ length: columns }, (_, c) => {
    const own = placedRows.slice(full).flat().filter((p) => p.first === c && p.last === c);
    return own.length ? { x0: Math.min(...own.map((p) => p.x0)), x1: Math.max(...own.map((p) => p.x1)) } : null;
  });
  const middle = (first: number, last: number) => (xs[first] + xs[last + 1]) / 2;
  const textMiddle = (first: number, last: number) => {
    const run = text.slice(first, last + 1).filter((t) => t !== null);
    return run.length === 0 ? middle(first, last) : (Math.min(...run.map((t) => t.x0)) + Math.max(...run.map((t) => t.x1))) / 2;
  };
  for (const placed of placedRows.slice(0, full)) {
    for (const piece of placed) {
      if (piece.first !== piece.last) continue;
      const c = piece.first;
      const own = text[c];
      const flush = own ? Math.min(Math.abs(piece.x0 - own.x0), Math.abs(piece.x1 - own.x1)) : Number.POSITIVE_INFINITY;
      const centre = (piece.x0 + piece.x1) / 2;
      const taken = (k: number) => placed.some((p) => p !== piece && p.first <= k && p.last >= k);
      let best: { first: number; last: number; off: number } | null = null;
      for (let first = c; first >= 0 && (first === c || !taken(first)); first--) {
        for (let last = c; last < columns && (last === c || !taken(last)); last++) {
          const off = Math.abs(centre - middle(first, last));
          if (off > size * CENTRED) continue;
          if (Math.abs(centre - textMiddle(first, last)) > size * TEXT_CENTRED) continue;
          const wider = best === null || last - first > best.last - best.first || (last - first === best.last - best.first && off < best.off);
          if (wider) best = { first, last, off };
        }
      }
      if (best && best.last > best.first && flush > best.off) {
        piece.first = best.first;
        piece.last = best.last;
      }
    }
  }
}
