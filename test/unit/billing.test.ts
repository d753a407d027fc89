// What is charged when the credit cannot pay for everything (issue 22 point 5): every charge kept
// obeys the formula of docs/decisions.md#money, the total never exceeds what the credit pays, and what is cut is the units
// the credit does not cover.
import { describe, expect, it } from 'vitest';
import { pageCharge, payableCharges } from '../../src/domain/billing.js';
import type { Charge } from '../../src/domain/prices.js';
import { tokenCharges } from '../../src/domain/model.js';
import { embeddingCharge } from '../../src/domain/embedding.js';
import { amountMicro, DEFAULT_PRICES } from '../../src/domain/prices.js';

const prices = DEFAULT_PRICES;
const layout = (pages: number, mode: 'live' | 'test' = 'live') => pageCharge(pages, { analysis: 'layout' }, prices, mode);

function expectFormula(charges: Charge[]): void {
  for (const charge of charges) expect(charge.amount_micro).toBe(amountMicro(charge.quantity, charge));
}

describe('payableCharges (docs/decisions.md#money formula kept when the credit runs short)', () => {
  it('keeps every charge the credit covers as it is', () => {
    const charges = [layout(2), ...tokenCharges('extraction', 'swift', 'svc-swift-1', { input: 1_200, output: 300 }, prices, 'live')];
    expect(payableCharges(charges, 51_200 + 1_500)).toEqual(charges);
  });

  it('charges the whole pages the credit pays for, and leaves the rest uncharged', () => {
    const [paid] = payableCharges([layout(2)], 30_000);
    expect(paid).toMatchObject({ sku: 'pages.layout', quantity: 1, unit_price_micro: 25_000, unit_divisor: 1, amount_micro: 25_000 });
    expect(payableCharges([layout(3)], 75_000 - 1)).toEqual([{ ...layout(2) }]);
  });

  it('records nothing for a charge the credit pays no unit of', () => {
    expect(payableCharges([layout(2)], 10_000)).toEqual([]);
    expect(payableCharges([layout(2)], 0)).toEqual([]);
    expect(payableCharges([layout(2)], -5_000)).toEqual([]);
  });

  it('cuts tokens to those the credit pays for, at a price below a micro-USD a token', () => {
    // embedding.input: 0.02 micro a token, so 7 micro pay for 350 tokens (ceil(350 x 0.02) = 7).
    const [embedding] = payableCharges([embeddingCharge(10_000, 'folio-hashed-ngrams-1', prices, 'live')], 7);
    expect(embedding).toMatchObject({ quantity: 350, amount_micro: 7 });
    // summit.output: 15 micro a token, so 100 micro pay for 6 tokens (90), not 7 (105).
    const [output] = payableCharges(tokenCharges('query', 'summit', 'svc-summit-1', { input: 0, output: 50 }, prices, 'live'), 100);
    expect(output).toMatchObject({ sku: 'summit.output', quantity: 6, amount_micro: 90 });
  });

  it('pays the charges in order: later ones get what the earlier ones leave', () => {
    const charges = [layout(1), ...tokenCharges('extraction', 'swift', 'svc-swift-1', { input: 10_000, output: 2_000 }, prices, 'live')];
    const paid = payableCharges(charges, 25_000 + 10_000 + 4_999);
    expect(paid.map((c) => [c.sku, c.quantity, c.amount_micro])).toEqual([
      ['pages.layout', 1, 25_000],
      ['swift.input', 10_000, 10_000],
      ['swift.output', 999, 4_995],
    ]);
    expectFormula(paid);
  });

  it('never charges more than the credit pays, and every kept charge obeys the formula', () => {
    const charges = [
      layout(7),
      ...tokenCharges('extraction', 'summit', 'svc-summit-1', { input: 123_457, output: 4_096 }, prices, 'live'),
      embeddingCharge(98_765, 'folio-hashed-ngrams-1', prices, 'live'),
    ];
    const full = charges.reduce((sum, c) => sum + c.amount_micro, 0);
    for (const payable of [0, 1, 24_999, 25_000, 174_999, 175_001, 300_000, 555_555, full - 1, full, full + 1]) {
      const paid = payableCharges(charges, payable);
      const total = paid.reduce((sum, c) => sum + c.amount_micro, 0);
      expect(total).toBeLessThanOrEqual(Math.max(0, payable));
      expectFormula(paid);
      for (const charge of paid) expect(charge.quantity).toBeGreaterThan(0);
    }
  });

  it('never cuts test-mode charges (amount 0, real quantities) or free SKUs', () => {
    const test = [layout(4, 'test'), ...tokenCharges('query', 'swift', 'svc-swift-1', { input: 500, output: 20 }, prices, 'test')];
    expect(payableCharges(test, 0)).toEqual(test);
    const free = pageCharge(3, { analysis: 'read' }, { ...prices, 'pages.read': { unit_price_micro: 0, unit_divisor: 1 } }, 'live');
    expect(payableCharges([free], 0)).toEqual([free]);
  });
});
