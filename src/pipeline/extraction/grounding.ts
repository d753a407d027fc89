// The grounding guarantee: a quote is returned only when its words really are on the cited page,
// and a value only when its quote bears it out. Page text is compared as words: Unicode forms,
// typographic quotes and dashes, line breaks and table pipes do not count, the words do.
import type { FractionBox, PageOutputs } from '../../page-outputs/shapes.js';
import { findWords, normalizeQuote, normalizeText, numbersIn, numberReadings, numberTokens } from '../../page-outputs/text-matching.js';

interface PageIndex {
  text: string;
  /** Figure captions on the page: a quote may be one when only a picture shows the value. */
  captions: string[];
  elements: { text: string; bbox: FractionBox }[];
  /** Runs of text whose boxes are known, finer than elements: each element's lines, each table's cells row by row. */
  runs: Located[][];
}

interface Located {
  text: string;
  bbox: FractionBox;
}

/** The pages of a document, ready to check quotes against. */
export class PageTexts {
  private readonly pages = new Map<number, PageIndex>();

  constructor(pages: readonly PageOutputs[]) {
    for (const page of pages) {
      this.pages.set(page.page, {
        text: normalizeText(page.text),
        captions: page.layout.filter((e) => e.type === 'figure' && e.text).map((e) => normalizeQuote(e.text)),
        elements: page.layout.map((e) => ({ text: normalizeText(e.text), bbox: e.bbox })),
        runs: [
          ...page.layout.filter((e) => e.lines?.length).map((e) => e.lines!.map((l) => ({ text: normalizeText(l.text), bbox: l.bbox }))),
          // Stored before cells had boxes (or an Office table): no run, the element's box serves.
          ...page.tables.map((t) => t.cells.filter((c) => c.bbox).map((c) => ({ text: normalizeText(c.text), bbox: c.bbox! }))).filter((cells) => cells.length),
        ],
      });
    }
  }

  has(page: number): boolean {
    return this.pages.has(page);
  }

  /** Whether `quote` is words of `page` (or one of its figure captions). */
  verify(page: number, quote: string): boolean {
    const index = this.pages.get(page);
    const wanted = normalizeQuote(quote);
    if (!index || !wanted) return false;
    return findWords(index.text, wanted) >= 0 || index.captions.includes(wanted);
  }

  /**
   * Where the quote stands on the page: the lines (or table cells) that hold it, else the layout
   * element holding it whole, else null. The smallest such box wins, so a value in a table
   * points at its cell and not at the whole table.
   */
  locate(page: number, quote: string): FractionBox | null {
    const index = this.pages.get(page);
    const wanted = normalizeQuote(quote);
    if (!index || !wanted) return null;
    let best: FractionBox | null = null;
    for (const run of index.runs) {
      const box = smallestWindow(run, wanted);
      if (box && (!best || area(box) < area(best))) best = box;
    }
    if (best) return best;
    const element = index.elements.find((e) => findWords(e.text, wanted) >= 0);
    return element ? element.bbox : null;
  }

  /** The first page, among those given, whose text holds the quote. */
  findPage(quote: string): number | null {
    for (const [number] of this.pages) if (this.verify(number, quote)) return number;
    return null;
  }
}

/** The union box of the fewest consecutive items whose joined text holds `wanted`, or null. */
function smallestWindow(items: readonly Located[], wanted: string): FractionBox | null {
  let best: { count: number; box: FractionBox } | null = null;
  for (let start = 0; start < items.length; start++) {
    let joined = '';
    for (let end = start; end < items.length && (!best || end - start + 1 < best.count); end++) {
      joined = joined ? `${joined} ${items[end].text}` : items[end].text;
      if (findWords(joined, wanted) >= 0) {
        best = { count: end - start + 1, box: unionOf(items.slice(start, end + 1).map((i) => i.bbox)) };
        break;
      }
      // Once the items after `start` are as long as the quote, a match that begins in `start`
      // would already have been found: a later start gives the smaller window.
      if (joined.length - items[start].text.length - 1 >= wanted.length) break;
    }
  }
  return best?.box ?? null;
}

function unionOf(boxes: FractionBox[]): FractionBox {
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const bottom = Math.max(...boxes.map((b) => b.top + b.height));
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  return { left: round(left), top: round(top), width: round(right - left), height: round(bottom - top) };
}

const area = (box: FractionBox) => box.width * box.height;

// ---- Does the quote bear the value out? ----

const ISO_DATE = /^(\d{4})-(\d{2})(?:-(\d{2}))?/;

