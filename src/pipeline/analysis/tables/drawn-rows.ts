// Rows a drawn table leaves to its text. Many tables rule only their header and their ends: the
// body between two rulings holds one text line per row, and the rulings alone would read it as one
// row with every cell a column of figures. Inside each drawn row, a text line starts a row of its
// own where the first column (the rightmost in a right-to-left table) starts a new label. Where the
// table's line pitches tell a cell's own lines from its rows (line-pitches.ts), a line at
// the smaller pitch belongs to the row of the line it stands that close to (the row below where
// cells are set at the foot, a wrapped cell's first line standing over the label); elsewhere a
// line whose label continues the one above (its first word would not have fitted on the line
// above) or whose first column is empty belongs to the row above, as wrapped cell text and
// multi-line headers do; but a line under a group's name that spans columns
// (it crosses a column border, or stands in the table's first line centred over two columns or
// more) is a row of their own headers (the borders between them run down through it, and not up
// through the name). A label cell drawn down past a border of the cells beside it (a header's
// rule that stops at the stub column) parts its lines at that border. Rows a drawing leaves out
// altogether (a header or first row above zebra stripes, a last row under the last rule) are taken
// in where their text is set as the table's cells are, none above a frame that starts with its
// header in bold (withRowsBeside).
import { verticalOverlap, type Box, type Segment, type Word } from '../../page-model.js';
import type { CellRegion, GridTable } from './grid.js';
import type { Rulings } from './ruled.js';
import { centerX, centerY } from '../lines.js';
import type { CodeFace } from '../code-and-formulas.js';
import { LEADER } from '../markers.js';
import { apartByLeading, SHORT_SHARE, type Chunk, type Row } from './aligned.js';
import { figuresLevel, spacing, standApart, startsLabel, wrappedLines } from './line-pitches.js';
import { visualRows, WIDE_SPACE } from './visual-rows.js';
import { brokeWithin, CELL_WORDS, lineBreak } from './look-alikes.js';
import { chunksOf, median } from './gutters.js';

/**
 * The frame with row borders added between the text lines of a drawn row that start rows of their
 * own (see above); each added border runs through the columns no word of which it would cut. Null
 * when the text adds no row.
 */
