// XLSX reader: one page per sheet that holds anything (DECISIONS D9), in workbook order, headed by
// the sheet's name. Each cell is shown as Excel displays it: its number format (dates,
// percentages, currency, decimals) applied with SSF, SheetJS's implementation of Excel's format
// language; formulas by their saved results. Merged ranges become spanning cells. Blank rows and
// columns across the used range cut a sheet into its separate tables, as a reader sees them.
// Written against the sheet XML because the JavaScript workbook libraries either ignore number
// formats when giving a cell's text (exceljs) or are not kept on npm (SheetJS).
import SSF from 'ssf';
import { child, children, descendants, OfficePackage, OfficeReadError, textOf, type XmlNode } from './package.js';
import type { OfficeItem } from './structure.js';
import { readChart } from './chart.js';

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

/** The most cells read from one sheet; beyond, the sheet is cut short (a sheet of a million rows). */
const MAX_CELLS = 500_000;

export function readXlsx(bytes: Uint8Array): OfficeItem[][] {
  const pkg = OfficePackage.open(bytes, (name) => name.startsWith('xl/') && (name.endsWith('.xml') || name.endsWith('.rels')) && !name.startsWith('xl/media/'));
  const workbook = pkg.xml('xl/workbook.xml');
  if (!workbook) throw new OfficeReadError('the file has no xl/workbook.xml; it is not an Excel workbook');
  const rels = pkg.relationships('xl/workbook.xml');
  const strings = sharedStrings(pkg.xml('xl/sharedStrings.xml'));
  const formats = cellFormats(pkg.xml('xl/styles.xml'));
  const date1904 = child(workbook, 'workbookPr')?.attrs.date1904 === '1' || child(workbook, 'workbookPr')?.attrs.date1904 === 'true';
  const pages: OfficeItem[][] = [];
  for (const sheet of children(child(workbook, 'sheets'), 'sheet')) {
    if (sheet.attrs.state === 'hidden' || sheet.attrs.state === 'veryHidden') continue;
    const target = rels.get(sheet.attrs['r:id'])?.target;
    const xml = target ? pkg.xml(target) : null;
    if (!xml) continue;
    const { cells, merges } = readSheet(xml, strings, formats, date1904);
    const drawings = drawingsOf(pkg, target!, xml);
    if (cells.length === 0 && drawings.length === 0) continue;
    // Tables and drawings in the order they sit on the sheet, top to bottom, then left to right.
    const placed = [...(cells.length ? tablesOf(cells, merges) : []), ...drawings].sort((a, b) => a.top - b.top || a.left - b.left);
    pages.push([{ kind: 'heading', level: 1, text: sheet.attrs.name ?? `Sheet ${pages.length + 1}` }, ...placed.flatMap((p) => p.items)]);
  }
  return pages;
}

