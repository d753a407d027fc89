// `--rescore DIR --reread`: what this checkout's reader makes of a kept run's documents, read in
// this process instead of through the API. A reading change is judged on the same documents
// before and after by running the command in each checkout (or worktree), in about a minute for
// three hundred documents and with no server, so the first look at a change does not wait for a
// full run. PDFs go through the PDF reader, page analysis and page outputs as the reader threads
// run them; Word files through their structured reader. Scans (with `--ocr`) are read by OCR as
// the analysing stage reads them the first time, and the pages so read are kept beside the
// document (`<id>.ocr-pages.json`): OCR is the slow part and no reading change touches it, so
// later rereads, in any checkout, analyse the kept pages again in a moment. With `remeasure`, what
// the picture shows besides the words (rulings, fills, check boxes: read-scan.ts drawnOnPage) is
// measured again by this checkout on the kept pages, so a change to those measurements is judged
// on the same OCR'd words before and after.
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createOcrEngine, type OcrEngine } from '../../src/models/ocr/index.js';
import { asRead, drawnOnPage, readInto, readScan } from '../../src/pipeline/scans/read-scan.js';
import type { OcrWord } from '../../src/models/ocr/engine.js';
import { analyzeDocument } from '../../src/pipeline/analysis/analyze-page.js';
import { readerFor } from '../../src/pipeline/formats/index.js';
import type { Page, RawPage } from '../../src/pipeline/page-model.js';
import { pageOutputs } from '../../src/pipeline/outputs/page-outputs.js';
import { documentMarkdown, documentText } from '../../src/page-outputs/document-text.js';
import type { Output } from './score.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' as const;

/** A scan to read (its media type and the OCR engine), or whose pages a reread before kept (`pages`, the `.ocr-pages.json` beside it). */
export interface ScanSource {
  mediaType: 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/tiff';
  pages: string;
  engine: () => Promise<OcrEngine>;
  /** Kept pages get their rulings, fills and check boxes measured again by this checkout. */
  remeasure?: boolean;
}

/**
 * The document at `file` (a generated .pdf or .docx, or a scan when `scan` says how to read it)
 * read in this process, as the bench's Output; null for a file it does not read.
 */
export async function readInProcess(file: string, scan?: ScanSource): Promise<Output | null> {
  const started = performance.now();
  let pages: Page[];
  if (scan) pages = analyzeDocument(await scannedPages(file, scan));
  else if (file.endsWith('.pdf')) pages = analyzeDocument(await readerFor('application/pdf').read(new Uint8Array(await readFile(file))));
  else if (file.endsWith('.docx')) pages = await readerFor(DOCX).readStructured!(new Uint8Array(await readFile(file)), 'layout');
  else return null;
  const outputs = pages.map((page) => pageOutputs(page, true));
  return {
    text: documentText(outputs.map((o) => ({ page_number: o.page, text: o.text }))),
    markdown: documentMarkdown(outputs.map((o) => ({ markdown: o.markdown ?? '', tables: o.tables }))),
    pages: outputs.map((o) => ({ page: o.page, text: o.text, tables: o.tables })),
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * A scan's pages as the analysing stage hands them to page analysis: read by OCR page by page as
 * ocrPages reads them (stages/analyzing.ts), or the pages a reread before kept.
 */
async function scannedPages(file: string, scan: ScanSource): Promise<RawPage[]> {
  const kept = await readFile(scan.pages, 'utf8').then((text) => JSON.parse(text) as RawPage[], () => null);
  if (kept) return scan.remeasure ? remeasured(file, scan.mediaType, kept) : kept;
  const bytes = new Uint8Array(await readFile(file));
  const reader = readerFor(scan.mediaType);
  const pages = await reader.read(bytes);
  for (const page of pages) {
    if (page.textSource !== 'ocr') continue;
    const { image, dpi, unitsPerPixel } = await reader.scan(bytes, page);
    readInto(page, await readScan(await scan.engine(), image, dpi, unitsPerPixel));
  }
  await writeFile(scan.pages, JSON.stringify(pages));
  return pages;
}

/** The OCR engine the server would use (the system's tesseract, else the WebAssembly build), for scans read again in process. */
export async function scanEngine(): Promise<OcrEngine> {
  const config = loadConfig({ ...process.env, FOLIO_DATA_DIR: process.env.FOLIO_DATA_DIR ?? path.join(tmpdir(), 'folio-generated-ocr') });
  return createOcrEngine(config.ocr);
}

/**
 * Kept pages with what their pictures show besides the words measured again: an OCR'd page's
 * rulings, fills and check boxes from its picture, turned and straightened as it was read (its
 * kept words less any the new measurements take, and any check box they add, made from a word
 * of its line); a page read from its text layer as the reader reads it now.
 */
async function remeasured(file: string, mediaType: ScanSource['mediaType'], kept: RawPage[]): Promise<RawPage[]> {
  const bytes = new Uint8Array(await readFile(file));
  const reader = readerFor(mediaType);
  const fresh = await reader.read(bytes);
  const pages: RawPage[] = [];
  for (const [i, page] of kept.entries()) {
    if (page.textSource !== 'ocr') {
      pages.push({ ...page, words: fresh[i].words, graphics: fresh[i].graphics });
      continue;
    }
    const { image, dpi, unitsPerPixel } = await reader.scan(bytes, fresh[i]);
    const straight = await asRead(image, page.rotation, page.skew);
    const inPixels: OcrWord[] = page.words.map((w) => ({
      text: w.text,
      x0: w.box.x0 / unitsPerPixel,
      y0: w.box.y0 / unitsPerPixel,
      x1: w.box.x1 / unitsPerPixel,
      y1: w.box.y1 / unitsPerPixel,
      confidence: w.confidence ?? 100,
      line: String(w.ocrLine),
      paragraph: String(w.ocrParagraph),
    }));
    const drawn = drawnOnPage(straight, dpi ?? page.dpi ?? 300, inPixels);
    const keptWord = new Map(inPixels.map((p, k) => [p, page.words[k]]));
    const scale = (v: number) => Math.round(v * unitsPerPixel * 100) / 100;
    const words = drawn.words.map((p) => {
      const word = keptWord.get(p);
      if (word) return word;
      const ofLine = page.words.find((w) => String(w.ocrLine) === p.line)!;
      return { ...ofLine, text: p.text, box: { x0: scale(p.x0), y0: scale(p.y0), x1: scale(p.x1), y1: scale(p.y1) }, confidence: Math.round(p.confidence), hyphenated: false };
    });
    const segments = drawn.segments.map((s) => ({ x0: scale(s.x0), y0: scale(s.y0), x1: scale(s.x1), y1: scale(s.y1) }));
    const rects = drawn.fills.map((f) => ({ ...f, box: { x0: scale(f.box.x0), y0: scale(f.box.y0), x1: scale(f.box.x1), y1: scale(f.box.y1) } }));
    pages.push({ ...page, words, graphics: { ...page.graphics, segments, rects } });
  }
  return pages;
}
