// Tables for the pdf-lib producer: no table object at all in the file, only text at positions with
// rules drawn as lines and shading as filled rectangles, as most report generators write them. The
// columns are sized as an automatic table layout sizes them (each between its longest word and its
// whole text), cells wrap inside them, spanning header cells cover their columns and rows, and a
// long table breaks between body rows with its header drawn again on the next page.
import { placeCells } from './html.js';
import type { Flowable } from './pdflib-layout.js';
import type { Setting } from './pdflib-blocks.js';
import { blockEntry, drawable, type Entry, INK, type LineStyle, type Mark, moveMark, type Rect, type Rgb, setText, wordsOf } from './pdflib-text.js';
import type { Cell, TableSpec, TableStyle } from './spec.js';
import type { TruthCell } from './truth.js';

const PAD_X = 5;
const PAD_Y = 2;
const RULE: Rgb = [0.2, 0.2, 0.2];
const HEADER_SHADE: Rgb = [0.85, 0.85, 0.85];
const ZEBRA: Rgb = [0.93, 0.93, 0.93];
const ZEBRA_COLOURED: Rgb = [0.87, 0.92, 0.96];
const COLOURED: Rgb = [0.99, 0.95, 0.88];
const CELL_SHADE: Rgb = [0.89, 0.91, 0.93];
const CELL_SHADE_DARK: Rgb = [0.83, 0.86, 0.9];

