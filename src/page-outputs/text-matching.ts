// How text is matched against what a page says, for whoever checks a quote or reads a value from
// page text (grounding in the pipeline, the built-in model, the playground): Unicode forms,
// typographic quotes and dashes, line breaks and table pipes do not count, the words do; numbers
// are read as every value their separators allow.
const TYPOGRAPHY: [RegExp, string][] = [
  [/[\u2018\u2019\u201a\u201b\u2032]/g, "'"],
  [/[\u201c\u201d\u201e\u201f\u2033]/g, '"'],
  [/[\u2010-\u2015\u2212]/g, '-'],
  [/\u00ad/g, ''],
];

/** Text as compared: NFKC, plain quotes and dashes, no table pipes, single spaces. */
export function normalizeText(text: string): string {
  let out = text.normalize('NFKC');
  for (const [pattern, replacement] of TYPOGRAPHY) out = out.replace(pattern, replacement);
  return out.replace(/\\?\|/g, ' ').replace(/\s+/g, ' ').trim();
}

const EDGE_PUNCTUATION = /^[^\p{L}\p{N}$€£¥₹%(]+|[^\p{L}\p{N}%)]+$/gu;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** A quote as compared: normalized, without punctuation hanging at its ends. */
export function normalizeQuote(quote: string): string {
  return normalizeText(quote).replace(EDGE_PUNCTUATION, '');
}

/** Where `needle` occurs in `haystack` on word boundaries (not inside a longer word), or -1. */
export function findWords(haystack: string, needle: string, from = 0): number {
  if (!needle) return -1;
  for (let at = haystack.indexOf(needle, from); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = at > 0 ? haystack[at - 1] : ' ';
    const after = at + needle.length < haystack.length ? haystack[at + needle.length] : ' ';
    const startsWord = WORD_CHAR.test(needle[0]);
    const endsWord = WORD_CHAR.test(needle[needle.length - 1]);
    if ((startsWord && WORD_CHAR.test(before)) || (endsWord && WORD_CHAR.test(after))) continue;
    return at;
  }
  return -1;
}

/**
 * Where a quote stands in a page's text, compared as `PageTexts.verify` compares them (the
 * forms of normalizeText, on word boundaries): offsets into `text`, or null. For showing a
 * verified quote in the text it came from (the playground marks it).
 */
export function quoteSpan(text: string, quote: string): { start: number; end: number } | null {
  const wanted = normalizeQuote(quote);
  if (!wanted) return null;
  // The text folded as normalizeText folds it, each folded unit remembering the stretch of
  // `text` (a whole grapheme, so NFKC composes accents as it does on the whole text) it came from.
  let folded = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (const { segment, index } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    let piece = segment.normalize('NFKC');
    for (const [pattern, replacement] of TYPOGRAPHY) piece = piece.replace(pattern, replacement);
    piece = piece.replace(/[\s|]+/g, ' ');
    for (let k = 0; k < piece.length; k++) {
      if (piece[k] === ' ' && (folded === '' || folded.endsWith(' '))) continue;
      folded += piece[k];
      starts.push(index);
      ends.push(index + segment.length);
    }
  }
  const at = findWords(folded, wanted);
  return at < 0 ? null : { start: starts[at], end: ends[at + wanted.length - 1] };
}

/** Numbers written in a text, read with either decimal mark. */
export function numbersIn(text: string): number[] {
  const out = numberTokens(text).flat();
  // Thousands grouped with spaces: "3 949.75".
  for (const match of normalizeText(text).matchAll(/(?<![\d.,])\d{1,3}(?: \d{3})+(?:[.,]\d+)?(?![\d])/g)) out.push(...numberReadings(match[0].replace(/ /g, '')));
  return out;
}

/** Each number written in a text, as the values it can be read as. */
export function numberTokens(text: string): number[][] {
  return [...normalizeText(text).matchAll(/-?\d[\d,.']*\d|-?\d/g)].map((match) => numberReadings(match[0]));
}

/** "1,234.56" and "1.234,56" are both 1234.56; "41,95" is 41.95; "1,234" is 1234. */
export function numberReadings(raw: string): number[] {
  const text = raw.replace(/'/g, '');
  const readings = new Set<number>();
  const lastDot = text.lastIndexOf('.');
  const lastComma = text.lastIndexOf(',');
  const plain = (s: string) => Number(s);
  if (lastDot < 0 && lastComma < 0) readings.add(plain(text));
  else {
    // The last separator as the decimal mark, the other as grouping.
    const decimal = lastDot > lastComma ? '.' : ',';
    const grouping = decimal === '.' ? ',' : '.';
    readings.add(plain(text.split(grouping).join('').replace(decimal, '.')));
    // And no decimal mark at all ("1,234" or "1.234.567").
    readings.add(plain(text.replace(/[.,]/g, '')));
  }
  return [...readings].filter((n) => Number.isFinite(n));
}
