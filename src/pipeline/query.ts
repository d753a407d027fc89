// One question asked of a completed document after submission (docs/decisions.md#queries): the model reads the
// document's stored page outputs (nothing is read from the file again), the answer goes through
// the grounding check, and its tokens are charged with stage `query` and the query's id. A
// question the credit cannot cover fails with insufficient_credits and nothing is charged.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import {
  chooseTier,
  contextExceeded,
  MAX_OUTPUT_TOKENS_PER_REQUEST,
  modelLabel,
  pictureTokens,
  picturesForRequest,
  promptTokens,
  tokenCharges,
  tokenCost,
  type ModelChoice,
} from '../domain/model.js';
import type { DocumentErrorType } from '../domain/states.js';
import { isExpired } from '../domain/retention.js';
import { modelProvider, MODEL_VERSION } from '../models/llm/index.js';
import { ModelUnavailable, type JsonSchema, type ModelPicture, type ModelReply } from '../models/llm/types.js';
import { getPages, holdCredit, listImages, releaseHeld } from '../store/documents.js';
import type { Store } from '../store/index.js';
import type { QueryRow } from '../store/queries.js';
import { settleDocument } from '../store/settle.js';
import * as clock from '../domain/clock.js';
import { PageTexts } from './extraction/grounding.js';
import type { FractionBox } from '../page-outputs/shapes.js';
import { conform, groundAnswer } from './extraction/result.js';
import type { QueryHold } from './hold.js';
import { outputsFromRow } from '../page-outputs/shapes.js';
import { documentTokens } from './stages/extracting.js';

export interface QueryContext {
  store: Store;
  config: Config;
  log: FastifyBaseLogger;
  /** The worker's hold on the question's row: every write goes through it. */
  hold: QueryHold;
  query: QueryRow;
  signal: AbortSignal;
}

/** docs/api.md QueryAnswer. */
export interface QueryAnswer {
  answer: unknown;
  citations: { page: number; quote: string; bbox?: FractionBox }[];
  confidence: number;
  not_found: boolean;
}

type QueryErrorType = Extract<DocumentErrorType, 'insufficient_credits' | 'document_too_large' | 'schema_mismatch'> | 'document_expired' | 'query_failed';