function wordsOf(text: string): string[] {
  return normalizeText(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Dates written in a text: each as printed, where it stands, and every day it can be read as
 * (03/04/2020 is two), in ISO 8601 (`YYYY-MM` when only a month and year are written). */
export type DateReader = (text: string) => { text: string; index: number; isos: string[] }[];

/** A text of at most this many words is checked word by word; a longer one is the model's own sentence. */
const SHORT_TEXT_WORDS = 12;
/** The share of a short text's words its quote must hold. */
const SHARED_WORDS = 0.6;

/** A value that is only a number: digits with grouping and decimal marks, maybe signed. */
const NUMBER_TEXT = /^\s*[-+]?\d[\d.,' ]*\d\s*$|^\s*[-+]?\d\s*$/;

/** Paths whose values are the model's own words by nature (a type, a summary, a role). */
const FREE_TEXT = /^data\.(summary|key_facts(\[\d+\])?|document_type)$|\.(role|label|currency)$/;

/**
 * Whether `value` can be read from `quote`: a number must be written in it, a date must be a date
 * written in it, a short text must share most of its words with it. Long texts (sentences the
 * model wrote) and free-text fields are taken on the quote alone.
 */
export function quoteSupports(value: unknown, quote: string, path: string, readDates: DateReader): boolean {
  if (typeof value === 'boolean' || value === null) return true;
  if (typeof value === 'number') {
    return numbersIn(quote).some((n) => Math.abs(n - value) < 1e-9 || Math.abs(Math.abs(n) - Math.abs(value)) < 1e-9);
  }
  if (typeof value !== 'string') return false;
  if (FREE_TEXT.test(path)) return true;
  // A number given as text ("8.50") is held to the quote's numbers as a number is: its words
  // are not the quote's where a currency is printed against it ("RM8.50").
  if (NUMBER_TEXT.test(value)) {
    const readings = numberReadings(value.replace(/[\s+]/g, ''));
    return numbersIn(quote).some((n) => readings.some((r) => Math.abs(Math.abs(n) - Math.abs(r)) < 1e-9));
  }
  const iso = ISO_DATE.exec(value);
  if (iso && value.length <= 25) {
    const day = value.slice(0, iso[3] ? 10 : 7);
    return readDates(quote).some((d) => d.isos.some((iso) => iso.startsWith(day))) || normalizeText(quote).includes(value);
  }
  const words = wordsOf(value);
  if (words.length === 0) return normalizeText(quote).includes(normalizeText(value));
  if (words.length > SHORT_TEXT_WORDS) return true;
  const quoteWords = new Set(wordsOf(quote));
  const shared = words.filter((w) => quoteWords.has(w)).length;
  return shared / words.length >= SHARED_WORDS;
}

/** An answer that is only this is a judgment on its quote, not words to find in it. */
const JUDGMENT = /^(?:yes|no|true|false)\.?$/i;

/** Words that carry no content of an answer: the phrasing around what it states. */
const FUNCTION_WORDS = new Set(
  'a an the and or but of in on at to for from by with as into per is are was were be been being has have had it its this that these those there which who whom whose what when where'.split(' '),
);

/** Endings by which one word is another inflected: "invoiced" is "invoice", "billed" is "bill". */
const INFLECTION = /^(?:s|es|d|ed|ing|ly)$/;

/** The words of `quote`, for finding an answer's words among them with their inflections. */
function inflectedWords(quote: string): (word: string) => boolean {
  const words = new Set(wordsOf(quote));
  return (word) => {
    if (words.has(word)) return true;
    for (const other of words) {
      const [short, long] = other.length < word.length ? [other, word] : [word, other];
      if (short.length >= 3 && long.startsWith(short) && INFLECTION.test(long.slice(short.length))) return true;
    }
    return false;
  };
}

/**
 * Which of the quotes cited for an answer in words bear it out: their indexes, or null when the
 * answer is not borne out. An answer is held to the standard of an extracted value, applied to
 * each thing it states:
 * - every date written in it is a date written in a kept quote (the same day; a month and year
 *   alone, the same month), read day-first and month-first alike;
 * - every other number in it (an amount, a count, a rate, the digits of a reference) is a number
 *   written in a kept quote, read with either decimal mark;
 * - a short answer (at most SHORT_TEXT_WORDS words) has at least SHARED_WORDS of its other words
 *   (FUNCTION_WORDS aside, an inflected form counting as its word) in the kept quotes taken
 *   together; a longer one is the model's own sentence, and only its dates and numbers are
 *   checked;
 * - "yes" or "no" alone needs only quotes that verify.
 * A quote is kept when it holds one of the answer's dates or numbers (for an answer without any:
 * when it bears the answer's words out on its own). One date or number that no kept quote holds
 * leaves the whole answer unsupported: a client cannot tell which part of an answer is true.
 */
export function answerSupport(answer: string, quotes: readonly string[], readDates: DateReader): number[] | null {
  if (!quotes.length) return null;
  if (JUDGMENT.test(normalizeText(answer))) return quotes.map((_, i) => i);
  const dates = readDates(answer);
  let rest = answer;
  for (const date of dates) rest = rest.slice(0, date.index) + ' '.repeat(date.text.length) + rest.slice(date.index + date.text.length);
  const numbers = numberTokens(rest);
  const words = wordsOf(rest).filter((w) => !/^\d+$/.test(w) && !FUNCTION_WORDS.has(w));
  const short = wordsOf(answer).length <= SHORT_TEXT_WORDS;

  const quoteDates = quotes.map((q) => readDates(q).flatMap((d) => d.isos));
  const quoteNumbers = quotes.map((q) => numbersIn(q));
  const quoteWords = quotes.map(inflectedWords);
  const holdsDate = (isos: string[], i: number) => isos.some((iso) => quoteDates[i].some((written) => written.startsWith(iso)));
  const holdsNumber = (readings: number[], i: number) => readings.some((n) => quoteNumbers[i].some((m) => Math.abs(Math.abs(m) - Math.abs(n)) < 1e-9));
  const wordsHeld = (kept: number[]) => words.filter((w) => kept.some((i) => quoteWords[i](w))).length >= SHARED_WORDS * words.length;

  const stated = dates.length + numbers.length > 0;
  const kept = quotes
    .map((_, i) => i)
    .filter((i) => (stated ? dates.some((d) => holdsDate(d.isos, i)) || numbers.some((n) => holdsNumber(n, i)) : !short || wordsHeld([i])));
  if (!kept.length) return null;
  if (!dates.every((d) => kept.some((i) => holdsDate(d.isos, i)))) return null;
  if (!numbers.every((n) => kept.some((i) => holdsNumber(n, i)))) return null;
  if (short && !wordsHeld(kept)) return null;
  return kept;
}
