// The sketch a scan keeps of a PDF page, and the page picture made from it: the page's colours,
// its size within the picture's side, and the turn OCR settled, as a drawing of the page would give.
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { scanPdfPage } from '../../src/pipeline/formats/pdf-render.js';
import { pictureFromSketch, type Sketch } from '../../src/pipeline/formats/page-sketch.js';

/** A page-sized picture, white with a red block at the top left and a blue one at the top right. */
async function colourPage(width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const svg = `<svg width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>
    <rect x="${width * 0.1}" y="${height * 0.1}" width="${width * 0.3}" height="${height * 0.2}" fill="#ff0000"/>
    <rect x="${width * 0.6}" y="${height * 0.1}" width="${width * 0.3}" height="${height * 0.2}" fill="#0000ff"/></svg>`;
  const picture = sharp(Buffer.from(svg));
  return format === 'png' ? picture.png().toBuffer() : picture.jpeg({ quality: 95 }).toBuffer();
}

/** A one-page PDF of that picture at `dpi`; with `text`, a word drawn over it (the page is then drawn, not taken as the scanner's picture). */
async function pdfOf(picture: Buffer, format: 'png' | 'jpeg', width: number, height: number, dpi: number, text: boolean): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([(width * 72) / dpi, (height * 72) / dpi]);
  const image = format === 'png' ? await doc.embedPng(picture) : await doc.embedJpg(picture);
  page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  if (text) page.drawText('note', { x: 10, y: 10, size: 6, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

/** The colour at a point given as fractions of a picture's width and height. */
function colourAt(sketch: Pick<Sketch, 'width' | 'height' | 'channels' | 'data'>, x: number, y: number): number[] {
  const at = (Math.round(y * (sketch.height - 1)) * sketch.width + Math.round(x * (sketch.width - 1))) * sketch.channels;
  return Array.from(sketch.data.subarray(at, at + sketch.channels));
}

const near = (actual: number[], expected: number[]) => actual.every((v, i) => Math.abs(v - expected[i]) <= 12);

describe('a scanned page\'s sketch', { timeout: 60_000 }, () => {
  const cases = [
    { name: "the scanner's own picture (300 dpi, PNG)", format: 'png', dpi: 300, text: false },
    { name: "the scanner's own picture (300 dpi, JPEG)", format: 'jpeg', dpi: 300, text: false },
    { name: 'a page drawn for OCR (a picture at 150 dpi under a word)', format: 'png', dpi: 150, text: true },
  ] as const;
  for (const { name, format, dpi, text } of cases) {
    it(`keeps the page's colours at the picture's size: ${name}`, async () => {
      const [width, height] = dpi === 300 ? [2480, 3508] : [1240, 1754];
      const bytes = await pdfOf(await colourPage(width, height, format), format, width, height, dpi, text);
      const { image, sketch } = await scanPdfPage(bytes, 1, 0, undefined, 1568);
      expect(image.width).toBe(2480);
      expect(sketch).toBeDefined();
      expect(Math.max(sketch!.width, sketch!.height)).toBe(1568);
      expect(Math.abs(sketch!.width / sketch!.height - image.width / image.height)).toBeLessThan(0.01);
      expect(sketch!.channels).toBe(3);
      expect(near(colourAt(sketch!, 0.25, 0.2), [255, 0, 0])).toBe(true);
      expect(near(colourAt(sketch!, 0.75, 0.2), [0, 0, 255])).toBe(true);
      expect(near(colourAt(sketch!, 0.5, 0.7), [255, 255, 255])).toBe(true);
    });
  }

  it('is not made unless asked for', async () => {
    const bytes = await pdfOf(await colourPage(2480, 3508, 'png'), 'png', 2480, 3508, 300, false);
    expect((await scanPdfPage(bytes, 1, 0)).sketch).toBeUndefined();
  });

  it('gives the page picture turned as OCR turned the page, white in the corners a slant uncovers', async () => {
    const bytes = await pdfOf(await colourPage(2480, 3508, 'png'), 'png', 2480, 3508, 300, false);
    const { sketch } = await scanPdfPage(bytes, 1, 0, undefined, 1568);
    const turned = await pictureFromSketch(sketch!, 90, 1568);
    expect([turned.width, turned.height]).toEqual([1568, sketch!.width]);
    const pixels = await sharp(turned.bytes).raw().toBuffer({ resolveWithObject: true });
    const picture = { width: pixels.info.width, height: pixels.info.height, channels: 3 as const, data: new Uint8Array(pixels.data) };
    // Turned clockwise: the top left block is now at the top right, the top right one at the bottom right.
    expect(near(colourAt(picture, 0.8, 0.25), [255, 0, 0])).toBe(true);
    expect(near(colourAt(picture, 0.8, 0.75), [0, 0, 255])).toBe(true);

    const slanted = await pictureFromSketch(sketch!, 3, 1568);
    expect(Math.max(slanted.width, slanted.height)).toBe(1568);
    const slantedPixels = await sharp(slanted.bytes).raw().toBuffer({ resolveWithObject: true });
    const slantedPicture = { width: slantedPixels.info.width, height: slantedPixels.info.height, channels: 3 as const, data: new Uint8Array(slantedPixels.data) };
    expect(near(colourAt(slantedPicture, 0.99, 0.01), [255, 255, 255])).toBe(true);
    expect(near(colourAt(slantedPicture, 0.25, 0.2), [255, 0, 0])).toBe(true);
  });
});
