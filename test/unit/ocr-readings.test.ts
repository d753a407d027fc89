// How a scanned page is read when the first reading is in doubt (issue 23 scopes 2 and 3): a page
// read with doubt is read again with a local threshold and the reading with more characters read
// surely is kept; a page with ink that still reads as almost nothing is tried further ways; a
// clean page is read once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrayImage, OcrEngine, OcrWord, RecognizeOptions } from '../../src/models/ocr/engine.js';
import { createOcrEngine } from '../../src/models/ocr/index.js';
import { readScan, sureCharacters, surerLines } from '../../src/pipeline/scans/read-scan.js';
import { hasInk } from '../../src/pipeline/scans/measure.js';
import { textPicture } from '../helpers/images.js';
import { seeded } from '../helpers/magazine.js';

let engine: OcrEngine;
let modelDir: string;
beforeAll(async () => {
  modelDir = await mkdtemp(path.join(tmpdir(), 'folio-ocr-'));
  engine = await createOcrEngine({ engine: 'auto', languages: ['eng', 'deu', 'fra', 'spa'], workers: 1, tesseractPath: 'tesseract', modelDir });
});
afterAll(async () => {
  await engine?.close();
  await rm(modelDir, { recursive: true, force: true });
});

const RECEIPT = ['TOTAL AMOUNT 35.80', 'CASH 50.00', 'CHANGE 14.20', 'THANK YOU PLEASE COME AGAIN', 'SEE YOU NEXT TIME'];

/** A receipt photographed half in shadow: the left half of the paper at a quarter of its light. */
async function inShadow(): Promise<GrayImage> {
  const paper = await textPicture(RECEIPT, { size: 12, heightPt: 240 });
  return { ...paper, data: paper.data.map((v, i) => (i % paper.width < paper.width / 2 ? Math.round(v * 0.4) : v)) };
}

const ocrWord = (text: string, x0: number, y0: number, width: number, height: number, confidence = 95): OcrWord => ({ text, x0, y0, x1: x0 + width, y1: y0 + height, confidence, paragraph: '1.1.1', line: `1.1.1.${y0}` });

describe('reading a page again', () => {
  it('reads a receipt half in shadow, which the global threshold reads as nothing, with a local threshold', async () => {
    const picture = await inShadow();
    expect(hasInk(picture)).toBe(true);
    const reading = await readScan(engine, picture, 300, 1);
    expect(reading.words.map((w) => w.text).join(' ')).toBe(RECEIPT.join(' '));
    expect(reading.kept).toContain('local threshold');
    expect(reading.recovered).toBe(true);
  }, 120_000);

  it('reads a clean page once', async () => {
    const reading = await readScan(engine, await textPicture(['A clean letter printed in black', 'on white paper, and scanned well']), 300, 1);
    expect(reading.readings).toHaveLength(1);
    expect(reading.recovered).toBe(false);
  }, 60_000);

  it('keeps the reading with more characters read surely, not the one with the higher mean confidence', () => {
    const all = [ocrWord('Total', 0, 0, 50, 10, 96), ocrWord('8.70', 60, 0, 40, 10, 82), ocrWord('Cash', 0, 20, 40, 10, 84), ocrWord('10.00', 60, 20, 50, 10, 81)];
    const partial = [ocrWord('Total', 0, 0, 50, 10, 97), ocrWord('Cash', 0, 20, 40, 10, 98)];
    expect(sureCharacters(all)).toBeGreaterThan(sureCharacters(partial));
    // Garbage a bad threshold makes of noise is read with doubt and counts nothing.
    expect(sureCharacters([ocrWord('Rat', 0, 0, 30, 10, 35), ocrWord('SER', 40, 0, 30, 10, 22), ocrWord('Des', 80, 0, 30, 10, 41)])).toBe(0);
  });

  it('takes each line from the reading that read it more surely, in the order and lines of the surer page', () => {
    const line = (words: OcrWord[], id: string) => words.map((w) => ({ ...w, line: id, paragraph: id.split('.').slice(0, 3).join('.') }));
    // The global threshold read the header and lost the faint total; the local one the reverse.
    const global = [
      ...line([ocrWord('KEDAI', 10, 0, 60, 12, 95), ocrWord('MAJU', 80, 0, 50, 12, 94)], '1.1.1.1'),
      ...line([ocrWord('TOTA1', 10, 30, 60, 12, 41), ocrWord('3S.8O', 90, 30, 60, 12, 38)], '1.1.1.2'),
      ...line([ocrWord('THANK', 10, 60, 60, 12, 96), ocrWord('YOU', 80, 60, 40, 12, 96)], '1.1.2.1'),
    ];
    const local = [
      ...line([ocrWord('KFDAI', 9, 1, 61, 12, 52), ocrWord('MA)U', 80, 1, 50, 12, 47)], '1.2.1.1'),
      ...line([ocrWord('TOTAL', 11, 29, 60, 13, 91), ocrWord('35.80', 90, 29, 60, 13, 93)], '1.2.1.2'),
      ...line([ocrWord('THANK', 10, 60, 60, 12, 95), ocrWord('YOU', 80, 60, 40, 12, 90)], '1.2.2.1'),
      // Specks below the text read as a line of their own: nothing in the surer page to replace.
      ...line([ocrWord('..', 10, 90, 10, 12, 30)], '1.2.3.1'),
    ];
    const merged = surerLines(global, local);
    expect(merged.words.map((w) => w.text)).toEqual(['KEDAI', 'MAJU', 'TOTAL', '35.80', 'THANK', 'YOU']);
    expect(merged.taken).toBe(1);
    // The line taken keeps the surer page's segmentation.
    expect(merged.words.slice(2, 4).map((w) => w.line)).toEqual(['1.1.1.2', '1.1.1.2']);
    expect(merged.words.slice(4).map((w) => w.line)).toEqual(['1.1.2.1', '1.1.2.1']);
  });

  it('sees ink in a shadowed photograph and none in an empty page of grain', () => {
    const random = seeded(7);
    const grain = { width: 400, height: 300, data: new Uint8Array(400 * 300).map(() => 225 + Math.round(random() * 20)) };
    expect(hasInk(grain)).toBe(false);
  });
});

