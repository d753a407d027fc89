// `--rescore DIR --reread`: what this checkout's reader makes of a kept run's born-digital
// documents, read in this process instead of through the API. A reading change is judged on the
// same documents before and after by running the command in each checkout (or worktree), in about
// a minute for three hundred documents and with no server, so the first look at a change does not
// wait for a full run. PDFs go through the PDF reader, page analysis and page outputs as the
// reader threads run them; Word files through their structured reader. Scans, and pages a server
// would send to OCR, are not read here: a scan keeps what the kept run read of it.
import { readFile } from 'node:fs/promises';
import { analyzeDocument } from '../../src/pipeline/analysis/analyze-page.js';
import { readerFor } from '../../src/pipeline/formats/index.js';
import type { Page } from '../../src/pipeline/page-model.js';
import { pageOutputs } from '../../src/pipeline/outputs/page-outputs.js';
import { documentMarkdown, documentText } from '../../src/page-outputs/document-text.js';
import type { Output } from './score.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' as const;

/** The document at `file` (a generated .pdf or .docx) read in this process, as the bench's Output; null for a file it does not read. */
export async function readInProcess(file: string): Promise<Output | null> {
  const started = performance.now();
  const bytes = new Uint8Array(await readFile(file));
  let pages: Page[];
  if (file.endsWith('.pdf')) pages = analyzeDocument(await readerFor('application/pdf').read(bytes));
  else if (file.endsWith('.docx')) pages = await readerFor(DOCX).readStructured!(bytes, 'layout');
  else return null;
  const outputs = pages.map((page) => pageOutputs(page, true));
  return {
    text: documentText(outputs.map((o) => ({ page_number: o.page, text: o.text }))),
    markdown: documentMarkdown(outputs.map((o) => ({ markdown: o.markdown ?? '', tables: o.tables }))),
    pages: outputs.map((o) => ({ page: o.page, text: o.text, tables: o.tables })),
    seconds: (performance.now() - started) / 1000,
  };
}
