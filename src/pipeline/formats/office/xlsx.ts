// XLSX reader: one page per sheet that holds anything (docs/decisions.md#pages), in workbook order, headed by
// the sheet's name. Each cell is shown as Excel displays it: its number format (dates,
// percentages, currency, decimals) applied with SSF, SheetJS's implementation of Excel's format
// language; formulas by their saved results. Merged ranges become spanning cells. Blank rows and
// columns across the used range cut a sheet into its separate tables, as a reader sees them.
// Charts read as chart.ts says; the sheet's comments (notes and threaded) end its page (comments.ts).
// Written against the sheet XML because the JavaScript workbook libraries either ignore number
// formats when giving a cell's text (exceljs) or are not kept on npm (SheetJS).
import SSF from 'ssf';
import { child, children, descendants, OfficePackage, OfficeReadError, textOf, type XmlNode } from './package.js';
import type { OfficeItem } from './structure.js';
import { readChart } from './chart.js';
import { refuseWorkbookCells } from './limits.js';
import { commentItems, type ReviewComment } from './comments.js';

interface Cell {
  row: number;
  column: number;
  text: string;
}

interface Merge {
  r0: number;
  c0: number;
  r1: number;
  c1: number;
}

/** Excel's built-in number formats by id (ECMA-376 18.8.30). */
const BUILTIN_FORMATS: Record<number, string> = {
  0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00', 12: '# ?/?', 13: '# ??/??',
  14: 'm/d/yyyy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM', 20: 'h:mm', 21: 'h:mm:ss',
  22: 'm/d/yyyy h:mm', 37: '#,##0 ;(#,##0)', 38: '#,##0 ;[Red](#,##0)', 39: '#,##0.00;(#,##0.00)', 40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0', 48: '##0.0E+0', 49: '@',
};

export function readXlsx(bytes: Uint8Array): OfficeItem[][] {
  // Sheets and the shared strings can be large: they are unpacked one at a time, when read.
  const pkg = OfficePackage.open(
    bytes,
    (name) => name.startsWith('xl/') && (name.endsWith('.xml') || name.endsWith('.rels')) && !name.startsWith('xl/media/'),
    (name) => name === 'xl/sharedStrings.xml' || (name.startsWith('xl/worksheets/') && name.endsWith('.xml')),
  );
  const workbook = pkg.xml('xl/workbook.xml');
  if (!workbook) throw new OfficeReadError('the file has no xl/workbook.xml; it is not an Excel workbook');
  const sheets = visibleSheets(pkg, workbook);
  // A workbook beyond the limit is refused from a count of its values, before anything is parsed.
  refuseWorkbookCells(sheets.reduce((n, sheet) => n + valuesIn(pkg.bytes(sheet.part)), 0));
  const strings = sharedStrings(pkg);
  const formats = cellFormats(pkg.xml('xl/styles.xml'));
  const date1904 = child(workbook, 'workbookPr')?.attrs.date1904 === '1' || child(workbook, 'workbookPr')?.attrs.date1904 === 'true';
  const pages: OfficeItem[][] = [];
  const persons = personsOf(pkg);
  for (const { name, part } of sheets) {
    const sheet = readSheet(pkg, part, strings, formats, date1904);
    if (!sheet) continue;
    const { cells, merges, rest } = sheet;
    const drawings = drawingsOf(pkg, part, rest);
    const comments = commentItems(sheetComments(pkg, part, persons));
    if (cells.length === 0 && drawings.length === 0 && comments.length === 0) continue;
    // Tables and drawings in the order they sit on the sheet, top to bottom, then left to right.
    const placed = [...(cells.length ? tablesOf(cells, merges) : []), ...drawings].sort((a, b) => a.top - b.top || a.left - b.left);
    pages.push([{ kind: 'heading', level: 1, text: name ?? `Sheet ${pages.length + 1}` }, ...placed.flatMap((p) => p.items), ...comments]);
  }
  return pages;
}

/**
 * The sheets that may give a page, in workbook order: not hidden, and present in the package.
 * Only the workbook part and its relationships are read, so this is also the page count at
 * submission (docs/decisions.md#pages: one page per non-empty sheet; a visible sheet that turns out empty is dropped
 * when read, and the credit hold re-sized then).
 */
