// `finalizing`: the page outputs (computed at `analyzing`), the pictures stored at `rendering`,
// the charges and the `completed` status are written in one transaction that first checks the
// hold: a worker that lost its document writes nothing, so results exist once.
import { fractionBox } from '../../page-outputs/shapes.js';
import { pageCharge } from '../../domain/billing.js';
import { expiresAt } from '../../domain/retention.js';
import { insertImages, insertPages } from '../../store/documents.js';
import { settleDocument } from '../../store/settle.js';
import { documentOutputs, HoldLost, type RunContext } from '../context.js';
import { packEmbedding } from '../../domain/embedding.js';
import * as clock from '../../domain/clock.js';

export async function finalizeDocument(ctx: RunContext, timings: Record<string, number>, startedStage: number): Promise<void> {
  const { store, doc, options } = ctx;
  const pages = ctx.pages!;
  const now = clock.now();
  const pageResults = ctx.model?.pageResults;
  const embeddings = ctx.embeddings?.pages;
  const pageSize = new Map(pages.map((p) => [p.number, p]));
  const pageRows = documentOutputs(ctx).map((outputs) => ({
    document_id: doc.id,
    page_number: outputs.page,
    text: outputs.text,
    word_count: outputs.wordCount,
    tables: JSON.stringify(outputs.tables),
    key_values: JSON.stringify(outputs.keyValues),
    layout: JSON.stringify(outputs.layout),
    markdown: outputs.markdown,
    result: pageResults?.has(outputs.page) ? JSON.stringify(pageResults.get(outputs.page)) : null,
    embedding: embeddings?.has(outputs.page) ? packEmbedding(embeddings.get(outputs.page)!) : null,
    rotation: pageSize.get(outputs.page)?.rotation ?? 0,
    skew: pageSize.get(outputs.page)?.skew ?? 0,
  }));
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
    await insertPages(tx, pageRows);
    await insertImages(tx, imageRows);
    const settled = await settleDocument(tx, doc, charges);
    const done = await ctx.hold.finish(tx, {
      status: 'completed',
      stage: 'done',
      page_count: pages.length,
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
