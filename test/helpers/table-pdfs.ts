// Tables drawn with pdf-lib the way report writers set them, for the table finders' unit tests:
// cell text wrapped to its column by measured widths (greedy, like a word processor), columns
// left- or right-aligned, and the rulings of the usual styles: every cell drawn, only the frame
// and the header drawn (the body's rows left to the text), rules above and below the header and
// at the end (booktabs), or none.
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

export interface TableColumn {
  width: number;
  align?: 'left' | 'right';
}

export interface DrawnTable {
  columns: TableColumn[];
  header: string[];
  rows: string[][];
  /** grid: every cell; frame: the outer box, the column borders and a rule under the header. */
  rules: 'grid' | 'frame' | 'booktabs' | 'none';
  fontSize?: number;
  /** Points between the text and a cell's side. */
  padding?: number;
  /** Lines of body text set above and below the table, at the table's left edge. */
  before?: string[];
  after?: string[];
  /** Body text size (default 11). */
  textSize?: number;
  /** Courier sets every character the same width, as typewritten statistical tables are. */
  font?: 'Helvetica' | 'Courier';
  landscape?: boolean;
  /** Shade each header cell with a box this many points inside its side borders (a white margin). */
  shadedHeader?: number;
}

const LEFT = 72;
const MARGIN = 72;

/** One page holding the table (and its text before and after). */
export async function drawnTablePdf(table: DrawnTable): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const courier = table.font === 'Courier';
  const font = await doc.embedFont(courier ? StandardFonts.Courier : StandardFonts.Helvetica);
  const bold = await doc.embedFont(courier ? StandardFonts.CourierBold : StandardFonts.HelveticaBold);
  const page = doc.addPage(table.landscape ? [792, 612] : [612, 792]);
  let y = page.getHeight() - MARGIN;
  const textSize = table.textSize ?? 11;
  for (const line of table.before ?? []) {
    page.drawText(line, { x: LEFT, y: y - textSize, size: textSize, font });
    y -= textSize * 1.4;
  }
  y -= table.before?.length ? textSize : 0;
  y = drawTable(page, table, font, bold, y);
  y -= textSize;
  for (const line of table.after ?? []) {
    page.drawText(line, { x: LEFT, y: y - textSize, size: textSize, font });
    y -= textSize * 1.4;
  }
  return doc.save();
}

/** The lines of `text` wrapped greedily to `width` points. */
export function wrapText(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

/** Draws the table with its top at `top`; returns the y of its bottom. */
function drawTable(page: PDFPage, table: DrawnTable, font: PDFFont, bold: PDFFont, top: number): number {
  const size = table.fontSize ?? 9;
  const padding = table.padding ?? 4;
  const leading = size * 1.25;
  const xs = [LEFT];
  for (const column of table.columns) xs.push(xs[xs.length - 1] + column.width);
  const rows = [table.header, ...table.rows];
  const bottoms: number[] = [];
  let y = top;
  rows.forEach((cells, r) => {
    const face = r === 0 ? bold : font;
    const inset = table.shadedHeader;
    if (r === 0 && inset !== undefined) {
      const lines = Math.max(1, ...cells.map((text, c) => wrapText(text, face, size, table.columns[c].width - 2 * padding).length));
      const height = lines * leading + padding;
      cells.forEach((_, c) =>
        page.drawRectangle({ x: xs[c] + inset, y: y - height + 1, width: table.columns[c].width - 2 * inset, height: height - 2, color: rgb(0.85, 0.85, 0.85) }),
      );
    }
    // A line break in a cell's text starts a new paragraph in the cell.
    const wrapped = cells.map((text, c) => (text ? text.split('\n').flatMap((paragraph) => wrapText(paragraph, face, size, table.columns[c].width - 2 * padding)) : []));
    const height = Math.max(1, ...wrapped.map((lines) => lines.length)) * leading + padding;
    wrapped.forEach((lines, c) => {
      lines.forEach((line, l) => {
        const width = face.widthOfTextAtSize(line, size);
        const x = table.columns[c].align === 'right' ? xs[c + 1] - padding - width : xs[c] + padding;
        page.drawText(line, { x, y: y - padding / 2 - size - l * leading, size, font: face });
      });
    });
    y -= height;
    bottoms.push(y);
  });
  const rule = (y0: number) => page.drawLine({ start: { x: xs[0], y: y0 }, end: { x: xs[xs.length - 1], y: y0 }, thickness: 0.6 });
  const bottom = bottoms[bottoms.length - 1];
  if (table.rules === 'grid' || table.rules === 'frame') {
    rule(top);
    for (const [r, y0] of bottoms.entries()) if (table.rules === 'grid' || r === 0 || r === bottoms.length - 1) rule(y0);
    for (const x of xs) page.drawLine({ start: { x, y: top }, end: { x, y: bottom }, thickness: 0.6 });
  } else if (table.rules === 'booktabs') {
    rule(top);
    rule(bottoms[0]);
    rule(bottom);
  }
  return bottom;
}

/** A piece of text on a line: its left edge (or right edge, for `right`) and its text. */
export interface Piece {
  x: number;
  text: string;
  right?: boolean;
}

/**
 * One page of lines, each made of pieces set at given x positions (tab stops), `pitch` points
 * apart from the top margin.
 */
export async function placedTextPdf(lines: Piece[][], options: { size?: number; pitch?: number; font?: 'Helvetica' | 'Courier' } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(options.font === 'Courier' ? StandardFonts.Courier : StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  const size = options.size ?? 11;
  const pitch = options.pitch ?? size * 1.4;
  lines.forEach((pieces, i) => {
    for (const { x, text, right } of pieces) page.drawText(text, { x: right ? x - font.widthOfTextAtSize(text, size) : x, y: 792 - MARGIN - size - i * pitch, size, font });
  });
  return doc.save();
}
