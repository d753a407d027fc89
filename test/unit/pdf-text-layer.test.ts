import { describe, expect, it } from 'vitest';
import { beginText, endText, PDFDocument, setFontAndSize, setTextMatrix, setTextRenderingMode, showText, StandardFonts, TextRenderingMode } from 'pdf-lib';
import { readPdf } from '../../src/pipeline/formats/pdf.js';
import { textPicture, toSharp } from '../helpers/images.js';

const WIDTH = 420;
const HEIGHT = 200;
const SIZE = 14;
const LINES = ['Invoice number 4711 for the period', 'Total amount due within thirty days', 'Payment by bank transfer only'];

/**
 * A scanner's page: the lines pictured (rendered at 300 dpi, as textPicture sets them), with a
 * text layer of `layer` lines at the same places, invisible over the picture or in ink under it
 * (or, `over`, in ink over it: a born-digital page printed on a picture).
 * `blank` lines of the picture are painted white (as a redaction of the picture alone would).
 */
async function scannedWithLayer(layer: string[], how: 'invisible' | 'under' | 'over', blank: number[] = [], ruleAt: number | null = null): Promise<Uint8Array> {
  const picture = await textPicture(LINES, { widthPt: WIDTH, heightPt: HEIGHT, size: SIZE });
  const scale = picture.width / WIDTH;
  // A rule a point thick across the picture from x 20 to 400 (points), `ruleAt` points from the top.
  if (ruleAt !== null) {
    for (let y = Math.round(ruleAt * scale); y < Math.round((ruleAt + 1) * scale); y++) picture.data.fill(0, y * picture.width + Math.round(20 * scale), y * picture.width + Math.round(400 * scale));
  }
  for (const line of blank) {
    const baseline = 36 + line * SIZE * 1.6;
    for (let y = Math.floor((baseline - SIZE) * scale); y < Math.ceil((baseline + 5) * scale); y++) picture.data.fill(255, y * picture.width, (y + 1) * picture.width);
  }
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([WIDTH, HEIGHT]);
  const png = await doc.embedPng(await toSharp(picture).png().toBuffer());
  const name = page.node.newFontDictionary(font.name, font.ref);
  const text = () => {
    const operators = [beginText(), setTextRenderingMode(how === 'invisible' ? TextRenderingMode.Invisible : TextRenderingMode.Fill), setFontAndSize(name, SIZE)];
    layer.forEach((line, i) => operators.push(setTextMatrix(1, 0, 0, 1, 24, HEIGHT - 36 - i * SIZE * 1.6), showText(font.encodeText(line))));
    operators.push(endText());
    page.pushOperators(...operators);
  };
  if (how === 'under') text();
  page.drawImage(png, { x: 0, y: 0, width: WIDTH, height: HEIGHT });
  if (how !== 'under') text();
  return doc.save();
}

const pageText = (words: { text: string }[]) => words.map((w) => w.text).join(' ');

describe('a scanned page with a text layer', () => {
  it('reads an invisible layer over the picture as the page text, without OCR', async () => {
    const [page] = await readPdf(await scannedWithLayer(LINES, 'invisible'));
    expect(page.textSource).toBe('text_layer');
    expect(pageText(page.words)).toBe(LINES.join(' '));
    expect(page.words.every((w) => w.invisible)).toBe(true);
  });

  it("finds the ruling lines of the picture under the layer, as OCR finds a scan's, and none on a page without a layer", async () => {
    const [page] = await readPdf(await scannedWithLayer(LINES, 'invisible', [], 150));
    expect(page.textSource).toBe('text_layer');
    const across = page.graphics.segments.filter((s) => s.y0 === s.y1);
    expect(across).toHaveLength(1);
    expect(across[0].x0).toBeCloseTo(20, 0);
    expect(across[0].x1).toBeCloseTo(400, 0);
    expect(across[0].y0).toBeGreaterThan(149);
    expect(across[0].y0).toBeLessThan(152);
    expect(page.graphics.rulingsFromPicture).toBe(true);
    const [layerless] = await readPdf(await scannedWithLayer([], 'invisible', [], 150));
    expect(layerless.textSource).toBe('ocr');
    expect(layerless.graphics.segments).toHaveLength(0);
  });

  it('reads a layer drawn under an opaque picture as the page text, and as a layer: hidden, the rulings found in the picture', async () => {
    const [page] = await readPdf(await scannedWithLayer(LINES, 'under', [], 150));
    expect(page.textSource).toBe('text_layer');
    expect(pageText(page.words)).toBe(LINES.join(' '));
    expect(page.words.every((w) => w.invisible)).toBe(true);
    expect(page.graphics.segments.filter((s) => s.y0 === s.y1)).toHaveLength(1);
    expect(page.graphics.rulingsFromPicture).toBe(true);
  });

  it('leaves out the words of a layer under the picture that lie on blank paper, as those of an invisible one', async () => {
    const [page] = await readPdf(await scannedWithLayer(LINES, 'under', [1]));
    expect(pageText(page.words)).toBe(`${LINES[0]} ${LINES[2]}`);
  });

  it('keeps text printed over a picture as what the page shows, with no rulings from its pixels', async () => {
    const [page] = await readPdf(await scannedWithLayer(LINES, 'over', [], 150));
    expect(page.textSource).toBe('text_layer');
    expect(pageText(page.words)).toBe(LINES.join(' '));
    expect(page.words.some((w) => w.invisible)).toBe(false);
    expect(page.graphics.rulingsFromPicture).toBeUndefined();
  });

  it('leaves out the invisible words that lie on blank paper: the picture was painted over after the layer was written', async () => {
    const [page] = await readPdf(await scannedWithLayer(LINES, 'invisible', [1]));
    expect(page.textSource).toBe('text_layer');
    expect(pageText(page.words)).toBe(`${LINES[0]} ${LINES[2]}`);
  });

  it('reads the page by OCR when most of the layer lies on blank paper', async () => {
    const [page] = await readPdf(await scannedWithLayer([...LINES, 'A line the picture never showed', 'Nor this one', 'Nor this'], 'invisible', [0, 1]));
    expect(page.textSource).toBe('ocr');
    expect(page.words).toEqual([]);
  });
});
