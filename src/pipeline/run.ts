// The order of work for one claimed document (docs/api.md "Stage order while processing"):
// received, fetching (URL only), analyzing, rendering, reserving, extracting, embedding,
// finalizing, done. Steps with nothing to do are skipped. Each stage is recorded on the document
// (`stage`, `timings.<stage>_ms`) as it starts and ends.
import { setMaxListeners } from 'node:events';
import { pageCharge } from '../domain/billing.js';
import { modelRuns } from '../domain/options.js';
import type { Stage } from '../domain/states.js';
import { settleDocument } from '../store/settle.js';
import { deletePages } from '../store/documents.js';
import { DocumentFailure, HoldLost, type RunContext } from './context.js';
import { analyzeDocumentStage } from './stages/analyzing.js';
import { fetchDocument } from './stages/fetching.js';
import { finalizeDocument } from './stages/finalizing.js';
import { discardPictures, renderPictures } from './stages/rendering.js';
import { reserveCredit } from './stages/reserving.js';
import { extractDocument } from './stages/extracting.js';
import { embedDocument } from './stages/embedding.js';
import * as clock from '../domain/clock.js';
import { workMetrics } from '../metrics.js';

export type RunOutcome = 'completed' | 'failed' | 'hold_lost';

/** Pages counted for the time limit of a document whose length is not known yet. */
const TIME_LIMIT_MIN_PAGES = 50;

export async function runDocument(outer: RunContext): Promise<RunOutcome> {
  // A hostile or broken file must not hold a worker forever: past its time limit the reader
  // threads working on it are stopped and the document fails.
  const limitMs = outer.config.queue.timeLimitBaseMs + outer.config.queue.timeLimitPerPageMs * Math.max(outer.doc.page_count, TIME_LIMIT_MIN_PAGES);
  const deadline = AbortSignal.timeout(limitMs);
  const signal = AbortSignal.any([outer.signal, deadline]);
  // Every reader task of the document listens to it: a long document has dozens at once.
  setMaxListeners(0, signal);
  const ctx: RunContext = { ...outer, signal };
  const { doc } = ctx;
  const timings: Record<string, number> = JSON.parse(doc.timings);
  let current: Stage = doc.stage as Stage;

  const enter = async (stage: Stage) => {
    current = stage;
    if (!(await ctx.hold.update(ctx.store.db, { stage, timings: JSON.stringify(timings) }))) throw new HoldLost();
  };
  const step = async (stage: Stage, work: () => Promise<void>) => {
    await enter(stage);
    const started = clock.now();
    await work();
    timings[`${stage}_ms`] = clock.now() - started;
    workMetrics.stageDuration.observe({ stage }, timings[`${stage}_ms`] / 1000);
  };

  try {
    if (doc.source_url && !doc.upload_key) await step('fetching', () => fetchDocument(ctx));
    await step('analyzing', () => analyzeDocumentStage(ctx));
    // Pictures of pages already analysed were started while the rest were read; this is what remains.
    if ((ctx.pictureWork?.count ?? 0) > 0) await step('rendering', () => renderPictures(ctx));
    if (doc.mode === 'live') await step('reserving', () => reserveCredit(ctx));
    if (modelRuns(ctx.options)) {
      await step('extracting', () => extractDocument(ctx));
    }
    if (ctx.options.embeddings !== false) await step('embedding', () => embedDocument(ctx));
    await enter('finalizing');
    await finalizeDocument(ctx, timings, clock.now());
    workMetrics.pages.inc({ analysis: ctx.options.analysis }, ctx.pages?.length ?? 0);
    workMetrics.finished.inc({ outcome: 'completed' });
    return 'completed';
  } catch (error) {
    await discardPictures(ctx);
    if (error instanceof HoldLost) return 'hold_lost';
    if (deadline.aborted && !outer.signal.aborted) {
      const failure = new DocumentFailure('analysis_failed', `Processing took longer than the ${Math.round(limitMs / 1000)} s time limit for this document; it was stopped.`);
      return (await failDocument(ctx, failure, current, timings)) ? 'failed' : 'hold_lost';
    }
    if (!(error instanceof DocumentFailure)) throw error;
    return (await failDocument(ctx, error, current, timings)) ? 'failed' : 'hold_lost';
  }
}

/** Records the failure and charges only the work done before it (at most what the credit pays for: store/settle.ts). */
async function failDocument(ctx: RunContext, failure: DocumentFailure, stage: Stage, timings: Record<string, number>): Promise<boolean> {
  const { doc } = ctx;
  workMetrics.finished.inc({ outcome: 'failed' });
  // The client reads Folio's message; what an engine said is kept here, under the document id.
  const cause = failure.cause instanceof Error ? { err: failure.cause } : failure.cause !== undefined ? { detail: failure.cause } : {};
  ctx.log.warn({ document_id: doc.id, error_type: failure.type, stage, ...cause }, 'document failed');
  const charges = [...(ctx.pagesRead > 0 ? [pageCharge(ctx.pagesRead, ctx.options, ctx.config.prices, doc.mode)] : []), ...(ctx.model?.charges ?? [])];
  return ctx.store.writeTransaction(async (tx) => {
    if (!(await ctx.hold.check(tx))) return false;
    // Pages stored while it was read (page-rows.ts): a failed document has none.
    await deletePages(tx, doc.id);
    const settled = await settleDocument(tx, doc, charges);
    return ctx.hold.finish(tx, {
      status: 'failed',
      stage,
      error_type: failure.type,
      error_message: failure.message,
      error_stage: stage,
      failed_at: clock.now(),
      settled_micro: settled,
      hold_micro: 0,
      timings: JSON.stringify(timings),
    });
  });
}

/** A document that keeps killing its worker, or meets a fault in Folio's own code, is failed instead of claimed again. */
export async function giveUp(ctx: Pick<RunContext, 'store' | 'hold' | 'doc'>, message: string): Promise<void> {
  await ctx.store.writeTransaction(async (tx) => {
    if (!(await ctx.hold.check(tx))) return;
    await deletePages(tx, ctx.doc.id);
    await settleDocument(tx, ctx.doc, []);
    await ctx.hold.finish(tx, {
      status: 'failed',
      error_type: 'processing_failed',
      error_message: message,
      error_stage: ctx.doc.stage,
      failed_at: clock.now(),
      settled_micro: 0,
      hold_micro: 0,
    });
  });
}