function visibleSheets(pkg: OfficePackage, workbook: XmlNode): { name: string | undefined; part: string }[] {
  const rels = pkg.relationships('xl/workbook.xml');
  const out: { name: string | undefined; part: string }[] = [];
  for (const sheet of children(child(workbook, 'sheets'), 'sheet')) {
    if (sheet.attrs.state === 'hidden' || sheet.attrs.state === 'veryHidden') continue;
    const part = rels.get(sheet.attrs['r:id'])?.target;
    if (part && pkg.lists(part)) out.push({ name: sheet.attrs.name, part });
  }
  return out;
}

/**
 * The cells of a sheet part that hold a value: its <v> (a number, a shared string's index, a
 * formula's result) and <is> (an inline string) elements, found in the bytes without parsing.
 */
export function valuesIn(part: Uint8Array | null): number {
  if (!part) return 0;
  const bytes = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
  let n = 0;
  for (const tag of ['<v', '<is']) {
    for (let at = bytes.indexOf(tag); at >= 0; at = bytes.indexOf(tag, at + tag.length)) {
      const after = bytes[at + tag.length];
      if (after === 0x3e || after === 0x20 || after === 0x09 || after === 0x0a || after === 0x0d) n++;
    }
  }
  return n;
}

/** The page count of a workbook from its workbook part and parts list alone (see visibleSheets). */
export function countXlsxPages(bytes: Uint8Array): number {
  const pkg = OfficePackage.open(bytes, (name) => name === 'xl/workbook.xml' || name === 'xl/_rels/workbook.xml.rels');
  const workbook = pkg.xml('xl/workbook.xml');
  if (!workbook) throw new OfficeReadError('the file has no xl/workbook.xml; it is not an Excel workbook');
  return visibleSheets(pkg, workbook).length;
}

function sharedStrings(pkg: OfficePackage): string[] {
  // A rich string's runs (r/t) or its plain text (t); phonetic guides (rPh) are not shown.
  const out: string[] = [];
  pkg.streamPart('xl/sharedStrings.xml', 'sst', (nodes) => {
    for (const si of nodes) {
      if (si.name !== 'si') continue;
      out.push(
        si.children
          .filter((c) => c.name === 't' || c.name === 'r')
          .map((c) => (c.name === 't' ? textOf(c) : textOf(child(c, 't') ?? c)))
          .join(''),
      );
    }
  });
  return out;
}

/** For each cell style index, its number format code. */
function cellFormats(styles: XmlNode | null): string[] {
  const custom = new Map<number, string>();
  for (const f of children(child(styles ?? undefined, 'numFmts'), 'numFmt')) custom.set(Number(f.attrs.numFmtId), f.attrs.formatCode);
  return children(child(styles ?? undefined, 'cellXfs'), 'xf').map((xf) => {
    const id = Number(xf.attrs.numFmtId ?? 0);
    return custom.get(id) ?? BUILTIN_FORMATS[id] ?? 'General';
  });
}

/**
 * A sheet's filled cells, read a slice of rows at a time, its merged ranges, and the rest of the
 * sheet part (drawings) without its rows; null when the part is missing.
 */
function readSheet(pkg: OfficePackage, part: string, strings: string[], formats: string[], date1904: boolean): { cells: Cell[]; merges: Merge[]; rest: XmlNode } | null {
  const cells: Cell[] = [];
  const read = (row: XmlNode) => {
    for (const c of children(row, 'c')) {
      const ref = position(c.attrs.r);
      if (!ref) continue;
      const text = displayed(c, strings, formats, date1904).trim();
      if (text) cells.push({ ...ref, text });
    }
  };
  const rest = pkg.streamPart(part, 'sheetData', (rows) => {
    for (const row of rows) if (row.name === 'row') read(row);
  });
  if (!rest) return null;
  // A part without a sheetData element of its own name was parsed whole.
  for (const row of children(child(rest, 'sheetData'), 'row')) read(row);
  const merges = descendants(rest, 'mergeCell')
    .map((m) => m.attrs.ref?.split(':').map(position))
    .filter((r): r is [Cell, Cell] => Boolean(r && r[0] && r[1]))
    .map(([a, b]) => ({ r0: Math.min(a.row, b.row), c0: Math.min(a.column, b.column), r1: Math.max(a.row, b.row), c1: Math.max(a.column, b.column) }));
  return { cells, merges, rest };
}

