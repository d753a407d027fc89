// Rules of the model layer (docs/api.md "Model choice", picture rule 6, Limits; docs/decisions.md#money): how
// tokens are counted, which tier reads a document, what a model run is estimated to cost before
// it runs, and what it is charged after.
import type { ResolvedOptions } from './option-shapes.js';
import { amountMicro, type Charge, type PriceTable } from './prices.js';
import type { Mode } from './states.js';

export type ModelChoice = 'auto' | 'swift' | 'summit';
export type Tier = 'swift' | 'summit';

/** Context sizes in tokens (docs/api.md: swift about 180k, summit about 900k, auto switches at 150k). */
export const CONTEXT_TOKENS: Record<Tier, number> = { swift: 180_000, summit: 900_000 };
export const AUTO_SWITCH_TOKENS = 150_000;

/** docs/api.md Limits: per-page extraction covers at most 200 pages. */
export const PER_PAGE_MAX_PAGES = 200;

/** docs/api.md picture rule 6: one model request carries at most 20 images and 10 MB. */
export const MAX_PICTURES_PER_REQUEST = 20;
export const MAX_PICTURE_BYTES_PER_REQUEST = 10 * 1024 * 1024;
const PICTURE_TOKEN_CAP = 1_600;

/**
 * Tokens of a text. Folio counts about four characters per token, the usual figure for English
 * with the vendors' tokenizers; it is the same count for every provider, so a price is a price.
 */
export function textTokens(text: string): number {
  return lengthTokens(text.length);
}

/** Tokens of a text of `length` characters (UTF-16 code units), for a text not at hand. */
export function lengthTokens(length: number): number {
  return Math.ceil(length / 4);
}

/** A picture read by the model: about width x height / 750 tokens, at most about 1,600. */
export function pictureTokens(width: number, height: number): number {
  return Math.min(PICTURE_TOKEN_CAP, Math.ceil((width * height) / 750));
}

/**
 * The pictures one request carries (picture rule 6): at most 20 and 10 MB, the largest kept; the
 * rest are counted for the warning. The kept ones stay in document order.
 */
export function picturesForRequest<T extends { width: number; height: number; bytes: { length: number } }>(pictures: readonly T[]): { kept: T[]; leftOut: number } {
  const bySize = [...pictures].sort((a, b) => b.width * b.height - a.width * a.height);
  const chosen = new Set<T>();
  let bytes = 0;
  for (const picture of bySize) {
    if (chosen.size >= MAX_PICTURES_PER_REQUEST) break;
    if (bytes + picture.bytes.length > MAX_PICTURE_BYTES_PER_REQUEST) continue;
    chosen.add(picture);
    bytes += picture.bytes.length;
  }
  return { kept: pictures.filter((p) => chosen.has(p)), leftOut: pictures.length - chosen.size };
}

/**
 * The tier that reads `tokens`, or null when the document is too long for it: `auto` moves to
 * summit past 150k tokens; a pinned tier takes what fits its context.
 */
export function chooseTier(choice: ModelChoice, tokens: number): Tier | null {
  const tier: Tier = choice === 'auto' ? (tokens > AUTO_SWITCH_TOKENS ? 'summit' : 'swift') : choice;
  return tokens <= CONTEXT_TOKENS[tier] ? tier : null;
}

/** Why a text of `tokens` tokens has no tier under `choice`, for the client: the context it passed, and what to try. */
export function contextExceeded(choice: ModelChoice, tokens: number, what: 'document' | 'question'): string {
  const send = what === 'document' ? 'send it' : 'ask';
  if (choice === 'swift') return `The document is about ${tokens} tokens, more than the ${CONTEXT_TOKENS.swift}-token context of model "swift"; ${send} with model "auto" or "summit".`;
  return `The document is about ${tokens} tokens, more than the ${CONTEXT_TOKENS.summit}-token context of model "summit", the largest there is; split it into smaller documents.`;
}

/** `model.used` before the model runs: the tier the choice would take for a short document. */
export function modelLabel(tier: Tier, version: number): string {
  return `svc-${tier}-${version}`;
}

/** The prompt a run sends besides the document, in tokens (one request). */
export function promptTokens(parts: { fields: readonly string[]; schema: unknown; instructions: string | null; questions: readonly string[] }): number {
  // The fixed part is the task description every provider is given; the rest is what the
  // client sent.
  const FIXED = 600;
  const schemaText = parts.schema ? JSON.stringify(parts.schema) : '';
  return FIXED + textTokens(parts.fields.join(', ') + schemaText + (parts.instructions ?? '') + parts.questions.join('\n'));
}

export interface TokenEstimate {
  tier: Tier;
  inputTokens: number;
  outputTokens: number;
}

/**
 * What a model run over a document is expected to read and write, for holding credit: every
 * request's input (document text, pictures, prompt) and at most `maxOutputTokens` written per
 * request.
 */
export function estimateRun(
  options: Pick<ResolvedOptions, 'extraction' | 'queries'>,
  documentTokens: number,
  pages: number,
  tier: Tier,
  maxOutputTokens: number,
): TokenEstimate {
  const extraction = options.extraction;
  const questions = options.queries;
  if (extraction?.per_page) {
    const perPagePrompt = promptTokens({ fields: extraction.fields, schema: extraction.schema, instructions: extraction.instructions, questions: [] });
    let input = documentTokens + pages * perPagePrompt;
    let requests = pages;
    if (questions.length) {
      input += documentTokens + promptTokens({ fields: [], schema: null, instructions: extraction.instructions, questions });
      requests += 1;
    }
    return { tier, inputTokens: input, outputTokens: requests * maxOutputTokens };
  }
  const prompt = promptTokens({
    fields: extraction?.fields ?? [],
    schema: extraction?.schema ?? null,
    instructions: extraction?.instructions ?? null,
    questions,
  });
  return { tier, inputTokens: documentTokens + prompt, outputTokens: maxOutputTokens };
}

/** Most tokens one model request may write. */
export const MAX_OUTPUT_TOKENS_PER_REQUEST = 4_096;

/** Before a document is read, its text is guessed at this many tokens a page. */
export const TOKENS_PER_PAGE_GUESS = 1_000;

export function tokenCharges(
  stage: 'extraction' | 'query',
  tier: Tier,
  model: string,
  tokens: { input: number; output: number },
  prices: PriceTable,
  mode: Mode,
): Charge[] {
  return (['input', 'output'] as const)
    .filter((kind) => tokens[kind] > 0)
    .map((kind) => {
      const sku = `${tier}.${kind}` as const;
      const price = prices[sku];
      return {
        stage,
        sku,
        model,
        quantity: tokens[kind],
        unit_price_micro: price.unit_price_micro,
        unit_divisor: price.unit_divisor,
        amount_micro: mode === 'test' ? 0 : amountMicro(tokens[kind], price),
      };
    });
}

export function tokenCost(estimate: TokenEstimate, prices: PriceTable): number {
  return (
    amountMicro(estimate.inputTokens, prices[`${estimate.tier}.input`]) + amountMicro(estimate.outputTokens, prices[`${estimate.tier}.output`])
  );
}