export function withTextRows(frame: Rulings, grid: GridTable, words: Word[], free: number[], rightToLeft = false, leading: number | null = null): Rulings | null {
  const cellOf = cellsOfWords(grid, words, free);
  if (cellOf.size === 0) return null;
  // The labels' column: the first in the page's direction (the rightmost in a right-to-left one).
  const lastColumn = (c: CellRegion) => c.column + c.columnSpan - 1;
  const first = rightToLeft ? Math.max(...[...cellOf.values()].map(lastColumn)) : Math.min(...[...cellOf.values()].map((c) => c.column));
  // The edges of each column's text, over the whole table: a cell's text starts this far in from
  // its border on one side, and stops as far short of the other.
  const textLeft = new Map<number, number>();
  const textRight = new Map<number, number>();
  for (const [i, cell] of cellOf) {
    textLeft.set(cell.column, Math.min(textLeft.get(cell.column) ?? Infinity, words[i].box.x0));
    textRight.set(cell.column, Math.max(textRight.get(cell.column) ?? -Infinity, words[i].box.x1));
  }
  const measure = (cell: CellRegion) => textMeasure(cell.box.x0, cell.box.x1, textLeft.get(cell.column), textRight.get(cell.column));
  const xs = [...new Set(grid.cells.flatMap((c) => [c.box.x0, c.box.x1]))].sort((a, b) => a - b);
  const added: Segment[] = [];
  const held = [...cellOf.keys()];
  const cutsWord = (segment: Segment) => held.some((i) => runsThrough(segment, words[i].box));
  // A row's border at `y`, across every column (but those `keep` leaves whole) where it cuts no word.
  const rowBorder = (y: number, keep: (x0: number, x1: number) => boolean = () => false) => {
    for (let c = 0; c + 1 < xs.length; c++) {
      const border = { x0: xs[c], y0: y, x1: xs[c + 1], y1: y };
      if (!keep(border.x0, border.x1) && !cutsWord(border)) added.push(border);
    }
  };
  const lines = visualRows(words, held).map((line) => line.chunks.flatMap((c) => c.words));
  const part = (line: number[], cell: CellRegion) => line.filter((i) => cellOf.get(i) === cell);
  const holdsLabel = (line: number[], label: CellRegion) => part(line, label).length > 0;
  // A label cell drawn down past a border of the cells beside it (a header's rule that stops at a
  // stub column's header spanning the header's rows, the stub's text set at their foot) holds
  // rows of both sides: its lines part where a border beside them runs, when a label stands on
  // each side and the one below starts afresh (a label wrapped across the border reads on, in
  // lower case: a capital starts a label of its own, as in aligned.ts's continuesRow).
  const besideRows = (label: CellRegion, inside: number[][]): number[][][] => {
    const cuts = [...new Set(grid.cells.filter((c) => c !== label && c.box.y0 > label.box.y0 + 1 && c.box.y0 < label.box.y1 - 1).map((c) => c.box.y0))].sort((a, b) => a - b);
    const parts: number[][][] = [[]];
    let cut = 0;
    for (const line of inside) {
      while (cut < cuts.length && cuts[cut] < middle(line)) {
        const above = parts[parts.length - 1].filter((l) => part(l, label).length > 0).at(-1);
        const y = cuts[cut++];
        const border = { x0: label.box.x0, y0: y, x1: label.box.x1, y1: y };
        const below = part(line, label);
        if (!above || below.length === 0) continue;
        if (/^\p{Ll}/u.test(words[below[0]].text) && wraps(part(above, label), below, measure(label), words)) continue;
        // The line must stand under the border, its words' tops no more than a graze above it.
        if (line.every((i) => words[i].box.y0 + graze(words[i].box) < y) || cutsWord(border)) continue;
        // The border beside it is a row's: it runs on across the table.
        rowBorder(y);
        parts.push([]);
      }
      parts[parts.length - 1].push(line);
    }
    return parts;
  };
  const borders: Segment[] = [];
  const openings: Segment[] = [];
  // Each drawn cell of the first column, with the text lines that run through it. A cell across
  // the whole table is a title or a note, not a row label.
  const labels = grid.cells.filter((c) => (rightToLeft ? lastColumn(c) === first && c.column > 0 : c.column === first && c.column + c.columnSpan < grid.columnCount));
  const middle = (line: number[]) => (Math.min(...line.map((i) => words[i].box.y0)) + Math.max(...line.map((i) => words[i].box.y1))) / 2;
  // Lines set at the pitch of a cell's own lines, against the pitch of the table's rows, are one
  // row's (wrappedLines); pair k is lines k and k + 1, each filling some columns.
  const columnsOfLine = (line: number[]) => new Set(line.map((i) => cellOf.get(i)!.column));
  const foot = (line: number[]) => Math.max(...line.map((i) => words[i].box.y1));
  const top = (line: number[]) => Math.min(...line.map((i) => words[i].box.y0));
  const pairs = lines.slice(1).map((below, k) => ({ pitch: middle(below) - middle(lines[k]), space: top(below) - foot(lines[k]), above: columnsOfLine(lines[k]), below: columnsOfLine(below), newLabel: startsLabel(below.filter((i) => cellOf.get(i)!.column === first), words), figuresAgain: figuresLevel(lines[k], below, (i) => cellOf.get(i)!, words) }));
  const size = median(held.map((i) => words[i].fontSize));
  const wrapped = wrappedLines(pairs, size);
  // Where they do not, a line standing further from the one above than the page's prose leading
  // allows (by a fifth) is a row's: a cell's text wraps at the leading of the text around it.
  const rowApart = (k: number) => wrapped === null && apartByLeading(pairs[k].pitch, size, leading);
  const lineIndex = new Map(lines.map((line, k) => [line, k]));
  // Whether `below` stands right under `above` and holds a figure under one of its figures in one
  // drawn cell (figuresLevel): a row of a group whose name only the group's first row carries.
  // Under a rule the drawing parts them already; a label wrapped beside the two stays whole.
  const figuresUnder = (above: number[], below: number[]) => {
    const k = lineIndex.get(below)! - 1;
    return k >= 0 && lines[k] === above && pairs[k].figuresAgain;
  };
  const runs: { label: CellRegion; through: number[][] }[] = [];
  for (const label of labels) {
    for (const through of besideRows(label, lines.filter((line) => middle(line) > label.box.y0 && middle(line) < label.box.y1))) {
      // A cell whose first line holds no label (a header label set lower down) keeps its lines,
      // unless the pitches or figures under figures tell its rows (below) and a label stands in
      // it to start one (a group of rows continued from the page before); a header whose stub is
      // empty holds nothing that starts a row.
      const rowsTold = wrapped !== null || through.some((line, l) => l > 0 && figuresUnder(through[l - 1], line));
      if (through.length < 2 || (!holdsLabel(through[0], label) && (!rowsTold || !through.some((line) => holdsLabel(line, label))))) continue;
      // Lines beside running text (two columns of prose in a frame) are no rows of figures: the
      // other columns must hold short values, as in the rows of a table found from alignment.
      const values = through.flatMap((line) => [...new Set(line.map((i) => cellOf.get(i)!))].filter((c) => c !== label).map((c) => part(line, c).length));
      if (values.length === 0 || values.filter((n) => n <= CELL_WORDS).length < values.length * SHORT_SHARE) continue;
      runs.push({ label, through });
    }
  }
  // A word of the upper line across a column border under which the lower line fills both
  // columns is a group's name over the columns it heads, and the lower line a row of their own
  // headers, though nothing stands in its first column.
  const fills = (line: number[], from: number, to: number) => line.some((i) => words[i].box.x0 >= from && words[i].box.x1 <= to);
  const crossesBorder = (above: number[], below: number[]) =>
    xs.slice(1, -1).some((x, b) => above.some((i) => words[i].box.x0 < x && words[i].box.x1 > x) && fills(below, xs[b], x) && fills(below, x, xs[b + 2]));
  // So is a piece of the table's first line that stands inside one column, centred over a run of
  // two columns or more around it, alone in the run, where the lower line fills the run's first
  // and last columns: a name short enough to cross no border ("2028" over three, or over a wide
  // column and a narrow one). The runs, as [first, last] column.
  const centredOver = (above: number[], below: number[]): [number, number][] => {
    if (above !== lines[0]) return [];
    const pieces = chunksOf(above, words, (piece, w) => w.box.x0 - piece.x1 > size * WIDE_SPACE);
    const runs: [number, number][] = [];
    for (const piece of pieces) {
      const centre = (piece.x0 + piece.x1) / 2;
      if (xs.some((x) => x > piece.x0 && x < piece.x1)) continue;
      for (let a = 0; a + 1 < xs.length; a++) {
        for (let b = a + 1; b + 1 < xs.length; b++) {
          if (Math.abs(centre - (xs[a] + xs[b + 1]) / 2) > size * 0.5 || piece.x0 < xs[a] || piece.x1 > xs[b + 1]) continue;
          if (pieces.some((other) => other !== piece && other.x1 > xs[a] && other.x0 < xs[b + 1])) continue;
          if (fills(below, xs[a], xs[a + 1]) && fills(below, xs[b], xs[b + 1])) runs.push([a, b]);
        }
      }
    }
    return runs;
  };
  for (const { label, through } of runs) {
    // Each cell's last line of text in the row so far: a value reads on from there, though lines
    // of a label wrapped over several may stand between.
    const lastIn = new Map<CellRegion, number[]>();
    const note = (line: number[]) => {
      for (const cell of new Set(line.map((i) => cellOf.get(i)!))) lastIn.set(cell, part(line, cell));
    };
    note(through[0]);
    // Rows above the cell's first label (cells set at the foot or the middle of rows the label
    // spans, as a stub's header beside two header rows) leave the label's column whole.
    let labelled = false;
    for (let l = 1; l < through.length; l++) {
      const [above, below] = [through[l - 1], through[l]];
      if (holdsLabel(above, label)) labelled = true;
      const k = lineIndex.get(below)! - 1;
      // Where the pitches tell, they tell rows apart whatever the line holds: a row whose cells
      // are set at the foot starts with a wrapped cell's first line, its label lower down; and
      // such a line, over the label's at a cell's own pitch, is that cell's, not a group's name.
      const told = wrapped !== null && lines[k] === above;
      const overLabel = told && wrapped.has(k) && !labelled;
      const spans = overLabel ? [] : centredOver(above, below);
      const heads = spans.length > 0 || (!overLabel && crossesBorder(above, below));
      // Figures under figures start a row, its label empty or not.
      const figures = figuresUnder(above, below);
      if (part(below, label).length === 0 && !heads && !figures && !(told && !wrapped.has(k))) {
        note(below);
        continue;
      }
      // Where the pitches do not tell, two lines are one row when every cell the lower fills
      // reads on from its text above in the row.
      const cells = new Set(below.map((i) => cellOf.get(i)!));
      const starts =
        heads ||
        figures ||
        rowApart(k) ||
        (told
          ? !wrapped.has(k)
          : [...cells].some((cell) => {
              // A label reads on line after line; a line without it above ended it.
              const upper = cell === label ? part(above, cell) : (lastIn.get(cell) ?? []);
              if (upper.length === 0 && cell !== label) return false;
              return !wraps(upper, part(below, cell), measure(cell), words);
            }));
      if (starts) lastIn.clear();
      note(below);
      if (!starts) continue;
      const y = (Math.max(...above.map((i) => words[i].box.y1)) + Math.min(...below.map((i) => words[i].box.y0))) / 2;
      // The name's line holds no border between the columns it is centred over.
      for (const [a, b] of spans) for (const x of xs.slice(a + 1, b + 1)) openings.push({ x0: x, y0: label.box.y0, x1: x, y1: y });
      // Under a group's name, a column with no header of its own on the lower line keeps one
      // header cell down both lines ("Period" beside the group's columns).
      rowBorder(y, (x0, x1) => (!labelled && x0 >= label.box.x0 - 1 && x1 <= label.box.x1 + 1) || (heads && !below.some((i) => centerX(words[i].box) > x0 && centerX(words[i].box) < x1)));
      // Under a group's name its columns' border, which the name kept out of the drawn row,
      // runs down through the rest of the row wherever it cuts no word (and the drawing has none).
      if (heads) {
        for (const x of xs.slice(1, -1)) {
          const border = { x0: x, y0: y, x1: x, y1: label.box.y1 };
          const spanned = grid.cells.some((c) => c.box.x0 < x && c.box.x1 > x && c.box.y0 < border.y1 && c.box.y1 > y);
          if (spanned && !cutsWord(border)) borders.push(border);
        }
      }
    }
  }
  if (added.length === 0) return null;
  return { horizontal: [...frame.horizontal, ...added], vertical: [...frame.vertical.flatMap((v) => without(v, openings, size * 0.25)), ...borders] };
}

