// `finalizing`: every output is computed from the page model (once, shared with `extracting`),
// pictures are stored, and the results, the charges and the `completed` status are written in
// one transaction that first checks the hold: a worker that lost its document writes nothing, so
// results exist once.
import { fractionBox } from '../../page-outputs/shapes.js';
import { newId } from '../../domain/ids.js';
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
  const imageRows = ctx.pictures.map((picture) => {
    const id = newId('img');
    const extension = picture.mediaType === 'image/png' ? 'png' : 'jpg';
    const page = pageSize.get(picture.request.page)!;
    return {
      row: {
        id,
        document_id: doc.id,
        page_number: picture.request.page,
        kind: picture.request.kind,
        figure_index: picture.request.figureIndex,
        caption: picture.request.caption,
        media_type: picture.mediaType,
        width: picture.width,
        height: picture.height,
        byte_size: picture.bytes.byteLength,
        bbox: picture.request.region ? JSON.stringify(fractionBox(picture.request.region, page.width, page.height)) : null,
        blob_key: `images/${doc.id}/${id}.${extension}`,
        created_at: now,
      },
      bytes: picture.bytes,
    };
  });
  // Blobs first, under fresh ids: if one of them cannot be written, or the transaction below
  // finds the hold gone, the ones written are removed and nothing refers to them.
  const removeWritten = () => Promise.all(imageRows.map((image) => store.blobs.delete(image.row.blob_key).catch(() => undefined)));
  const written = await Promise.allSettled(imageRows.map((image) => store.blobs.put(image.row.blob_key, Buffer.from(image.bytes))));
  const failedWrite = written.find((w): w is PromiseRejectedResult => w.status === 'rejected');
  if (failedWrite) {
    await removeWritten();
    throw failedWrite.reason;
  }
  const charges = [
    pageCharge(pages.length, options, ctx.config.prices, doc.mode),
    ...(ctx.model?.charges ?? []),
    ...(ctx.embeddings ? [ctx.embeddings.charge] : []),
  ];
  try {
    await store.writeTransaction(async (tx) => {
      const finishedAt = clock.now();
      timings.finalizing_ms = finishedAt - startedStage;
      const expires = expiresAt(finishedAt, doc.retention_seconds);
      if (!(await ctx.hold.check(tx))) throw new HoldLost();
      await insertPages(tx, pageRows);
      await insertImages(tx, imageRows.map((image) => image.row));
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
  } catch (error) {
    await removeWritten();
    throw error;
  }
}
