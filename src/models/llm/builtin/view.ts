// The built-in engine's view of a document: the page outputs cut into what it reasons over —
// lines, sentences, key/values and table rows — each with its page and an exact quote. Every
// quote is a piece of the page's own text (or its key/value pair), so citations verify by
// construction; the grounding check after the engine confirms it like any provider's.
import type { PageOutputs } from '../../../page-outputs/shapes.js';
import { findWords, normalizeQuote, normalizeText } from '../../../page-outputs/text-matching.js';
import { dateOrderOf, findDates, type DateOrder, type FoundDate } from './dates.js';
import { documentCurrency, documentDecimalMark } from './amounts.js';
import { phrasesOf, printedLines, rowsOf, type Phrase, type PrintedLine, type Row } from './printed.js';

export interface TextLine {
  page: number;
  /** The line as printed (a table row as its cells joined with spaces). */
  text: string;
  /** Table cells when the line is a table row. */
  cells: string[] | null;
  /** For a table row below the first: the first row's cells (the column headings). */
  header: string[] | null;
  /** Index among the document's lines. */
  order: number;
  /** The layout element type it belongs to, when known ('title', 'heading', 'paragraph', ...). */
  element: string | null;
  /** How far down its page it begins (0 at the top, 1 at the bottom), when the layout says. */
  top: number | null;
}

export interface Sentence {
  page: number;
  text: string;
  /** Index among the document's sentences. */
  order: number;
  element: string;
  words: string[];
}

export interface ViewKeyValue {
  page: number;
  key: string;
  value: string;
  confidence: number;
  selected: boolean | null;
  /** How far down its page the pair stands (0 at the top, 1 at the bottom). */
  top: number;
}

export interface ViewTable {
  page: number;
  rows: string[][];
  headerRows: number;
}

const STOPWORDS = new Set(
  (
    'a an the and or but if then else of in on at to for from by with without within into onto over under about as is are was were be been being ' +
    'this that these those it its it\'s he she they them their his her our we you your i me my mine yours ours theirs who whom whose which what ' +
    'when where why how do does did done doing have has had having can could would should shall will may might must not no nor so such than too ' +
    'very just also only own same other any all each every both few more most some there here up down out off again further once per via ' +
    'please tell give show list find document page'
  ).split(' '),
);

/** Lower-cased words of a text without stopwords, lightly stemmed (plural and -ing forms). */
export function contentWords(text: string): string[] {
  return normalizeText(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !STOPWORDS.has(w))
    .map(stem);
}

