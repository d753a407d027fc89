// The page as printed: the layout's own lines with their boxes, and rows of them side by side.
// Page text reflows a block's lines into paragraphs and sets a block beside another after it,
// so a receipt's "TOTAL" and the "88.17" printed level with it at the right edge can end up lines
// apart; their boxes still say they stand on one row. Every printed line's text is words of the
// page text, so it can be quoted.
import type { PageOutputs } from '../../../page-outputs/shapes.js';

/** Where something stands on its page, in fractions of the page's width and height. */
export interface Place {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export interface PrintedLine {
  page: number;
  text: string;
  place: Place;
  /** Index among the document's printed lines, in reading order. */
  order: number;
  /** Where it stands in the page text: the index of the view's text line holding it and its
   * offset there (a paragraph reflowed into one text line holds several printed lines). */
  held: { line: number; offset: number } | null;
}

export interface Row {
  page: number;
  /** Its printed lines, left to right. */
  lines: PrintedLine[];
  place: Place;
  /** Index among the document's rows, top to bottom, page after page. */
  order: number;
}

/** The printed lines of a page outside its tables (whose rows are read from their cells), in reading order. */
export function printedLines(page: PageOutputs, firstOrder: number): PrintedLine[] {
  const out: PrintedLine[] = [];
  for (const element of page.layout) {
    if (element.type === 'table' || element.type === 'figure') continue;
    for (const line of element.lines ?? []) {
      const text = line.text.replace(/\s+/g, ' ').trim();
      if (!text) continue;
      const { left, top, width, height } = line.bbox;
      out.push({ page: page.page, text, place: { top, bottom: top + height, left, right: left + width }, order: firstOrder + out.length, held: null });
    }
  }
  return out;
}

/**
 * Printed lines that stand level with each other, joined into rows: two lines share a row when
 * they overlap vertically by more than half the taller one, so a label and the amount printed at
 * the right edge of its row meet while the lines above and below stay apart.
 */
export function rowsOf(lines: PrintedLine[], firstOrder: number): Row[] {
  const rows: Row[] = [];
  const pages = new Map<number, PrintedLine[]>();
  for (const line of lines) {
    const onPage = pages.get(line.page);
    if (onPage) onPage.push(line);
    else pages.set(line.page, [line]);
  }
  for (const onPage of pages.values()) {
    const pageRows: Row[] = [];
    // Lines come top down: a row that ends above a line's top meets no later line either.
    let open: Row[] = [];
    for (const line of [...onPage].sort((a, b) => a.place.top - b.place.top || a.place.left - b.place.left)) {
      open = open.filter((r) => r.place.bottom > line.place.top);
      const row = open.find((r) => r.lines.some((other) => level(other.place, line.place)));
      if (row) {
        row.lines.push(line);
        row.place = union(row.place, line.place);
      } else {
        const created = { page: line.page, lines: [line], place: { ...line.place }, order: 0 };
        pageRows.push(created);
        open.push(created);
      }
    }
    pageRows.sort((a, b) => a.place.top - b.place.top);
    rows.push(...pageRows);
  }
  rows.forEach((row, i) => {
    row.lines.sort((a, b) => a.place.left - b.place.left);
    row.order = firstOrder + i;
  });
  return rows;
}

function level(a: Place, b: Place): boolean {
  const overlap = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return overlap > 0.5 * Math.max(a.bottom - a.top, b.bottom - b.top);
}

function union(a: Place, b: Place): Place {
  return { top: Math.min(a.top, b.top), bottom: Math.max(a.bottom, b.bottom), left: Math.min(a.left, b.left), right: Math.max(a.right, b.right) };
}

/** A printed line as read: pieces of one row that the layout split at wide word gaps, joined. */
export interface Phrase {
  page: number;
  text: string;
  /** Its pieces, left to right. */
  lines: PrintedLine[];
  /** The reading order of its first piece. */
  order: number;
}

/** Pieces of a row closer than this many character widths are one line: columns stand further apart. */
const WORD_GAP_CHARACTERS = 3;

/**
 * The phrases of each row: OCR and the layout may split one printed line at wide word gaps
 * ("KEDAI" "RUNCIT SRI MAJU" "SDN" "BHD"), even into blocks read in another order; pieces of a row
 * with less than three character widths between them are joined again, while a label and an
 * amount at the right edge, or two columns, stay apart. In reading order.
 */
export function phrasesOf(rows: Row[]): Phrase[] {
  const out: Phrase[] = [];
  for (const row of rows) {
    let current: PrintedLine[] = [];
    const flush = () => {
      if (current.length) out.push({ page: row.page, text: current.map((l) => l.text).join(' '), lines: current, order: Math.min(...current.map((l) => l.order)) });
      current = [];
    };
    for (const line of row.lines) {
      const last = current[current.length - 1];
      if (last && line.place.left - last.place.right > WORD_GAP_CHARACTERS * Math.max(characterWidth(last), characterWidth(line))) flush();
      current.push(line);
    }
    flush();
  }
  return out.sort((a, b) => a.page - b.page || a.order - b.order);
}

function characterWidth(line: PrintedLine): number {
  return (line.place.right - line.place.left) / Math.max(1, line.text.length);
}

/** The text of a row: its printed lines left to right. */
export function rowText(row: Row): string {
  return row.lines.map((l) => l.text).join(' ');
}
