// What a document costs (DECISIONS D8). Test mode (D3) keeps real quantities at amount 0.
import type { ResolvedOptions } from '../api/schemas/options.js';
import { amountMicro, pageSku, type PriceTable, type SkuName } from './prices.js';
import type { Mode } from './states.js';

export interface Charge {
  stage: 'analysis' | 'extraction' | 'query' | 'embedding';
  sku: SkuName;
  model: string;
  quantity: number;
  unit_price_micro: number;
  unit_divisor: number;
  amount_micro: number;
}

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

/** The credit held at acceptance, or re-sized at `reserving`: the pages at the analysis price. */
export function estimateMicro(pages: number, options: Pick<ResolvedOptions, 'analysis'>, prices: PriceTable, mode: Mode): number {
  return pageCharge(pages, options, prices, mode).amount_micro;
}

/** The model tier a document is read by (SPEC.md "Model choice"). */
export function modelUsed(requested: 'auto' | 'swift' | 'summit', tokens: number): string {
  const tier = requested === 'summit' || (requested === 'auto' && tokens > 150_000) ? 'summit' : 'swift';
  return `svc-${tier}-1`;
}
