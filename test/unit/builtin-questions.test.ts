// The built-in engine answers from the passage that answers (issue 22, point 7): over an invoice
// whose labelled lines and payment terms run together, "When is payment due?" is answered with
// the terms ("within 30 days of the invoice date"), never with the invoice date printed beside
// them, and other kinds of question (an amount, a date, a party, a place, a count) still answer
// from their own labels; where nothing answers, not found. Every answer passes the grounding
// check that any provider's answer goes through.
import { describe, expect, it } from 'vitest';
import { detectBytes } from '../../src/pipeline/intake/detect.js';
import { readerFor } from '../../src/pipeline/formats/index.js';
import { analyzeDocument } from '../../src/pipeline/analysis/analyze-page.js';
import { pageOutputs } from '../../src/pipeline/outputs/page-outputs.js';
import type { PageOutputs } from '../../src/page-outputs/shapes.js';
import { BuiltinProvider } from '../../src/models/llm/builtin/index.js';
import { PageTexts } from '../../src/pipeline/extraction/grounding.js';
import { groundAnswer } from '../../src/pipeline/extraction/result.js';
import { invoicePdf, textPdf } from '../helpers/pdfs.js';

async function read(bytes: Uint8Array): Promise<PageOutputs[]> {
  const reader = readerFor((await detectBytes(bytes)).supported!);
  const pages = reader.readStructured ? await reader.readStructured(bytes, 'layout') : analyzeDocument(await reader.read(bytes));
  return pages.map((page) => pageOutputs(page, false));
}

async function ask(pages: PageOutputs[], questions: string[]) {
  const reply = await new BuiltinProvider().run({
    tier: 'swift',
    pages,
    fields: [],
    schema: null,
    instructions: null,
    questions: questions.map((question) => ({ question, schema: null })),
    pictures: [],
    maxOutputTokens: 4096,
    signal: new AbortController().signal,
  });
  const texts = new PageTexts(pages);
  return reply.answers.map((raw) => {
    const grounded = groundAnswer(raw, texts, false);
    expect(grounded.dropped).toBe(false);
    return grounded.answer;
  });
}

describe('built-in answers over a generated invoice', async () => {
  const pages = await read(await invoicePdf());

  it('reads the invoice date and the payment terms into one passage (the case the rule is for)', () => {
    const passage = pages[0].layout.find((e) => e.text.includes('Payment is due'))!.text;
    expect(passage).toContain('Invoice date: March 14, 2024');
  });

  it('answers when payment is due with the terms that say so, not the invoice date', async () => {
    const [due, dueDate, days] = await ask(pages, ['When is payment due?', 'What is the due date?', 'Within how many days is payment due?']);
    for (const answer of [due, dueDate]) {
      expect(answer).toMatchObject({ answer: 'within 30 days of the invoice date', not_found: false });
      expect(answer.citations[0].quote).toContain('Payment is due within 30 days of the invoice date');
    }
    expect(days).toMatchObject({ answer: '30', not_found: false });
  });

  it('still answers an amount, a date, a party and a place from their own labels', async () => {
    const [total, date, party, place] = await ask(pages, [
      'What is the total amount?',
      'What is the invoice date?',
      'Who is the invoice billed to?',
      'Where is Acme Supplies located?',
    ]);
    expect(total).toMatchObject({ answer: '$1,440.00', not_found: false });
    expect(date).toMatchObject({ answer: 'March 14, 2024', not_found: false });
    expect(party).toMatchObject({ answer: 'Northwind Traders', not_found: false });
    expect(place).toMatchObject({ answer: '12 Harbour Road, Bristol BS1 4QA', not_found: false });
  });

  it('says not found where the document does not answer', async () => {
    const [answer] = await ask(pages, ['When was the contract terminated?']);
    expect(answer).toMatchObject({ answer: '', not_found: true, citations: [] });
  });
});

describe('built-in answers from labels run together', () => {
  it('gives a printed due date, and the amount its own label names', async () => {
    const pages = await read(await textPdf([['Acme Supplies Ltd', 'INVOICE', 'Invoice date: March 14, 2024', 'Payment due: April 13, 2024', 'Total: $1,440.00 Deposit paid: $200.00']]));
    const [due, total, deposit] = await ask(pages, ['When is payment due?', 'What is the total amount?', 'How much was the deposit?']);
    expect(due).toMatchObject({ answer: 'April 13, 2024', not_found: false });
    expect(total).toMatchObject({ answer: '$1,440.00', not_found: false });
    expect(deposit).toMatchObject({ answer: '$200.00', not_found: false });
  });

  it('is not found when no terms and no due date are printed, even beside the words asked about', async () => {
    for (const lines of [
      ['Acme Supplies Ltd', 'INVOICE', 'Invoice date: March 14, 2024', 'Total: $1,440.00'],
      ['Acme Supplies Ltd', 'INVOICE', 'Invoice date: March 14, 2024', 'Payment is due upon agreement.'],
    ]) {
      const [due] = await ask(await read(await textPdf([lines])), ['When is payment due?']);
      expect(due, lines.join(' / ')).toMatchObject({ answer: '', not_found: true });
    }
  });

  it('reads prose that opens with its date by the words after it', async () => {
    const pages = await read(await textPdf([['Board minutes', '', 'On 5 March 2021, the board approved the merger with Contoso.']]));
    const [approved] = await ask(pages, ['When was the merger approved?']);
    expect(approved).toMatchObject({ answer: 'On 5 March 2021', not_found: false });
  });
});
