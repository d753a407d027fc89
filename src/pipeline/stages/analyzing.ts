// `analyzing`: the format reader and the layout analysis, in the reader threads, a span of pages
// at a time. A long document is read in spans shared among the threads; the raw pages wait on
// disk (threads/page-spool.ts) until the document's font statistics are known (headings are
// judged against the whole document) and OCR has read the pages that need it, then each span is
// analysed down to its outputs in a thread, its page models dropped there, and its pages stored
// (page-rows.ts) and their pictures started (rendering.ts) as soon as it comes back. What stays in
// the worker is a summary of each page, however long the document. With a page selection (the
// `pages` option) only the selected pages are read, page by page formats span by span over the
// selection, Office files whole and then cut to it.
import { isOffice, isSupported } from '../../domain/media-types.js';
import { maxScannedPages, sizeInWords } from '../../domain/scan-budget.js';
import { documentStats, pageTally } from '../analysis/document-stats.js';
import { DocumentFailure, HoldLost, type RunContext } from '../context.js';
import type { BatchOptions, PageBatch } from '../outputs/page-batch.js';
import { PageRows } from '../page-rows.js';
import { readInto, readScan } from '../scans/read-scan.js';
import { PageSpool, type SpooledPage } from '../threads/page-spool.js';
import type { ReaderOutcome } from '../threads/reader-thread.js';
import type { PageSpan, RawPage } from '../page-model.js';
import { pageSelectionOf } from '../../domain/options.js';
import { isSelected, selectedPageCount, selectionOutOfRange, type PageSelection } from '../../domain/page-selection.js';
import { PictureRenderer } from './rendering.js';
import { MAX_PICTURE_SIDE, scannedPagePicture, sketchesScans } from '../outputs/pictures.js';

/** docs/api.md: extraction.per_page runs on up to 200 pages. */
export const MAX_PER_PAGE_PAGES = 200;

/**
 * Pages in one span: enough that opening the file and its fonts again is a small share of a
 * span's work, few enough that a span's page models stay small and the threads share the work.
 */
const SPAN_MIN_PAGES = 8;
const SPAN_MAX_PAGES = 32;
/** Spans per reader thread, at least, so that a thread that finishes early takes another. */
const SPANS_PER_THREAD = 3;

export async function analyzeDocumentStage(ctx: RunContext): Promise<void> {
  const { doc, store } = ctx;
  if (!isSupported(doc.content_type) || !doc.upload_key) {
    throw new DocumentFailure('unsupported_media_type', `Unsupported type ${doc.content_type || 'unknown'}.`);
  }
  ctx.mediaType = doc.content_type;
  // An Office file is read whole by one thread; the others are shared among the threads.
  ctx.bytes ??= isOffice(doc.content_type) ? await store.blobs.get(doc.upload_key) : await readUpload(ctx, doc.upload_key, doc.byte_size);
  const batch: BatchOptions = {
    markdown: ctx.options.markdown,
    mediaType: doc.content_type,
    images: ctx.options.images,
    uploadBytes: doc.byte_size,
    joinsTables: !isOffice(doc.content_type),
  };
  const rows = new PageRows(ctx);
  await rows.clear();
  const renderer = (ctx.pictureWork = new PictureRenderer(ctx));
  const selection = pageSelectionOf(ctx.options);
  const stored = async (outcome: ReaderOutcome<PageBatch>) => {
    const read = succeeded(outcome);
    await rows.add(read);
    renderer.add(read.pictures);
  };
  // The file's own page count: `page_count` says it whatever the selection.
  let fileCount: number;
  if (isOffice(doc.content_type)) {
    const whole = succeeded(await ctx.pool.readStructured(ctx.mediaType, ctx.bytes, ctx.options.analysis, batch, ctx.signal));
    fileCount = whole.summaries.length;
    if (selection) checkSelection(selection, fileCount);
    await stored({ ok: true, value: selection ? selectedOf(whole, selection) : whole });
  } else {
    fileCount = await readBySpans(ctx, batch, stored, renderer, selection);
  }
  const summaries = await rows.finish();
  if (summaries.length === 0) throw new DocumentFailure('analysis_failed', 'The document has no pages.');
  ctx.pages = summaries;
  ctx.pagesRead = summaries.length;
  const pageCount = selection ? fileCount : summaries.length;
  if (pageCount !== doc.page_count) {
    if (!(await ctx.hold.update(store.db, { page_count: pageCount }))) throw new HoldLost();
    doc.page_count = pageCount;
  }
  checkPageCount(ctx, summaries.length);
}

