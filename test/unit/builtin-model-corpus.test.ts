// The grounding guarantee on real documents (issue 8 target): the built-in engine, asked for every
// built-in field and a question, over every born-digital corpus document (PDFs with a text layer
// and Office files), returns only citations whose quotes are words of the cited page and bear the
// value out: grounding has nothing to drop. Scans are left to the HTTP tests (OCR is slow).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectBytes } from '../../src/pipeline/intake/detect.js';
import { readerFor } from '../../src/pipeline/formats/index.js';
import { analyzeDocument } from '../../src/pipeline/analysis/analyze-page.js';
import { pageOutputs } from '../../src/pipeline/outputs/page-outputs.js';
import { BuiltinProvider } from '../../src/models/llm/builtin/index.js';
import { BUILTIN_FIELDS } from '../../src/models/llm/types.js';
import { PageTexts } from '../../src/pipeline/extraction/grounding.js';
import { groundAnswer, groundData } from '../../src/pipeline/extraction/result.js';
import { CORPUS } from '../helpers/folio.js';

const DOCUMENT = /\.(pdf|docx|xlsx|pptx)$/i;

async function corpusDocuments(): Promise<string[]> {
  const found: string[] = [];
  for (const category of ['text_pdf', 'layout_markdown', 'tables', 'forms_kv', 'office']) {
    for (const name of await readdir(path.join(CORPUS, category))) {
      for (const file of await readdir(path.join(CORPUS, category, name))) {
        if (DOCUMENT.test(file) && !file.startsWith('truth') && !file.startsWith('source')) found.push(path.join(category, name, file));
      }
    }
  }
  return found;
}

describe('built-in engine over the corpus', async () => {
  const files = await corpusDocuments();
  it('has documents to read', () => expect(files.length).toBeGreaterThan(20));

  it.each(files)('%s: every citation and answer quote verifies', async (file) => {
    const bytes = new Uint8Array(await readFile(path.join(CORPUS, file)));
    const detected = await detectBytes(bytes);
    expect(detected.supported).not.toBeNull();
    const reader = readerFor(detected.supported!);
    const pages = reader.readStructured ? await reader.readStructured(bytes, 'layout') : analyzeDocument(await reader.read(bytes));
    // Pages that need OCR have no words here; their citations would have nothing to quote.
    const outputs = pages.map((page) => pageOutputs(page, false));
    const reply = await new BuiltinProvider().run({
      tier: 'swift',
      pages: outputs,
      fields: [...BUILTIN_FIELDS],
      schema: null,
      instructions: null,
      questions: [{ question: 'What is the total amount?', schema: null }, { question: 'When was it written?', schema: null }],
      pictures: [],
      maxOutputTokens: 4096,
      signal: new AbortController().signal,
    });
    const texts = new PageTexts(outputs);
    const grounded = groundData(reply, null, texts);
    expect(grounded.dropped, JSON.stringify(reply.citations.filter((c) => !texts.verify(c.page, c.quote)).slice(0, 3))).toBe(0);
    for (const citation of grounded.citations) expect(texts.verify(citation.page, citation.quote)).toBe(true);
    for (const answer of reply.answers) expect(groundAnswer(answer, texts, false).dropped).toBe(false);
  }, 60_000);
});
