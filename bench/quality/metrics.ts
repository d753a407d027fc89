// Quality metrics for `npm run bench:quality`: pure functions, no I/O. Unit-tested in
// test/unit/quality-metrics.test.ts.
//
// Text metrics work on normalised text (NFKC, soft hyphens removed, every run of whitespace made
// one space, trimmed) and on Unicode code points, not UTF-16 units: a character outside the BMP
// (e.g. a mathematical letter NFKC leaves alone, an emoji) counts as one character.
//
// Edit distance is the full Levenshtein distance from `fastest-levenshtein` (Myers' bit-parallel
// algorithm, O(n·m/32)); there is no banding or truncation. On this machine two 140,000-character
// strings (the GeoTopo book) take about 4-5 s, so the whole corpus is scored exactly.
import { distance as utf16Distance } from 'fastest-levenshtein';

// ---------------------------------------------------------------------------------------------
// Normalisation

/** NFKC (which also maps ligatures such as "ﬁ" to "fi"), CRLF to LF, soft hyphens removed,
 * every run of whitespace to one space, trimmed. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\r\n?/g, '\n')
    .replace(/\u00AD/g, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * Pipe tables as plain text: the cells of each row separated by spaces, separator rows dropped.
 * Page text carries tables as markdown (SPEC.md); plain-text truths carry the same cells without
 * the pipes, so the markup is taken off before comparing.
 */
export function stripTableMarkup(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s*\|?(\s*:?-+:?\s*\|)+\s*(:?-+:?\s*)?$/.test(line))
    .map((line) => (/^\s*\|.*\|\s*$/.test(line) ? line.trim().replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim()).join(' ') : line))
    .join('\n');
}

/** Removes the `=== Page N ===` lines that `include=text` puts above every page. */
export function stripPageHeaders(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^=== Page \d+ ===\s*$/.test(line))
    .join('\n');
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * Markdown to plain text, so that text found can be compared without the markup: headings (`#`),
 * list markers (`-`, `*`, `+`, `1.`), block quotes, emphasis (`**`, `__`, `*`, `_`, `~~`), inline
 * code and code fences, table pipes and separator rows, `<!-- ... -->` comments (`<!-- image -->`),
 * links and images (`[text](url)` keeps "text"), backslash escapes, and HTML entities.
 */
