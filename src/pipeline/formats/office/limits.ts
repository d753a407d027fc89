// How much of an Office file Folio reads (issue 22). A PDF page is as large as its paper, but an
// Office "page" is not: a sheet can hold a million cells and a Word file without page breaks is
// one page of any length. Every word becomes an object of the page model (with its box), built in
// a reader thread and copied to the worker, and every table cell one more. Measured with
// `npm run bench:office`, a worker's peak grows by about 1 kB per word and 2.6 kB per one-word
// table cell, so that a file at both limits (200,000 one-word cells and 100,000 more words) takes
// a worker from about 140 MB to about 800 MB, under 1 GB with room for longer words and richer
// markup. Beyond them a file fails with document_too_large, before it is typeset.
import type { OfficeItem } from './structure.js';

/** Table cells of an Office file (a workbook's cells holding a value, counted before any sheet is parsed). */
export const MAX_OFFICE_CELLS = 200_000;
/** Words of an Office file (DOCX, XLSX, PPTX), table cells' included, all pages together. */
export const MAX_OFFICE_WORDS = 300_000;

/** An Office file beyond a limit; the message, in Folio's words, names the limit and the file's figure. */
export class OfficeTooLarge extends Error {}

const number = (n: number) => n.toLocaleString('en-US');

/** A workbook's cells holding a value, before its sheets are read. */
export function refuseWorkbookCells(cells: number, limit = MAX_OFFICE_CELLS): void {
  if (cells > limit) throw new OfficeTooLarge(`The workbook has ${number(cells)} cells with a value; Folio reads Office files of at most ${number(limit)} cells.`);
}

/** Words as the typesetter cuts them: runs of characters between spaces, tabs and line breaks. */
const WORD = /[^ \t\u00a0\n]+/g;

function wordsIn(text: string): number {
  let n = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text)) n++;
  return n;
}

/** The words and table cells the items of every page will be typeset into. */
export function itemSize(pages: OfficeItem[][]): { words: number; cells: number } {
  let words = 0;
  let cells = 0;
  for (const items of pages) {
    for (const item of items) {
      if (item.kind === 'table') {
        cells += item.cells.length;
        for (const cell of item.cells) words += wordsIn(cell.text);
      } else if (item.kind === 'list_item') words += wordsIn(item.marker) + wordsIn(item.text);
      else if (item.kind !== 'figure') words += wordsIn(item.text);
    }
  }
  return { words, cells };
}

/** Refuses the items of a file beyond the limits, before they are typeset. */
export function refuseItems(pages: OfficeItem[][], limits = { cells: MAX_OFFICE_CELLS, words: MAX_OFFICE_WORDS }): void {
  const { words, cells } = itemSize(pages);
  if (cells > limits.cells) throw new OfficeTooLarge(`The document has ${number(cells)} table cells; Folio reads Office files of at most ${number(limits.cells)} cells.`);
  if (words > limits.words) throw new OfficeTooLarge(`The document has ${number(words)} words; Folio reads Office files of at most ${number(limits.words)} words.`);
}
