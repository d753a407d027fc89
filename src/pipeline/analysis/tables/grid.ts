// From a grid of cell regions and the page's words to a Table: words placed in the cell under
// their centre, cell text in reading order, empty grid rows and columns dropped, right-to-left
// tables mirrored so that column 0 is the first column a reader meets.
import { buildLines, RTL } from '../lines.js';
import { verticalOverlap, type Box, type Table, type TableCell, type Word } from '../../page-model.js';

/** Relations and operators that mark a piece of a formula. */
const FORMULA = /[=⇒⇔∈∉∂∑∏∫→↦≤≥≠⊆⊂∪∩∀∃]/;

/** A cell region on the page, by grid position; a merged cell covers several positions. */
export interface CellRegion {
  row: number;
  column: number;
  rowSpan: number;
  columnSpan: number;
  box: Box;
}

export interface GridTable {
  box: Box;
  rowCount: number;
  columnCount: number;
  cells: CellRegion[];
  source: Table['source'];
  /** Leading rows known to be headers from the drawing (shading, a rule under them); -1 unknown. */
  headerRows: number;
  /** For grids found by alignment: the two halves of the page each column spans, when it is so. */
  halves?: boolean;
  /** For grids found by alignment: what told their header rows, a rule drawn across under them or their bold type. */
  headerFrom?: 'rule' | 'bold';
  /** For grids found by alignment: a table's caption ("Table 3:") stands right above or below them. */
  captioned?: boolean;
}

/**
 * Fills a grid with the words whose centre lies in each cell, and returns the table and the
 * indices of the words it took (claimed words leave the running text). Null when the grid holds
 * too little to be a table.
 */
export function fillGrid(grid: GridTable, words: Word[], candidates: Iterable<number>, rightToLeft: boolean): { table: Table; claimed: number[] } | null {
  const inCell: number[][] = grid.cells.map(() => []);
  const claimed: number[] = [];
  for (const i of candidates) {
    const box = words[i].box;
    const cx = (box.x0 + box.x1) / 2;
    const cy = (box.y0 + box.y1) / 2;
    if (cx < grid.box.x0 || cx > grid.box.x1 || cy < grid.box.y0 || cy > grid.box.y1) continue;
    const cell = grid.cells.findIndex((c) => cx >= c.box.x0 && cx <= c.box.x1 && cy >= c.box.y0 && cy <= c.box.y1);
    if (cell < 0) continue;
    inCell[cell].push(i);
    claimed.push(i);
  }
  const texts = inCell.map((indices) => cellText(indices.map((i) => words[i]), rightToLeft));
  const bold = inCell.map((indices) => indices.length > 0 && indices.every((i) => words[i].bold));
  const table = prune(grid, texts, bold);
  if (!table) return null;
  return { table: rightToLeft ? mirror(table) : table, claimed };
}

/**
 * The text of a cell: its words in lines top to bottom (built like the page's own lines, so a
 * bullet and its text stay on one line), each line in reading direction, lines joined by spaces,
 * words hyphenated at a line end joined back, with their hyphen where the file printed one.
 * `cellWords` come in the order the file drew them, which buildLines follows first: sorted by
 * their tops instead, a math symbol with a loose box ("x ∈ X") fell out of its line.
 */
export function cellText(cellWords: Word[], rightToLeft: boolean): string {
  if (cellWords.length === 0) return '';
  const built = buildLines(cellWords);
  const lines = rowsInReadingOrder(built, rightToLeft).map((line) => line.words.map((i) => cellWords[i]));
  let text = '';
  let previous: Word | null = null;
  for (const line of lines) {
    if (rightToLeft) line.splice(0, line.length, ...rightToLeftOrder(line));
    // A hyphen the file kept at the end of a word ("2028-01-", "cost-") joins it to the next line's
    // first word as printed; one PDFium took for a line-end break comes back before a capital or
    // a figure, where it cannot have been a syllable break.
    if (previous) text += previous.hyphenated ? (/^[\p{Lu}\p{N}]/u.test(line[0].text) ? '-' : '') : /[\p{L}\p{N}][-‐]$/u.test(previous.text) && /^[\p{L}\p{N}]/u.test(line[0].text) ? '' : ' ';
    text += line.map((w) => w.text).join(' ');
    previous = line[line.length - 1];
  }
  return text;
}

/**
 * Lines of a cell in reading order: top to bottom, and pieces of one row (options set apart,
 * "☐ fund   ☒ contract", "☐ بلی   ☒ خير") from the side the cell reads from. buildLines orders
 * them by their tops, and a scan's reading gives a check box a box taller than the words beside
 * it, which put the second option first.
 */
