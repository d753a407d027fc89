// `finalizing`: the per-page results of the model, the picture rows (their blobs were stored at
// `rendering`), the charges and the `completed` status are written in one transaction that first
// checks the hold: a worker that lost its document writes nothing, so results exist once. The
// pages themselves were stored as they were analysed (page-rows.ts), out of sight until this
// transaction completes the document.
import { fractionBox } from '../../page-outputs/shapes.js';
import { pageCharge } from '../../domain/billing.js';
import { expiresAt } from '../../domain/retention.js';
import { insertImages, updatePage } from '../../store/documents.js';
import { settleDocument } from '../../store/settle.js';
import { HoldLost, type RunContext } from '../context.js';
import * as clock from '../../domain/clock.js';

export async function finalizeDocument(ctx: RunContext, timings: Record<string, number>, startedStage: number): Promise<void> {
  const { store, doc, options } = ctx;
  const pages = ctx.pages!;
  const now = clock.now();
  const pageResults = [...(ctx.model?.pageResults ?? [])];
  const pageSize = new Map(pages.map((p) => [p.number, p]));
  // The pictures' blobs were written at `rendering`; if this transaction does not commit, the
  // run removes them (run.ts).
  const imageRows = ctx.pictures.map((picture) => {
    const page = pageSize.get(picture.request.page)!;
    return {
      id: picture.id,
      document_id: doc.id,
      page_number: picture.request.page,
      kind: picture.request.kind,
      figure_index: picture.request.figureIndex,
      caption: picture.request.caption,
      media_type: picture.mediaType,
      width: picture.width,
      height: picture.height,
      byte_size: picture.byteSize,
      bbox: picture.request.region ? JSON.stringify(fractionBox(picture.request.region, page.width, page.height)) : null,
      blob_key: picture.blobKey,
      created_at: now,
    };
  });
  const charges = [
    pageCharge(pages.length, options, ctx.config.prices, doc.mode),
    ...(ctx.model?.charges ?? []),
    ...(ctx.embeddings ? [ctx.embeddings.charge] : []),
  ];
  await store.writeTransaction(async (tx) => {
    const finishedAt = clock.now();
    timings.finalizing_ms = finishedAt - startedStage;
    const expires = expiresAt(finishedAt, doc.retention_seconds);
    if (!(await ctx.hold.check(tx))) throw new HoldLost();
    // At most 200 pages (extraction.per_page).
    for (const [page, result] of pageResults) await updatePage(tx, doc.id, page, { result: JSON.stringify(result) });
    await insertImages(tx, imageRows);
    const settled = await settleDocument(tx, doc, charges);
    const done = await ctx.hold.finish(tx, {
      status: 'completed',
      stage: 'done',
      // The file's count; with a page selection, fewer pages were read (and charged).
      page_count: options.pages === null ? pages.length : doc.page_count,
      settled_micro: settled,
      hold_micro: 0,
      timings: JSON.stringify(timings),
      completed_at: finishedAt,
      expires_at: expires,
      ...(ctx.model ? { result: JSON.stringify(ctx.model.result), model_used: ctx.model.modelUsed } : {}),
    });
    if (!done) throw new HoldLost();
  });
}