interface GridCell {
  cell: Cell;
  /** Row in the whole table, header rows first. */
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  header: boolean;
  text: string;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Each column's narrowest and widest width at `size`: its longest word, its whole text. */
function columnBounds(cells: GridCell[], columns: number, size: number, s: Setting): { min: number[]; max: number[] } {
  const min = Array.from({ length: columns }, () => 2 * PAD_X);
  const max = Array.from({ length: columns }, () => 2 * PAD_X);
  const fontOf = (c: GridCell) => (c.header ? s.family.bold : s.family.regular);
  const widths = (c: GridCell) => {
    const words = c.text.split(' ').filter(Boolean);
    const longest = Math.max(0, ...words.map((w) => s.metrics.width(w, fontOf(c), size, s.squeeze)));
    return { min: longest + 2 * PAD_X, max: s.metrics.width(c.text, fontOf(c), size, s.squeeze) + 2 * PAD_X };
  };
  for (const c of cells.filter((c) => c.colSpan === 1)) {
    const w = widths(c);
    min[c.col] = Math.max(min[c.col], w.min);
    max[c.col] = Math.max(max[c.col], w.max);
  }
  // A spanning cell wider than its columns widens them evenly.
  for (const c of cells.filter((c) => c.colSpan > 1)) {
    const w = widths(c);
    const cols = Array.from({ length: c.colSpan }, (_, i) => c.col + i).filter((i) => i < columns);
    const grow = (bounds: number[], wanted: number) => {
      const short = wanted - sum(cols.map((i) => bounds[i]));
      if (short > 0) for (const i of cols) bounds[i] += short / cols.length;
    };
    grow(min, w.min);
    grow(max, w.max);
  }
  for (let i = 0; i < columns; i++) max[i] = Math.max(max[i], min[i]);
  return { min, max };
}

export function tableFlowable(table: TableSpec, s: Setting, span: boolean): Flowable | null {
  const available = span ? s.bodyWidth : s.columnWidth;
  const headerRows = table.header.length;
  const toGrid = (p: { cell: Cell; row: number; col: number }, header: boolean): GridCell => ({
    cell: p.cell,
    row: p.row,
    col: p.col,
    rowSpan: p.cell.rowSpan ?? 1,
    colSpan: p.cell.colSpan ?? 1,
    header,
    text: drawable(p.cell.text, header ? s.family.bold : s.family.regular),
  });
  const header = placeCells(table.header, table.columns, []).flatMap((row) => row.map((p) => toGrid(p, true)));
  const body = placeCells(table.body, table.columns, []).map((row) => row.map((p) => toGrid({ ...p, row: p.row + headerRows }, false)));
  const all = [...header, ...body.flat()];
  if (body.length === 0) return null;

  // The table's type made smaller until its longest words fit side by side.
  let size = s.size * table.style.fontScale;
  let bounds = columnBounds(all, table.columns, size, s);
  const padding = 2 * PAD_X * table.columns;
  if (sum(bounds.min) > available) {
    size = Math.max(4.5, (size * (available - padding)) / (sum(bounds.min) - padding));
    bounds = columnBounds(all, table.columns, size, s);
  }
  let widths: number[];
  if (sum(bounds.max) <= available) {
    const extra = table.width === 'full' ? available - sum(bounds.max) : 0;
    widths = bounds.max.map((w) => w + (extra * w) / sum(bounds.max));
  } else {
    const share = Math.max(0, Math.min(1, (available - sum(bounds.min)) / (sum(bounds.max) - sum(bounds.min))));
    widths = bounds.min.map((w, i) => w + (bounds.max[i] - w) * share);
  }
  const lefts = widths.map((_, i) => sum(widths.slice(0, i)));
  const tableWidth = sum(widths);
  const spanWidth = (c: GridCell) => sum(widths.slice(c.col, c.col + c.colSpan));

  const spacing = s.spacing();
  const lineStyle = (c: GridCell): LineStyle => ({ size, lineHeight: size * 1.25, squeeze: s.squeeze, letterSpacing: 0, color: INK, spacing, align: c.cell.align ?? 'left' });
  const setCell = (c: GridCell) => setText(wordsOf(c.text, c.header ? s.family.bold : s.family.regular), PAD_X, spanWidth(c) - 2 * PAD_X, PAD_Y, lineStyle(c), s.metrics);
  const sets = new Map(all.map((c) => [c, setCell(c)]));
  const needed = (c: GridCell) => Math.max(1, sets.get(c)!.lines.length) * size * 1.25 + 2 * PAD_Y;
  const rowCount = headerRows + body.length;
  const heights = Array.from({ length: rowCount }, () => size * 1.25 + 2 * PAD_Y);
  for (const c of all.filter((c) => c.rowSpan === 1)) heights[c.row] = Math.max(heights[c.row], needed(c));
  for (const c of all.filter((c) => c.rowSpan > 1)) {
    const last = Math.min(rowCount, c.row + c.rowSpan) - 1;
    const short = needed(c) - sum(heights.slice(c.row, last + 1));
    if (short > 0) heights[last] += short;
  }

  const captionSize = s.size * 0.9;
  const noteSize = s.size * 0.8;
  const caption = table.caption ? drawable(table.caption) : '';
  const note = table.note ? drawable(table.note) : '';
  // Caption and note run the width the table stands in, as a block's text does beside a narrow table.
  const blockWidth = Math.max(tableWidth, available);
  const textStyle = (size: number): LineStyle => ({ size, lineHeight: size * 1.3, squeeze: s.squeeze, letterSpacing: 0, color: INK, spacing, align: 'left' });
  const style = table.style;

  return {
    span,
    pieces: body.length,
    keep: 0,
    build(from, to) {
      const marks: Mark[] = [];
      const entries: Entry[] = [];
      let y = 0;
      const addText = (kind: 'caption' | 'table-note', text: string, size: number) => {
        const set = setText(wordsOf(text, s.family.regular), 0, blockWidth, y, textStyle(size), s.metrics);
        marks.push(...set.lines);
        entries.push(blockEntry(kind, text, [0, y, blockWidth, y + set.height]));
        y += set.height + 3;
      };
      if (from === 0 && caption && !table.captionBelow) addText('caption', caption, captionSize);

      // The rows of this part: the header, then body rows `from` to `to`, numbered from the part's top.
      const partRows = [...Array.from({ length: headerRows }, (_, r) => r), ...Array.from({ length: to - from }, (_, i) => headerRows + from + i)];
      const tableTop = y;
      const tops: number[] = [];
      for (const r of partRows) {
        tops.push(y);
        y += heights[r];
      }
      const tableBottom = y;
      const partRow = (r: number) => (r < headerRows ? r : r - from);
      const cells = [...header, ...body.slice(from, to).flat()];
      const truthCells: TruthCell[] = [];
      for (const c of cells) {
        const row = partRow(c.row);
        const last = Math.min(partRows.length, row + c.rowSpan);
        const box: Rect = [lefts[c.col], tops[row], lefts[c.col] + spanWidth(c), last < partRows.length ? tops[last] : tableBottom];
        const shade = shadeOf(style, c, c.row - headerRows - from);
        // Shaded cells stand apart by white gaps rather than rules.
        if (shade) marks.push({ kind: 'fill', shape: 'rect', rect: style.shadedCells ? [box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1] : box, color: shade });
        if (style.rules === 'grid') {
          const [l, t, r, b] = box;
          marks.push(rule(l, t, r, t, 0.6), rule(l, b, r, b, 0.6), rule(l, t, l, b, 0.6), rule(r, t, r, b, 0.6));
        }
        // The text stands at the top, the middle or the bottom of a cell taller than it.
        const room = box[3] - box[1] - needed(c);
        const drop = room > 0 ? room * { top: 0, middle: 0.5, bottom: 1 }[style.cellAlign] : 0;
        for (const line of sets.get(c)!.lines) marks.push(moveMark(line, box[0], box[1] + drop));
        truthCells.push({ row, col: c.col, rowSpan: Math.min(c.rowSpan, partRows.length - row), colSpan: c.colSpan, text: c.text, header: c.header, box });
      }
      const headerBottom = tops[headerRows] ?? tableBottom;
      if (style.rules === 'horizontal') marks.push(rule(0, tableTop, tableWidth, tableTop, 1), rule(0, headerBottom, tableWidth, headerBottom, 0.6), rule(0, tableBottom, tableWidth, tableBottom, 1));
      if (style.rules === 'header-only') marks.push(rule(0, headerBottom, tableWidth, headerBottom, 1));
      entries.push({ kind: 'table', table: { page: 0, rows: partRows.length, columns: table.columns, headerRows, cells: truthCells, box: [0, tableTop, tableWidth, tableBottom], continued: from > 0, order: 0, features: table.features } });
      y += 3;
      if (from === 0 && caption && table.captionBelow) addText('caption', caption, captionSize);
      if (to === body.length && note) addText('table-note', note, noteSize);
      return { before: s.size * 0.2, height: y - 3, after: s.size * 0.55, marks, entries, footnote: null, marginNote: null };
    },
  };
}

function rule(x1: number, y1: number, x2: number, y2: number, thickness: number): Mark {
  return { kind: 'rule', x1, y1, x2, y2, thickness, color: RULE };
}

/** A cell's background: zebra rows count from the top of each part, as a repeated header starts them again. */
function shadeOf(style: TableStyle, c: GridCell, bodyIndex: number): Rgb | null {
  if (style.shadedCells) return c.cell.shaded || c.header ? CELL_SHADE_DARK : CELL_SHADE;
  if (c.header) return style.headerShade ? HEADER_SHADE : null;
  if (style.zebra) return bodyIndex % 2 === 1 ? (style.coloured ? ZEBRA_COLOURED : ZEBRA) : null;
  return style.coloured ? COLOURED : null;
}
