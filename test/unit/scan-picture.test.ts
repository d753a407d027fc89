// A scanner's page (one picture covering the page, at most as fine as the grid OCR reads at) is read
// from its own pixels, unresampled, at its own resolution; a page with anything else on it, a
// clipped picture, one finer than that grid or with pixels not square is drawn as before.
import { PDFDocument, clip, degrees, endPath, popGraphicsState, pushGraphicsState, rectangle } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { scanPdfPage } from '../../src/pipeline/formats/pdf-render.js';
import { seeded } from '../helpers/magazine.js';

/** A4 at 300 dpi: 2480 x 3508 pixels. */
const A4 = { width: 595.28, height: 841.89, px: [2480, 3508] as const };

/** A grey picture of noise and bars, different in every pixel from its neighbours, so any resampling shows; made once. */
const picture = (async () => {
  const [width, height] = A4.px;
  const random = seeded(7);
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = (i % width) % 40 < 4 ? 0 : Math.floor(random() * 256);
  const png = await sharp(Buffer.from(data), { raw: { width, height, channels: 1 } }).png({ compressionLevel: 1 }).toBuffer();
  return { png, data };
})();

async function scanned(build: (doc: PDFDocument, png: Buffer) => Promise<void>) {
  const { png, data } = await picture;
  const doc = await PDFDocument.create();
  await build(doc, png);
  return { pdf: await doc.save(), data };
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

// Pictures of 8.7 million pixels: seconds each on a busy machine.
describe('a scanned PDF page', { timeout: 60_000 }, () => {
  it('that is one picture on the drawing grid is read from the picture itself', async () => {
    const { pdf, data } = await scanned(async (doc, png) => {
      doc.addPage([A4.width, A4.height]).drawImage(await doc.embedPng(png), { x: 0, y: 0, width: A4.width, height: A4.height });
    });
    const { image, dpi } = await scanPdfPage(pdf, 1, 0);
    expect(dpi).toBe(300);
    expect([image.width, image.height]).toEqual([...A4.px]);
    expect(same(image.data, data)).toBe(true);
  });

  it('turned by the page or by the picture is turned the same way as its drawing', async () => {
    const { pdf, data } = await scanned(async (doc, png) => {
      const image = await doc.embedPng(png);
      const rotated = doc.addPage([A4.width, A4.height]);
      rotated.drawImage(image, { x: 0, y: 0, width: A4.width, height: A4.height });
      rotated.setRotation(degrees(90));
      doc.addPage([A4.height, A4.width]).drawImage(image, { x: 0, y: A4.width, width: A4.width, height: A4.height, rotate: degrees(-90) });
    });
    const quarter = await sharp(Buffer.from(data), { raw: { width: A4.px[0], height: A4.px[1], channels: 1 } }).rotate(90).greyscale().raw().toBuffer();
    for (const page of [1, 2]) {
      const { image } = await scanPdfPage(pdf, page, 0);
      expect([image.width, image.height]).toEqual([A4.px[1], A4.px[0]]);
      expect(same(image.data, new Uint8Array(quarter))).toBe(true);
    }
    // And the page model's own turn on top (270 + 90: the picture as stored).
    const { image } = await scanPdfPage(pdf, 1, 270);
    expect(same(image.data, data)).toBe(true);
  });

  it('with text on it, clipped, finer than 300 dpi or with pixels not square is drawn', async () => {
    const { pdf, data } = await scanned(async (doc, png) => {
      const image = await doc.embedPng(png);
      const withText = doc.addPage([A4.width, A4.height]);
      withText.drawImage(image, { x: 0, y: 0, width: A4.width, height: A4.height });
      withText.drawText('A stamp', { x: 20, y: 20, size: 8 });
      const clipped = doc.addPage([A4.width, A4.height]);
      clipped.pushOperators(pushGraphicsState(), rectangle(0, 0, A4.width / 2, A4.height), clip(), endPath());
      clipped.drawImage(image, { x: 0, y: 0, width: A4.width, height: A4.height });
      clipped.pushOperators(popGraphicsState());
      // The same pixels on a page half as large: 600 dpi, drawn at 300.
      doc.addPage([A4.width / 2, A4.height / 2]).drawImage(image, { x: 0, y: 0, width: A4.width / 2, height: A4.height / 2 });
      // Stretched to twice its height: 300 dpi across, 150 down.
      doc.addPage([A4.width, A4.height * 2]).drawImage(image, { x: 0, y: 0, width: A4.width, height: A4.height * 2 });
    });
    for (const page of [1, 2]) {
      const { image } = await scanPdfPage(pdf, page, 0);
      expect([image.width, image.height]).toEqual([...A4.px]);
      expect(same(image.data, data)).toBe(false);
    }
    const finer = await scanPdfPage(pdf, 3, 0);
    expect(finer.dpi).toBe(300);
    expect([finer.image.width, finer.image.height]).toEqual([A4.px[0] / 2, A4.px[1] / 2]);
    const stretched = await scanPdfPage(pdf, 4, 0);
    expect(stretched.dpi).toBe(300);
    expect([stretched.image.width, stretched.image.height]).toEqual([A4.px[0], A4.px[1] * 2]);
  });

  it('coarser than 300 dpi is read at its own resolution, as the same picture sent alone would be', async () => {
    const { pdf, data } = await scanned(async (doc, png) => {
      // The same pixels on a page twice as large: 150 dpi.
      doc.addPage([A4.width * 2, A4.height * 2]).drawImage(await doc.embedPng(png), { x: 0, y: 0, width: A4.width * 2, height: A4.height * 2 });
    });
    const { image, dpi } = await scanPdfPage(pdf, 1, 0);
    expect(dpi).toBeCloseTo(150, 1);
    expect(same(image.data, data)).toBe(true);
  });
});
