// Reading order (issue 5 scope 2): the file's drawing order where it reads forwards, else a
// recursive XY-cut; right-to-left pages read their columns from the right.
import { describe, expect, it } from 'vitest';
import { readingOrder, type OrderItem } from '../../src/pipeline/reading-order.js';

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

  it('leaves labels of a drawing out of the test: one drawn up the page does not cost the page its drawing order', () => {
    // A paragraph (0), then the labels of a plot the figure finder missed, drawn bottom to top
    // ("1" at y 300, then "0" above it at y 250), then a caption (3) and a paragraph (4).
    const items = [item(0, 72, 100, 540, 200, 0), item(1, 250, 300, 258, 310, 10, 1), item(2, 250, 250, 258, 260, 11, 1), item(3, 72, 320, 540, 335, 12, 1), item(4, 72, 350, 540, 450, 20)];
    expect(order(items)).toEqual([0, 1, 2, 3, 4]);
    // A wider block drawn up the page still makes the order untrusted: geometry decides.
    const wide = [item(0, 72, 100, 540, 200, 0), item(1, 72, 300, 540, 310, 10, 1), item(2, 72, 250, 540, 260, 11, 1), item(3, 72, 350, 540, 450, 20)];
    expect(order(wide)).toEqual([0, 2, 1, 3]);
  });

  it('does not take a sliver of overlap for one row: a heading under a tall formula on its right follows it', () => {
    // As in the GeoTopo book (page 34): a matrix's parentheses reach 2 points into the line of
    // "Beispiel 24", set at the left margin under it and drawn after it.
    const items = [item(0, 72, 100, 540, 200, 0), item(1, 242, 210, 377, 457, 10), item(2, 90, 455, 149, 469, 20, 1), item(3, 72, 470, 540, 560, 30)];
    expect(order(items)).toEqual([0, 1, 2, 3]);
  });

  it('reads a short line at the margin, level with the bottom of a display formula drawn before it, as the next line', () => {
    // As in the GeoTopo book (page 84): "… von den Matrizen" (0), the matrices with their labels
    // under braces (1, 71 points tall), then "erzeugt." (2) at the margin, level with those labels.
    const items = [item(0, 131, 319, 292, 334, 0, 1), item(1, 220, 337, 455, 408, 10), item(2, 147, 396, 184, 410, 20, 1), item(3, 132, 417, 262, 432, 30, 1)];
    expect(order(items)).toEqual([0, 1, 2, 3]);
    // A whole paragraph there, drawn after the block beside it, is another column: not trusted.
    const paragraph = [item(0, 72, 100, 540, 200, 0), item(1, 320, 210, 540, 400, 10), item(2, 72, 330, 290, 410, 20, 5), item(3, 72, 420, 540, 500, 30)];
    expect(order(paragraph)).toEqual([0, 2, 1, 3]);
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

  it('trusts the drawing order again inside each part of a page whose whole drawing order walks backwards', () => {
    // Top: a formula whose raised piece (2), drawn between two lines, starts a little higher than
    // the line before it (0); geometry alone would read it first. Below: two columns drawn right
    // column first, so the page as a whole is cut; the formula keeps its drawing order.
    const items = [
      item(0, 72, 100, 300, 140, 0),
      item(1, 72, 150, 540, 190, 2),
      item(2, 320, 95, 400, 160, 1, 1),
      item(3, 72, 250, 290, 400, 30),
      item(4, 320, 250, 540, 320, 10),
      item(5, 320, 330, 540, 400, 20),
    ];
    expect(order(items)).toEqual([0, 2, 1, 3, 4, 5]);
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
