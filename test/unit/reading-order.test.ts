// Reading order (issue 5 scope 2): the file's drawing order where it reads forwards, else a
// recursive XY-cut; right-to-left pages read their columns from the right.
import { describe, expect, it } from 'vitest';
import { readingOrder, type OrderItem } from '../../src/pipeline/analysis/reading-order.js';

const item = (ref: number, x0: number, y0: number, x1: number, y1: number, streamRank: number | null, lineCount = 3): OrderItem => ({
  ref,
  box: { x0, y0, x1, y1 },
  lineCount,
  streamRank,
});
const order = (items: OrderItem[], rtl = false) => readingOrder(items, 10, rtl, 792).map((i) => i.ref);

describe('readingOrder', () => {
  it('follows the drawing order when it never goes back up a column, even against geometry', () => {
    // A formula piece (2) drawn between two lines sits a little to the right and overlaps both.
    const items = [item(0, 72, 100, 300, 140, 0), item(1, 72, 150, 540, 190, 20), item(2, 320, 120, 400, 160, 10, 1)];
    expect(order(items)).toEqual([0, 2, 1]);
  });

  it('cuts columns apart when the drawing order goes back up a column, or up and leftwards', () => {
    // Two columns of two blocks: 0 above 2 on the left, 1 above 3 on the right.
    const at = (ranks: number[]) => [item(0, 72, 100, 290, 300, ranks[0]), item(1, 320, 100, 540, 300, ranks[1]), item(2, 72, 320, 290, 500, ranks[2]), item(3, 320, 320, 540, 500, ranks[3])];
    // Drawn 0, 2, 3, 1: from 3 back up to 1 in the right column.
    expect(order(at([0, 3, 1, 2]))).toEqual([0, 2, 1, 3]);
    // Drawn right column first: from 3 up and leftwards to 0.
    expect(order(at([2, 0, 3, 1]))).toEqual([0, 2, 1, 3]);
    // Drawn as read: kept.
    expect(order(at([0, 2, 1, 3]))).toEqual([0, 2, 1, 3]);
  });

  it('reads the columns of a right-to-left page from the right', () => {
    const items = [item(0, 72, 100, 290, 500, 1), item(1, 320, 100, 540, 500, 0)];
    const upwards = [item(0, 72, 100, 290, 500, null), item(1, 320, 100, 540, 500, null)];
    expect(order(upwards, true)).toEqual([1, 0]);
    expect(order(items, true)).toEqual([1, 0]);
  });

  it('places items without text (figures) where the geometry puts them among the text', () => {
    const items = [item(0, 72, 100, 540, 140, 0), item(1, 72, 400, 540, 440, 5), item(2, 72, 160, 540, 380, null, 0)];
    expect(order(items)).toEqual([0, 2, 1]);
  });
});