/** A vertical segment less the stretches of it that `openings` at its x (within `near`) take out. */
function without(segment: Segment, openings: Segment[], near: number): Segment[] {
  let parts = [segment];
  for (const o of openings) {
    if (Math.abs(o.x0 - segment.x0) > near) continue;
    parts = parts.flatMap((p) => {
      if (o.y1 <= p.y0 || o.y0 >= p.y1) return [p];
      return [
        ...(o.y0 > p.y0 ? [{ ...p, y1: o.y0 }] : []),
        ...(o.y1 < p.y1 ? [{ ...p, y0: o.y1 }] : []),
      ];
    });
  }
  return parts;
}

/** The drawn cell under each word's centre, for the words inside the grid. */
function cellsOfWords(grid: GridTable, words: Word[], free: number[]): Map<number, CellRegion> {
  const { box } = grid;
  const cellOf = new Map<number, CellRegion>();
  for (const i of free) {
    const [x, y] = [centerX(words[i].box), centerY(words[i].box)];
    if (x <= box.x0 || x >= box.x1 || y <= box.y0 || y >= box.y1) continue;
    const cell = grid.cells.find((c) => x >= c.box.x0 && x <= c.box.x1 && y >= c.box.y0 && y <= c.box.y1);
    if (cell) cellOf.set(i, cell);
  }
  return cellOf;
}

