// What lines up like a table but is not one, told from the columns of a grid of aligned text
// (aligned.ts): lines of labelled values, numbered lines, prose set in page columns, and tables of
// contents. Each test takes the grid's columns (each a list of its pieces of text) or its rows.
import { SURE_CONFIDENCE, type Word } from '../../page-model.js';
import { LEADER, LIST_MARKER, SECTION_NUMBER, SUBSECTION_NUMBER } from '../markers.js';
import { RTL } from '../lines.js';
import type { Chunk, Row } from './gutters.js';

/** Words a chunk of text holding more of them is not a table cell but a line of prose. */
export const CELL_WORDS = 4;

/**
 * Labels ending in a colon in the first column, and in every other column after it, each beside
 * its value: lines of labelled values ("Other sources: ...", "Contact: ..."), read as key/values,
 * not a table.
 */
export function labelledValues(columns: string[][][]): boolean {
  const labels = (cells: string[][]) => cells.length > 0 && cells.every((words) => /[:：]$/.test(words[words.length - 1]));
  return columns.every((cells, c) => c % 2 === 1 || labels(cells));
}

/**
 * Numbers counting up in the first column beside one column of running text (most of its pieces
 * longer than a cell): numbered lines, such as a transcript's or a pleading's, or a numbered list.
 * Numbers counting up by one on three lines or more beside text (a letter in most pieces) are the
 * line numbers of a listing or a numbered text however short its lines; beside figures they are
 * a table's years or ranks.
 */
export function numberedLines(columns: string[][][]): boolean {
  if (columns.length !== 2) return false;
  const numbers = columns[0].map((words) => (words.length === 1 && /^\d+$/.test(words[0]) ? Number(words[0]) : NaN));
  const counting = numbers.length > 1 && numbers.every((n, i) => !Number.isNaN(n) && (i === 0 || n > numbers[i - 1]));
  const running = columns[1].filter((words) => words.length > CELL_WORDS).length >= columns[1].length / 2;
  const byOne = numbers.length >= 3 && numbers.every((n, i) => i === 0 || n === numbers[i - 1] + 1);
  const text = columns[1].filter((words) => words.some((w) => /\p{L}/u.test(w))).length >= columns[1].length * 0.6;
  return counting && (running || (byOne && text));
}

/** Pieces of text (their numbers of words) most of which hold three words or more: lines of text, not cells. */
export function mostlyLines(wordCounts: number[]): boolean {
  return wordCounts.filter((n) => n >= 3).length >= wordCounts.length * 0.6;
}

/**
 * Prose set in page columns, not a table: in every column most pieces of text hold three words or
 * more (lines of running text; a table has at least one column of labels or figures), or most rows
 * are justified lines, whose spaces the setter widened all alike until the words broke apart
 * (a table's spaces between cells are wider than those between the words of a cell).
 */
export function runningText(columns: string[][][], rows: Row[], words: Word[]): boolean {
  const lines = columns.every((cells) => cells.length > 0 && mostlyLines(cells.map((k) => k.length)));
  if (lines) return true;
  // A row's chunks hold its words left to right (visualRows).
  const justified = rows.filter((row) => justifiedLine(row.chunks.flatMap((c) => c.words), words));
  return justified.length >= rows.length * 0.6;
}

/**
 * Words, left to right, of a justified line: three words or more, spaced all alike, two of them
 * at least words of letters (a narrow column's line may hold a figure among two words; a table's
 * row of figures, set in columns of one width, is spaced alike too). A list item's marker stands
 * at the list's own indent; the spaces after it are the line's.
 */
export function justifiedLine(line: number[], words: Word[]): boolean {
  const ordered = line.length > 0 && LIST_MARKER.test(words[line[0]].text) ? line.slice(1) : line;
  if (ordered.length < 3 || ordered.filter((i) => /\p{L}{2}/u.test(words[i].text)).length < 2) return false;
  const spaces = ordered.slice(1).map((w, k) => words[w].box.x0 - words[ordered[k]].box.x1);
  return Math.min(...spaces) > 0 && Math.max(...spaces) <= Math.min(...spaces) * 1.3;
}

/** Among this many page numbers of entries numbered as sections, one may go down: OCR misread it. */
const MISREAD_AMONG = 6;

/**
 * A table of contents (or an index set the same way), whose lines read as lines, not as a table
 * of two columns: entries led by leader dots to a page number at the end of their row (the
 * number standing apart from the dots or not); or, set without leaders, one column of entries
 * (each with a letter, or a section's number alone, its title wrapped below) beside a column of
 * page numbers that never go down (but for numbers OCR read with doubt), on three rows or more:
 * to the entries' right, or, in a right-to-left script, to their left. Where the entries are
 * numbered as sections ("1", "1.1", "1.2", "2", a subsection among them), the numbers may go down
 * once among six or more: OCR misread one it was sure of ("1" for "11"); a column of counts
 * beside labels is not numbered so.
 */
