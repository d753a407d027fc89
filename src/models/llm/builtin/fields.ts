// docs/api.md's built-in fields, read from the document view without a language model: the title
// from the layout, the type from a word classifier, dates with chrono-node, money with its
// currency, parties from labels, company suffixes and contract openings, and the summary and key
// facts as the document's most informative sentences. What is not found is left out.
import type { BuiltinField, RawCitation } from '../types.js';
import { findAmounts, MONEY_WORDS } from './amounts.js';
import { classifyDocument } from './classify.js';
import { rowText, type Row } from './printed.js';
import { contentWords, type DocumentView, type Sentence, type TextLine } from './view.js';

export interface FieldResult {
  data: Record<string, unknown>;
  citations: RawCitation[];
}

const round = (n: number) => Math.round(n * 100) / 100;

export function readBuiltinFields(view: DocumentView, fields: readonly BuiltinField[]): FieldResult {
  const out: FieldResult = { data: {}, citations: [] };
  const cite = (path: string, page: number, quote: string, confidence: number) =>
    out.citations.push({ path, page, quote, confidence: round(confidence) });
  for (const field of fields) {
    switch (field) {
      case 'title': {
        const title = findTitle(view);
        if (title) {
          out.data.title = title.text;
          cite('data.title', title.page, title.text, title.confidence);
        }
        break;
      }
      case 'document_type': {
        const guess = classifyDocument(view);
        if (guess) {
          out.data.document_type = guess.type;
          cite('data.document_type', guess.line.page, guess.line.text, guess.confidence);
        }
        break;
      }
      case 'summary': {
        const summary = summarize(view);
        if (summary) {
          out.data.summary = summary.text;
          cite('data.summary', summary.page, summary.quote, summary.confidence);
        }
        break;
      }
      case 'dates': {
        const dates = findLabelledDates(view);
        if (dates.length) {
          out.data.dates = dates.map((d) => ({ label: d.label, date: d.iso }));
          dates.forEach((d, i) => {
            cite(`data.dates[${i}].label`, d.page, d.quote, d.confidence);
            cite(`data.dates[${i}].date`, d.page, d.quote, d.confidence);
          });
        }
        break;
      }
      case 'parties': {
        const parties = findParties(view);
        if (parties.length) {
          out.data.parties = parties.map((p) => ({ name: p.name, role: p.role }));
          parties.forEach((p, i) => {
            cite(`data.parties[${i}].name`, p.page, p.quote, p.confidence);
            cite(`data.parties[${i}].role`, p.page, p.quote, p.confidence * 0.9);
          });
        }
        break;
      }
      case 'amounts': {
        const amounts = findLabelledAmounts(view);
        if (amounts.length) {
          out.data.amounts = amounts.map((a) => (a.currency ? { label: a.label, amount: a.amount, currency: a.currency } : { label: a.label, amount: a.amount }));
          amounts.forEach((a, i) => {
            cite(`data.amounts[${i}].label`, a.page, a.quote, a.confidence);
            cite(`data.amounts[${i}].amount`, a.page, a.quote, a.confidence);
            if (a.currency) cite(`data.amounts[${i}].currency`, a.page, a.quote, a.confidence * 0.9);
          });
        }
        break;
      }
      case 'key_facts': {
        const facts = findKeyFacts(view);
        if (facts.length) {
          out.data.key_facts = facts.map((f) => f.text);
          facts.forEach((f, i) => cite(`data.key_facts[${i}]`, f.page, f.quote, f.confidence));
        }
        break;
      }
    }
  }
  return out;
}

// ---- title ----

interface Located {
  text: string;
  page: number;
  confidence: number;
}

const GENERIC_HEADINGS = /^(tax invoice|invoice|receipt|cash bill|contents|table of contents|abstract|introduction|page \d+|confidential|draft)$/i;