/**
 * Whether a border, horizontal or vertical, runs through a word: across the word's middle, along
 * the border's length. Loose boxes (a font's full height) of one line may touch the next line's
 * by a rounding's width: a border that grazes a word's edge so does not run through it (a figure
 * set between two lines of a wrapped label does).
 */
function runsThrough(border: Segment, box: Box): boolean {
  if (border.y0 === border.y1) {
    const edge = graze(box);
    return centerX(box) > border.x0 && centerX(box) < border.x1 && box.y0 + edge < border.y0 && box.y1 - edge > border.y0;
  }
  const edge = (box.x1 - box.x0) / 40;
  return centerY(box) > border.y0 && centerY(box) < border.y1 && box.x0 + edge < border.x0 && box.x1 - edge > border.x0;
}

/** How far a border may run into a word's loose box, top or bottom, and only graze it (runsThrough). */
function graze(box: Box): number {
  return (box.y1 - box.y0) / 40;
}

/**
 * The measure wrapped text may fill between a cell's or column's borders `x0` and `x1`, for wraps:
 * in from each border by the padding on the text's start side (where the text starts, at the
 * leftmost `left`; where it ends, at the rightmost `right`), since text may run as close to the
 * other border as it starts from its own. No padding where the column holds no text.
 */
function textMeasure(x0: number, x1: number, left: number | undefined, right: number | undefined): [number, number] {
  return [x0 + (right === undefined ? 0 : Math.max(0, x1 - right)), x1 - (left === undefined ? 0 : Math.max(0, left - x0))];
}

