// Answers are grounded like values (issue 22, point 7): whatever provider wrote an answer, each
// date, number and amount it states must be written in a quote it cites, and a short answer's
// words must be there too; an answer its quotes do not bear out is not found, and only the
// quotes that bear it out stay its citations.
import { describe, expect, it } from 'vitest';
import { PageTexts } from '../../src/pipeline/extraction/grounding.js';
import { groundAnswer } from '../../src/pipeline/extraction/result.js';
import type { PageOutputs } from '../../src/page-outputs/shapes.js';

const PAGE_TEXT = [
  'Acme Supplies Ltd',
  'Invoice number: INV-2024-0173 Billed to: Northwind Traders',
  'Invoice date: March 14, 2024',
  'Payment is due within 30 days of the invoice date.',
  'Consulting services 12 hours $1,200.00 Total due: $1,440.00',
].join('\n');

const page: PageOutputs = { page: 1, text: PAGE_TEXT, wordCount: 0, tables: [], keyValues: {}, layout: [], markdown: null };
const texts = new PageTexts([page]);

const TERMS = 'Payment is due within 30 days of the invoice date.';
const DATED = 'Invoice date: March 14, 2024';
const TOTAL = 'Consulting services 12 hours $1,200.00 Total due: $1,440.00';

const reply = (answer: unknown, ...quotes: string[]) => ({ answer, not_found: false, confidence: 0.8, citations: quotes.map((quote) => ({ page: 1, quote })) });
const grounded = (answer: unknown, ...quotes: string[]) => groundAnswer(reply(answer, ...quotes), texts, false);
const groundedObject = (answer: unknown, ...quotes: string[]) => groundAnswer(reply(answer, ...quotes), texts, true);

describe('grounding of answers in words', () => {
  it('drops a date the cited quote does not hold, however the answer is worded', () => {
    // The reported case: the invoice date given as the due date, citing the payment terms.
    for (const answer of ['March 14, 2024', '2024-03-14', 'Payment due April 13, 2024', 'According to the invoice, payment is due within thirty days, that is by April 13, 2024 at the latest.']) {
      const { answer: result, dropped } = grounded(answer, TERMS);
      expect(result, answer).toMatchObject({ answer: '', not_found: true, citations: [] });
      expect(dropped, answer).toBe(true);
    }
  });

  it('drops an amount or count the quote does not hold', () => {
    expect(grounded('$1,400.00', TOTAL).answer.not_found).toBe(true);
    expect(grounded('45 days', TERMS).answer.not_found).toBe(true);
    expect(grounded('The total due is $1,440.00, for 14 hours of consulting services.', TOTAL).answer.not_found).toBe(true);
  });

  it('drops a short answer whose words the quote does not say', () => {
    expect(grounded('Contoso Ltd', DATED).answer.not_found).toBe(true);
  });

  it('keeps an answer its quote bears out, in any way of writing its date or number', () => {
    for (const [answer, quote] of [
      ['within 30 days of the invoice date', TERMS],
      ['30', TERMS],
      ['2024-03-14', DATED],
      ['14 March 2024', DATED],
      ['1440', TOTAL],
      ['$1,440.00', TOTAL],
      ['Northwind Traders', 'Billed to: Northwind Traders'],
      ['yes', TERMS],
    ]) {
      const { answer: result, dropped } = grounded(answer, quote);
      expect(result, answer).toMatchObject({ answer, not_found: false, citations: [{ page: 1, quote }] });
      expect(dropped).toBe(false);
    }
  });

  it('keeps only the quotes that bear the answer out, and needs every thing it states held by one of them', () => {
    expect(grounded('$1,440.00', DATED, TOTAL).answer.citations.map((c) => c.quote)).toEqual([TOTAL]);
    const both = grounded('Invoiced on March 14, 2024 for $1,440.00', TERMS, DATED, TOTAL).answer;
    expect(both.not_found).toBe(false);
    expect(both.citations.map((c) => c.quote)).toEqual([DATED, TOTAL]);
    expect(grounded('Invoiced on March 14, 2024 for $1,440.00', DATED).answer.not_found).toBe(true);
  });

  it('still refuses a quote that is not words of the page', () => {
    expect(grounded('April 13, 2024', 'Payment is due on April 13, 2024.').answer.not_found).toBe(true);
  });
});

describe('grounding of answers following a schema', () => {
  it('keeps each value some quote bears out, and the quotes that do', () => {
    const { answer, dropped } = groundedObject({ due_date: '2024-04-13', invoice_date: '2024-03-14', total: 1440 }, DATED, TOTAL, TERMS);
    expect(answer).toMatchObject({ answer: { invoice_date: '2024-03-14', total: 1440 }, not_found: false });
    expect(answer.citations.map((c) => c.quote)).toEqual([DATED, TOTAL]);
    expect(dropped).toBe(true);
  });

  it('is not found when no value is borne out', () => {
    const { answer } = groundedObject({ due_date: '2024-04-13' }, TERMS);
    expect(answer).toMatchObject({ answer: {}, not_found: true, citations: [] });
  });
});
