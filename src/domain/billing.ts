// What a document costs (docs/decisions.md#money). Test mode (docs/decisions.md#test-mode) keeps real quantities at amount 0.
import type { ResolvedOptions } from './option-shapes.js';
import { amountMicro, pageSku, type Charge, type PriceTable, type SkuPrice } from './prices.js';
import type { Mode } from './states.js';
import { MAX_EMBEDDING_TOKENS_PER_PAGE } from './embedding.js';
import { chooseTier, estimateRun, MAX_OUTPUT_TOKENS_PER_REQUEST, tokenCost, TOKENS_PER_PAGE_GUESS } from './model.js';

/** The reading engine named on page charges. */
export const READER_MODEL = { layout: 'svc-layout-1', read: 'svc-read-1' } as const;

export function pageCharge(pages: number, options: Pick<ResolvedOptions, 'analysis'>, prices: PriceTable, mode: Mode): Charge {
  const sku = pageSku(options.analysis);
  const price = prices[sku];
  return {
    stage: 'analysis',
    sku,
    model: READER_MODEL[options.analysis],
    quantity: pages,
    unit_price_micro: price.unit_price_micro,
    unit_divisor: price.unit_divisor,
    amount_micro: mode === 'test' ? 0 : amountMicro(pages, price),
  };
}

/**
 * What is charged when the credit can pay at most `payable` for `charges`, taken in order. Every
 * usage record obeys the formula of docs/decisions.md#money, so a charge is never cut to an arbitrary amount: one the
 * credit cannot cover in full is charged, and recorded, for the whole units (pages, tokens) the
 * credit does pay for, at the formula; the rest is not charged, so the balance never goes below
 * zero. A charge the credit pays no unit of is not recorded. Test-mode charges (amount 0) and
 * free SKUs are never cut.
 */
export function payableCharges(charges: readonly Charge[], payable: number): Charge[] {
  let left = Math.max(0, payable);
  const paid: Charge[] = [];
  for (const charge of charges) {
    let kept = charge;
    if (charge.amount_micro > left) {
      const quantity = unitsCovered(left, charge);
      kept = { ...charge, quantity, amount_micro: amountMicro(quantity, charge) };
    }
    if (kept.quantity === 0 && charge.quantity > 0) continue;
    left -= kept.amount_micro;
    paid.push(kept);
  }
  return paid;
}

/** The most units whose amount, ceil(units x price / divisor), is at most `micro`. */
function unitsCovered(micro: number, price: SkuPrice): number {
  return Number((BigInt(micro) * BigInt(price.unit_divisor)) / BigInt(price.unit_price_micro));
}

/**
 * The credit held at acceptance, or re-sized at `reserving`: the pages at the analysis price, the
 * tokens the embedding reads (pages and chunks), and when the model runs, the tokens it is expected to read and at
 * most write. Before the document is read its text is guessed from the page count; at
 * `reserving` it is counted.
 */
export function estimateMicro(
  pages: number,
  options: Pick<ResolvedOptions, 'analysis' | 'extraction' | 'queries' | 'model' | 'embeddings'>,
  prices: PriceTable,
  mode: Mode,
  documentTokens: number = pages * TOKENS_PER_PAGE_GUESS,
  // The embedding reads each page's text, then the same text again cut into chunks.
  embeddingTokens: number = pages * (Math.min(TOKENS_PER_PAGE_GUESS, MAX_EMBEDDING_TOKENS_PER_PAGE) + TOKENS_PER_PAGE_GUESS),
): number {
  if (mode === 'test') return 0;
  const pagesMicro = pageCharge(pages, options, prices, mode).amount_micro + (options.embeddings === false ? 0 : amountMicro(embeddingTokens, prices['embedding.input']));
  if (options.extraction === null && options.queries.length === 0) return pagesMicro;
  // A document too long for a pinned swift fails before the model runs; it is held as summit
  // would read it, the most it can cost.
  const tier = chooseTier(options.model, documentTokens) ?? 'summit';
  return pagesMicro + tokenCost(estimateRun(options, documentTokens, pages, tier, MAX_OUTPUT_TOKENS_PER_REQUEST), prices);
}

/** The model tier a document is read by (docs/api.md "Model choice"). */
export function modelUsed(requested: 'auto' | 'swift' | 'summit', tokens: number): string {
  const tier = requested === 'summit' || (requested === 'auto' && tokens > 150_000) ? 'summit' : 'swift';
  return `svc-${tier}-1`;
}