/**
 * Whether the lower words of a cell continue the upper ones as wrapped text: the first lower word
 * would not have fitted after the last upper word, leader dots aside (they fill a label out to its
 * value and are no text to wrap), within the cell's text measure (`start` to `end`: the text's
 * start side is as far from its border as the column's text starts anywhere, and the text may run
 * as close to the other); and it holds a letter, or the upper line ends in one (an amount is
 * never wrapped onto a line of its own, but a date or a phrase may break before its figures:
 * "11 April" over "2029"), or in a currency sign ("¥" over "38,135.79").
 */
function wraps(upper: number[], lower: number[], [start, end]: [number, number], words: Word[]): boolean {
  const text = upper.map((i) => words[i]).filter((w) => !LEADER.test(w.text));
  if (text.length === 0 || lower.length === 0) return false;
  const at = lineBreak(text, lower.map((i) => words[i]));
  // A currency sign on its own ends a line only where its amount did not fit beside it.
  if (!/\p{L}/u.test(at.next.text) && !/\p{L}/u.test(at.last.text) && !/^\p{Sc}$/u.test(at.last.text)) return false;
  return brokeWithin(at, start, end);
}

/**
 * The frame grown over the text lines directly above and below it that are rows of its cells: a
 * table that shades or rules only part of its rows (its zebra stripes begin at the second row,
 * its header stands unshaded over a ruled body) leaves the others outside its drawing. A line is
 * such a row when it lies within the frame's width, is set in the size of the frame's text,
 * stands within a font size of the frame or of the row next to it, and breaks into two pieces of text or more at spaces wider than a word
 * space that hold one of the frame's column borders (a caption, a heading or prose above a table
 * has only word spaces), each piece set as the frame's cells are: flush with where their text
 * starts or ends in its column with no word running over a column border, or centred on the
 * columns it spans (a line of two page columns of prose is neither); words of another drawn
 * table are never taken. Each row gets a border
 * above and below it, and each column border runs through it where it cuts no word (a header
 * cell spanning columns is crossed by none). Null when no line qualifies.
 */