/** `message` is the client's, in Folio's words; a vendor's own words go in `cause`, for the log. */
class QueryFailure extends Error {
  constructor(
    readonly type: QueryErrorType,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export type QueryOutcome = 'completed' | 'failed' | 'hold_lost';

/** What a question about a document of `documentTokens` tokens is held at before it runs. */
export function estimateQueryMicro(query: Pick<QueryRow, 'question' | 'instructions' | 'schema' | 'model_requested'>, tokens: number, config: Config): number {
  const schema = query.schema ? (JSON.parse(query.schema) as JsonSchema) : null;
  const input = tokens + promptTokens({ fields: [], schema, instructions: query.instructions, questions: [query.question] });
  const tier = chooseTier(query.model_requested as ModelChoice, input) ?? 'summit';
  return tokenCost({ tier, inputTokens: input, outputTokens: MAX_OUTPUT_TOKENS_PER_REQUEST }, config.prices);
}

export async function runQuery(ctx: QueryContext): Promise<QueryOutcome> {
  try {
    return await answer(ctx);
  } catch (error) {
    if (!(error instanceof QueryFailure)) throw error;
    return fail(ctx, error);
  }
}

async function answer(ctx: QueryContext): Promise<QueryOutcome> {
  const { store, query, config } = ctx;
  const doc = await store.db.selectFrom('documents').selectAll().where('id', '=', query.document_id).executeTakeFirst();
  if (!doc || doc.status !== 'completed' || isExpired(doc, clock.now())) {
    throw new QueryFailure('document_expired', 'The document was deleted or its retention period ended before the question was answered.');
  }
  const outputs = (await getPages(store.db, doc.id, 1, doc.page_count)).map(outputsFromRow);
  const schema = query.schema ? (JSON.parse(query.schema) as JsonSchema) : null;
  const provider = modelProvider(config.model, query.mode);
  const carried = provider.readsPictures ? await storedPictures(store, doc.id, doc.page_count) : [];
  const tokens = documentTokens(outputs) + carried.reduce((sum, p) => sum + pictureTokens(p.width, p.height), 0);
  const input = tokens + promptTokens({ fields: [], schema, instructions: query.instructions, questions: [query.question] });
  const tier = chooseTier(query.model_requested as ModelChoice, input);
  if (!tier) {
    throw new QueryFailure('document_too_large', contextExceeded(query.model_requested as ModelChoice, input, 'question'));
  }

  // The hold taken at creation guessed the document's length; it is made whole now, and a
  // question the credit cannot cover fails here, charged nothing.
  if (query.mode === 'live') {
    const needed = estimateQueryMicro(query, tokens, config);
    const covered = await store.writeTransaction(async (tx) => {
      const delta = needed - query.hold_micro;
      if (delta > 0 && !(await holdCredit(tx, query.workspace_id, delta))) return false;
      if (delta < 0) await releaseHeld(tx, query.workspace_id, -delta);
      if (!(await ctx.hold.update(tx, { hold_micro: needed }))) return null;
      return true;
    });
    if (covered === null) return 'hold_lost';
    if (!covered) throw new QueryFailure('insufficient_credits', `The question is estimated at ${needed} micro-USD, more than the available credit.`);
    query.hold_micro = needed;
  }

  let reply: ModelReply;
  try {
    reply = await provider.run({
      tier,
      pages: outputs,
      fields: [],
      schema: null,
      instructions: query.instructions,
      questions: [{ question: query.question, schema }],
      pictures: carried,
      maxOutputTokens: MAX_OUTPUT_TOKENS_PER_REQUEST,
      signal: ctx.signal,
    });
  } catch (error) {
    if (error instanceof ModelUnavailable) throw new QueryFailure('query_failed', error.message, { cause: error.cause });
    throw error;
  }
  const grounded = groundAnswer(reply.answers[0], new PageTexts(outputs), schema !== null).answer;
  let value = grounded.answer;
  if (schema && !grounded.not_found) {
    const conformed = conform(value as Record<string, unknown>, schema);
    if (!conformed) throw new QueryFailure('schema_mismatch', 'The answer could not be made to follow the schema.');
    value = conformed;
  }
  const result: QueryAnswer = { answer: value, citations: grounded.citations, confidence: grounded.confidence, not_found: grounded.not_found };

  const modelUsed = modelLabel(tier, MODEL_VERSION);
  const usage = { input: reply.usage.inputTokens, output: Math.min(reply.usage.outputTokens, MAX_OUTPUT_TOKENS_PER_REQUEST) };
  const charges = tokenCharges('query', tier, modelUsed, usage, config.prices, query.mode);
  const done = await store.writeTransaction(async (tx) => {
    if (!(await ctx.hold.check(tx))) return false;
    const settled = await settleDocument(tx, { id: query.document_id, workspace_id: query.workspace_id, mode: query.mode, hold_micro: query.hold_micro }, charges, query.id);
    return ctx.hold.finish(tx, {
      status: 'completed',
      answer: JSON.stringify(result),
      model_used: modelUsed,
      settled_micro: settled,
      hold_micro: 0,
      completed_at: clock.now(),
    });
  });
  return done ? 'completed' : 'hold_lost';
}

/** The document's stored pictures a request carries (picture rule 6), read from the blob store. */
async function storedPictures(store: Store, documentId: string, pages: number): Promise<ModelPicture[]> {
  const rows = await listImages(store.db, documentId, 1, pages);
  const { kept } = picturesForRequest(rows.map((row) => ({ row, width: row.width, height: row.height, bytes: { length: row.byte_size } })));
  return Promise.all(
    kept.map(async ({ row }) => ({
      page: row.page_number,
      mediaType: row.media_type,
      width: row.width,
      height: row.height,
      bytes: await store.blobs.get(row.blob_key),
      caption: row.caption,
    })),
  );
}

async function fail(ctx: QueryContext, failure: QueryFailure): Promise<QueryOutcome> {
  const { query } = ctx;
  if (failure.cause !== undefined) ctx.log.warn({ query_id: query.id, document_id: query.document_id, error_type: failure.type, detail: failure.cause }, 'query failed');
  const done = await ctx.store.writeTransaction(async (tx) => {
    if (!(await ctx.hold.check(tx))) return false;
    await settleDocument(tx, { id: query.document_id, workspace_id: query.workspace_id, mode: query.mode, hold_micro: query.hold_micro }, [], query.id);
    return ctx.hold.finish(tx, {
      status: 'failed',
      error_type: failure.type,
      error_message: failure.message,
      settled_micro: 0,
      hold_micro: 0,
      failed_at: clock.now(),
    });
  });
  return done ? 'failed' : 'hold_lost';
}

/** A query that keeps stopping its worker, or meets an unexpected error, fails as query_failed. */
export function giveUpQuery(ctx: QueryContext, message: string): Promise<QueryOutcome> {
  return fail(ctx, new QueryFailure('query_failed', message));
}