/** A selection naming a page the file does not have fails the document (an upload is refused with 422 before this). */
function checkSelection(selection: PageSelection, fileCount: number): void {
  const problem = selectionOutOfRange(selection, fileCount);
  if (problem) throw new DocumentFailure('analysis_failed', `The page selection (options.pages) ${problem}.`);
}

/** A batch cut to the selected pages (an Office file is read whole, then cut). */
function selectedOf(batch: PageBatch, selection: PageSelection): PageBatch {
  const kept = (page: number) => isSelected(selection, page);
  return {
    ...batch,
    outputs: batch.outputs.filter((o) => kept(o.page)),
    summaries: batch.summaries.filter((s) => kept(s.number)),
    pictures: batch.pictures.filter((p) => kept(p.page)),
  };
}

function succeeded<T>(outcome: ReaderOutcome<T>): T {
  if (!outcome.ok) throw new DocumentFailure(outcome.errorType, outcome.message, { cause: outcome.detail });
  return outcome.value;
}

/**
 * Formats read page by page (PDF, pictures): spans read to the spool, OCR where needed, spans
 * analysed, each handed to `stored` as it comes back.
 */
async function readBySpans(
  ctx: RunContext,
  batch: BatchOptions,
  stored: (outcome: ReaderOutcome<PageBatch>) => Promise<void>,
  renderer: PictureRenderer,
  selection: PageSelection | null,
): Promise<number> {
  // The file is shared with the threads, not copied to each task of this stage and of `rendering`.
  const bytes = (ctx.bytes = shared(ctx.bytes!));
  // A selection is checked against the file's count (a URL document's is known only now);
  // without one, the file's count is what is read.
  const counted = selection ? (ctx.doc.page_count > 0 ? ctx.doc.page_count : succeeded(await ctx.pool.count(ctx.mediaType!, bytes, ctx.signal))) : null;
  if (selection) checkSelection(selection, counted!);
  checkPageCount(ctx, selection ? selectedPageCount(selection) : ctx.doc.page_count);
  const spool = await PageSpool.create(ctx.config.dataDir, ctx.doc.id);
  try {
    const spans = selection ? selectionSpans(selection, ctx.config.readerThreads) : pageSpans(Math.max(1, ctx.doc.page_count), ctx.config.readerThreads);
    const bySpan = await Promise.all(
      spans.map(async (span) => succeeded(await ctx.pool.readRange(ctx.mediaType!, bytes, span, spool.nextFile(), ctx.doc.id, ctx.signal))),
    );
    const read = bySpan.flat();
    // Known before any page is analysed or drawn.
    checkPageCount(ctx, read.length);
    // A file with fewer pages than it was counted with cannot give every selected page.
    if (selection && read.length < selectedPageCount(selection)) throw new DocumentFailure('analysis_failed', 'The page selection (options.pages) names pages the file does not have.');
    await ocrPages(ctx, bytes, read, spool, renderer);
    const stats = documentStats(read.map((page) => page.weights));
    await Promise.all(
      bySpan.filter((group) => group.length > 0).map(async (group) => stored(await ctx.pool.analyze(group, stats, ctx.options.analysis, batch, ctx.signal))),
    );
    return counted ?? read.length;
  } finally {
    await spool.remove();
  }
}

function spanSize(pages: number, threads: number): number {
  return Math.min(SPAN_MAX_PAGES, Math.max(SPAN_MIN_PAGES, Math.ceil(pages / (Math.max(1, threads) * SPANS_PER_THREAD))));
}

/** Spans covering the selected pages, sized as pageSpans sizes them; none runs across a gap of the selection. */
export function selectionSpans(selection: PageSelection, threads: number): PageSpan[] {
  const size = spanSize(selectedPageCount(selection), threads);
  const spans: PageSpan[] = [];
  for (const [first, last] of selection) for (let from = first; from <= last; from += size) spans.push({ first: from, last: Math.min(last, from + size - 1) });
  return spans;
}

/** Contiguous spans covering `pages`, sized for `threads` (see SPAN_MIN_PAGES). */
export function pageSpans(pages: number, threads: number): { first: number; last: number }[] {
  const size = spanSize(pages, threads);
  const spans = [];
  for (let first = 1; first <= pages; first += size) spans.push({ first, last: Math.min(pages, first + size - 1) });
  // A file may hold more pages than were counted at submission; the last span reads to its end.
  spans[spans.length - 1].last = Number.MAX_SAFE_INTEGER;
  return spans;
}

/**
 * The uploaded file, read straight into memory the reader threads share, so the worker holds it
 * once (a copy read first and then shared would be held twice until collected).
 */
