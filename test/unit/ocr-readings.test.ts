// How a scanned page is read when the first reading is in doubt (issue 23 scopes 2 and 3, issue 39
// scope 7): a clean page is read once; the lines read with doubt, and only they, are read again; a
// page read with doubt throughout is read again whole with a local threshold and the reading with
// more characters read surely is kept; a page with ink that still reads as almost nothing is tried
// further ways, within a budget; ink too faint to be print and ink nothing reads surely give no text.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrayImage, OcrEngine, OcrWord, RecognizeOptions } from '../../src/models/ocr/engine.js';
import { createOcrEngine } from '../../src/models/ocr/index.js';
import { readScan, sureCharacters, surerLines } from '../../src/pipeline/scans/read-scan.js';
import { turn } from '../../src/pipeline/scans/grey-pictures.js';
import { lineSheet, textLines, wordsFromSheet } from '../../src/pipeline/scans/line-sheet.js';
import { hasInk } from '../../src/pipeline/scans/measure.js';
import { textPicture } from '../helpers/images.js';
import { seeded } from '../helpers/magazine.js';

let engine: OcrEngine;
let modelDir: string;
beforeAll(async () => {
  modelDir = await mkdtemp(path.join(tmpdir(), 'folio-ocr-'));
  engine = await createOcrEngine({ engine: 'auto', languages: ['eng', 'deu', 'fra', 'spa'], scripts: {}, workers: 1, tesseractPath: 'tesseract', modelDir });
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

/**
 * A picture inked in thin rows (all over, or within the boxes given), for engines that make their
 * words up: wherever such a word is said to lie, there is print under it, as under a real engine's words.
 */
function striped(width: number, height: number, within?: { x0: number; y0: number; x1: number; y1: number }[]): GrayImage {
  const data = new Uint8Array(width * height).fill(255);
  for (const box of within ?? [{ x0: 0, y0: 0, x1: width, y1: height }]) {
    for (let y = box.y0; y < box.y1; y += 6) data.fill(0, y * width + box.x0, y * width + box.x1);
  }
  return { width, height, data };
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
  readonly scriptModels = {};
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
    const reading = await readScan(blind, striped(1750, 1000), 300, 1);
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
      scriptModels: {},
      close: async () => undefined,
    };
    const reading = await readScan(tall, striped(1750, 800), 300, 1);
    expect(reading.rotation).toBe(0);
    expect(reading.words.map((w) => w.text)).toEqual(['TAX', 'QTY', 'SUM', 'NET']);
  });
});

/** A picture of `lines` of print: black on white by default, or as light as `ink` (0 black, 255 white). */
async function printed(lines: string[], ink = 0): Promise<GrayImage> {
  const picture = await textPicture(lines, { size: 12, heightPt: 240 });
  return { ...picture, data: picture.data.map((v) => Math.round(255 - ((255 - v) * (255 - ink)) / 255)) };
}

/** The back of a sheet showing through its front: the back's print mirrored, at `strength` of black, darkening the front. */
function showingThrough(front: GrayImage, back: GrayImage, strength: number): GrayImage {
  const data = new Uint8Array(front.data.length);
  for (let y = 0; y < front.height; y++) {
    for (let x = 0; x < front.width; x++) {
      const mirrored = back.data[y * back.width + (back.width - 1 - x)];
      data[y * front.width + x] = Math.round(front.data[y * front.width + x] * (1 - strength * (1 - mirrored / 255)));
    }
  }
  return { ...front, data };
}

