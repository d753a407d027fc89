// Questions answered by retrieval: the question's telling words are looked up among key/values,
// lines, sentences and table rows, weighted by how rare each word is in the document. The best
// passage answers when it covers enough of the question; when the question asks for a kind of
// value (a date, an amount, a number, a name), the passage must hold one and the answer is that
// value. In running text (a line, a sentence) the value must be the one the question's words
// label: a passage naming several things ("Invoice date: March 14, 2024 Payment is due within 30
// days of the invoice date") answers "When is payment due?" with what follows "Payment is due",
// never with the date another label owns. Anything weaker is `not_found`: the engine does not guess.
import type { Question, RawAnswer } from '../types.js';
import { findAmounts, MONEY_WORDS } from './amounts.js';
import { findDateTerms } from './dates.js';
import { organizationIn } from './fields.js';
import { fillSchema } from './schema.js';
import { contentWords, type DocumentView } from './view.js';

type AnswerKind = 'date' | 'amount' | 'number' | 'party' | 'place' | 'text';

/** Question words that say what is asked rather than what about. */
const ASKING = new Set(['which', 'name', 'value', 'state', 'say', 'mention', 'stated', 'written', 'given', 'document', 'amount', 'many', 'much', 'number', 'date']);

function kindOf(question: string): AnswerKind {
  const q = question.toLowerCase();
  if (/^\s*when\b|\b(what|which) (date|day|year|month)\b|\bdate\b|\bdeadline\b/.test(q)) return 'date';
  // "How many days is payment due" counts days, though "payment" is a money word.
  if (/\bhow many\b|\bnumber of\b/.test(q)) return 'number';
  if (/\bhow much\b/.test(q) || (MONEY_WORDS.test(q) && /\b(what|how)\b/.test(q) && !/\bwho\b/.test(q))) return 'amount';
  if (/^\s*who\b|\bwhich (company|person|party|vendor|seller|buyer|customer|organi[sz]ation)\b/.test(q)) return 'party';
  if (/^\s*where\b|\baddress\b/.test(q)) return 'place';
  return 'text';
}

interface Candidate {
  page: number;
  quote: string;
  /** Text the answer is taken from. */
  body: string;
  /** Words the question is matched against. */
  words: Set<string>;
  /** A key/value's value, or the text after a label: the answer to a plain question. */
  value: string | null;
  /** Text whose dates, amounts and numbers are found by the words labelling them (a key/value
   * as `key: value`, since a value read from print may run on into the next field); null for a
   * table row, whose cells set its value apart. */
  passage: string | null;
  /** Whether the passage is page text, where a plain answer is the value of the key/value pair
   * the question's words label when the passage holds several. */
  pageText: boolean;
  bonus: number;
}

/** How much each word of the question counts when it labels a value. */
type QuestionWeights = Map<string, number>;

/** Words that say what kind of value is asked ("date", "amount") count a little in its label:
 * less than any telling word (an idf is at least 0.1), more than none. */
const ASKING_WEIGHT = 0.05;

export function answerQuestion(view: DocumentView, question: Question): RawAnswer {
  if (question.schema) {
    const filled = fillSchema(view, question.schema);
    const found = Object.keys(filled.data).length > 0;
    const confidence = filled.citations.length ? filled.citations.reduce((s, c) => s + c.confidence, 0) / filled.citations.length : 0;
    return {
      answer: found ? filled.data : {},
      not_found: !found,
      confidence: Math.round(confidence * 100) / 100,
      citations: dedupe(filled.citations.map((c) => ({ page: c.page, quote: c.quote }))),
    };
  }
  const kind = kindOf(question.question);
  const keywords = [...new Set(contentWords(question.question))].filter((w) => !ASKING.has(w) || kind === 'text');
  const notFound: RawAnswer = { answer: '', not_found: true, confidence: 0, citations: [] };
  if (keywords.length === 0) return notFound;
  const weights = new Map(keywords.map((w) => [w, view.idf(w)]));
  const totalWeight = [...weights.values()].reduce((a, b) => a + b, 0);
  const coverage = (words: Set<string>) => {
    let covered = 0;
    for (const [word, weight] of weights) if (words.has(word)) covered += weight;
    return covered / totalWeight;
  };

  const labelWeights: QuestionWeights = new Map(contentWords(question.question).filter((w) => ASKING.has(w)).map((w) => [w, ASKING_WEIGHT]));
  for (const [word, weight] of weights) labelWeights.set(word, weight);

  let best: { score: number; coverage: number; answer: string; candidate: Candidate } | null = null;
  for (const candidate of candidates(view)) {
    const covered = coverage(candidate.words);
    if (covered < 0.5) continue;
    const answer = extractAnswer(view, candidate, kind, labelWeights);
    if (answer === null) continue;
    const score = covered + candidate.bonus;
    if (!best || score > best.score + 1e-9) best = { score, coverage: covered, answer, candidate };
  }
  if (!best) return notFound;
  return {
    answer: best.answer,
    not_found: false,
    confidence: Math.round(Math.min(0.95, 0.3 + 0.6 * best.coverage) * 100) / 100,
    citations: [{ page: best.candidate.page, quote: best.candidate.quote }],
  };
}