export function stripMarkdown(markdown: string): string {
  const out: string[] = [];
  for (const raw of markdown.replace(/\r\n?/g, '\n').replace(/<!--[\s\S]*?-->/g, ' ').split('\n')) {
    let line = raw;
    if (/^\s*(```|~~~)/.test(line)) continue; // code fence
    if (/^\s*\|?(\s*:?-+:?\s*\|)+\s*(:?-+:?\s*)?$/.test(line)) continue; // table separator row
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) continue; // horizontal rule
    line = line.replace(/^\s{0,3}#{1,6}\s+/, ''); // ATX heading
    line = line.replace(/\s+#+\s*$/, ''); // closing hashes
    line = line.replace(/^\s*(>\s*)+/, ''); // block quote
    line = line.replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+/, ''); // list marker
    line = line.replace(/^\s*\[[ xX]\]\s+/, ''); // task-list box
    if (/^\s*\|.*\|\s*$/.test(line)) {
      // table row: cells separated by spaces
      line = line
        .trim()
        .replace(/^\|/, '')
        .replace(/\|$/, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim())
        .join(' ');
    }
    line = line.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1'); // image
    line = line.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'); // link
    line = line.replace(/<(https?:[^>\s]+)>/g, '$1'); // autolink
    line = line.replace(/`+([^`]*)`+/g, '$1'); // inline code
    line = line.replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2'); // strong
    line = line.replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?!\w)/g, '$1$2'); // emphasis with *
    line = line.replace(/(^|[^\w\\])_(?=\S)([^_]*?\S)_(?!\w)/g, '$1$2'); // emphasis with _
    line = line.replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1'); // strike-through
    line = line.replace(/\\([\\`*_{}[\]()#+\-.!|>~<])/g, '$1'); // backslash escapes
    line = line.replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_m, name: string) => HTML_ENTITIES[name]!);
    line = line.replace(/&#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)));
    line = line.replace(/&#x([0-9a-f]+);/gi, (_m, code: string) => String.fromCodePoint(parseInt(code, 16)));
    out.push(line);
  }
  return out.join('\n');
}

/**
 * Layout text (a character grid with columns side by side, like pypdf's layout mode) to reading
 * order: finds the gutter of a two-column page (the character position that is blank on the most
 * lines that have text on both sides of it) and reads each run of two-column lines as the left
 * column, then the right column. A line with text across or inside the gutter (a centred title,
 * a date, a page number) ends the run and is read where it stands. With no clear gutter the text is returned unchanged.
 */
export function layoutToReadingOrder(layout: string): string {
  const lines = layout.replace(/\r\n?/g, '\n').split('\n');
  const width = Math.max(0, ...lines.map((l) => l.length));
  const nonEmpty = lines.filter((l) => l.trim().length > 0).length;
  if (width < 20 || nonEmpty === 0) return layout;

  // Lines with text on both sides of position x, and a blank at x.
  const twoSided = (line: string, x: number) =>
    x < line.length && line[x] === ' ' && line.slice(0, x).trim().length > 0 && line.slice(x + 1).trim().length > 0;
  const blank = (line: string, x: number) => x >= line.length || line[x] === ' ';
  // The most two-sided lines wins; among equals, the position that the fewest lines cross, then
  // the one with the most lines blank on both sides of it too (a gap wider than between words).
  let gutter = -1;
  let best = 0;
  let bestCrossing = Infinity;
  let bestWide = -1;
  for (let x = Math.floor(width * 0.25); x <= Math.ceil(width * 0.75); x++) {
    let count = 0;
    let crossing = 0;
    let wide = 0;
    for (const line of lines) {
      if (twoSided(line, x)) count++;
      else if (!blank(line, x)) crossing++;
      if (blank(line, x - 1) && blank(line, x) && blank(line, x + 1)) wide++;
    }
    const better =
      count > best || (count === best && count > 0 && (crossing < bestCrossing || (crossing === bestCrossing && wide > bestWide)));
    if (better) {
      best = count;
      bestCrossing = crossing;
      bestWide = wide;
      gutter = x;
    }
  }
  if (gutter < 0 || best < Math.max(3, nonEmpty * 0.3)) return layout;

  // Where the right column starts: the most common first position of text after the gutter. A
  // line whose text after the gutter starts clearly left of that (a date or page number centred
  // on the page) sits in the gutter and is read as a spanning line.
  const starts = new Map<number, number>();
  for (const line of lines) {
    if (!twoSided(line, gutter)) continue;
    const start = gutter + 1 + line.slice(gutter + 1).search(/\S/);
    starts.set(start, (starts.get(start) ?? 0) + 1);
  }
  const rightStart = [...starts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];

  const out: string[] = [];
  let left: string[] = [];
  let right: string[] = [];
  const flush = () => {
    out.push(...left, ...right);
    left = [];
    right = [];
  };
  for (const line of lines) {
    const after = line.length > gutter ? line.slice(gutter + 1).search(/\S/) : -1;
    if ((line.length > gutter && line[gutter] !== ' ') || (after >= 0 && gutter + 1 + after < rightStart - 1)) {
      flush(); // spans the gutter
      out.push(line);
      continue;
    }
    const l = line.slice(0, gutter);
    const r = line.slice(gutter + 1);
    if (l.trim()) left.push(l);
    if (r.trim()) right.push(r);
  }
  flush();
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Edit distance

/** Maps two strings to UTF-16 strings with one unit per code point (same alphabet for both), so
 * that a UTF-16-based distance counts code points. Strings without surrogates are returned as is. */
function toCodeUnits(a: string, b: string): [string, string] {
  const surrogate = /[\uD800-\uDFFF]/;
  if (!surrogate.test(a) && !surrogate.test(b)) return [a, b];
  const alphabet = new Map<number, string>();
  const encode = (s: string) => {
    let out = '';
    for (const ch of s) {
      const cp = ch.codePointAt(0)!;
      let unit = alphabet.get(cp);
      if (unit === undefined) {
        let code = 0x20 + alphabet.size;
        if (code >= 0xd800) code += 0x800; // skip the surrogate range
        unit = String.fromCharCode(code);
        alphabet.set(cp, unit);
      }
      out += unit;
    }
    return out;
  };
  return [encode(a), encode(b)];
}

/** Number of code points. */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Levenshtein distance (insert, delete, substitute all cost 1) over code points. */
export function levenshtein(a: string, b: string): number {
  const [x, y] = toCodeUnits(a, b);
  return utf16Distance(x, y);
}

/**
 * Length of the longest common subsequence, by the bit-parallel algorithm of Allison-Dix / Hyyrö
 * (O(n·m/32) word operations, O(n·σ/32) memory), over code points.
 */
export function lcsLength(a: string, b: string): number {
  const [x0, y0] = toCodeUnits(a, b);
  // Bit vector over the shorter string.
  const [x, y] = x0.length <= y0.length ? [x0, y0] : [y0, x0];
  const n = x.length;
  if (n === 0 || y.length === 0) return 0;
  const words = Math.ceil(n / 32);
  const masks = new Map<number, Uint32Array>();
  for (let i = 0; i < n; i++) {
    const c = x.charCodeAt(i);
    let m = masks.get(c);
    if (!m) masks.set(c, (m = new Uint32Array(words)));
    m[i >>> 5] |= 1 << (i & 31);
  }
  const v = new Uint32Array(words).fill(0xffffffff);
  const lastMask = n & 31 ? 2 ** (n & 31) - 1 : 0xffffffff; // bits of the last word that are in use
  v[words - 1] = lastMask;
  for (let j = 0; j < y.length; j++) {
    const m = masks.get(y.charCodeAt(j));
    if (!m) continue;
    // V' = (V + U) | (V - U) with U = V & M, carried/borrowed across words.
    let carry = 0;
    let borrow = 0;
    for (let w = 0; w < words; w++) {
      const vw = v[w]!;
      const u = (vw & m[w]!) >>> 0;
      const sum = vw + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      const diff = vw - u - borrow;
      borrow = diff < 0 ? 1 : 0;
      v[w] = ((sum >>> 0) | (diff >>> 0)) >>> 0;
    }
    v[words - 1] = (v[words - 1] & lastMask) >>> 0;
  }
  let ones = 0;
  for (let w = 0; w < words; w++) {
    let z = v[w]!;
    z = z - ((z >>> 1) & 0x55555555);
    z = (z & 0x33333333) + ((z >>> 2) & 0x33333333);
    ones += (((z + (z >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return n - ones;
}

/** 1 − Levenshtein(a, b) / max(len a, len b) on normalised text; 1 when both are empty. */
export function similarity(a: string, b: string): number {
  const x = normalizeText(a);
  const y = normalizeText(b);
  const longer = Math.max(codePointLength(x), codePointLength(y));
  if (longer === 0) return 1;
  return 1 - levenshtein(x, y) / longer;
}

/**
 * The Levenshtein ratio of python-Levenshtein (`ratio`), used by the py-pdf benchmark whose
 * published scores are in `reference_scores.json`: (len a + len b − d) / (len a + len b) where d
 * counts a substitution as 2, i.e. d = len a + len b − 2·LCS, so the ratio is 2·LCS / (len a + len b).
 * On normalised text.
 */
export function levenshteinRatio(a: string, b: string): number {
  const x = normalizeText(a);
  const y = normalizeText(b);
  const total = codePointLength(x) + codePointLength(y);
  if (total === 0) return 1;
  return (2 * lcsLength(x, y)) / total;
}

/** Character error rate: Levenshtein(output, truth) / len(truth) on normalised text. 0 when both are
 * empty, 1 when only the truth is empty and the output is not. Can exceed 1 (extra text). */
export function cer(output: string, truth: string): number {
  const o = normalizeText(output);
  const t = normalizeText(truth);
  const len = codePointLength(t);
  if (len === 0) return o.length === 0 ? 0 : 1;
  return levenshtein(o, t) / len;
}

// ---------------------------------------------------------------------------------------------
// Tables: ICDAR 2013 adjacency relations

export type Grid = string[][];

/** Cell text: NFKC, line breaks and other whitespace as one space, trimmed; case kept. */
export function normalizeCell(text: string): string {
  return normalizeText(text ?? '');
}

/**
 * Adjacency relations of a grid: for every non-empty cell, its nearest non-empty neighbour to the
 * right in the same row ("h") and below in the same column ("v"), as `text \u0001 text \u0001 dir`
 * strings (a multiset: the same relation may appear several times).
 */
export function adjacencyRelations(grid: Grid): string[] {
  const cells = grid.map((row) => row.map(normalizeCell));
  const rows = cells.length;
  const cols = Math.max(0, ...cells.map((r) => r.length));
  const at = (r: number, c: number) => cells[r]?.[c] ?? '';
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const text = at(r, c);
      if (!text) continue;
      for (let c2 = c + 1; c2 < cols; c2++) {
        if (at(r, c2)) {
          out.push(`${text}\u0001${at(r, c2)}\u0001h`);
          break;
        }
      }
      for (let r2 = r + 1; r2 < rows; r2++) {
        if (at(r2, c)) {
          out.push(`${text}\u0001${at(r2, c)}\u0001v`);
          break;
        }
      }
    }
  }
  return out;
}

export interface PRF {
  precision: number;
  recall: number;
  f1: number;
}

/** Precision/recall/F1 of two multisets of strings. Both empty: all 1. */
export function multisetPRF(truth: string[], output: string[]): PRF {
  if (truth.length === 0 && output.length === 0) return { precision: 1, recall: 1, f1: 1 };
  const counts = new Map<string, number>();
  for (const t of truth) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const o of output) {
    const n = counts.get(o) ?? 0;
    if (n > 0) {
      common++;
      counts.set(o, n - 1);
    }
  }
  const precision = output.length ? common / output.length : 0;
  const recall = truth.length ? common / truth.length : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/** ICDAR 2013 adjacency-relation precision/recall/F1 of an output grid against a truth grid. */
export function adjacencyF1(truth: Grid, output: Grid): PRF {
  return multisetPRF(adjacencyRelations(truth), adjacencyRelations(output));
}

/** The output grid with the highest adjacency F1 against `truth` (index −1 and F1 0 when none). */
export function bestTableMatch(truth: Grid, candidates: Grid[]): { index: number } & PRF {
  let best: { index: number } & PRF = { index: -1, precision: 0, recall: 0, f1: 0 };
  candidates.forEach((grid, index) => {
    const score = adjacencyF1(truth, grid);
    if (best.index < 0 || score.f1 > best.f1) best = { index, ...score };
  });
  return best;
}

// ---------------------------------------------------------------------------------------------
// Key/value fields

/** Value text for matching: NFKC, case-folded, whitespace collapsed, trailing punctuation dropped. */
export function normalizeValue(text: string): string {
  return normalizeText(text)
    .toLowerCase()
    .replace(/[\s.,;:!?]+$/u, '')
    .trim();
}

/** A truth value without a leading copy of its printed key ("Income: Approximately ..." with key
 * "Income:" becomes "Approximately ..."), normalised. */
export function truthValue(field: { key?: string; value: string }): string {
  const value = normalizeValue(field.value);
  const key = field.key ? normalizeValue(field.key) : '';
  if (key && value.startsWith(key) && value.length > key.length) {
    return value.slice(key.length).replace(/^[\s:]+/, '').trim();
  }
  return value;
}

/** Share of truth values found among the returned values: equal after normalisation, or contained
 * in a returned value. No truth fields: null. */
export function kvRecall(truth: { key?: string; value: string }[], returned: string[]): { found: number; total: number; recall: number | null } {
  const values = returned.map(normalizeValue).filter((v) => v.length > 0);
  let found = 0;
  for (const field of truth) {
    const t = truthValue(field);
    if (t && values.some((v) => v === t || v.includes(t))) found++;
  }
  return { found, total: truth.length, recall: truth.length ? found / truth.length : null };
}

/** How many truth values appear in a text (both normalised; spaces ignored, so an address broken
 * over lines or a total printed "9 .00" still counts). */
export function valuesInText(truth: { key?: string; value: string }[], text: string): { found: number; total: number } {
  const squash = (s: string) => normalizeValue(s).replace(/\s+/g, '');
  const haystack = squash(text);
  let found = 0;
  for (const field of truth) {
    const t = squash(truthValue(field));
    if (t && haystack.includes(t)) found++;
  }
  return { found, total: truth.length };
}

/** A date as day, month and year, from "25/12/2018", "18-01-2018", "2018-12-25" or "25 Dec 2018". */
export function dateKey(text: string): string | null {
  const iso = /(\d{4})-(\d{1,2})-(\d{1,2})/.exec(text);
  if (iso) return `${Number(iso[3])}.${Number(iso[2])}.${iso[1]}`;
  const dmy = /(\d{1,2})[./-](\d{1,2})[./-](\d{2,4})/.exec(text);
  if (dmy) return `${Number(dmy[1])}.${Number(dmy[2])}.${dmy[3].length === 2 ? `20${dmy[3]}` : dmy[3]}`;
  const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
  const named = /(\d{1,2})\s*([a-z]{3})[a-z]*\.?\s*(\d{4})/i.exec(text);
  if (named && months.includes(named[2].toLowerCase())) return `${Number(named[1])}.${months.indexOf(named[2].toLowerCase()) + 1}.${named[3]}`;
  return null;
}

/** A money value as a number, from "9.00", "RM 9.00", "1,428.00" or 9. */
export function amountKey(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const m = /-?\d[\d,]*(\.\d+)?/.exec(value.replace(/\s/g, ''));
  return m ? Number(m[0].replace(/,/g, '')) : null;
}

/**
 * Receipt fields (SROIE: company, date, address, total) extracted by the model against the truth:
 * right when equal after normalising (spaces ignored; the total by value; the date by day, month
 * and year), and "soft" right when the character similarity is at least 0.9 (the truth has the odd
 * typo and upper-cases some fields).
 */
export function receiptFields(truth: { key: string; value: string }[], data: Record<string, unknown>): { right: number; soft: number; total: number; per_field: Record<string, boolean> } {
  let right = 0;
  let soft = 0;
  const perField: Record<string, boolean> = {};
  const squash = (s: string) => normalizeValue(s).replace(/\s+/g, '');
  for (const field of truth) {
    const got = data[field.key];
    const text = typeof got === 'number' ? String(got) : typeof got === 'string' ? got : '';
    let ok = false;
    if (field.key === 'total') ok = amountKey(got) !== null && amountKey(got) === amountKey(field.value);
    else if (field.key === 'date') ok = dateKey(text) !== null && dateKey(text) === dateKey(field.value);
    else ok = text !== '' && squash(text) === squash(field.value);
    perField[field.key] = ok;
    if (ok) right++;
    if (ok || (text !== '' && similarity(squash(text), squash(field.value)) >= 0.9)) soft++;
  }
  return { right, soft, total: truth.length, per_field: perField };
}

// ---------------------------------------------------------------------------------------------
// Small helpers

export function mean(values: number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((s, v) => s + v, 0) / values.length;
}

export function round3(value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return Math.round(value * 1000) / 1000;
}

/** Five decimals: case scores, so that a score just under a target (0.97997) does not read as met (0.980). */
export function round5(value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return Math.round(value * 100000) / 100000;
}

/** The texts of a Markdown document's ATX headings, escapes dropped, whitespace collapsed, lower case. */
export function headingTexts(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => /^\s{0,3}#{1,6}\s/.test(line))
    .map((line) => normalizeText(line.replace(/^\s{0,3}#{1,6}\s+/, '').replace(/\s+#+\s*$/, '').replace(/\\(?=[!-/:-@[-`{-~])/g, '')).toLowerCase());
}

/** Headings found: how many of the output's headings are headings of the truth too (text alike, level not compared). */
export function headingMatch(output: string, truth: string): { output: number; truth: number; matched: number } {
  const wanted = new Map<string, number>();
  const truthHeadings = headingTexts(truth);
  for (const h of truthHeadings) wanted.set(h, (wanted.get(h) ?? 0) + 1);
  const outputHeadings = headingTexts(output);
  let matched = 0;
  for (const h of outputHeadings) {
    const left = wanted.get(h) ?? 0;
    if (left > 0) {
      matched++;
      wanted.set(h, left - 1);
    }
  }
  return { output: outputHeadings.length, truth: truthHeadings.length, matched };
}