export function findTitle(view: DocumentView): Located | null {
  const first = view.pages[0];
  if (!first) return null;
  const usable = (text: string) => {
    const words = text.split(/\s+/).length;
    return words >= 1 && words <= 25 && /\p{L}{2}/u.test(text) && !GENERIC_HEADINGS.test(text.trim()) && text.length <= 200;
  };
  const pick = (types: string[], confidence: number): Located | null => {
    for (const page of view.pages.slice(0, 2)) {
      const headings = page.layout.filter((e) => types.includes(e.type) && usable(e.text));
      if (!headings.length) continue;
      const best = headings.reduce((a, b) => ((b.level ?? 9) < (a.level ?? 9) ? b : a));
      const text = best.text.replace(/\s+/g, ' ').trim();
      if (view.onPage(page.page, text)) return { text, page: page.page, confidence };
    }
    return null;
  };
  const titled = pick(['title'], 0.9) ?? pick(['heading'], 0.75);
  if (titled) return titled;
  const line = view.lines.find((l) => l.page === first.page && l.cells === null && usable(l.text) && !/^[\d\W]+$/.test(l.text) && l.element !== 'page_header');
  return line ? { text: line.text, page: line.page, confidence: 0.45 } : null;
}

// ---- summary and key facts ----

interface ScoredSentence {
  sentence: Sentence;
  score: number;
}

function scoreSentences(view: DocumentView): ScoredSentence[] {
  const frequency = new Map<string, number>();
  for (const s of view.sentences) for (const w of s.words) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const title = new Set(contentWords(findTitle(view)?.text ?? ''));
  const total = Math.max(1, view.sentences.length);
  return view.sentences
    .map((sentence) => {
      const length = sentence.text.split(/\s+/).length;
      if (length < 6 || length > 60) return { sentence, score: 0 };
      const letters = sentence.text.replace(/[^\p{L}]/gu, '').length / sentence.text.length;
      if (letters < 0.6) return { sentence, score: 0 };
      let weight = 0;
      for (const word of new Set(sentence.words)) {
        if (word.length < 3 || /^\d+$/.test(word)) continue;
        weight += Math.log(1 + (frequency.get(word) ?? 0)) * view.idf(word) * (title.has(word) ? 2 : 1);
      }
      const position = 1 + 0.5 * (1 - sentence.order / total);
      const score = (weight / Math.sqrt(sentence.words.length)) * position;
      return { sentence, score };
    })
    .filter((s) => s.score > 0);
}

function summarize(view: DocumentView): { text: string; page: number; quote: string; confidence: number } | null {
  const scored = scoreSentences(view).sort((a, b) => b.score - a.score);
  const chosen: ScoredSentence[] = [];
  let words = 0;
  for (const candidate of scored) {
    if (chosen.length === 3) break;
    const length = candidate.sentence.text.split(/\s+/).length;
    if (chosen.length >= 2 && words + length > 90) continue;
    if (chosen.some((c) => overlap(c.sentence.words, candidate.sentence.words) > 0.6)) continue;
    chosen.push(candidate);
    words += length;
  }
  if (chosen.length >= 2) {
    const best = chosen[0];
    const text = [...chosen].sort((a, b) => a.sentence.order - b.sentence.order).map((c) => c.sentence.text).join(' ');
    return { text, page: best.sentence.page, quote: best.sentence.text, confidence: 0.6 };
  }
  // A document without running sentences (a receipt, a form) is summed up from what it states.
  const type = classifyDocument(view);
  const parties = findParties(view);
  // "From" only for the party that issued it; a customer is who it is for.
  const issuer = parties.find((p) => ISSUING_ROLES.has(p.role));
  const customer = parties.find((p) => p.role === 'customer' || p.role === 'recipient');
  const party = issuer ?? customer;
  const date = findLabelledDates(view)[0];
  const total = pickTotal(findLabelledAmounts(view));
  const parts: string[] = [];
  const subject = type ? type.type[0].toUpperCase() + type.type.slice(1) : 'Document';
  parts.push(issuer ? `${subject} from ${issuer.name}` : customer ? `${subject} for ${customer.name}` : subject);
  if (date) parts.push(`dated ${date.text}`);
  let summary = `${parts.join(', ')}.`;
  if (total) summary += ` ${total.label}: ${total.text}.`;
  const anchor = party ?? date ?? total;
  if (!anchor || (!party && !date && !total)) return chosen[0] ? { text: chosen[0].sentence.text, page: chosen[0].sentence.page, quote: chosen[0].sentence.text, confidence: 0.4 } : null;
  return { text: summary, page: anchor.page, quote: anchor.quote, confidence: 0.5 };
}