/** An engine that reads a page of three lines, one word of which it reads with doubt at the page's own size, and that line surely on its own. */
class OneDoubtfulLineEngine implements OcrEngine {
  readonly name = 'one doubtful line';
  readonly concurrency = 1;
  readonly scriptModels = {};
  readonly calls: { width: number; height: number; dpi: number; mode?: string }[] = [];
  constructor(private readonly page: GrayImage) {}
  async recognize(image: GrayImage, dpi: number, { mode }: RecognizeOptions = {}): Promise<OcrWord[]> {
    this.calls.push({ width: image.width, height: image.height, dpi, mode: mode && `${mode.segmentation} ${mode.binarization}` });
    if (image === this.page || (image.width === this.page.width && image.height === this.page.height)) {
      return [
        ...['Invoice', 'number', '4711', 'from', 'Acme'].map((t, i) => ({ ...ocrWord(t, 40 + i * 90, 40, 80, 30, 95), line: 'a' })),
        ...['Total', 'due', '35.8O'].map((t, i) => ({ ...ocrWord(t, 40 + i * 90, 100, 80, 30, i === 2 ? 40 : 90), line: 'b' })),
        ...['Thank', 'you', 'for', 'your', 'order'].map((t, i) => ({ ...ocrWord(t, 40 + i * 90, 160, 80, 30, 96), line: 'c' })),
      ];
    }
    // The sheet: the one line cut out, a line's height from its top, twice as large (it is 30 pixels tall, not small: not enlarged).
    return ['Total', 'due', '35.80'].map((t, i) => ({ ...ocrWord(t, 30 + 9 + i * 90, 30 + 9, 80, 30, 93), line: 'x' }));
  }
  async close(): Promise<void> {}
}

describe('reading only what was read with doubt', () => {
  it('cuts lines out, stacks them a line apart and puts the words read there back where they were cut from', async () => {
    const page = await printed(['first line of print', 'second line of print', 'third line of print']);
    const lines = textLines([
      { ...ocrWord('second', 100, 300, 200, 40), line: 'b' },
      { ...ocrWord('line', 320, 300, 120, 40), line: 'b' },
      { ...ocrWord('third', 100, 400, 180, 40), line: 'c' },
    ]);
    expect(lines.map((l) => l.box)).toEqual([
      { x0: 100, y0: 300, x1: 440, y1: 340 },
      { x0: 100, y0: 400, x1: 280, y1: 440 },
    ]);
    const sheet = await lineSheet(page, lines, 2);
    // Two lines of 40 + 2 x 12 pixels of padding, three gaps of 40, all twice as large.
    expect(sheet.image.height).toBe(2 * (2 * 64 + 3 * 40));
    expect(sheet.image.width).toBe(2 * (340 + 24 + 2 * 40));
    // A word read on the second slot, and a neighbour's descender read in the first slot's padding.
    const second = sheet.slots[1];
    const back = wordsFromSheet(
      [
        { ...ocrWord('third', 2 * (second.left + 12), 2 * (second.top + 12), 360, 80), line: 's' },
        { ...ocrWord(',', 2 * (sheet.slots[0].left + 12), 2 * (sheet.slots[0].top + 1), 10, 8), line: 's' },
      ],
      sheet,
      lines,
    );
    expect(back[0]).toEqual([]);
    expect(back[1].map((w) => [w.text, w.x0, w.y0, w.x1, w.y1])).toEqual([['third', 100, 400, 280, 440]]);
  });

  it('stacks the lines of tinted paper on that paper, not on white', async () => {
    // Grey paper with a band of ink across each line's middle.
    const page = { width: 400, height: 200, data: new Uint8Array(400 * 200).fill(190) };
    for (const y of [50, 120]) for (let row = y + 8; row < y + 14; row++) page.data.fill(30, row * 400 + 40, row * 400 + 300);
    const lines = textLines([
      { ...ocrWord('one', 40, 50, 260, 20), line: 'a' },
      { ...ocrWord('two', 40, 120, 260, 20), line: 'b' },
    ]);
    const sheet = await lineSheet(page, lines, 1);
    // The margin round the stack and the gap between its lines are the paper's grey.
    expect(sheet.image.data[0]).toBe(190);
    expect(sheet.image.data[(sheet.slots[1].top - 2) * sheet.image.width + sheet.image.width / 2]).toBe(190);
  });

  it('reads the doubtful line again on its own, and keeps the surer reading of it', async () => {
    // Ink only where the engine says its words are: nothing is left unread.
    const page = striped(1200, 600, [40, 100, 160].map((y) => ({ x0: 40, y0: y, x1: 40 + 4 * 90 + 80, y1: y + 30 })));
    const engine = new OneDoubtfulLineEngine(page);
    const reading = await readScan(engine, page, 300, 1);
    expect(engine.calls).toHaveLength(2);
    // The second call reads a sheet far smaller than the page, with the local threshold, as one block.
    expect(engine.calls[1].height).toBeLessThan(page.height / 4);
    expect(engine.calls[1].mode).toBe('block sauvola');
    expect(reading.words.map((w) => w.text).join(' ')).toBe('Invoice number 4711 from Acme Total due 35.80 Thank you for your order');
    expect(reading.readings[1]).toContain('1 of 1 doubtful line from reading it again');
  });

  it('gives no text for the back of a blank sheet showing through, and only the front where there is one', async () => {
    const back = await printed(['The quick brown fox jumps over', 'the lazy dog and reads on into', 'the night by candle light']);
    const blank = { ...back, data: new Uint8Array(back.data.length).fill(250) };
    const throughBlank = await readScan(engine, showingThrough(blank, back, 0.14), 300, 1);
    expect(throughBlank.words).toEqual([]);
    const front = await printed(['', '', '', 'TOTAL AMOUNT 35.80']);
    const throughFront = await readScan(engine, showingThrough(front, back, 0.14), 300, 1);
    expect(throughFront.words.map((w) => w.text).join(' ')).toBe('TOTAL AMOUNT 35.80');
  }, 120_000);

  it('keeps a receipt printed faint but plain to read', async () => {
    const reading = await readScan(engine, await printed(RECEIPT, 150), 300, 1);
    expect(reading.words.map((w) => w.text).join(' ')).toBe(RECEIPT.join(' '));
  }, 60_000);
});