export function withRowsBeside(frame: Rulings, grid: GridTable, words: Word[], free: number[], scale: number, others: Box[] = [], codeFace: CodeFace = () => false): Rulings | null {
  const { box } = grid;
  const slack = 2 * scale;
  const borders = [...new Set(grid.cells.flatMap((c) => [c.box.x0, c.box.x1]))].filter((x) => x > box.x0 + slack && x < box.x1 - slack).sort((a, b) => a - b);
  if (borders.length === 0) return null;
  const outside = free.filter((i) => {
    const b = words[i].box;
    const cy = (b.y0 + b.y1) / 2;
    const cx = (b.x0 + b.x1) / 2;
    // Words of another drawn table are that table's.
    if (others.some((o) => cx > o.x0 && cx < o.x1 && cy > o.y0 && cy < o.y1)) return false;
    return (cy < box.y0 || cy > box.y1) && b.x0 >= box.x0 - slack && b.x1 <= box.x1 + slack;
  });
  if (outside.length === 0) return null;
  const taken = new Set(outside);
  const lines = visualRows(words, outside);
  // Pieces of the line split at spaces wider than a word space that hold a column border.
  const pieces = (line: Row) =>
    chunksOf(line.chunks.flatMap((c) => c.words), words, (piece, w) => w.box.x0 - piece.x1 >= line.size * WIDE_SPACE && borders.some((x) => x > piece.x1 && x < w.box.x0));
  // Where the text of the frame's own cells starts and ends in each column: a row of the table
  // sets its cells the same way (labels flush left, figures flush right, headers centred).
  const xs = [box.x0, ...borders, box.x1];
  const columnAt = (x: number) => Math.max(0, xs.findIndex((b, c) => c + 1 < xs.length && x >= b && x < xs[c + 1]));
  const cellOf = cellsOfWords(grid, words, free);
  const byCell = new Map<CellRegion, Box[]>();
  for (const [i, cell] of cellOf) if (cell.columnSpan === 1) byCell.set(cell, [...(byCell.get(cell) ?? []), words[i].box]);
  const edges = xs.slice(1).map(() => ({ left: [] as number[], right: [] as number[] }));
  for (const [cell, boxes] of byCell) {
    edges[cell.column].left.push(Math.min(...boxes.map((b) => b.x0)));
    edges[cell.column].right.push(Math.max(...boxes.map((b) => b.x1)));
  }
  const setLikeCells = (piece: Chunk, size: number) => {
    const tolerance = size * 0.5;
    const [c0, c1] = [columnAt(piece.x0 + tolerance), columnAt(piece.x1 - tolerance)];
    // Centred on its own column or on a run of columns around it (a header cell spanning them).
    const middle = (piece.x0 + piece.x1) / 2;
    let centred = false;
    for (let a = 0; a <= c0; a++) for (let b = c1; b + 1 < xs.length; b++) if (Math.abs(middle - (xs[a] + xs[b + 1]) / 2) <= tolerance) centred = true;
    if (centred) return true;
    // A word running over a column border, in text not centred on the columns, is prose's.
    if (xs.slice(c0 + 1, c1 + 1).some((x) => piece.words.some((i) => words[i].box.x0 < x && words[i].box.x1 > x))) return false;
    return edges[c0].left.some((x) => Math.abs(x - piece.x0) <= tolerance) || edges[c1].right.some((x) => Math.abs(x - piece.x1) <= tolerance);
  };
  const size = median([...cellOf.keys()].map((i) => words[i].fontSize));
  // A line set wholly in the code face is a listing's, unless the table's own cells are so set.
  const inCodeFace = (indices: number[]) => indices.length > 0 && indices.every((i) => codeFace(words[i]));
  const codeCells = inCodeFace([...cellOf.keys()]);
  // Words on the page beside the frame, left or right of it: a line holding one is not a row.
  const beyond = free.filter((i) => !taken.has(i) && (words[i].box.x1 < box.x0 || words[i].box.x0 > box.x1)).map((i) => words[i].box);
  // A line's pieces, cut once: the reach asks of each line more than once.
  const cut = new Map<Row, Chunk[]>();
  const piecesOf = (line: Row) => cut.get(line) ?? cut.set(line, pieces(line)).get(line)!;
  // Set in the table's type (a heading or a caption beside it is larger or smaller, a listing in
  // the code face), and the whole line within the frame's width (visualRows took only such words,
  // but a line of the page may have more words beyond the frame).
  const inTableType = (line: Row) =>
    Math.abs(line.size - size) <= size * 0.15 && inCodeFace(line.chunks.flatMap((c) => c.words)) === codeCells && !beyond.some((b) => verticalOverlap(b, line.box) > 0.5);
  const isRow = (line: Row) => {
    const parts = piecesOf(line);
    return parts.length >= 2 && inTableType(line) && parts.every((part) => setLikeCells(part, line.size));
  };
  // A word over a column border, in a line that is no row, is a caption's or a note's: a wrapped
  // cell's text keeps inside its cell.
  const overBorder = (line: Row) => line.chunks.some((chunk) => chunk.words.some((i) => xs.slice(1, -1).some((x) => words[i].box.x0 < x && words[i].box.x1 > x)));
  // A line of one piece in the first column, set as its cells are: a row that leaves its other
  // cells empty (a label with no figures), or a label's wrapped line.
  const onePiece = (line: Row) => {
    const parts = piecesOf(line);
    return parts.length === 1 && columnAt(parts[0].x1 - line.size * 0.5) === 0 && inTableType(line) && setLikeCells(parts[0], line.size) && !overBorder(line);
  };
  const inFrame = visualRows(words, [...cellOf.keys()]);
  // A frame whose first line is set in bold over a body that is not starts with its header: a
  // line above it that is not bold is no header of the table (a table set right above this one).
  const headerFirst = inFrame.length > 1 && inFrame[0].bold && inFrame.some((line) => !line.bold);
  // Lines next to the frame, outward, each within a font size of the one before or at a pitch
  // the lines before it already show, the frame's own included, or at the height of a row the
  // frame draws (a table's rows are evenly spaced however tall they are: cells padded or set at
  // the foot of tall rows leave more than a font size between rows, and a shaded band or a
  // ruled row is one row tall); a line not set like the frame's cells may be a wrapped cell's line, but
  // two such lines, or one over a column border, end the reach, as a line not in bold does above
  // a frame that starts with its header (and the pitches of the table's lines are judged without
  // them).
  const rowHeights = [...new Set(grid.cells.filter((c) => c.rowSpan === 1).map((c) => c.box.y1 - c.box.y0))];
  const reach = (outward: Row[], up: boolean) => {
    const reached: Row[] = [];
    let edge = up ? box.y0 : box.y1;
    const seen = (up ? [...inFrame] : [...inFrame].reverse()).map((line) => centerY(line.box));
    const pitches = [...seen.slice(1).map((y, k) => Math.abs(y - seen[k])), ...rowHeights];
    for (const line of outward) {
      const pitch = seen.length > 0 ? Math.abs(centerY(line.box) - seen[0]) : Infinity;
      const atPitch = pitches.some((p) => Math.abs(pitch - p) <= line.size * 0.2);
      if ((up ? edge - line.box.y1 : line.box.y0 - edge) > line.size && !atPitch) break;
      if (up && headerFirst && !line.bold) break;
      const previous = reached[reached.length - 1];
      // Two labels alone in succession are two rows with no figures where they stand two font
      // sizes apart or more; closer, they may be one label's lines, and two such end the reach.
      const labelsApart = previous && onePiece(previous) && onePiece(line) && standApart(up ? spacing(line.box, previous.box) : spacing(previous.box, line.box), size);
      if (!isRow(line) && ((previous && !isRow(previous) && !labelsApart) || overBorder(line))) break;
      reached.push(line);
      if (seen.length > 0) pitches.push(pitch);
      seen.unshift(centerY(line.box));
      edge = up ? line.box.y0 : line.box.y1;
    }
    return reached;
  };
  const upward = reach([...lines].filter((l) => l.box.y1 <= box.y0 + slack).reverse(), true);
  const downward = reach(lines.filter((l) => l.box.y0 >= box.y1 - slack), false);
  // A line at the pitch of a cell's own lines is the second line of the row above (wrappedLines),
  // judged among all the table's lines, the frame's own included. Pair k is lines k and k + 1.
  const all = [...[...upward].reverse(), ...inFrame, ...downward];
  const columnsOf = (line: Row) => new Set(line.chunks.flatMap((c) => c.words).map((i) => columnAt(centerX(words[i].box))));
  const byPitch = wrappedLines(
    all.slice(1).map((line, k) => ({ ...spacing(all[k].box, line.box), above: columnsOf(all[k]), below: columnsOf(line), newLabel: startsLabel(line.chunks.flatMap((c) => c.words).filter((i) => columnAt(centerX(words[i].box)) === 0), words), figuresAgain: figuresLevel(all[k].chunks.flatMap((c) => c.words), line.chunks.flatMap((c) => c.words), (i) => columnAt(centerX(words[i].box)), words) })),
    size,
  );
  // Where the pitches do not tell, a line outside the frame that is no row of its own continues
  // the line above when, in every column it fills, its first word would not have fitted after
  // the text above (wraps), and it stands at a cell's leading, less than two font sizes under it:
  // a label wrapped under its row, as inside the frame (withTextRows).
  const lineWordsIn = (line: Row, c: number) => line.chunks.flatMap((chunk) => chunk.words).filter((i) => columnAt(centerX(words[i].box)) === c);
  const columnMeasure = (c: number) =>
    textMeasure(xs[c], xs[c + 1], edges[c].left.length ? Math.min(...edges[c].left) : undefined, edges[c].right.length ? Math.max(...edges[c].right) : undefined);
  const continuesAbove = (k: number) => {
    const [upper, lower] = [all[k], all[k + 1]];
    if (inFrame.includes(lower) || isRow(lower) || standApart(spacing(upper.box, lower.box), size)) return false;
    return [...columnsOf(lower)].every((c) => wraps(lineWordsIn(upper, c), lineWordsIn(lower, c), columnMeasure(c), words));
  };
  const wrapped = byPitch ?? new Set(all.slice(1).map((_, k) => k).filter(continuesAbove));
  // Lines of one piece in the first column between two rows, set as its cells are, and neither
  // row nor wrapped line of a row: rows that leave their other cells empty (labels with no
  // figures, a group's name).
  const rowOrFrame = (line: Row | undefined) => line !== undefined && (inFrame.includes(line) || isRow(line));
  const lonePiece = (k: number) => {
    if (!onePiece(all[k]) || rowOrFrame(all[k])) return false;
    let [before, after] = [k - 1, k + 1];
    while (before >= 0 && !rowOrFrame(all[before]) && onePiece(all[before])) before--;
    while (after < all.length && !rowOrFrame(all[after]) && onePiece(all[after])) after++;
    return rowOrFrame(all[before]) && rowOrFrame(all[after]);
  };
  // Rows set like the frame's cells, and wrapped lines of such rows.
  const above: Row[] = [];
  for (let u = 0; u < upward.length; u++) {
    const k = upward.length - 1 - u;
    // A line that is no row of its own: a cell's second line under a row above it, or the first
    // line of a cell set at the foot of the row below it (pair k is this line and the one below).
    const secondLine = wrapped.has(k - 1) && u + 1 < upward.length && isRow(upward[u + 1]);
    const firstLine = wrapped.has(k) && u > 0 && isRow(upward[u - 1]);
    if (!isRow(upward[u]) && !secondLine && !firstLine && !lonePiece(k)) break;
    above.unshift(upward[u]);
  }
  const below: Row[] = [];
  for (let d = 0; d < downward.length; d++) {
    // As above: a cell's second line under the row above it, or the first line of a cell set at
    // the foot of the row below it.
    const at = upward.length + inFrame.length + d;
    if (!isRow(downward[d]) && !(d > 0 && wrapped.has(at - 1)) && !(wrapped.has(at) && d + 1 < downward.length && isRow(downward[d + 1])) && !lonePiece(at)) break;
    below.push(downward[d]);
  }
  if (above.length === 0 && below.length === 0) return null;
  const horizontal: Segment[] = [];
  const vertical: Segment[] = [];
  const rowBands = (lines: Row[], first: number, from: number, to: number, downward: boolean) => {
    const rows: Row[][] = [];
    lines.forEach((line, l) => (l > 0 && wrapped.has(first + l - 1) ? rows[rows.length - 1].push(line) : rows.push([line])));
    // Band edges: the frame's own rule on one side, midway between rows, a point past the far row.
    const cuts = rows.slice(1).map((r, i) => (rows[i].at(-1)!.box.y1 + r[0].box.y0) / 2);
    const ys = downward ? [from, ...cuts, lines[lines.length - 1].box.y1 + scale] : [lines[0].box.y0 - scale, ...cuts, to];
    rows.forEach((row, r) => {
      const [y0, y1] = [ys[r], ys[r + 1]];
      horizontal.push({ x0: box.x0, y0, x1: box.x1, y1: y0 }, { x0: box.x0, y0: y1, x1: box.x1, y1 });
      for (const x of [box.x0, ...borders, box.x1]) {
        const cut = row.some((line) => line.chunks.some((c) => c.words.some((i) => words[i].box.x0 < x && words[i].box.x1 > x)));
        if (!cut) vertical.push({ x0: x, y0, x1: x, y1 });
      }
    });
  };
  if (above.length) rowBands(above, upward.length - above.length, 0, box.y0, false);
  if (below.length) rowBands(below, upward.length + inFrame.length, box.y1, 0, true);
  return { horizontal: [...frame.horizontal, ...horizontal], vertical: [...frame.vertical, ...vertical] };
}
