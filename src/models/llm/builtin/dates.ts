// Dates written in a text, read with chrono-node in its strict mode (written dates only, never
// "tomorrow": the same text must give the same dates on any day) and given in ISO 8601.
// Numeric dates are ambiguous (03/04/2020); a document is read day-first or month-first as a
// whole, by the evidence of its own dates.
import * as chrono from 'chrono-node';

export interface FoundDate {
  /** The date as printed. */
  text: string;
  /** ISO 8601: `YYYY-MM-DD`, or `YYYY-MM` when only month and year are written. */
  iso: string;
  /** Offset of `text` in the text searched. */
  index: number;
}

export type DateOrder = 'day-first' | 'month-first';

const REFERENCE = new Date(Date.UTC(2000, 0, 1));
const dayFirst = new chrono.Chrono(chrono.en.configuration.createConfiguration(true, true));
const monthFirst = new chrono.Chrono(chrono.en.configuration.createConfiguration(true, false));

const MONTHS = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const MONTH_YEAR = new RegExp(`\\b(${MONTHS})\\.?,?\\s+((?:19|20)\\d{2})\\b`, 'gi');
const MONTH_INDEX: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };

const pad = (n: number) => String(n).padStart(2, '0');

/** Which way a document writes numeric dates: a first number over 12 means day first. */
export function dateOrderOf(text: string): DateOrder {
  let dayFirstVotes = 0;
  let monthFirstVotes = 0;
  for (const match of text.matchAll(/\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})\b/g)) {
    const a = Number(match[1]);
    const b = Number(match[2]);
    if (a > 12 && b <= 12) dayFirstVotes++;
    if (b > 12 && a <= 12) monthFirstVotes++;
  }
  if (dayFirstVotes !== monthFirstVotes) return dayFirstVotes > monthFirstVotes ? 'day-first' : 'month-first';
  // No telling date: dollar documents are read the American way, the rest day first.
  return /\$\s?\d|\bUSD\b/.test(text) && !/[€£]|\bRM\s?\d|\bEUR\b|\bGBP\b/.test(text) ? 'month-first' : 'day-first';
}

/** Every full date written in `text` (day, month and year; or a month name and year). */
export function findDates(text: string, order: DateOrder): FoundDate[] {
  const parser = order === 'day-first' ? dayFirst : monthFirst;
  const found: FoundDate[] = [];
  for (const result of wholeTokenParses(parser, text)) {
    const start = result.start;
    if (!start.isCertain('year') || !start.isCertain('month') || !start.isCertain('day')) continue;
    const year = start.get('year')!;
    if (year < 1800 || year > 2200) continue;
    // Only dates written out: "within 30 days" is a date only relative to a day not written.
    if (!/\b\d{4}\b|\d{1,2}[/.-]\d{1,2}[/.-]\d{2}\b|['’]\d{2}\b/.test(result.text)) continue;
    // The date part only: a time printed beside it stays out of the value.
    const text = dateTextOf(result.text);
    found.push({ text, iso: `${year}-${pad(start.get('month')!)}-${pad(start.get('day')!)}`, index: result.index });
  }
  for (const match of text.matchAll(MONTH_YEAR)) {
    const index = match.index!;
    if (found.some((d) => index >= d.index && index < d.index + d.text.length + 12)) continue;
    const month = MONTH_INDEX[match[1].slice(0, 3).toLowerCase()];
    found.push({ text: match[0], iso: `${match[2]}-${pad(month)}`, index });
  }
  return found.sort((a, b) => a.index - b.index);
}

/** A date in numbers only, as one token: 31/12/2010, 6.30.11, 2010-12-31. */
const NUMERIC_DATE = /(?<![\d/.-])(?:\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})|\d{4}[/.-]\d{1,2}[/.-]\d{1,2})(?![/.-]?\d)/g;
const TOKEN_GOES_ON_AFTER = /^[/.-]?\d/;
const TOKEN_GOES_ON_BEFORE = /\d[/.-]?$/;

/**
 * chrono's results, each read from whole tokens. Given a run of numeric dates ("12/31/2009
 * 12/31/2010 6/30/2011"), chrono joins the tail of one to the head of the next ("2010 6/30", read
 * as 30 June 2010) and skips the dates it cut. So a date written in numbers is read on its own,
 * token by token, and the words around it are read with those tokens blanked out; a result that
 * still begins or ends inside a number is dropped.
 */