export function contents(rows: Row[], words: Word[], columnWords: number[][][]): boolean {
  const ends = rows.filter((r) => r.chunks.length >= 2).map((r) => r.chunks.flatMap((c) => c.words.map((w) => words[w].text)).slice(-2));
  const led = ends.filter(([leader, page]) => /^\d+$/.test(page) && LEADER.test(leader));
  if (ends.length > 0 && led.length >= ends.length / 2) return true;
  if (columnWords.length !== 2) return false;
  const pageNumbers = (cells: number[][], outline: boolean) => {
    if (cells.length < 3 || !cells.every((cell) => cell.length === 1 && /^\d{1,4}$/.test(words[cell[0]].text))) return false;
    // A number OCR read with doubt may be misread ("31" for "11"): the order is judged on the others.
    const pages = cells.filter(([w]) => words[w].confidence >= SURE_CONFIDENCE).map(([w]) => Number(words[w].text));
    const down = pages.filter((n, i) => i > 0 && n < pages[i - 1]).length;
    return pages.length >= 3 && down <= (outline && pages.length >= MISREAD_AMONG ? 1 : 0);
  };
  // Entries led by sections' numbers, a subsection's among them.
  const outline = (cells: number[][]) => {
    const leads = cells.map((cell) => words[cell[0]].text);
    return leads.every((text) => SECTION_NUMBER.test(text)) && leads.some((text) => SUBSECTION_NUMBER.test(text));
  };
  // An entry holds its title, or only its section's number where the title wrapped onto the lines below ("4.2.1").
  const entries = (cells: number[][], letter: RegExp) => cells.every((cell) => cell.some((w) => letter.test(words[w].text)) || (cell.length === 1 && SUBSECTION_NUMBER.test(words[cell[0]].text)));
  return (pageNumbers(columnWords[1], outline(columnWords[0])) && entries(columnWords[0], /\p{L}/u)) || (pageNumbers(columnWords[0], outline(columnWords[1])) && entries(columnWords[1], RTL));
}

/** Where one line of text ends and the line under it begins: the upper line's last word and the lower one's first. */
export interface LineBreak {
  last: Word;
  next: Word;
  /** Right-to-left text runs on leftwards: its last word is the leftmost, the next the rightmost. */
  rightToLeft: boolean;
}

/** The break between two lines' words (each non-empty), in the direction their text runs. */
export function lineBreak(upper: Word[], lower: Word[]): LineBreak {
  const rightToLeft = [...upper, ...lower].some((w) => RTL.test(w.text));
  const last = upper.reduce((a, b) => ((rightToLeft ? b.box.x0 < a.box.x0 : b.box.x1 > a.box.x1) ? b : a));
  const next = lower.reduce((a, b) => ((rightToLeft ? b.box.x1 > a.box.x1 : b.box.x0 < a.box.x0) ? b : a));
  return { last, next, rightToLeft };
}

/**
 * Whether the text broke there as a text's lines break, within a measure from `start` to `end`:
 * the next word and a space would not have fitted after the last one.
 */
export function brokeWithin({ last, next, rightToLeft }: LineBreak, start: number, end: number): boolean {
  const room = rightToLeft ? last.box.x0 - start : end - last.box.x1;
  return next.box.x1 - next.box.x0 + next.fontSize * 0.25 > room;
}

/** Share of a column's row-to-row breaks that must be a text's for the column to be a paragraph. */
const WRAPPED_SHARE = 0.8;

/**
 * A paragraph set in one of the grid's columns, beside other text at its pitch (a brochure's
 * points, a cover's highlights): from each row to the next, the column's text runs on as a text's
 * lines break, its first word too wide to have fitted at the end of the line above within the
 * column's measure (its widest line); and most of its lines are prose, three words of letters or
 * more. A table's rows start their cells afresh, a short cell ending well inside its column.
 * `rows` are the grid's rows, each its text lines; `columnOf` a piece's column by its middle.
 */
export function paragraphInColumn(rows: Row[][], columns: number, columnOf: (x: number) => number, words: Word[]): boolean {
  for (let c = 0; c < columns; c++) {
    // A line's text in the column is one piece, however wide its justified spaces set its words apart.
    const pieces: Chunk[][] = rows.map((lines) =>
      lines.flatMap((line) => {
        const inColumn = line.chunks.filter((k) => columnOf((k.x0 + k.x1) / 2) === c);
        return inColumn.length === 0 ? [] : [{ x0: inColumn[0].x0, x1: inColumn[inColumn.length - 1].x1, words: inColumn.flatMap((k) => k.words) }];
      }),
    );
    const all = pieces.flat();
    const prose = all.filter((k) => k.words.filter((w) => /\p{L}{2}/u.test(words[w].text)).length >= 3).length;
    if (all.length < 3 || prose < all.length * 0.6) continue;
    const start = Math.min(...all.map((k) => k.x0));
    const end = Math.max(...all.map((k) => k.x1));
    let breaks = 0;
    let wrapped = 0;
    for (let r = 1; r < pieces.length; r++) {
      const above = pieces[r - 1].at(-1);
      const below = pieces[r][0];
      if (!above || !below) continue;
      breaks++;
      if (brokeWithin(lineBreak(above.words.map((w) => words[w]), below.words.map((w) => words[w])), start, end)) wrapped++;
    }
    if (breaks >= 2 && wrapped >= breaks * WRAPPED_SHARE) return true;
  }
  return false;
}
