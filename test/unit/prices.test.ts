import { describe, expect, it } from 'vitest';
import { amountMicro, DEFAULT_PRICES, pageSku, priceTable } from '../../src/domain/prices.js';

describe('amountMicro (docs/decisions.md#money: ceil(quantity x unit_price_micro / unit_divisor))', () => {
  it('docs/decisions.md#money: 3 pages of layout cost 3 x 25000 = 75000', () => {
    expect(amountMicro(3, DEFAULT_PRICES['pages.layout'])).toBe(75_000);
  });

  it('docs/decisions.md#money: read pages cost 4000 each', () => {
    expect(amountMicro(1, DEFAULT_PRICES['pages.read'])).toBe(4_000);
    expect(amountMicro(3, DEFAULT_PRICES['pages.read'])).toBe(12_000);
  });

  it('docs/decisions.md#money: pageSku maps analysis to the page SKU', () => {
    expect(pageSku('layout')).toBe('pages.layout');
    expect(pageSku('read')).toBe('pages.read');
  });

  it('docs/decisions.md#money: one swift.input token costs 1 micro-USD (exactly 1, not rounded down)', () => {
    expect(amountMicro(1, DEFAULT_PRICES['swift.input'])).toBe(1);
  });

  it('docs/decisions.md#money: fractions of a micro-USD are rounded up (ceil)', () => {
    // embedding.input: 20000 / 1e6 = 0.02 micro per token.
    expect(amountMicro(1, DEFAULT_PRICES['embedding.input'])).toBe(1);
    expect(amountMicro(50, DEFAULT_PRICES['embedding.input'])).toBe(1);
    expect(amountMicro(51, DEFAULT_PRICES['embedding.input'])).toBe(2);
    expect(amountMicro(100, DEFAULT_PRICES['embedding.input'])).toBe(2);
    // summit.output: 15 micro per token, exact.
    expect(amountMicro(7, DEFAULT_PRICES['summit.output'])).toBe(105);
  });

  it('docs/decisions.md#money: 1,500,000 tokens at 1,000,000 / 1,000,000 cost 1,500,000', () => {
    expect(amountMicro(1_500_000, { unit_price_micro: 1_000_000, unit_divisor: 1_000_000 })).toBe(1_500_000);
  });

  it('docs/decisions.md#money: quantities whose product with the price exceeds 2^53 stay exact', () => {
    // Plain floating point gets each of these one too high.
    const cases: [number, keyof typeof DEFAULT_PRICES, number][] = [
      [1_000_000_000_036, 'summit.input', 3_000_000_000_108],
      [1_000_000_000_120, 'swift.output', 5_000_000_000_600],
      [1_000_000_000_400, 'summit.output', 15_000_000_006_000],
    ];
    for (const [quantity, sku, expected] of cases) {
      const price = DEFAULT_PRICES[sku];
      expect(quantity * price.unit_price_micro).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
      expect(Math.ceil((quantity * price.unit_price_micro) / price.unit_divisor)).not.toBe(expected);
      expect(amountMicro(quantity, price)).toBe(expected);
    }
  });

  it('docs/decisions.md#money: zero quantity costs nothing', () => {
    for (const price of Object.values(DEFAULT_PRICES)) expect(amountMicro(0, price)).toBe(0);
  });
});

describe('priceTable (docs/decisions.md#money: prices are configurable)', () => {
  it('returns the docs/decisions.md#money defaults without overrides', () => {
    expect(priceTable(undefined)).toEqual(DEFAULT_PRICES);
    expect(priceTable(null)).toEqual(DEFAULT_PRICES);
  });

  it('applies overrides over the defaults and leaves the rest alone', () => {
    const table = priceTable({ 'pages.layout': { unit_price_micro: 20_000 }, 'embedding.input': { unit_divisor: 500_000 } });
    expect(table['pages.layout']).toEqual({ unit_price_micro: 20_000, unit_divisor: 1 });
    expect(table['embedding.input']).toEqual({ unit_price_micro: 20_000, unit_divisor: 500_000 });
    expect(table['pages.read']).toEqual(DEFAULT_PRICES['pages.read']);
    expect(amountMicro(3, table['pages.layout'])).toBe(60_000);
  });

  it('does not change the shared defaults', () => {
    priceTable({ 'pages.read': { unit_price_micro: 1 } });
    expect(DEFAULT_PRICES['pages.read'].unit_price_micro).toBe(4_000);
  });

  it('rejects an unknown SKU', () => {
    expect(() => priceTable({ 'pages.layuot': { unit_price_micro: 1 } })).toThrow(/unknown SKU in prices: pages\.layuot/);
  });

  it('rejects negative, fractional and non-numeric values', () => {
    expect(() => priceTable({ 'pages.layout': { unit_price_micro: -1 } })).toThrow(/pages\.layout\.unit_price_micro/);
    expect(() => priceTable({ 'pages.layout': { unit_price_micro: 1.5 } })).toThrow(/unit_price_micro/);
    expect(() => priceTable({ 'pages.layout': { unit_price_micro: '25000' } })).toThrow(/unit_price_micro/);
    expect(() => priceTable({ 'swift.input': { unit_divisor: -5 } })).toThrow(/swift\.input\.unit_divisor/);
  });

  it('rejects a zero divisor', () => {
    expect(() => priceTable({ 'swift.input': { unit_divisor: 0 } })).toThrow(/unit_divisor/);
  });

  it('rejects a non-object', () => {
    expect(() => priceTable('cheap')).toThrow(/JSON object/);
  });

  // Source bug (reported): the unknown-SKU check is `sku in table`, which is also true for names
  // inherited from Object.prototype, so "constructor" (or "__proto__") is taken as a SKU and the
  // override is written onto Object (or Object.prototype) instead of being refused.
  it('refuses SKU names inherited from Object.prototype', () => {
    try {
      expect(() => priceTable(JSON.parse('{"constructor": {"unit_price_micro": 5}}'))).toThrow(/unknown SKU/);
    } finally {
      delete (Object as unknown as Record<string, unknown>).unit_price_micro;
    }
  });
});