describe('a page upside down', () => {
  it('is read turned over when its longest lines, turned over, read more surely', async () => {
    const page = await printed(['Turned around by the scanner and still', 'read the right way up in the end', 'TOTAL AMOUNT 35.80 CASH 50.00']);
    const over = await turn(page, 180);
    const reading = await readScan(engine, over, 300, 1);
    expect(reading.rotation).toBe(180);
    expect(reading.words.map((w) => w.text).join(' ')).toBe('Turned around by the scanner and still read the right way up in the end TOTAL AMOUNT 35.80 CASH 50.00');
  }, 120_000);
});

describe('a page nothing reads surely', () => {
  it('is illegible: no words read with doubt are kept, and readings stop within the budget', async () => {
    let calls = 0;
    const scrawl: OcrEngine = {
      name: 'scrawl',
      concurrency: 1,
      recognize: async () => {
        calls++;
        return ['Mnwm', 'vvnrn', 'uwu', 'Hlnm', 'rnrnw', 'nwm', 'mmn', 'wvw', 'nnm', 'Wmn', 'vmw', 'II'].map((t, i) => ({ ...ocrWord(t, 40 + (i % 4) * 150, 40 + Math.floor(i / 4) * 60, 120, 40, 20 + i), line: `l${Math.floor(i / 4)}` }));
      },
      scriptModels: {},
      close: async () => undefined,
    };
    const reading = await readScan(scrawl, striped(1200, 600), 300, 1);
    expect(reading.illegible).toBe(true);
    expect(reading.words).toEqual([]);
    // Twelve words found: the page was read through; turning it or reading it as one block is not tried.
    expect(calls).toBeLessThanOrEqual(3);
  });

  it('is not a page with a word or two on it, read surely', async () => {
    const notes: OcrEngine = { name: 'notes', concurrency: 1, recognize: async () => [ocrWord('Notes', 40, 40, 120, 40, 96)], scriptModels: {}, close: async () => undefined };
    const reading = await readScan(notes, striped(1200, 600), 300, 1);
    expect(reading.illegible).toBe(false);
    expect(reading.words.map((w) => w.text)).toEqual(['Notes']);
  });
});