/**
 * An engine whose page layout analysis finds nothing on this picture (as Tesseract's can take a
 * page for a picture) while reading it as one block finds the text; its words lie across the page
 * only when the picture is upright (wider than tall).
 */
class LayoutBlindEngine implements OcrEngine {
  readonly name = 'layout-blind test engine';
  readonly concurrency = 1;
  readonly calls: string[] = [];
  async recognize(image: GrayImage, _dpi: number, { mode }: RecognizeOptions = {}): Promise<OcrWord[]> {
    this.calls.push(`${image.width > image.height ? 'upright' : 'sideways'} ${mode?.segmentation}`);
    if (mode?.segmentation !== 'block' || image.width < image.height) return [];
    return RECEIPT.flatMap((line, row) => line.split(' ').map((text, i) => ocrWord(text, 40 + i * 160, 40 + row * 60, 20 * text.length, 40)));
  }
  async close(): Promise<void> {}
}

describe('a page that reads as almost nothing', () => {
  it('is read as one block of text before it is given up', async () => {
    const blind = new LayoutBlindEngine();
    const reading = await readScan(blind, await textPicture(RECEIPT, { size: 12, heightPt: 240 }), 300, 1);
    expect(reading.words.map((w) => w.text).join(' ')).toBe(RECEIPT.join(' '));
    expect(reading.kept).toBe('upright, one block, global threshold');
    expect(reading.recovered).toBe(true);
  });

  it('is not taken for sideways because a turned reading finds nothing', async () => {
    // Words taller than wide in the upright reading: the turned reading is tried, finds nothing,
    // and must not win for want of words that could be taller than wide.
    const tall: OcrEngine = {
      name: 'tall words',
      concurrency: 1,
      recognize: async (image) => (image.width > image.height ? ['TAX', 'QTY', 'SUM', 'NET'].map((text, i) => ocrWord(text, 40 + i * 60, 40, 30, 40)) : []),
      close: async () => undefined,
    };
    const reading = await readScan(tall, await textPicture(['TAX QTY SUM NET'], { size: 12 }), 300, 1);
    expect(reading.rotation).toBe(0);
    expect(reading.words.map((w) => w.text)).toEqual(['TAX', 'QTY', 'SUM', 'NET']);
  });
});
