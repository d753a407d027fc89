// Questions answered by retrieval: the question's telling words are looked up among key/values,
// lines, sentences and table rows, weighted by how rare each word is in the document. The best
// passage answers when it covers enough of the question; when the question asks for a kind of
// value (a date, an amount, a number, a name), the passage must hold one and the answer is that
// value. Anything weaker is `not_found`: the engine does not guess.
import type { Question, RawAnswer } from '../types.js';
import { findAmounts, MONEY_WORDS } from './amounts.js';
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
  bonus: number;
}

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

  let best: { score: number; coverage: number; answer: string; candidate: Candidate } | null = null;
  for (const candidate of candidates(view)) {
    const covered = coverage(candidate.words);
    if (covered < 0.5) continue;
    const answer = extractAnswer(view, candidate, kind);
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
      yield { page: line.page, quote: line.text, body: line.text, words: new Set([...contentWords(line.text), ...contentWords(header)]), value: last, bonus: 0.05 };
      continue;
    }
    const colon = line.text.indexOf(':');
    const value = colon > 0 && colon < line.text.length - 1 ? line.text.slice(colon + 1).trim() : null;
    yield { page: line.page, quote: line.text, body: line.text, words: new Set(contentWords(line.text)), value, bonus: value ? 0.1 : 0 };
    const next = view.nextLine(line);
    if (next && !next.cells && (line.text.endsWith(':') || line.text.split(/\s+/).length <= 3)) {
      const quote = view.quoteOn(line.page, `${line.text} ${next.text}`);
      if (quote) yield { page: line.page, quote, body: next.text, words: new Set([...contentWords(line.text), ...contentWords(next.text)]), value: next.text, bonus: 0.1 };
    }
  }
  for (const sentence of view.sentences) {
    yield { page: sentence.page, quote: sentence.text, body: sentence.text, words: new Set(sentence.words), value: null, bonus: 0 };
  }
}

function extractAnswer(view: DocumentView, candidate: Candidate, kind: AnswerKind): string | null {
  const source = candidate.value ?? candidate.body;
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
      if (candidate.value && /\p{L}/u.test(candidate.value) && candidate.value.split(/\s+/).length <= 10) return candidate.value;
      return organizationIn(candidate.body);
    }
    default:
      return (candidate.value && /\p{L}|\d/u.test(candidate.value) ? candidate.value : candidate.body).trim() || null;
  }
}