const ISSUING_ROLES = new Set(['issuer', 'seller', 'employer', 'landlord', 'licensor', 'lender', 'contractor']);

function overlap(a: string[], b: string[]): number {
  const setB = new Set(b);
  const shared = new Set(a.filter((w) => setB.has(w))).size;
  return shared / Math.max(1, Math.min(new Set(a).size, setB.size));
}

function findKeyFacts(view: DocumentView): { text: string; page: number; quote: string; confidence: number }[] {
  const facts: { text: string; page: number; quote: string; confidence: number; order: number }[] = [];
  const scored = scoreSentences(view)
    .filter((s) => s.sentence.text.split(/\s+/).length <= 35)
    .map((s) => ({ ...s, score: s.score * (/\d/.test(s.sentence.text) ? 1.5 : 1) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 5);
  for (const s of scored) facts.push({ text: s.sentence.text, page: s.sentence.page, quote: s.sentence.text, confidence: 0.6, order: s.sentence.order });
  // Stated values of a form or receipt are facts too, as printed ("Invoice no: 3139").
  for (const kv of view.keyValues) {
    if (facts.length >= 8) break;
    if (kv.selected !== null || !kv.value || kv.value.length > 80) continue;
    const line = view.lines.find((l) => l.page === kv.page && l.text.includes(kv.key) && l.text.includes(kv.value) && l.text.length <= 120);
    if (!line) continue;
    if (facts.some((f) => f.text === line.text)) continue;
    facts.push({ text: line.text, page: line.page, quote: line.text, confidence: 0.7 * kv.confidence + 0.2, order: 1e6 + line.order });
  }
  return facts;
}

// ---- dates ----

interface LabelledDate {
  label: string;
  iso: string;
  text: string;
  page: number;
  quote: string;
  confidence: number;
}

/** A label as printed: the words before a value, without trailing colons and dashes. */
export function cleanLabel(text: string): string {
  return text
    .replace(/[\s:;,\-–—=|#*.]+$/u, '')
    .replace(/^[\s:;,\-–—=|#*+•·]+/u, '')
    .split(/\s+/)
    .slice(-6)
    .join(' ')
    .trim();
}

function isLabelLike(line: TextLine | null): boolean {
  if (!line || line.cells) return false;
  const words = line.text.split(/\s+/).length;
  return words <= 5 && /\p{L}/u.test(line.text) && (/[:#]\s*$/.test(line.text) || words <= 3) && !/\d{2}/.test(line.text);
}

/** A line of money words alone ("TOTAL INCL GST RM"), whose amounts are on the next line. */
function isMoneyLabelLine(line: TextLine | null): boolean {
  return line !== null && !line.cells && isMoneyLabelText(line.text);
}

function isMoneyLabelText(text: string): boolean {
  return text.split(/\s+/).length <= 10 && MONEY_WORDS.test(text) && !/\d[.,]\d{2}\b/.test(text);
}

export function findLabelledDates(view: DocumentView): LabelledDate[] {
  const out: LabelledDate[] = [];
  const seen = new Set<string>();
  for (const line of view.lines) {
    for (const date of view.datesIn(line.text)) {
      let label = '';
      let quote = line.text;
      if (line.cells) {
        const cellIndex = line.cells.findIndex((c) => c.includes(date.text));
        const cell = line.cells[cellIndex] ?? '';
        label = cleanLabel(cell.slice(0, cell.indexOf(date.text)));
        if (!label && cellIndex > 0 && /\p{L}/u.test(line.cells[cellIndex - 1]) && !view.datesIn(line.cells[cellIndex - 1]).length) label = cleanLabel(line.cells[cellIndex - 1]);
        quote = label ? `${label} ${date.text}` : date.text;
        if (!view.onPage(line.page, quote)) quote = cell || date.text;
      } else {
        label = cleanLabel(line.text.slice(0, date.index).split(/[.;!?]\s/).pop() ?? '');
        if (!label) {
          const previous = view.previousLine(line);
          if (isLabelLike(previous)) {
            label = cleanLabel(previous!.text);
            quote = `${previous!.text} ${line.text}`;
          }
        }
      }
      if (!label) label = kvLabelFor(view, line.page, date.text) ?? 'date';
      if (label.length > 60) label = label.split(/\s+/).slice(-4).join(' ');
      const key = `${label.toLowerCase()}|${date.iso}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const verified = view.quoteOn(line.page, quote, line.text, date.text);
      if (!verified) continue;
      out.push({ label, iso: date.iso, text: date.text, page: line.page, quote: verified, confidence: label === 'date' ? 0.7 : 0.9 });
      if (out.length >= 50) return out;
    }
  }
  // A date the layout split across blocks ("25 Dec" | "2018 09:14") is whole in its printed line.
  for (const phrase of view.phrases) {
    if (phrase.lines.length < 2) continue;
    for (const date of view.datesIn(phrase.text)) {
      if (out.some((d) => d.page === phrase.page && d.iso === date.iso)) continue;
      const label = cleanLabel(phrase.text.slice(0, date.index)) || (kvLabelFor(view, phrase.page, date.text) ?? 'date');
      const quote = view.quoteOn(phrase.page, phrase.text) ?? view.quoteCovering(phrase.page, phrase.lines.map((l) => l.text));
      if (!quote) continue;
      out.push({ label, iso: date.iso, text: date.text, page: phrase.page, quote, confidence: label === 'date' ? 0.6 : 0.8 });
      if (out.length >= 50) return out;
    }
  }
  return out;
}

function kvLabelFor(view: DocumentView, page: number, value: string): string | null {
  const kv = view.keyValues.find((k) => k.page === page && k.value.includes(value));
  return kv ? cleanLabel(kv.key) : null;
}

// ---- amounts ----

export interface LabelledAmount {
  label: string;
  amount: number;
  currency: string | null;
  text: string;
  page: number;
  quote: string;
  confidence: number;
  /** Where it stands: its page number plus how far down the page (0 to 1). */
  position: number;
}

/**
 * Amounts and the words that label them, from two readings of each page: a table row's cells
 * (the row's label cell, the column's heading) and the page's printed rows (the words printed level
 * with an amount, left of it: a receipt's "TOTAL ... 88.17" is one row however the page text
 * splits it). Running text with no printed lines is read from its text lines. The same label with
 * the same amount counts once; amounts come top to bottom.
 */
export function findLabelledAmounts(view: DocumentView): LabelledAmount[] {
  const out: LabelledAmount[] = [];
  const seen = new Set<string>();
  const add = (found: Omit<LabelledAmount, 'confidence'>) => {
    if (!found.label || !/\p{L}/u.test(found.label)) return;
    const key = `${found.label.toLowerCase()}|${found.amount}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ ...found, confidence: found.currency ? 0.85 : 0.7 });
  };
  for (const line of view.lines) {
    if (line.cells) tableAmounts(view, line, add);
    else if (!view.holdsPrinted(line)) lineAmounts(view, line, add);
  }
  for (const row of view.rows) rowAmounts(view, row, add);
  return out.sort((a, b) => a.position - b.position).slice(0, 50);
}

type AddAmount = (found: Omit<LabelledAmount, 'confidence'>) => void;

/** Amounts in a line of text, labelled by the words before them or by a money label line above. */
function lineAmounts(view: DocumentView, line: TextLine, add: AddAmount): void {
  const previous = view.previousLine(line);
  const labelledByPrevious = isMoneyLabelLine(previous) && VALUE_ONLY.test(line.text);
  const labelled = MONEY_WORDS.test(line.text) || labelledByPrevious;
  for (const amount of findAmounts(line.text, labelled, view.currency)) {
    let label = cleanLabel(afterLastAmount(line.text.slice(0, amount.index)));
    let quote = line.text;
    if (!label && labelledByPrevious) {
      label = previous!.text.replace(/[\s:;,\-=|]+$/, '').trim();
      quote = `${previous!.text} ${line.text}`;
    }
    if (!label) label = kvLabelFor(view, line.page, amount.text) ?? '';
    const verified = view.quoteOn(line.page, quote, line.text);
    if (verified) add({ label, amount: amount.amount, currency: amount.currency, text: amount.text, page: line.page, quote: verified, position: view.position(line) });
  }
}

/** A line that is only an amount, maybe with its currency: "RM 9.00", "15.00 ZR". */
const VALUE_ONLY = /^[^\p{L}]*(?:\p{Lu}{2,3}\s?)?[\d.,' ]+[^\p{L}]*$/u;

/**
 * Amounts in a table row, read cell by cell (a currency printed in the label's cell stays with
 * the label), each labelled by its own cell or the row's label cell and, under a row of column
 * headings, the heading of its column.
 */
function tableAmounts(view: DocumentView, line: TextLine, add: AddAmount): void {
  const cells = line.cells!;
  // A currency in the label's cell ("TOTAL RM | 9.00") makes the row one of money.
  const labelled = MONEY_WORDS.test(line.text) || findAmounts(line.text, false, view.currency).length > 0;
  // A first row that holds amounts is a row of the table, not its headings.
  const header = line.header && !line.header.some((c) => findAmounts(c, true, null).length) ? line.header : null;
  cells.forEach((cell, index) => {
    for (const amount of findAmounts(cell, labelled, view.currency)) {
      const label = tableAmountLabel(cells, index, cell.slice(0, amount.index), header) || (kvLabelFor(view, line.page, amount.text) ?? '');
      const quote = view.quoteOn(line.page, line.text, `${label} ${amount.text}`, cell);
      if (quote) add({ label, amount: amount.amount, currency: amount.currency, text: amount.text, page: line.page, quote, position: view.position(line) });
    }
  });
}

/** A currency alone ("RM", "USD") says what an amount is in, not what it is. */
const CURRENCY_ONLY = /^(?:\p{Lu}{3}|RM|Rs\.?)$/u;

/**
 * The label of an amount in a table row: the row's own label (its first wordy cell before the
 * amount) and, under column headings, the heading of the amount's column ("Garden work Total");
 * a cell that holds its own label ("Total 9.00") keeps it.
 */
function tableAmountLabel(cells: string[], index: number, before: string, header: string[] | null): string {
  const own = cleanLabel(afterLastAmount(before));
  if (/\p{L}{2}/u.test(own) && !CURRENCY_ONLY.test(own)) return own;
  const rowLabel = cells.slice(0, index).find((c) => /\p{L}{2}/u.test(c) && !CURRENCY_ONLY.test(c.trim()) && !findAmounts(c, true, null).length) ?? '';
  const heading = header?.[index]?.trim() ?? '';
  const parts = [cleanLabel(rowLabel)];
  if (heading && /\p{L}/u.test(heading) && heading !== rowLabel && !parts[0].toLowerCase().includes(heading.toLowerCase())) parts.push(heading);
  const label = parts.filter(Boolean).join(' ') || cleanLabel(afterLastAmount(cells.slice(0, index).join(' ')));
  return CURRENCY_ONLY.test(label) ? '' : label;
}

/**
 * Amounts on a printed row, each labelled by the words before it on its printed line, else by the
 * printed lines left of it on the row, else by a money label row above a row of amounts, else by
 * the words before it in its paragraph (running text that wraps a label onto the line above).
 */
function rowAmounts(view: DocumentView, row: Row, add: AddAmount): void {
  const text = rowText(row);
  if (!/\d/.test(text)) return;
  const previous = view.rows[row.order - 1];
  const above = previous?.page === row.page ? rowText(previous) : null;
  const labelledByAbove = above !== null && isMoneyLabelText(above) && VALUE_ONLY.test(text);
  const labelled = MONEY_WORDS.test(text) || labelledByAbove;
  row.lines.forEach((printed, i) => {
    for (const amount of findAmounts(printed.text, labelled, view.currency)) {
      const left = row.lines.slice(0, i).map((l) => l.text).join(' ');
      let label = cleanLabel(afterLastAmount(printed.text.slice(0, amount.index)));
      let quotes = [printed.text];
      if (!/\p{L}/u.test(label) && left) {
        label = cleanLabel(afterLastAmount(left));
        quotes = [`${left} ${printed.text}`, `${row.lines[i - 1].text} ${printed.text}`, printed.text];
      }
      if (!/\p{L}/u.test(label) && labelledByAbove) {
        label = cleanLabel(above!);
        quotes = [`${above} ${text}`, printed.text];
      }
      if (!/\p{L}/u.test(label) && printed.held) {
        const line = view.lines[printed.held.line];
        label = cleanLabel(afterLastAmount(line.text.slice(0, printed.held.offset + amount.index)));
        quotes = [line.text, printed.text];
      }
      if (!/\p{L}/u.test(label)) label = kvLabelFor(view, row.page, amount.text) ?? '';
      const quote = view.quoteOn(row.page, ...quotes);
      if (quote) add({ label, amount: amount.amount, currency: amount.currency, text: amount.text, page: row.page, quote, position: row.page + row.place.top });
    }
  });
}

/** The words after the last number of a text: the label of the amount that follows it. */
function afterLastAmount(text: string): string {
  const parts = text.split(/-?\d[\d.,]*\d|\d/);
  const tail = parts[parts.length - 1];
  return /\p{L}/u.test(tail) ? tail : text.replace(/-?\d[\d.,]*/g, ' ');
}

const TOTAL_LABEL = /\b(grand total|total payable|amount payable|total due|amount due|balance due|total amount|net payable|total incl|total \(?inc|bill amount|invoice total|total|jumlah)\b/i;
const NOT_TOTAL = /\b(sub-?total|saving|savings|discount|tax|gst|vat|item|items|quantity|qty|supplies|excl|before|points?|change|tender|cash|rounding adj)\b/i;
/** "Total incl. GST", "Total after tax", "Total (GST incl)" are totals; "GST" or "Total tax" alone are not. */
const TAX_INCLUDED = /\b(?:incl?|inc|inci|including|inclusive|after|with)\b\.?.{0,20}?\b(?:gst|vat|tax|sst)\b|\b(?:gst|vat|tax|sst)\s*(?:incl?|inclusive|included)\b\.?/gi;
const STRONG_TOTAL = /\b(grand|payable|due|incl|inc|bill amount|net|nett|final|rounded)\b/i;
/** How the bill was settled: what was tendered, the change, the card. */
const PAYMENT = /\b(cash|tender(?:ed)?|change|card|visa|master ?card|amex|debit|credit|nets|e-?wallet|tunai|baki)\b/i;
const TENDERED = /\b(cash|tender(?:ed)?|tunai)\b/i;
const CHANGE = /\b(change|baki)\b/i;

function isTotal(a: LabelledAmount): boolean {
  return TOTAL_LABEL.test(a.label) && !NOT_TOTAL.test(a.label.replace(TAX_INCLUDED, ' '));
}

/**
 * The amount a reader would call the total. What was paid, when the receipt says: the amount
 * tendered less the change, where an amount before them is that sum (a rounded total, whatever
 * its label says). Else the last total before the lines that settle the bill (cash, change, card;
 * a tax summary printed after them is not the bill), a "grand", "payable", "due" or "rounded"
 * total first.
 */
export function pickTotal(amounts: LabelledAmount[]): LabelledAmount | null {
  const sorted = [...amounts].sort((a, b) => a.position - b.position);
  const change = sorted.find((a) => CHANGE.test(a.label) && a.amount >= 0);
  const tendered = change && sorted.filter((a) => a !== change && a.position <= change.position && TENDERED.test(a.label) && !CHANGE.test(a.label) && a.amount > change.amount).pop();
  if (change && tendered) {
    const paid = Math.round((tendered.amount - change.amount) * 100) / 100;
    const settled = sorted.filter((a) => a.position <= tendered.position && !PAYMENT.test(a.label) && Math.abs(a.amount - paid) < 0.005);
    const chosen = settled.filter(isTotal).pop() ?? settled.pop();
    if (chosen) return chosen;
  }
  const totals = sorted.filter(isTotal);
  if (!totals.length) return null;
  const settling = sorted.find((a) => a.position > totals[0].position && PAYMENT.test(a.label) && !isTotal(a));
  const billed = settling ? totals.filter((a) => a.position <= settling.position) : totals;
  const strong = billed.filter((a) => STRONG_TOTAL.test(a.label));
  return (strong.length ? strong : billed).pop()!;
}

// ---- parties ----

interface Party {
  name: string;
  role: string;
  page: number;
  quote: string;
  confidence: number;
}

const ROLE_WORDS: [RegExp, string][] = [
  [/^(bill(ed)? to|sold to|customer|client|buyer|purchaser|invoice to)$/i, 'customer'],
  [/^(ship(ped)? to|deliver(ed)? to|recipient|consignee)$/i, 'recipient'],
  [/^(vendor|seller|supplier|merchant|from|sold by|issued by|company|store|payee|payable to)$/i, 'seller'],
  [/^(employer)$/i, 'employer'],
  [/^(employee|staff name|employee name)$/i, 'employee'],
  [/^(landlord|lessor)$/i, 'landlord'],
  [/^(tenant|lessee)$/i, 'tenant'],
  [/^(licensor)$/i, 'licensor'],
  [/^(licensee)$/i, 'licensee'],
  [/^(borrower)$/i, 'borrower'],
  [/^(lender)$/i, 'lender'],
  [/^(contractor|consultant|service provider)$/i, 'contractor'],
  [/^(patient)$/i, 'patient'],
  [/^(insured|policyholder|policy holder)$/i, 'insured'],
  [/^(applicant|name of applicant)$/i, 'applicant'],
  [/^(payer|payable by)$/i, 'payer'],
  [/^(account holder)$/i, 'account holder'],
  [/^(to|attention|attn)$/i, 'addressee'],
];

// Case matters: "AG", "SA" and "CO" are suffixes, "ag" and "sa" are not.
export const ORG_SUFFIX =
  /^(.{2,80}?\b(?:Inc|INC|Incorporated|LLC|L\.L\.C|Ltd|LTD|Limited|LIMITED|GmbH|GMBH|AG|S\.A|PLC|plc|Corp|CORP|Corporation|CORPORATION|Co|CO|Company|COMPANY|Sdn\.?\s*Bhd|SDN\.?\s*BHD|Bhd|BHD|Berhad|BERHAD|Pty\.?\s*Ltd|PTY\.?\s*LTD|LLP|N\.V|B\.V|S\.p\.A|S\.r\.l|SARL|Oy|AB|Pte\.?\s*Ltd|PTE\.?\s*LTD|Pvt\.?\s*Ltd|PVT\.?\s*LTD)\b\.?)(?=\s|,|$|\()/;

export function findParties(view: DocumentView): Party[] {
  const out: Party[] = [];
  const add = (party: Party) => {
    const name = party.name.replace(/\s+/g, ' ').trim().replace(/[,;:]$/, '');
    if (name.length < 2 || !/\p{L}{2}/u.test(name) || name.split(/\s+/).length > 10) return;
    if (out.some((p) => p.name.toLowerCase() === name.toLowerCase())) return;
    out.push({ ...party, name });
  };
  for (const kv of view.keyValues) {
    const role = ROLE_WORDS.find(([pattern]) => pattern.test(kv.key.trim().replace(/[:.]$/, '')))?.[1];
    if (!role || kv.selected !== null) continue;
    const name = kv.value.split('\n')[0];
    add({ name, role, page: kv.page, quote: view.keyValueQuote(kv), confidence: 0.8 * kv.confidence + 0.1 });
  }
  // "This Agreement is made between Acme Corp. ("Seller") and Bob Ltd. ("Buyer")".
  for (const sentence of view.sentences) {
    const match = /\bbetween\s+(.{2,120}?)(?:\s*\(([^)]{0,80})\))?,?\s+and\s+(.{2,120}?)(?:\s*\(([^)]{0,80})\))?(?:[,.;]|$)/i.exec(sentence.text);
    if (!match) continue;
    const roleOf = (defined: string | undefined) => (defined ? (/["“']([^"”']+)["”']/.exec(defined)?.[1] ?? 'party').toLowerCase() : 'party');
    add({ name: match[1], role: roleOf(match[2]), page: sentence.page, quote: sentence.text, confidence: 0.7 });
    add({ name: match[3], role: roleOf(match[4]), page: sentence.page, quote: sentence.text, confidence: 0.7 });
  }
  // Company names by their legal suffix; the first near the top of page one issued the document.
  let firstOrg = true;
  for (const line of view.lines) {
    if (out.length >= 12) break;
    const text = line.cells ? (line.cells.find((c) => ORG_SUFFIX.test(c)) ?? '') : line.text;
    const name = organizationIn(text);
    if (!name) continue;
    const issuer = firstOrg && line.page === view.pages[0]?.page && line.order < 15;
    firstOrg = false;
    add({ name, role: issuer ? 'issuer' : 'organization', page: line.page, quote: view.quoteOn(line.page, line.text, name) ?? name, confidence: issuer ? 0.75 : 0.6 });
  }
  return out;
}

/** The first company name in a text, by its legal suffix ("AEON CO. (M) BHD" whole). */
export function organizationIn(text: string): string | null {
  const match = ORG_SUFFIX.exec(text);
  if (!match) return null;
  let raw = match[1];
  const more = /^\s*\([A-Z]{1,3}\)\s*(?:SDN\.?\s*BHD|Sdn\.?\s*Bhd|BHD|Bhd|BERHAD|Berhad|LTD|Ltd|LIMITED|Limited)\b\.?/.exec(text.slice(raw.length));
  if (more) raw += more[0];
  return organizationName(raw);
}

/** The company name in front of its suffix: after any label, without leading filler words. */
export function organizationName(raw: string): string | null {
  let name = raw.replace(/^.*?:\s*/, '').trim();
  // A sentence mentioning a company: keep the capitalized run that ends in the suffix.
  const words = name.split(/\s+/);
  let start = words.length - 1;
  while (start > 0 && /^[\p{Lu}\d&("'.,-]/u.test(words[start - 1])) start--;
  name = words.slice(start).join(' ');
  if (!/^[\p{Lu}\d]/u.test(name)) return null;
  if (/^(co|company|inc|ltd|limited|bhd)\.?$/i.test(name)) return null;
  return name;
}