function dedupe(citations: { page: number; quote: string }[]): { page: number; quote: string }[] {
  const seen = new Set<string>();
  return citations.filter((c) => {
    const key = `${c.page}|${c.quote}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function* candidates(view: DocumentView): Generator<Candidate> {
  for (const kv of view.keyValues) {
    yield {
      page: kv.page,
      quote: view.keyValueQuote(kv),
      body: kv.value,
      words: new Set([...contentWords(kv.key), ...contentWords(kv.value)]),
      value: kv.selected === null ? kv.value : kv.selected ? 'yes' : 'no',
      passage: kv.selected === null ? `${kv.key}: ${kv.value}` : null,
      pageText: false,
      bonus: 0.15,
    };
  }
  for (const line of view.lines) {
    if (line.cells) {
      // A table row, matched with its column headings.
      const table = view.tables.find((t) => t.page === line.page && t.rows.some((r) => r.join(' ').trim() === line.cells!.join(' ').trim()));
      const header = table ? table.rows[0].join(' ') : '';
      const label = line.cells.find((c) => /\p{L}/u.test(c)) ?? '';
      const last = [...line.cells].reverse().find((c) => c && c !== label) ?? null;
      yield { page: line.page, quote: line.text, body: line.text, words: new Set([...contentWords(line.text), ...contentWords(header)]), value: last, passage: null, pageText: false, bonus: 0.05 };
      continue;
    }
    const colon = line.text.indexOf(':');
    const value = colon > 0 && colon < line.text.length - 1 ? line.text.slice(colon + 1).trim() : null;
    yield { page: line.page, quote: line.text, body: line.text, words: new Set(contentWords(line.text)), value, passage: line.text, pageText: true, bonus: value ? 0.1 : 0 };
    const next = view.nextLine(line);
    if (next && !next.cells && (line.text.endsWith(':') || line.text.split(/\s+/).length <= 3)) {
      const quote = view.quoteOn(line.page, `${line.text} ${next.text}`);
      if (quote) {
        const words = new Set([...contentWords(line.text), ...contentWords(next.text)]);
        yield { page: line.page, quote, body: next.text, words, value: next.text, passage: `${line.text} ${next.text}`, pageText: true, bonus: 0.1 };
      }
    }
  }
  for (const sentence of view.sentences) {
    yield { page: sentence.page, quote: sentence.text, body: sentence.text, words: new Set(sentence.words), value: null, passage: sentence.text, pageText: true, bonus: 0 };
  }
}

function extractAnswer(view: DocumentView, candidate: Candidate, kind: AnswerKind, weights: QuestionWeights): string | null {
  if (candidate.passage !== null && (kind === 'date' || kind === 'amount' || kind === 'number')) return labelledAnswer(view, candidate.passage, kind, weights);
  const field = candidate.pageText && candidate.passage !== null ? labelledField(view, candidate.page, candidate.passage, weights) : null;
  const source = field ?? candidate.value ?? candidate.body;
  switch (kind) {
    case 'date': {
      const date = view.datesIn(source)[0] ?? view.datesIn(candidate.body)[0];
      return date ? date.text : null;
    }
    case 'amount': {
      const amounts = findAmounts(source, true, view.currency);
      const all = amounts.length ? amounts : findAmounts(candidate.body, true, view.currency);
      return all.length ? all[all.length - 1].text.trim() : null;
    }
    case 'number': {
      const number = /-?\d[\d,.]*/.exec(source) ?? /-?\d[\d,.]*/.exec(candidate.body);
      return number ? number[0].replace(/[.,]$/, '') : null;
    }
    case 'party': {
      const value = field ?? candidate.value;
      if (value && /\p{L}/u.test(value) && value.split(/\s+/).length <= 10) return value;
      return organizationIn(candidate.body);
    }
    default: {
      const value = field ?? candidate.value;
      return (value && /\p{L}|\d/u.test(value) ? value : candidate.body).trim() || null;
    }
  }
}

interface Found {
  text: string;
  index: number;
}

/**
 * The date, amount or number of running text that the question's words label. A value's label is
 * the text since the previous value of its kind (labels come before their values, in forms and in
 * sentences alike: "Total due: $1,440.00", "payment is due on 13 April 2024"); the value whose
 * label carries most of the question's weight answers, the first on a tie. When no label carries
 * any, prose that opens with its value ("On 5 March 2021, the board approved the merger") is read
 * the other way: the last value, unless a "label:" owns it, is labelled by the words after it. A
 * date question the text answers with a term instead of a date ("within 30 days of the invoice
 * date") is answered with that term, unless a written date is labelled as well.
 */
function labelledAnswer(view: DocumentView, passage: string, kind: 'date' | 'amount' | 'number', weights: QuestionWeights): string | null {
  const dates = view.datesIn(passage);
  if (kind === 'amount') {
    const amounts = findAmounts(passage, true, view.currency);
    return (bestLabelled(passage, amounts, weights)?.found ?? labelledAfter(passage, amounts, weights))?.text.trim() ?? null;
  }
  if (kind === 'number') {
    const inDate = (index: number) => dates.some((d) => index >= d.index && index < d.index + d.text.length);
    const numbers = [...passage.matchAll(/-?\d[\d,.]*/g)].filter((m) => !inDate(m.index!)).map((m) => ({ text: m[0].replace(/[.,]$/, ''), index: m.index! }));
    return (bestLabelled(passage, numbers, weights)?.found ?? labelledAfter(passage, numbers, weights))?.text ?? null;
  }
  const date = bestLabelled(passage, dates, weights);
  // A term's label runs back to the date or term before it, whichever is nearer.
  const marks = [...dates.map((d) => ({ ...d, term: false })), ...findDateTerms(passage).map((t) => ({ ...t, term: true }))].sort((a, b) => a.index - b.index);
  const term = bestLabelled(passage, marks, weights, (mark) => mark.term);
  if (date && (!term || date.weight >= term.weight)) return date.found.text;
  if (term) return term.found.text;
  return labelledAfter(passage, marks, weights)?.text ?? null;
}

/**
 * In page text holding the document's key/value pairs run together ("Invoice number: INV-7
 * Invoice date: March 14, 2024 Billed to: Northwind Traders"), the value of the pair the
 * question's words label, by the rule of `labelledAnswer`; null when the text holds none.
 */
function labelledField(view: DocumentView, page: number, passage: string, weights: QuestionWeights): string | null {
  const lower = passage.toLowerCase();
  const fields: Found[] = [];
  for (const kv of view.keyValues) {
    if (kv.page !== page || kv.selected !== null || !kv.value) continue;
    const key = lower.indexOf(kv.key.toLowerCase());
    const index = key < 0 ? -1 : passage.indexOf(kv.value, key + kv.key.length);
    if (index >= 0) fields.push({ text: kv.value, index });
  }
  return bestLabelled(passage, fields.sort((a, b) => a.index - b.index), weights)?.found.text ?? null;
}

/** The last value of the passage when the words after it carry some of the question and no
 * "label:" stands right before it; else null. */
function labelledAfter<T extends Found>(passage: string, found: readonly T[], weights: QuestionWeights): T | null {
  const last = found[found.length - 1];
  if (!last || /:\s*$/.test(passage.slice(0, last.index))) return null;
  for (const word of new Set(contentWords(passage.slice(last.index + last.text.length)))) if ((weights.get(word) ?? 0) > 0) return last;
  return null;
}

/** Of the values found in order in `passage`, the one whose label weighs most (more than nothing). */
function bestLabelled<T extends Found>(passage: string, found: readonly T[], weights: QuestionWeights, answers: (value: T) => boolean = () => true): { found: T; weight: number } | null {
  let best: { found: T; weight: number } | null = null;
  let from = 0;
  for (const value of found) {
    if (value.index < from) continue;
    const label = new Set(contentWords(passage.slice(from, value.index)));
    from = value.index + value.text.length;
    if (!answers(value)) continue;
    let weight = 0;
    for (const word of label) weight += weights.get(word) ?? 0;
    if (weight > 0 && (!best || weight > best.weight + 1e-9)) best = { found: value, weight };
  }
  return best;
}