/** Excel's grid: XFD1048576 is its last cell; a reference beyond is not a cell. */
const GRID_ROWS = 1_048_576;
const GRID_COLUMNS = 16_384;

/** "B3" to row 2, column 1 (from 0). */
function position(ref: string | undefined): Cell | null {
  const m = /^([A-Z]{1,3})(\d{1,7})$/.exec(ref ?? '');
  if (!m) return null;
  let column = 0;
  for (const ch of m[1]) column = column * 26 + (ch.charCodeAt(0) - 64);
  const row = Number(m[2]);
  if (row < 1 || row > GRID_ROWS || column > GRID_COLUMNS) return null;
  return { row: row - 1, column: column - 1, text: '' };
}

/** A cell's value as Excel shows it. */
function displayed(c: XmlNode, strings: string[], formats: string[], date1904: boolean): string {
  const type = c.attrs.t ?? 'n';
  const v = child(c, 'v');
  const raw = v ? textOf(v) : '';
  switch (type) {
    case 's':
      return strings[Number(raw)] ?? '';
    case 'inlineStr':
      return textOf(child(c, 'is') ?? c);
    case 'str':
      return raw;
    case 'b':
      return raw === '1' ? 'TRUE' : 'FALSE';
    case 'e':
      return raw;
    default: {
      if (raw === '') return '';
      const value = Number(raw);
      if (!Number.isFinite(value)) return raw;
      const format = formats[Number(c.attrs.s ?? 0)] ?? 'General';
      try {
        return SSF.format(format, value, { date1904 });
      } catch {
        return raw;
      }
    }
  }
}

/**
 * The sheet's separate tables: the used range cut at rows, then at columns, that hold nothing,
 * recursively. A region of one cell is a paragraph (a title above a table); larger ones tables.
 */
interface Placed {
  top: number;
  left: number;
  items: OfficeItem[];
}

/** Charts (with their data) and pictures anchored on the sheet, at the cell they start in. */
function drawingsOf(pkg: OfficePackage, sheetPart: string, sheet: XmlNode): Placed[] {
  const rels = pkg.relationships(sheetPart);
  const out: Placed[] = [];
  for (const ref of children(sheet, 'drawing')) {
    const part = rels.get(ref.attrs['r:id'])?.target;
    const drawing = part ? pkg.xml(part) : null;
    if (!part || !drawing) continue;
    const drawingRels = pkg.relationships(part);
    for (const anchor of drawing.children.filter((c) => c.name === 'xdr:twoCellAnchor' || c.name === 'xdr:oneCellAnchor' || c.name === 'xdr:absoluteAnchor')) {
      const from = child(anchor, 'xdr:from');
      const top = Number(textOf(child(from, 'xdr:row') ?? anchor) || 0);
      const left = Number(textOf(child(from, 'xdr:col') ?? anchor) || 0);
      const chartRef = descendants(anchor, 'c:chart')[0];
      if (chartRef) {
        const chartPart = drawingRels.get(chartRef.attrs['r:id'])?.target;
        if (chartPart) out.push({ top, left, items: readChart(pkg, chartPart) });
      } else if (descendants(anchor, 'xdr:pic').length > 0) {
        out.push({ top, left, items: [{ kind: 'figure', caption: null }] });
      }
    }
  }
  return out;
}

/** The people of the workbook's threaded comments (xl/persons), by id: their display names. */
function personsOf(pkg: OfficePackage): Map<string, string> {
  const part = [...pkg.relationships('xl/workbook.xml').values()].find((r) => r.type.endsWith('/person'))?.target;
  const out = new Map<string, string>();
  for (const person of descendants(pkg.xml(part ?? '') ?? { name: '', attrs: {}, children: [] }, 'person')) out.set(person.attrs.id, person.attrs.displayName ?? '');
  return out;
}

/**
 * A sheet's comments in cell order (by row, then column): Excel's notes (classic comments) and
 * its threaded comments, a thread's replies after the comment they answer. A cell with a thread
 * has a classic copy of it too, written for older readers, which is left out.
 */
