// What kind of document this is, by the words it uses: each type has telling phrases with
// weights; a phrase counts more in the first lines (where titles and letterheads are), and
// repeats count less and less. The answer quotes the line of the phrase that decided it; with no
// clear evidence the type is left out.
import { normalizeText } from '../../../page-outputs/text-matching.js';
import type { DocumentView, TextLine } from './view.js';

const CUES: Record<string, [string, number][]> = {
  invoice: [['tax invoice', 4], ['invoice', 3], ['bill to', 2], ['invoice no', 3], ['invoice number', 3], ['amount due', 2], ['due date', 1], ['payment terms', 1.5], ['bill no', 2.5], ['bill amount', 2.5], ['billing', 1], ['please pay', 1.5]],
  receipt: [['receipt', 3], ['cashier', 2.5], ['cash bill', 3], ['change', 1], ['tender', 1.5], ['thank you', 1], ['please come again', 2.5], ['qty', 0.5], ['rounding', 1.5]],
  contract: [['agreement', 3], ['whereas', 2], ['hereby', 1], ['the parties', 2], ['shall', 0.7], ['governing law', 2], ['in witness whereof', 3], ['contract', 2], ['terms and conditions', 1], ['termination', 1]],
  letter: [['dear', 2.5], ['sincerely', 2.5], ['kind regards', 2], ['best regards', 2], ['yours faithfully', 2.5], ['yours truly', 2.5]],
  resume: [['curriculum vitae', 4], ['resume', 2], ['work experience', 2.5], ['professional experience', 2.5], ['education', 1], ['skills', 1], ['references available', 2]],
  'scientific paper': [['abstract', 2.5], ['introduction', 1], ['references', 1], ['et al', 1.5], ['conclusion', 1], ['doi', 1], ['arxiv', 2.5], ['proceedings', 1.5], ['theorem', 1], ['lemma', 1.5], ['experiments', 1], ['related work', 2]],
  report: [['report', 2], ['executive summary', 2.5], ['findings', 1], ['annual report', 3], ['recommendations', 1], ['fiscal year', 1], ['quarter', 0.7]],
  form: [['application form', 3], ['applicant', 2], ['signature', 1], ['date of birth', 2], ['please complete', 2], ['form', 1.5], ['please print', 2], ['check one', 2]],
  'bank statement': [['bank statement', 4], ['account statement', 3], ['opening balance', 2.5], ['closing balance', 2.5], ['withdrawal', 1.5], ['statement period', 2.5], ['account number', 1]],
  'purchase order': [['purchase order', 4], ['po number', 2], ['po no', 2]],
  quotation: [['quotation', 3], ['quote no', 2.5], ['valid until', 1.5], ['estimate', 1]],
  payslip: [['payslip', 4], ['pay slip', 4], ['earnings', 1], ['deductions', 2], ['net pay', 3], ['gross pay', 2]],
  manual: [['user manual', 4], ['user guide', 3], ['installation', 1], ['troubleshooting', 2], ['warranty', 1], ['instructions', 1], ['getting started', 1.5]],
  book: [['chapter', 2], ['table of contents', 1.5], ['preface', 2.5], ['isbn', 3], ['contents', 0.7]],
  memo: [['memorandum', 3.5], ['memo', 2.5], ['subject:', 1]],
  'meeting minutes': [['minutes of', 3], ['attendees', 2.5], ['agenda', 1.5], ['action items', 2.5], ['meeting', 1]],
  certificate: [['certificate', 2.5], ['certify that', 3], ['hereby certifies', 3.5], ['awarded', 1]],
  'tax form': [['tax return', 3], ['internal revenue service', 3], ['taxpayer', 2], ['irs', 1.5]],
  datasheet: [['datasheet', 4], ['data sheet', 4], ['specifications', 1.5], ['electrical characteristics', 3]],
  patent: [['patent', 3], ['embodiment', 2.5], ['claims', 1], ['prior art', 2]],
  presentation: [['agenda', 0.7], ['slide', 1.5], ['q&a', 1.5], ['thank you for your attention', 3]],
};

export interface TypeGuess {
  type: string;
  line: TextLine;
  confidence: number;
}

const HEAD_LINES = 12;

export function classifyDocument(view: DocumentView): TypeGuess | null {
  const scores = new Map<string, { score: number; best: { weight: number; line: TextLine } | null }>();
  const lines = view.lines.map((line) => ({ line, text: ` ${normalizeText(line.text).toLowerCase().replace(/[^\p{L}\p{N}&:]+/gu, ' ')} ` }));
  for (const [type, cues] of Object.entries(CUES)) {
    let score = 0;
    let strongest = 0;
    let best: { weight: number; line: TextLine } | null = null;
    for (const [phrase, weight] of cues) {
      const needle = ` ${phrase} `;
      let count = 0;
      for (const { line, text } of lines) {
        if (!text.includes(needle)) continue;
        const head = line.order < HEAD_LINES ? 2 : 1;
        const gain = (weight * head) / (1 + count);
        score += gain;
        strongest = Math.max(strongest, weight);
        if (!best || weight * head > best.weight) best = { weight: weight * head, line };
        if (++count >= 4) break;
      }
    }
    // Common words alone ("change", "thank you") never decide: a defining phrase must be there.
    scores.set(type, { score: strongest >= 2 ? score : 0, best });
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1].score - a[1].score);
  const [winner, runnerUp] = ranked;
  if (!winner || !winner[1].best || winner[1].score < 3) return null;
  const margin = winner[1].score / Math.max(1, runnerUp?.[1].score ?? 0);
  if (margin < 1.15) return null;
  const confidence = Math.min(0.95, 0.45 + 0.05 * winner[1].score + 0.1 * Math.min(2, margin - 1));
  return { type: winner[0], line: winner[1].best.line, confidence: Math.round(confidence * 100) / 100 };
}
