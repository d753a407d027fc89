// Prices (docs/decisions.md#money). Amounts are integers in micro-USD; quantities are pages or tokens.
// The product quantity x price can exceed 2^53 for large token counts, so it is done in BigInt.

export interface SkuPrice {
  unit_price_micro: number;
  unit_divisor: number;
}

export const DEFAULT_PRICES = {
  'pages.layout': { unit_price_micro: 25_000, unit_divisor: 1 },
  'pages.read': { unit_price_micro: 4_000, unit_divisor: 1 },
  'swift.input': { unit_price_micro: 1_000_000, unit_divisor: 1_000_000 },
  'swift.output': { unit_price_micro: 5_000_000, unit_divisor: 1_000_000 },
  'summit.input': { unit_price_micro: 3_000_000, unit_divisor: 1_000_000 },
  'summit.output': { unit_price_micro: 15_000_000, unit_divisor: 1_000_000 },
  'embedding.input': { unit_price_micro: 20_000, unit_divisor: 1_000_000 },
} satisfies Record<string, SkuPrice>;

export type SkuName = keyof typeof DEFAULT_PRICES;
export type PriceTable = Record<SkuName, SkuPrice>;

/** One priced line of what a document or a query costs, as its usage record stores it. */
export interface Charge {
  stage: 'analysis' | 'extraction' | 'query' | 'embedding';
  sku: SkuName;
  model: string;
  quantity: number;
  unit_price_micro: number;
  unit_divisor: number;
  amount_micro: number;
}

/** `amount_micro = ceil(quantity x unit_price_micro / unit_divisor)`. */
export function amountMicro(quantity: number, price: SkuPrice): number {
  if (quantity <= 0) return 0;
  const numerator = BigInt(Math.round(quantity)) * BigInt(price.unit_price_micro);
  const divisor = BigInt(price.unit_divisor);
  const ceil = (numerator + divisor - 1n) / divisor;
  return Number(ceil);
}

export function pageSku(analysis: 'layout' | 'read'): SkuName {
  return analysis === 'layout' ? 'pages.layout' : 'pages.read';
}

/**
 * Reads price overrides such as `{"pages.layout": {"unit_price_micro": 20000}}` over the defaults.
 * Unknown SKUs, negative prices and divisors below 1 are refused; a price of 0 makes a SKU free.
 */
export function priceTable(overrides: unknown): PriceTable {
  const table: PriceTable = structuredClone(DEFAULT_PRICES);
  if (overrides === undefined || overrides === null) return table;
  if (typeof overrides !== 'object') throw new Error('prices must be a JSON object');
  for (const [sku, value] of Object.entries(overrides as Record<string, unknown>)) {
    if (!Object.hasOwn(table, sku)) throw new Error(`unknown SKU in prices: ${sku}`);
    if (typeof value !== 'object' || value === null) throw new Error(`prices.${sku} must be an object`);
    const entry = value as Partial<SkuPrice>;
    for (const key of ['unit_price_micro', 'unit_divisor'] as const) {
      if (entry[key] === undefined) continue;
      if (!Number.isSafeInteger(entry[key]) || (entry[key] as number) < (key === 'unit_divisor' ? 1 : 0)) {
        throw new Error(`prices.${sku}.${key} must be a non-negative integer`);
      }
      table[sku as SkuName][key] = entry[key] as number;
    }
  }
  return table;
}