function rowsInReadingOrder<T extends { box: Box }>(lines: T[], rightToLeft: boolean): T[] {
  const rows: T[][] = [];
  for (const line of lines) {
    const row = rows.find((r) => verticalOverlap(r[0].box, line.box) > 0.5);
    if (row) row.push(line);
    else rows.push([line]);
  }
  return rows.flatMap((row) => row.sort((a, b) => (rightToLeft ? b.box.x1 - a.box.x1 : a.box.x0 - b.box.x0)));
}

/**
 * A line of a right-to-left table in reading order: its runs of words from right to left, the
 * words of a right-to-left run too, those of a left-to-right run (a Latin name, a figure: words
 * with letters or digits and no right-to-left letter) left to right, as the bidirectional
 * algorithm lays them out.
 */
function rightToLeftOrder(line: Word[]): Word[] {
  const runs: { leftToRight: boolean; words: Word[] }[] = [];
  for (const word of [...line].sort((a, b) => a.box.x0 - b.box.x0)) {
    const leftToRight = !RTL.test(word.text) && /[\p{L}\p{N}]/u.test(word.text);
    const last = runs[runs.length - 1];
    if (last && last.leftToRight === leftToRight) last.words.push(word);
    else runs.push({ leftToRight, words: [word] });
  }
  return runs.reverse().flatMap((run) => (run.leftToRight ? run.words : run.words.reverse()));
}

/** Two rows of aligned text parting into this many columns or more are a table's header and row where the header's cells are labels over figures. */
const WIDE_PAIR = 4;

/**
 * Drops grid rows and columns in which no cell starts or ends with text of its own (spacer rows,
 * double rulings), re-indexing the cells. Null when fewer than two rows or columns, or fewer than
 * three filled cells, remain.
 */
function prune(grid: GridTable, texts: string[], bold: boolean[]): Table | null {
  const rowUsed = new Array<boolean>(grid.rowCount).fill(false);
  const columnUsed = new Array<boolean>(grid.columnCount).fill(false);
  grid.cells.forEach((cell, i) => {
    if (!texts[i]) return;
    rowUsed[cell.row] = true;
    columnUsed[cell.column] = true;
  });
  // A column or row kept only because a spanning cell starts there would vanish with it; keep any
  // grid line where some filled cell starts.
  const rowIndex = remap(rowUsed);
  const columnIndex = remap(columnUsed);
  const rowCount = rowUsed.filter(Boolean).length;
  const columnCount = columnUsed.filter(Boolean).length;
  if (rowCount < 2 || columnCount < 2) return null;
  const cells: TableCell[] = [];
  const taken = new Set<string>();
  grid.cells.forEach((cell, i) => {
    const row = firstKept(rowIndex, cell.row, cell.rowSpan);
    const column = firstKept(columnIndex, cell.column, cell.columnSpan);
    if (row < 0 || column < 0) return;
    const rowSpan = spanKept(rowIndex, cell.row, cell.rowSpan);
    const columnSpan = spanKept(columnIndex, cell.column, cell.columnSpan);
    const key = `${row}:${column}`;
    if (taken.has(key)) {
      // Two regions collapsed onto one position: keep the text of both.
      const existing = cells.find((c) => c.row === row && c.column === column)!;
      if (texts[i]) existing.text = existing.text ? `${existing.text} ${texts[i]}` : texts[i];
      return;
    }
    taken.add(key);
    cells.push({ row, column, rowSpan, columnSpan, text: texts[i], box: cell.box });
  });
  const filled = cells.filter((c) => c.text);
  if (filled.length < 3) return null;
  // A grid of one repeated mark is a drawing (a lattice of dots or stars), not data.
  if (new Set(filled.map((c) => c.text)).size === 1) return null;
  // Text that merely lines up (formulas, diagram labels) leaves most of its grid empty; a table
  // found by alignment alone must fill at least half of it. Two rows of aligned text are a table
  // only with a rule drawn between them, under the header, or with a header over a row with
  // digits (figures, dates) in half its columns or more: the piece of a table a page break leaves
  // on one side, its header repeated, or a table of one row. The header is told by its bold, or,
  // where the rows part into WIDE_PAIR columns or more (two lines of anything else seldom part at
  // three gaps in the same places), by labels in all its cells; a scan's words have no weight.
  // Two lines of names over affiliations line up as well, but hold no digits.
  if (grid.source === 'aligned') {
    const area = filled.reduce((sum, c) => sum + c.rowSpan * c.columnSpan, 0);
    const labels = filled.filter((c) => c.row === 0).every((c) => /\p{L}/u.test(c.text));
    const overFigures = (grid.headerFrom === 'bold' || (columnCount >= WIDE_PAIR && labels)) && filled.filter((c) => c.row === 1 && /\d/.test(c.text)).length * 2 >= columnCount;
    if (rowCount < (grid.headerFrom === 'rule' || overFigures ? 2 : 3) || area < rowCount * columnCount * 0.5) return null;
    // Display formulas line up too; their cells are full of relations and operators.
    if (filled.filter((c) => FORMULA.test(c.text)).length > filled.length * 0.25) return null;
    // Unless the page says it is a table: a caption naming one is set right above or below it.
    if (columnCount === 2 && !grid.captioned && (alikeColumns(cells, 0.25) || (grid.halves && alikeColumns(cells, 0.4)))) return null;
  }
  cells.sort((a, b) => a.row - b.row || a.column - b.column);
  // Header rows, unless the drawing told: leading rows set in bold when the body is not; else a
  // first row of words above rows of figures.
  const rowBold = new Array<boolean>(rowCount).fill(true);
  grid.cells.forEach((cell, i) => {
    const row = firstKept(rowIndex, cell.row, cell.rowSpan);
    if (row >= 0 && texts[i] && !bold[i]) rowBold[row] = false;
  });
  let headerRows = grid.headerRows;
  if (headerRows < 0) {
    headerRows = 0;
    while (headerRows < rowCount && rowBold[headerRows]) headerRows++;
    if (headerRows === rowCount) headerRows = 0;
    const numeric = (row: number) => cells.some((c) => c.row === row && /^[\s$€£%()+\-–.,\d]+$/.test(c.text) && /\d/.test(c.text));
    if (headerRows === 0 && rowCount >= 3 && !numeric(0) && numeric(1)) headerRows = 1;
  }
  return {
    box: grid.box,
    rowCount,
    columnCount,
    cells,
    headerRows: Math.min(headerRows, rowCount - 1),
    source: grid.source,
    continuedFromPrevious: false,
    continuesOnNext: false,
  };
}