function sharedStrings(sst: XmlNode | null): string[] {
  // A rich string's runs (r/t) or its plain text (t); phonetic guides (rPh) are not shown.
  return children(sst ?? undefined, 'si').map((si) =>
    si.children
      .filter((c) => c.name === 't' || c.name === 'r')
      .map((c) => (c.name === 't' ? textOf(c) : textOf(child(c, 't') ?? c)))
      .join(''),
  );
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

function readSheet(sheet: XmlNode, strings: string[], formats: string[], date1904: boolean): { cells: Cell[]; merges: Merge[] } {
  const cells: Cell[] = [];
  for (const row of children(child(sheet, 'sheetData'), 'row')) {
    for (const c of children(row, 'c')) {
      if (cells.length >= MAX_CELLS) break;
      const ref = position(c.attrs.r);
      if (!ref) continue;
      const text = displayed(c, strings, formats, date1904).trim();
      if (text) cells.push({ ...ref, text });
    }
  }
  const merges = descendants(sheet, 'mergeCell')
    .map((m) => m.attrs.ref?.split(':').map(position))
    .filter((r): r is [Cell, Cell] => Boolean(r && r[0] && r[1]))
    .map(([a, b]) => ({ r0: Math.min(a.row, b.row), c0: Math.min(a.column, b.column), r1: Math.max(a.row, b.row), c1: Math.max(a.column, b.column) }));
  return { cells, merges };
}

/** "B3" to row 2, column 1 (from 0). */
function position(ref: string | undefined): Cell | null {
  const m = /^([A-Z]+)(\d+)$/.exec(ref ?? '');
  if (!m) return null;
  let column = 0;
  for (const ch of m[1]) column = column * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(m[2]) - 1, column: column - 1, text: '' };
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

function tablesOf(cells: Cell[], merges: Merge[]): Placed[] {
  const occupied = new Map<string, Cell>();
  for (const cell of cells) occupied.set(`${cell.row}:${cell.column}`, cell);
  // A merged range counts as filled across its span, so it does not split its own table.
  const covered = (r: number, c: number) => occupied.has(`${r}:${c}`) || merges.some((m) => r >= m.r0 && r <= m.r1 && c >= m.c0 && c <= m.c1 && occupied.has(`${m.r0}:${m.c0}`));
  const items: Placed[] = [];
  const split = (r0: number, r1: number, c0: number, c1: number, byRows: boolean, depth: number) => {
    const inside = cells.filter((c) => c.row >= r0 && c.row <= r1 && c.column >= c0 && c.column <= c1);
    if (inside.length === 0) return;
    const top = Math.min(...inside.map((c) => c.row));
    const bottom = Math.max(...inside.map((c) => c.row), ...merges.filter((m) => occupied.has(`${m.r0}:${m.c0}`) && m.r0 >= r0 && m.r0 <= r1).map((m) => Math.min(m.r1, r1)));
    const left = Math.min(...inside.map((c) => c.column));
    const right = Math.max(...inside.map((c) => c.column), ...merges.filter((m) => occupied.has(`${m.r0}:${m.c0}`) && m.c0 >= c0 && m.c0 <= c1).map((m) => Math.min(m.c1, c1)));
    const bands = (from: number, to: number, isEmpty: (k: number) => boolean) => {
      const out: [number, number][] = [];
      let start = -1;
      for (let k = from; k <= to + 1; k++) {
        const empty = k > to || isEmpty(k);
        if (!empty && start < 0) start = k;
        if (empty && start >= 0) {
          out.push([start, k - 1]);
          start = -1;
        }
      }
      return out;
    };
    const rowBands = bands(top, bottom, (r) => {
      for (let c = left; c <= right; c++) if (covered(r, c)) return false;
      return true;
    });
    const columnBands = bands(left, right, (c) => {
      for (let r = top; r <= bottom; r++) if (covered(r, c)) return false;
      return true;
    });
    const cut = byRows ? rowBands : columnBands;
    if (cut.length > 1 && depth < 20) {
      for (const [a, b] of cut) (byRows ? split(a, b, left, right, !byRows, depth + 1) : split(top, bottom, a, b, !byRows, depth + 1));
      return;
    }
    const other = byRows ? columnBands : rowBands;
    if (other.length > 1 && depth < 20) {
      for (const [a, b] of other) (byRows ? split(top, bottom, a, b, byRows, depth + 1) : split(a, b, left, right, byRows, depth + 1));
      return;
    }
    items.push({ top, left, items: [regionItem(inside, merges, bottom, right)] });
  };
  // The used range, merged ranges included: a merge may reach past the last filled cell.
  const live = merges.filter((m) => occupied.has(`${m.r0}:${m.c0}`));
  split(
    Math.min(...cells.map((c) => c.row)),
    Math.max(...cells.map((c) => c.row), ...live.map((m) => m.r1)),
    Math.min(...cells.map((c) => c.column)),
    Math.max(...cells.map((c) => c.column), ...live.map((m) => m.c1)),
    true,
    0,
  );
  return items;
}

function regionItem(inside: Cell[], merges: Merge[], bottom: number, right: number): OfficeItem {
  const single = inside.length === 1 && !merges.some((m) => m.r0 === inside[0].row && m.c0 === inside[0].column);
  if (single) return { kind: 'paragraph', text: inside[0].text };
  // Rows and columns no cell reaches (left blank inside the region) are dropped; those a merged
  // cell spans stay, so that the merge keeps its width.
  const spans = inside.map((cell) => merges.find((m) => m.r0 === cell.row && m.c0 === cell.column) ?? { r0: cell.row, r1: cell.row, c0: cell.column, c1: cell.column });
  const rows = [...new Set(spans.flatMap((m) => range(m.r0, Math.min(m.r1, bottom))))].sort((a, b) => a - b);
  const columns = [...new Set(spans.flatMap((m) => range(m.c0, Math.min(m.c1, right))))].sort((a, b) => a - b);
  const kept = (list: number[], from: number, to: number) => list.filter((v) => v >= from && v <= to).length;
  const out: Extract<OfficeItem, { kind: 'table' }>['cells'] = [];
  for (const cell of inside) {
    const merge = merges.find((m) => m.r0 === cell.row && m.c0 === cell.column);
    out.push({
      row: rows.indexOf(cell.row),
      column: columns.indexOf(cell.column),
      rowSpan: merge ? Math.max(1, kept(rows, merge.r0, Math.min(merge.r1, bottom))) : 1,
      columnSpan: merge ? Math.max(1, kept(columns, merge.c0, Math.min(merge.c1, right))) : 1,
      text: cell.text,
    });
  }
  const rowCount = rows.length;
  return { kind: 'table', rowCount, columnCount: columns.length, cells: out.sort((a, b) => a.row - b.row || a.column - b.column), headerRows: rowCount > 1 ? 1 : 0 };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}
