// `analyzing`: the format reader and the layout analysis, in a reader thread.
import { isSupported } from '../../domain/media-types.js';
import { DocumentFailure, HoldLost, type RunContext } from '../context.js';
import { readScan } from '../scans/read-scan.js';
import type { Page, RawPage } from '../page-model.js';

/** docs/api.md: extraction.per_page runs on up to 200 pages. */
export const MAX_PER_PAGE_PAGES = 200;

export async function analyzeDocumentStage(ctx: RunContext): Promise<void> {
  const { doc, store } = ctx;
  if (!isSupported(doc.content_type) || !doc.upload_key) {
    throw new DocumentFailure('unsupported_media_type', `Unsupported type ${doc.content_type || 'unknown'}.`);
  }
  ctx.mediaType = doc.content_type;
  ctx.bytes ??= await store.blobs.get(doc.upload_key);
  const read = await ctx.pool.read(ctx.mediaType, ctx.bytes, ctx.options.analysis, ctx.signal);
  if (!read.ok) throw new DocumentFailure(read.errorType, read.message, { cause: read.detail });
  let pages: Page[];
  if ('pages' in read.value) {
    pages = read.value.pages;
  } else {
    const raw = read.value.raw;
    checkPageCount(ctx, raw.length);
    await ocrPages(ctx, raw);
    const laid = await ctx.pool.layout(raw, ctx.options.analysis, ctx.signal);
    if (!laid.ok) throw new DocumentFailure(laid.errorType, laid.message, { cause: laid.detail });
    pages = laid.value;
  }
  if (pages.length === 0) throw new DocumentFailure('analysis_failed', 'The document has no pages.');
  ctx.pages = pages;
  ctx.pagesRead = pages.length;
  if (pages.length !== doc.page_count) {
    if (!(await ctx.hold.update(store.db, { page_count: pages.length }))) throw new HoldLost();
    doc.page_count = pages.length;
  }
  checkPageCount(ctx, pages.length);
  if (ctx.options.extraction?.per_page && pages.length > MAX_PER_PAGE_PAGES) {
    throw new DocumentFailure(
      'document_too_large',
      `extraction.per_page runs on at most ${MAX_PER_PAGE_PAGES} pages; the document has ${pages.length}.`,
    );
  }
}

function checkPageCount(ctx: RunContext, count: number): void {
  if (count > ctx.plan.max_pages_per_document) {
    throw new DocumentFailure('document_too_large', `The document has ${count} pages; the plan allows at most ${ctx.plan.max_pages_per_document}.`);
  }
}

/**
 * Reads the pages marked for OCR, as many at once as the engine reads, each fetched as a grey
 * picture from a reader thread and dropped once read, so a long scan never sits in memory whole.
 */
async function ocrPages(ctx: RunContext, raw: RawPage[]): Promise<void> {
  const engine = await ctx.ocr();
  const queue = raw.filter((p) => p.textSource === 'ocr');
  const worker = async () => {
    for (let page = queue.shift(); page; page = queue.shift()) {
      const scanned = await ctx.pool.scan(ctx.mediaType!, ctx.bytes!, page, ctx.signal);
      if (!scanned.ok) throw new DocumentFailure(scanned.errorType, scanned.message, { cause: scanned.detail });
      const { image, dpi, unitsPerPixel } = scanned.value;
      let reading;
      try {
        reading = await readScan(engine, image, dpi, unitsPerPixel, ctx.signal);
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        throw new DocumentFailure('analysis_failed', `Page ${page.number} could not be read by OCR.`, { cause: error });
      }
      // Readings beyond the first are logged, so how often a page needs them can be counted.
      if (reading.readings.length > 1) {
        ctx.log.info({ document_id: ctx.doc.id, page: page.number, readings: reading.readings, kept: reading.kept }, 'page read by OCR more than one way');
      }
      Object.assign(page, {
        ...(reading.recovered ? { ocrRecovered: reading.kept } : {}),
        words: reading.words,
        width: reading.width,
        height: reading.height,
        rotation: reading.rotation,
        skew: reading.skew,
        // What is drawn on a scan is in its pixels: the rulings found there replace any vector
        // drawing, which would sit in the frame before turning and straightening.
        graphics: { segments: reading.segments, rects: [], shapes: [], images: [] },
        ...(page.unit === 'px' ? { dpi: reading.dpi } : {}),
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(engine.concurrency, queue.length)) }, worker));
}
