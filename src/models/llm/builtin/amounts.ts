// Money written in a text: an amount with its currency sign or code, or an amount with two
// decimals on a line that a money word labels ("Total", "Amount due"). Currencies are given as
// ISO 4217 codes; an amount with no sign takes the document's currency when it names only one.
// Money words are English and Malay (jumlah total, tunai cash, baki change or balance, bayaran
// payment, harga price, cukai tax), the languages of the receipts Folio is measured on.
import { numberReadings } from '../../../page-outputs/text-matching.js';

export interface FoundAmount {
  /** The amount as printed, sign included. */
  text: string;
  amount: number;
  currency: string | null;
  index: number;
}

const SIGNS: [string, string][] = [
  ['US$', 'USD'],
  ['A$', 'AUD'],
  ['C$', 'CAD'],
  ['S$', 'SGD'],
  ['R$', 'BRL'],
  ['HK$', 'HKD'],
  ['$', 'USD'],
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['¥', 'JPY'],
  ['₹', 'INR'],
  ['₩', 'KRW'],
  ['₽', 'RUB'],
  ['₺', 'TRY'],
  ['RM', 'MYR'],
  ['Rs.', 'INR'],
  ['Rs', 'INR'],
];
const CODES = ['USD', 'EUR', 'GBP', 'JPY', 'CNY', 'INR', 'MYR', 'SGD', 'AUD', 'CAD', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HKD', 'NZD', 'ZAR', 'BRL', 'MXN', 'KRW', 'RUB', 'TRY', 'IDR', 'THB', 'PHP', 'AED', 'SAR'];

const escape = (s: string) => s.replace(/[$.]/g, (c) => `\\${c}`);
const SIGN_PATTERN = SIGNS.map(([sign]) => escape(sign)).join('|');
const CODE_PATTERN = CODES.join('|');
const NUMBER = String.raw`\d{1,3}(?:[,.' ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;

const BEFORE = new RegExp(String.raw`(?<![\p{L}\p{N}])(-)?(${SIGN_PATTERN}|(?:${CODE_PATTERN})(?![\p{L}]))\s?(-)?(${NUMBER})(?![\p{N}]|[.,]\d)`, 'gu');
const AFTER = new RegExp(String.raw`(?<![\p{L}\p{N}.,])(-)?(${NUMBER})\s?(€|£|¥|₹|(?:${CODE_PATTERN})(?![\p{L}]))`, 'gu');
const BARE = new RegExp(String.raw`(?<![\p{L}\p{N}.,/:-])(-)?(\d{1,3}(?:[,.' ]\d{3})*[.,]\d{2}|\d+[.,]\d{2})(?![\p{N}]|[.,/:-]\d|%)`, 'gu');

export const MONEY_WORDS =
  /\b(total|sub-?total|amount|amt|balance|due|payable|paid|payment|price|cost|fee|fees|charge|charges|tax|vat|gst|deposit|rent|salary|sum|grand|net|gross|cash|change|tender|rounding|invoice|refund|discount|premium|budget|revenue|income|jumlah|tunai|baki|bayaran|harga|cukai)\b/i;

function currencyOfSign(sign: string): string {
  const upper = sign.toUpperCase();
  if (CODES.includes(upper)) return upper;
  return SIGNS.find(([s]) => s === sign)?.[1] ?? SIGNS.find(([s]) => s.toUpperCase() === upper)?.[1] ?? upper;
}

/** The value of a printed amount; a comma before two final digits is a decimal comma. */
export function amountValue(printed: string): number | null {
  const digits = printed.replace(/[^\d.,' ]/g, '').trim().replace(/ /g, '');
  const readings = numberReadings(digits);
  if (!readings.length) return null;
  // Two digits after the last separator: that separator is the decimal mark.
  return /[.,]\d{1,2}$/.test(digits) ? readings[0] : readings[readings.length - 1];
}

/** The one currency a document names, if it names exactly one. */
export function documentCurrency(text: string): string | null {
  const seen = new Set<string>();
  for (const match of text.matchAll(new RegExp(String.raw`(?<![\p{L}])(${SIGN_PATTERN}|${CODE_PATTERN})(?![\p{L}])`, 'gu'))) {
    seen.add(currencyOfSign(match[1]));
  }
  return seen.size === 1 ? [...seen][0] : null;
}

/**
 * The decimal mark most of a document's amounts are written with ('.' in 12.50, ',' in 12,50):
 * the mark before the last two digits of numbers that have nothing else around them (not a date
 * or a time, not grouping of thousands), when one mark has more than twice the other's; null when
 * there are too few such numbers to tell.
 */
export function documentDecimalMark(text: string): '.' | ',' | null {
  let dots = 0;
  let commas = 0;
  for (const match of text.matchAll(/(?<![\d.,:/-])\d+([.,])\d{2}(?![\d.,:/-])/g)) {
    if (match[1] === '.') dots++;
    else commas++;
  }
  if (dots + commas < 3) return null;
  return dots > commas * 2 ? '.' : commas > dots * 2 ? ',' : null;
}

/**
 * An amount as printed, written with the document's decimal mark where it uses the other one
 * alone before two final digits ("41,95" among a receipt's "12.50"s is 41.95 read with a comma,
 * as OCR often reads a thermal printer's point); grouped numbers are left as printed.
 */
export function withDecimalMark(printed: string, mark: '.' | ',' | null): string {
  if (!mark) return printed;
  const other = mark === '.' ? ',' : '.';
  return printed.replace(new RegExp(`^(-?\\d+)\\${other}(\\d{2})$`), `$1${mark}$2`);
}

/**
 * Amounts in one line of text. Bare numbers with two decimals count only when `labelled` (the
 * line or its label speaks of money); they take `fallbackCurrency`.
 */
export function findAmounts(line: string, labelled: boolean, fallbackCurrency: string | null): FoundAmount[] {
  const found: FoundAmount[] = [];
  const taken = (index: number, length: number) => found.some((f) => index < f.index + f.text.length && f.index < index + length);
  for (const match of line.matchAll(BEFORE)) {
    const value = amountValue(match[4]);
    if (value === null || taken(match.index!, match[0].length)) continue;
    const negative = Boolean(match[1] || match[3]);
    found.push({ text: match[0], amount: negative ? -value : value, currency: currencyOfSign(match[2]), index: match.index! });
  }
  for (const match of line.matchAll(AFTER)) {
    const value = amountValue(match[2]);
    if (value === null || taken(match.index!, match[0].length)) continue;
    found.push({ text: match[0], amount: match[1] ? -value : value, currency: currencyOfSign(match[3]), index: match.index! });
  }
  if (labelled) {
    for (const match of line.matchAll(BARE)) {
      const value = amountValue(match[2]);
      if (value === null || taken(match.index!, match[0].length)) continue;
      found.push({ text: match[0], amount: match[1] ? -value : value, currency: fallbackCurrency, index: match.index! });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}