function wholeTokenParses(parser: chrono.Chrono, text: string): chrono.ParsedResult[] {
  const out: chrono.ParsedResult[] = [];
  let rest = text;
  for (const match of text.matchAll(NUMERIC_DATE)) {
    const [result] = parser.parse(match[0], REFERENCE);
    if (result && result.index === 0 && result.text === match[0]) out.push(Object.assign(result, { index: match.index! }));
    rest = rest.slice(0, match.index!) + ' '.repeat(match[0].length) + rest.slice(match.index! + match[0].length);
  }
  for (const result of parser.parse(rest, REFERENCE)) {
    const end = result.index + result.text.length;
    if (TOKEN_GOES_ON_BEFORE.test(rest.slice(0, result.index)) || TOKEN_GOES_ON_AFTER.test(rest.slice(end))) continue;
    out.push(result);
  }
  return out.sort((a, b) => a.index - b.index);
}

/** "06/03/2018 20:01" -> "06/03/2018"; "March 5, 2021 at 10am" -> "March 5, 2021". */
function dateTextOf(text: string): string {
  const cut = text.search(/\s+(?:at\s+)?\d{1,2}:\d{2}|\s+at\s+/i);
  return cut > 0 ? text.slice(0, cut) : text;
}

/** A term of days, weeks or months: "30 days", "14 business days", "2 months". */
const PERIOD = String.raw`\d{1,3}\s+(?:(?:business|calendar|working|banking)\s+)?(?:days?|weeks?|months?)`;
/** Words that tie a term to the day it counts from: "of the invoice date", "after delivery". */
const LINK = String.raw`(?:of|from|after|following|before|prior\s+to|upon)`;
const DATE_TERM = new RegExp(String.raw`\b(?:(?:within|in|after)\s+${PERIOD}|${PERIOD}\s+${LINK}|net\s+\d{1,3}(?:\s+days)?|(?:up)?on\s+receipt)\b`, 'gi');
const ENDS_IN_LINK = new RegExp(String.raw`\s${LINK}$`, 'i');
const LINK_NEXT = new RegExp(String.raw`^\s+${LINK}(?=\s)`, 'i');
/** What a term counts from, up to the end of its clause: at most six words. */
const COUNTED_FROM = /^(?:\s+[^\s.,;:!?()[\]]+){1,6}/u;

/** The words a term counts from, cut where a new sentence plainly begins without its full stop
 * ("of the invoice date Please pay by": a capitalized word between lower-case ones). */
function countedFrom(rest: string): string | null {
  const words = COUNTED_FROM.exec(rest)?.[0];
  if (!words) return null;
  const parts = words.match(/\s+\S+/g)!;
  const lower = (i: number) => i < parts.length && /^\p{Ll}/u.test(parts[i].trim());
  for (let i = 1; i < parts.length - 1; i++) {
    if (/^\p{Lu}\p{Ll}/u.test(parts[i].trim()) && lower(i - 1) && lower(i + 1)) return parts.slice(0, i).join('');
  }
  return words;
}

/**
 * Terms that fix a day by counting from another instead of writing it ("within 30 days of the
 * invoice date", "30 days after delivery", "Net 30", "upon receipt"), as printed, with what they
 * count from when the text says.
 */
export function findDateTerms(text: string): { text: string; index: number }[] {
  const found: { text: string; index: number }[] = [];
  for (const match of text.matchAll(DATE_TERM)) {
    const index = match.index!;
    let end = index + match[0].length;
    if (!ENDS_IN_LINK.test(match[0])) {
      const link = LINK_NEXT.exec(text.slice(end));
      if (link) end += link[0].length;
    }
    if (ENDS_IN_LINK.test(text.slice(index, end))) {
      const from = countedFrom(text.slice(end));
      // "30 days after" and nothing said after it: the term without its link.
      if (from) end += from.length;
      else end = index + text.slice(index, end).replace(ENDS_IN_LINK, '').length;
    }
    found.push({ text: text.slice(index, end), index });
  }
  return found;
}

/**
 * Every date written in a text, read day-first and month-first alike, each with every day it can
 * be read as: for checking a cited date or an answer against its quote, where the document's
 * own way of writing dates is not known.
 */
export function writtenDates(text: string): { text: string; index: number; isos: string[] }[] {
  const byPlace = new Map<string, { text: string; index: number; isos: string[] }>();
  for (const order of ['day-first', 'month-first'] as const) {
    for (const d of findDates(text, order)) {
      const key = `${d.index}|${d.text}`;
      const date = byPlace.get(key) ?? { text: d.text, index: d.index, isos: [] };
      if (!date.isos.includes(d.iso)) date.isos.push(d.iso);
      byPlace.set(key, date);
    }
  }
  return [...byPlace.values()].sort((a, b) => a.index - b.index);
}

/** ISO dates written in a text, read either way. */
export function isoDatesIn(text: string): string[] {
  return [...new Set(writtenDates(text).flatMap((d) => d.isos))];
}