function sheetComments(pkg: OfficePackage, sheetPart: string, persons: Map<string, string>): ReviewComment[] {
  const rels = [...pkg.relationships(sheetPart).values()];
  const byCell = new Map<string, ReviewComment[]>();
  const threaded = rels.find((r) => r.type.endsWith('/threadedComment'))?.target;
  for (const c of descendants(pkg.xml(threaded ?? '') ?? { name: '', attrs: {}, children: [] }, 'threadedComment')) {
    const ref = c.attrs.ref;
    if (!ref) continue;
    const thread = byCell.get(ref) ?? [];
    thread.push({ author: persons.get(c.attrs.personId), date: c.attrs.dT, text: textOf(child(c, 'text') ?? c) });
    byCell.set(ref, thread);
  }
  const classic = rels.find((r) => r.type.endsWith('/comments'))?.target;
  const notes = pkg.xml(classic ?? '');
  const authors = children(child(notes ?? undefined, 'authors'), 'author').map(textOf);
  for (const c of descendants(notes ?? { name: '', attrs: {}, children: [] }, 'comment')) {
    const ref = c.attrs.ref;
    if (!ref || byCell.has(ref)) continue;
    const runs = child(c, 'text')?.children.filter((r) => r.name === 't' || r.name === 'r') ?? [];
    const text = runs.map((r) => textOf(r.name === 'r' ? (child(r, 't') ?? r) : r)).join('');
    const author = authors[Number(c.attrs.authorId)];
    // The classic copy of a thread whose own part is missing: its text after the preamble.
    if (author?.startsWith('tc=')) byCell.set(ref, [{ text: text.replace(/^[\s\S]*?\nComment:\n/, '') }]);
    else byCell.set(ref, [{ author, text }]);
  }
  return [...byCell.entries()]
    .map(([ref, thread]) => ({ at: position(ref), thread }))
    .filter((c): c is { at: Cell; thread: ReviewComment[] } => c.at !== null)
    .sort((a, b) => a.at.row - b.at.row || a.at.column - b.at.column)
    .flatMap((c) => c.thread);
}

/** A cell's place as one number, for sets of places (Excel's grid keeps it exact). */
const place = (row: number, column: number) => row * GRID_COLUMNS + column;

function tablesOf(cells: Cell[], merges: Merge[]): Placed[] {
  const occupied = new Set<number>();
  for (const cell of cells) occupied.add(place(cell.row, cell.column));
  // A merged range counts as filled across its span, so it does not split its own table.
  const live = merges.filter((m) => occupied.has(place(m.r0, m.c0)));
  const items: Placed[] = [];
  const split = (inRange: Cell[], r0: number, r1: number, c0: number, c1: number, byRows: boolean, depth: number) => {
    const inside = inRange.filter((c) => c.row >= r0 && c.row <= r1 && c.column >= c0 && c.column <= c1);
    if (inside.length === 0) return;
    let top = Infinity;
    let bottom = -Infinity;
    let left = Infinity;
    let right = -Infinity;
    for (const c of inside) {
      top = Math.min(top, c.row);
      bottom = Math.max(bottom, c.row);
      left = Math.min(left, c.column);
      right = Math.max(right, c.column);
    }
    for (const m of live) {
      if (m.r0 >= r0 && m.r0 <= r1) bottom = Math.max(bottom, Math.min(m.r1, r1));
      if (m.c0 >= c0 && m.c0 <= c1) right = Math.max(right, Math.min(m.c1, c1));
    }
    // Which rows and columns of the region hold something: a cell, or a live merge's span.
    const rowFilled = new Uint8Array(bottom - top + 1);
    const columnFilled = new Uint8Array(right - left + 1);
    for (const c of inside) {
      rowFilled[c.row - top] = 1;
      columnFilled[c.column - left] = 1;
    }
    for (const m of live) {
      const ra = Math.max(m.r0, top);
      const rb = Math.min(m.r1, bottom);
      const ca = Math.max(m.c0, left);
      const cb = Math.min(m.c1, right);
      if (ra > rb || ca > cb) continue;
      rowFilled.fill(1, ra - top, rb - top + 1);
      columnFilled.fill(1, ca - left, cb - left + 1);
    }
    const bands = (from: number, filled: Uint8Array) => {
      const out: [number, number][] = [];
      let start = -1;
      for (let k = 0; k <= filled.length; k++) {
        const empty = k === filled.length || filled[k] === 0;
        if (!empty && start < 0) start = k;
        if (empty && start >= 0) {
          out.push([from + start, from + k - 1]);
          start = -1;
        }
      }
      return out;
    };
    const rowBands = bands(top, rowFilled);
    const columnBands = bands(left, columnFilled);
    const cut = byRows ? rowBands : columnBands;
    if (cut.length > 1 && depth < 20) {
      for (const [a, b] of cut) (byRows ? split(inside, a, b, left, right, !byRows, depth + 1) : split(inside, top, bottom, a, b, !byRows, depth + 1));
      return;
    }
    const other = byRows ? columnBands : rowBands;
    if (other.length > 1 && depth < 20) {
      for (const [a, b] of other) (byRows ? split(inside, top, bottom, a, b, byRows, depth + 1) : split(inside, a, b, left, right, byRows, depth + 1));
      return;
    }
    items.push({ top, left, items: [regionItem(inside, merges, bottom, right)] });
  };
  // The used range, merged ranges included: a merge may reach past the last filled cell.
  let top = Infinity;
  let bottom = -Infinity;
  let left = Infinity;
  let right = -Infinity;
  for (const c of cells) {
    top = Math.min(top, c.row);
    bottom = Math.max(bottom, c.row);
    left = Math.min(left, c.column);
    right = Math.max(right, c.column);
  }
  for (const m of live) {
    bottom = Math.max(bottom, m.r1);
    right = Math.max(right, m.c1);
  }
  split(cells, top, bottom, left, right, true, 0);
  return items;
}