/**
 * Two columns of the same kind of text (an index or a list set in two columns) are the page's
 * columns, not a table: a table's columns hold different things (labels and figures, terms and
 * explanations).
 */
function alikeColumns(cells: TableCell[], digitsTolerance: number): boolean {
  const profile = (column: number) => {
    const texts = cells.filter((c) => c.column === column && c.text).map((c) => c.text);
    const share = (test: (t: string) => boolean) => texts.filter(test).length / Math.max(1, texts.length);
    return {
      letters: share((t) => /\p{L}{2}/u.test(t)),
      digits: share((t) => /\d/.test(t)),
      length: texts.reduce((sum, t) => sum + t.length, 0) / Math.max(1, texts.length),
    };
  };
  const a = profile(0);
  const b = profile(1);
  const ratio = Math.max(a.length, b.length) / Math.max(1, Math.min(a.length, b.length));
  return a.letters >= 0.7 && b.letters >= 0.7 && Math.abs(a.digits - b.digits) < digitsTolerance && ratio < 2;
}

/** For each old index, its new index, or -1 when dropped. */
function remap(used: boolean[]): number[] {
  let next = 0;
  return used.map((u) => (u ? next++ : -1));
}

function firstKept(index: number[], start: number, span: number): number {
  for (let i = start; i < start + span; i++) if (index[i] >= 0) return index[i];
  return -1;
}

function spanKept(index: number[], start: number, span: number): number {
  let n = 0;
  for (let i = start; i < start + span; i++) if (index[i] >= 0) n++;
  return Math.max(1, n);
}

/** Column 0 becomes the rightmost column, as a right-to-left reader meets it. */
function mirror(table: Table): Table {
  const cells = table.cells
    .map((c) => ({ ...c, column: table.columnCount - c.column - c.columnSpan }))
    .sort((a, b) => a.row - b.row || a.column - b.column);
  return { ...table, cells };
}

/** The table as rows of cell texts; a merged cell's text sits at its top-left position. */
export function tableRows(table: Table): string[][] {
  const rows = Array.from({ length: table.rowCount }, () => new Array<string>(table.columnCount).fill(''));
  for (const cell of table.cells) rows[cell.row][cell.column] = cell.text;
  return rows;
}
