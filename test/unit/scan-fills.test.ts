// Cell fills found in a scanned page's picture (scans/fills.ts): a table's tinted header band and
// striped row come back as filled rectangles where they are drawn, under uneven light and noise,
// and text on paper makes none.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { tintedFills } from '../../src/pipeline/scans/fills.js';

const WIDTH = 1700;
const HEIGHT = 1100;

/** A 200 dpi page: lines of text at `rows` (y of each baseline), with the given fills drawn under their text, lit unevenly and spoiled by noise. */
async function page(fills: { x0: number; y0: number; x1: number; y1: number; grey: number }[], rows: number[]): Promise<{ width: number; height: number; data: Uint8Array }> {
  const rects = fills.map((f) => `<rect x="${f.x0}" y="${f.y0}" width="${f.x1 - f.x0}" height="${f.y1 - f.y0}" fill="rgb(${f.grey},${f.grey},${f.grey})"/>`).join('');
  const text = rows.map((y) => [220, 700, 1100].map((x) => `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="34">Revenue 12,480.50</text>`).join('')).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><rect width="100%" height="100%" fill="white"/>${rects}${text}</svg>`;
  const { data } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  const out = new Uint8Array(WIDTH * HEIGHT);
  let state = 12345;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      state = (state * 1103515245 + 12345) % 2147483648;
      const noise = (state / 2147483648 - 0.5) * 12;
      // Light falling off by a quarter from the top left to the bottom right.
      const light = 1 - 0.15 * (y / HEIGHT) - 0.1 * (x / WIDTH);
      out[y * WIDTH + x] = Math.max(0, Math.min(255, data[y * WIDTH + x] * light + noise));
    }
  }
  return { width: WIDTH, height: HEIGHT, data: out };
}

describe('cell fills of a scanned page', () => {
  it('are found where a header band and a striped row are drawn, to within a few pixels', async () => {
    const header = { x0: 200, y0: 300, x1: 1500, y1: 380, grey: 217 };
    const stripe = { x0: 200, y0: 460, x1: 1500, y1: 520, grey: 242 };
    const fills = tintedFills(await page([header, stripe], [350, 430, 500, 580]), 200);
    expect(fills).toHaveLength(2);
    const [a, b] = [...fills].sort((p, q) => p.box.y0 - q.box.y0);
    for (const [found, drawn] of [
      [a, header],
      [b, stripe],
    ] as const) {
      for (const side of ['x0', 'y0', 'x1', 'y1'] as const) expect(Math.abs(found.box[side] - drawn[side])).toBeLessThanOrEqual(4);
      expect(found).toMatchObject({ filled: true, stroked: false });
    }
    // The darker band and the paler stripe are told apart by their grey.
    expect(a.fill! & 255).toBeLessThan(b.fill! & 255);
  });

  it('are each of a column of shaded rows set apart by thin gaps of paper, and none of cells shaded one by one side by side', async () => {
    // Two rows 30 tall and 1200 wide, 2 pixels apart, the gap astride two of the 8-pixel blocks
    // tints are measured in: the blocks run over it, and the fill is parted along it.
    const stripes = [0, 1].map((r) => ({ x0: 200, y0: 305 + r * 32, x1: 1400, y1: 335 + r * 32, grey: 225 }));
    const fills = tintedFills(await page(stripes, []), 200);
    expect(fills).toHaveLength(2);
    for (const fill of fills) {
      const drawn = stripes.find((c) => Math.abs(c.y0 - fill.box.y0) <= 4);
      expect(drawn).toBeDefined();
      for (const side of ['x0', 'x1', 'y1'] as const) expect(Math.abs(drawn![side] - fill.box[side])).toBeLessThanOrEqual(4);
    }
    // The same rows cut into four cells each, shaded one by one: their edges found in a picture
    // would cut the table into cells its text does not hold.
    const cells = stripes.flatMap((row) => [0, 1, 2, 3].map((c) => ({ ...row, x0: 200 + c * 303, x1: 500 + c * 303 })));
    expect(tintedFills(await page(cells, []), 200)).toEqual([]);
  });

  it('are only those of a ruled table that fill their cell from column ruling to column ruling', async () => {
    const column = (x: number) => ({ x0: x, y0: 250, x1: x, y1: 600 });
    const rulings = [column(200), column(700), column(1500)];
    // A shaded cell between the first two rulings, and a shaded stretch that stops halfway
    // across the next cell: a piece of a paler shading, whose right side is no border.
    const cell = { x0: 201, y0: 300, x1: 699, y1: 380, grey: 220 };
    const piece = { x0: 701, y0: 460, x1: 1000, y1: 520, grey: 220 };
    const fills = tintedFills(await page([cell, piece], []), 200, rulings);
    expect(fills).toHaveLength(1);
    for (const side of ['x0', 'y0', 'x1', 'y1'] as const) expect(Math.abs(fills[0].box[side] - cell[side])).toBeLessThanOrEqual(4);
  });

  it('are none of a band down most of the page with nothing printed on it (a shadow), but are of a shaded column of text', async () => {
    // Three-quarters of an inch wide, from under the running header nearly to the foot, beside the text.
    const shadow = { x0: 20, y0: 90, x1: 170, y1: 1060, grey: 200 };
    const header = { x0: 200, y0: 300, x1: 1500, y1: 380, grey: 217 };
    const rows = [350, 430, 510, 590, 670, 750, 830, 910, 990];
    const fills = tintedFills(await page([shadow, header], rows), 200);
    expect(fills).toHaveLength(1);
    expect(Math.abs(fills[0].box.y0 - header.y0)).toBeLessThanOrEqual(4);
    // The same band under the first words of every row: a column of a table, shaded.
    const column = { ...shadow, x0: 190, x1: 340 };
    const shaded = tintedFills(await page([column], rows), 200);
    expect(shaded.some((f) => f.box.y1 - f.box.y0 > 500)).toBe(true);
  });

  it('are none on a page of text on paper, however unevenly lit', async () => {
    expect(tintedFills(await page([], [200, 260, 320, 380, 440, 500, 560, 620]), 200)).toEqual([]);
  });
});