function regionItem(inside: Cell[], merges: Merge[], bottom: number, right: number): OfficeItem {
  // The merge anchored at a cell (the first one listed, should two be).
  const anchored = new Map<number, Merge>();
  for (const m of merges) if (!anchored.has(place(m.r0, m.c0))) anchored.set(place(m.r0, m.c0), m);
  const mergeAt = (cell: Cell) => anchored.get(place(cell.row, cell.column));
  const single = inside.length === 1 && !mergeAt(inside[0]);
  if (single) return { kind: 'paragraph', text: inside[0].text };
  // Rows and columns no cell reaches (left blank inside the region) are dropped; those a merged
  // cell spans stay, so that the merge keeps its width.
  const rowSet = new Set<number>();
  const columnSet = new Set<number>();
  for (const cell of inside) {
    const merge = mergeAt(cell);
    if (!merge) {
      rowSet.add(cell.row);
      columnSet.add(cell.column);
      continue;
    }
    for (let r = merge.r0; r <= Math.min(merge.r1, bottom); r++) rowSet.add(r);
    for (let c = merge.c0; c <= Math.min(merge.c1, right); c++) columnSet.add(c);
  }
  const rows = [...rowSet].sort((a, b) => a - b);
  const columns = [...columnSet].sort((a, b) => a - b);
  const rowIndex = new Map(rows.map((r, i) => [r, i]));
  const columnIndex = new Map(columns.map((c, i) => [c, i]));
  const out: Extract<OfficeItem, { kind: 'table' }>['cells'] = [];
  for (const cell of inside) {
    const merge = mergeAt(cell);
    out.push({
      row: rowIndex.get(cell.row)!,
      column: columnIndex.get(cell.column)!,
      rowSpan: merge ? Math.max(1, kept(rows, merge.r0, Math.min(merge.r1, bottom))) : 1,
      columnSpan: merge ? Math.max(1, kept(columns, merge.c0, Math.min(merge.c1, right))) : 1,
      text: cell.text,
    });
  }
  const rowCount = rows.length;
  return { kind: 'table', rowCount, columnCount: columns.length, cells: out.sort((a, b) => a.row - b.row || a.column - b.column), headerRows: rowCount > 1 ? 1 : 0 };
}

/** How many of the sorted values lie in [from, to]. */
function kept(sorted: number[], from: number, to: number): number {
  return lowerBound(sorted, to + 1) - lowerBound(sorted, from);
}

/** The index of the first value not below `value` in a sorted list. */
function lowerBound(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
