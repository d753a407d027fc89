// `analyzing`: the format reader and the layout analysis, in a reader thread.
import { isSupported } from '../../domain/media-types.js';
import { updateHeld } from '../../queue/leases.js';
import { DocumentFailure, LeaseLost, type RunContext } from '../context.js';

/** SPEC.md: extraction.per_page runs on up to 200 pages. */
export const MAX_PER_PAGE_PAGES = 200;

export async function analyzeDocumentStage(ctx: RunContext): Promise<void> {
  const { doc, store } = ctx;
  if (!isSupported(doc.content_type) || !doc.upload_key) {
    throw new DocumentFailure('unsupported_media_type', `Unsupported type ${doc.content_type || 'unknown'}.`);
  }
  ctx.mediaType = doc.content_type;
  ctx.bytes ??= await store.blobs.get(doc.upload_key);
  const outcome = await ctx.pool.analyze(ctx.mediaType, ctx.bytes, ctx.options.analysis, ctx.signal);
  if (!outcome.ok) throw new DocumentFailure(outcome.errorType, outcome.message);
  const pages = outcome.value;
  if (pages.length === 0) throw new DocumentFailure('analysis_failed', 'The document has no pages.');
  ctx.pages = pages;
  ctx.pagesRead = pages.length;
  if (pages.length !== doc.page_count) {
    if (!(await updateHeld(store.db, ctx.lease, { page_count: pages.length }))) throw new LeaseLost();
    doc.page_count = pages.length;
  }
  if (pages.length > ctx.plan.max_pages_per_document) {
    throw new DocumentFailure(
      'document_too_large',
      `The document has ${pages.length} pages; the plan allows at most ${ctx.plan.max_pages_per_document}.`,
    );
  }
  if (ctx.options.extraction?.per_page && pages.length > MAX_PER_PAGE_PAGES) {
    throw new DocumentFailure(
      'document_too_large',
      `extraction.per_page runs on at most ${MAX_PER_PAGE_PAGES} pages; the document has ${pages.length}.`,
    );
  }
}