async function readUpload(ctx: RunContext, key: string, size: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(new SharedArrayBuffer(size));
  let at = 0;
  for await (const chunk of await ctx.store.blobs.stream(key)) {
    const part = chunk as Buffer;
    // A stored file of another size than recorded (never, but then it is read as it is).
    if (at + part.length > size) return shared(await ctx.store.blobs.get(key));
    bytes.set(part, at);
    at += part.length;
  }
  return at === size ? bytes : bytes.subarray(0, at);
}

function shared(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  copy.set(bytes);
  return copy;
}

/** The plan's page limit, and per-page extraction's. */
function checkPageCount(ctx: RunContext, count: number): void {
  if (count > ctx.plan.max_pages_per_document) {
    throw new DocumentFailure('document_too_large', `The document has ${count} pages; the plan allows at most ${ctx.plan.max_pages_per_document}.`);
  }
  if (ctx.options.extraction?.per_page && count > MAX_PER_PAGE_PAGES) {
    throw new DocumentFailure('document_too_large', `extraction.per_page runs on at most ${MAX_PER_PAGE_PAGES} pages; the document has ${count}.`);
  }
}

/**
 * Reads the pages marked for OCR, each fetched as a grey picture from a reader thread and dropped
 * once read, so a long scan never sits in memory whole. One page more is taken than the engine
 * reads at once: it is drawn and measured while the engine is busy and waits at the engine's gate,
 * so a freed engine starts it at once, and a page whose engine call has ended finishes its reading
 * (ruling lines, text height) while the engine reads the next (bench/speed's scans). At most one
 * picture more than the engine reads at once is held. A page's own picture is started as soon as
 * it is read, so pictures are made while the engine reads the last pages rather than after.
 */
async function ocrPages(ctx: RunContext, bytes: Uint8Array, pages: SpooledPage[], spool: PageSpool, renderer: PictureRenderer): Promise<void> {
  const queue = pages.filter((p) => p.ocr);
  if (queue.length === 0) return;
  // Known before the engine starts: a small file does not buy hours of OCR (scan-budget.ts).
  const allowed = maxScannedPages(ctx.doc.byte_size);
  if (queue.length > allowed) {
    throw new DocumentFailure(
      'document_too_large',
      `The document has ${queue.length} pages to read by OCR in ${sizeInWords(ctx.doc.byte_size)}; Folio reads at most one scanned page per KiB of file (here ${allowed}).`,
    );
  }
  const engine = await ctx.ocr();
  const sketchSide = sketchesScans(ctx.mediaType!, ctx.options.images) ? MAX_PICTURE_SIDE : undefined;
  // Stops the engine calls of the pages in hand once one page has failed (not the reader threads,
  // which other documents share).
  const failed = new AbortController();
  const signal = AbortSignal.any([ctx.signal, failed.signal]);
  const worker = async () => {
    for (let read = queue.shift(); read; read = queue.shift()) {
      const page = await spool.read(read);
      const scanned = succeeded(await ctx.pool.scan(ctx.mediaType!, bytes, page, { key: ctx.doc.id, sketchSide, signal: ctx.signal }));
      const { image, dpi, unitsPerPixel } = scanned;
      const scannedRotation = page.rotation;
      let reading;
      try {
        reading = await readScan(engine, image, dpi, unitsPerPixel, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        throw new DocumentFailure('analysis_failed', `Page ${page.number} could not be read by OCR.`, { cause: error });
      }
      // Readings beyond the first are logged, so how often a page needs them can be counted.
      if (reading.readings.length > 1) {
        ctx.log.info({ document_id: ctx.doc.id, page: page.number, readings: reading.readings, kept: reading.kept }, 'page read by OCR more than one way');
      }
      readInto(page, reading);
      await spool.replace(read, page, pageTally(page));
      // Its whole-page picture is due whatever the analysis finds; it is made while the engine reads on.
      const picture = scannedPagePicture(page, ctx.mediaType!, ctx.options.images, ctx.doc.byte_size);
      // From the sketch, the scan's pixels turned as OCR turned the page from the frame it was scanned in.
      const sketched = scanned.sketch ? { sketch: scanned.sketch, degrees: ((reading.rotation - scannedRotation + 360) % 360) + reading.skew } : undefined;
      if (picture) renderer.startEarly(picture, sketched);
    }
  };
  // A page that fails ends the document: no further page is started, and the pages in hand stop.
  const reader = () =>
    worker().catch((error: unknown) => {
      queue.length = 0;
      failed.abort();
      throw error;
    });
  await Promise.all(Array.from({ length: Math.max(1, Math.min(engine.concurrency + 1, queue.length)) }, reader));
}