export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('es') && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/** Splits a paragraph into sentences; abbreviations and decimals do not end one. */
export function splitSentences(text: string): string[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  const out: string[] = [];
  let start = 0;
  const re = /[.!?]["')\]]?(?=\s+["'(\[]?[\p{Lu}\p{N}])/gu;
  for (const match of flat.matchAll(re)) {
    const end = match.index! + match[0].length;
    const before = flat.slice(start, end);
    // "e.g.", "Dr.", "No.", "U.S." and initials do not end a sentence.
    if (/(?:\b(?:e\.g|i\.e|etc|vs|cf|al|fig|figs|eq|no|nos|dr|mr|mrs|ms|prof|inc|ltd|co|corp|jr|sr|st|vol|pp|p|approx|dept|est)\.|\b\p{Lu}\.)$/iu.test(before)) continue;
    out.push(before.trim());
    start = end;
  }
  if (start < flat.length) out.push(flat.slice(start).trim());
  return out.filter(Boolean);
}

export class DocumentView {
  readonly lines: TextLine[] = [];
  readonly sentences: Sentence[] = [];
  readonly keyValues: ViewKeyValue[] = [];
  readonly tables: ViewTable[] = [];
  /** The layout's lines as printed, outside tables, in reading order. */
  readonly printed: PrintedLine[] = [];
  /** Printed lines level with each other, top to bottom. */
  readonly rows: Row[] = [];
  /** Printed lines as read, pieces the layout split at word gaps joined, in reading order. */
  readonly phrases: Phrase[] = [];
  readonly dateOrder: DateOrder;
  readonly currency: string | null;
  /** The decimal mark most of the document's amounts are written with (documentDecimalMark). */
  readonly decimalMark: '.' | ',' | null;
  /** Page text, normalized, for quote checks. */
  private readonly normalized = new Map<number, string>();
  /** In how many sentences and lines each content word occurs. */
  private readonly documentFrequency = new Map<string, number>();
  private units = 0;
  private readonly dateCache = new Map<string, FoundDate[]>();
  /** Each text line's position (see `position`), by order. */
  private readonly positions: number[] = [];
  /** Text lines holding printed lines, by order. */
  private readonly holding = new Set<number>();

  constructor(readonly pages: readonly PageOutputs[]) {
    let order = 0;
    const allText = pages.map((p) => p.text).join('\n');
    this.dateOrder = dateOrderOf(allText);
    this.currency = documentCurrency(allText);
    this.decimalMark = documentDecimalMark(allText);
    for (const page of pages) {
      this.normalized.set(page.page, normalizeText(page.text));
      const elementOf = elementFinder(page);
      const firstLine = this.lines.length;
      let header: string[] | null = null;
      let table: { rows: TextLine[]; markdown: string[] } | null = null;
      const endTable = () => {
        if (table) placeTableRows(table.rows, table.markdown.join('\n'), page);
        table = null;
      };
      for (const raw of page.text.split('\n')) {
        const text = raw.trim();
        if (!text) {
          header = null;
          endTable();
          continue;
        }
        if (/^\|(\s*-{3,}\s*\|)+$/.test(text)) {
          table?.markdown.push(text);
          continue;
        }
        if (text.startsWith('|') && text.endsWith('|')) {
          const cells = text
            .slice(1, -1)
            .split(/(?<!\\)\|/)
            .map((c) => c.replace(/\\\|/g, '|').trim());
          const line: TextLine = { page: page.page, text: cells.filter(Boolean).join(' '), cells, header, order: this.lines.length, element: 'table', top: null };
          this.lines.push(line);
          table ??= { rows: [], markdown: [] };
          table.rows.push(line);
          table.markdown.push(text);
          header ??= cells;
        } else {
          header = null;
          endTable();
          this.lines.push({ page: page.page, text, cells: null, header: null, order: this.lines.length, element: elementOf(text), top: null });
        }
      }
      endTable();
      const printed = printedLines(page, this.printed.length);
      placeLines(this.lines.slice(firstLine), printed);
      for (const p of printed) if (p.held) this.holding.add(p.held.line);
      let known = 0;
      for (const line of this.lines.slice(firstLine)) this.positions.push(page.page + (known = line.top ?? known));
      this.printed.push(...printed);
      const rows = rowsOf(printed, this.rows.length);
      this.rows.push(...rows);
      this.phrases.push(...phrasesOf(rows));
      for (const element of page.layout) {
        if (element.type !== 'paragraph' && element.type !== 'list_item' && element.type !== 'caption' && element.type !== 'footnote') continue;
        for (const text of splitSentences(element.text)) {
          const words = contentWords(text);
          if (words.length === 0) continue;
          this.sentences.push({ page: page.page, text, order: order++, element: element.type, words });
        }
      }
      for (const [key, kv] of Object.entries(page.keyValues)) {
        this.keyValues.push({
          page: page.page,
          key,
          value: kv.value,
          confidence: Math.min(kv.key_confidence, kv.value_confidence) / 100,
          selected: kv.selection_status === null ? null : kv.selection_status === 'SELECTED',
          top: kv.bbox?.top ?? 0,
        });
      }
      for (const table of page.tables) this.tables.push({ page: page.page, rows: table.rows, headerRows: table.header_rows });
    }
    for (const unit of [...this.sentences.map((s) => s.words), ...this.lines.map((l) => contentWords(l.text))]) {
      this.units++;
      for (const word of new Set(unit)) this.documentFrequency.set(word, (this.documentFrequency.get(word) ?? 0) + 1);
    }
  }

  /** How telling a word is in this document (inverse document frequency, at least 0.1). */
  idf(word: string): number {
    const df = this.documentFrequency.get(word) ?? 0;
    return Math.max(0.1, Math.log((this.units + 1) / (df + 0.5)));
  }

  /** Whether `quote` is words of `page`'s text. */
  onPage(page: number, quote: string): boolean {
    const text = this.normalized.get(page);
    const wanted = normalizeQuote(quote);
    return text !== undefined && wanted.length > 0 && findWords(text, wanted) >= 0;
  }

  /** The first of the candidate quotes that is words of the page, or null. */
  quoteOn(page: number, ...candidates: (string | null | undefined)[]): string | null {
    for (const candidate of candidates) {
      if (candidate && this.onPage(page, candidate)) return candidate.replace(/\s+/g, ' ').trim();
    }
    return null;
  }

  /**
   * A quote holding all of `parts` (printed lines, in any order): the stretch of the page's text
   * from the first of them to the last, when it is not much longer than they are; else null.
   */
  quoteCovering(page: number, parts: string[]): string | null {
    const text = this.normalized.get(page);
    if (!text || !parts.length) return null;
    const spans: [number, number][] = [];
    for (const part of parts) {
      const wanted = normalizeQuote(part);
      const at = findWords(text, wanted);
      if (!wanted || at < 0) return null;
      spans.push([at, at + wanted.length]);
    }
    const start = Math.min(...spans.map((s) => s[0]));
    const end = Math.max(...spans.map((s) => s[1]));
    const length = spans.reduce((sum, s) => sum + s[1] - s[0] + 1, 0);
    return end - start <= 2 * length ? text.slice(start, end) : null;
  }

  /**
   * A key/value's quote: the pair as printed when it is, else the value; else, when only `part`
   * of the value is used (a date in it), the line printing that part; else the pair itself.
   */
  keyValueQuote(kv: ViewKeyValue, part?: string): string {
    const line = this.lines.find((l) => l.page === kv.page && l.text.includes(kv.value) && normalizeText(l.text).toLowerCase().includes(normalizeText(kv.key).toLowerCase()));
    const holding = part ? this.lines.find((l) => l.page === kv.page && l.text.includes(part)) : undefined;
    return this.quoteOn(kv.page, line?.text, `${kv.key}: ${kv.value}`, `${kv.key} ${kv.value}`, kv.value, holding?.text, part) ?? `${kv.key} ${kv.value}`;
  }

  /** Dates in a line, read the document's way. */
  datesIn(text: string): FoundDate[] {
    let found = this.dateCache.get(text);
    if (!found) {
      found = /\d/.test(text) ? findDates(text, this.dateOrder) : [];
      this.dateCache.set(text, found);
    }
    return found;
  }

  /** Whether a line of running text holds printed lines, whose rows say more than its text. */
  holdsPrinted(line: TextLine): boolean {
    return this.holding.has(line.order);
  }

  /** Where a line stands: its page number plus how far down the page, the last known top of
   * the lines before it where the layout does not place it. */
  position(line: TextLine): number {
    return this.positions[line.order];
  }

  /** The line before `line` on the same page, if any. */
  previousLine(line: TextLine): TextLine | null {
    const before = this.lines[line.order - 1];
    return before && before.page === line.page ? before : null;
  }

  nextLine(line: TextLine): TextLine | null {
    const after = this.lines[line.order + 1];
    return after && after.page === line.page ? after : null;
  }
}

/** How many printed lines a text line's first one is looked for ahead of the last placed. */
const LOOK_AHEAD = 64;

/**
 * Places the page's lines of running text: each begins with the first printed line it holds (a
 * reflowed paragraph holds several, in order), and each printed line learns which text line
 * holds it and where.
 */
function placeLines(lines: TextLine[], printed: PrintedLine[]): void {
  let cursor = 0;
  for (const line of lines) {
    if (line.cells) continue;
    const text = line.text.replace(/\s+/g, ' ');
    // Text lines and printed lines come in the same order: a line's first printed line is near.
    let first = -1;
    for (let i = cursor; i < Math.min(printed.length, cursor + LOOK_AHEAD) && first < 0; i++) if (text.startsWith(printed[i].text)) first = i;
    if (first < 0) continue;
    line.top = printed[first].place.top;
    let offset = 0;
    for (let i = first; i < printed.length; i++) {
      // The next printed line goes on where this one ends (a space, or nothing after a hyphen).
      const at = i === first ? 0 : text.indexOf(printed[i].text, offset);
      if (at < 0 || at > offset + 2) break;
      printed[i].held = { line: line.order, offset: at };
      offset = at + printed[i].text.length;
      cursor = i + 1;
    }
  }
}

/** A table's rows stand where their cells do (the table found among the page's by its markdown). */
function placeTableRows(rows: TextLine[], markdown: string, page: PageOutputs): void {
  const table = page.tables.find((t) => t.markdown === markdown);
  if (!table) return;
  rows.forEach((line, row) => {
    const tops = table.cells.filter((c) => c.bbox && c.row <= row && row < c.row + c.row_span).map((c) => c.bbox!.top);
    if (tops.length) line.top = Math.max(...tops);
  });
}

/** Which layout element a page-text line came from (title, heading, paragraph...). */
function elementFinder(page: PageOutputs): (line: string) => string | null {
  const elements = page.layout.map((e) => ({ type: e.type, text: e.text }));
  let cursor = 0;
  return (line) => {
    for (let i = cursor; i < elements.length; i++) {
      if (elements[i].text.includes(line)) {
        cursor = i;
        return elements[i].type;
      }
    }
    return null;
  };
}
