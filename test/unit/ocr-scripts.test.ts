// Pages printed in another script than the page languages (Greek, Cyrillic, Arabic, Hebrew): the
// page languages read them as doubtful garbage; the page is read again with the models of the
// script its longest lines read most surely with, and a page in the page languages is left alone.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { GrayImage, OcrEngine, OcrWord, RecognizeOptions } from '../../src/models/ocr/engine.js';
import { createOcrEngine, installedScripts } from '../../src/models/ocr/index.js';
import { readScan } from '../../src/pipeline/scans/read-scan.js';
import { toWords } from '../../src/pipeline/scans/scan-words.js';
import { scriptPicture } from '../helpers/images.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function engine(kind: 'auto' | 'wasm', scripts = loadConfig({}).ocr.scripts): Promise<OcrEngine> {
  const modelDir = await mkdtemp(path.join(tmpdir(), 'folio-ocr-'));
  dirs.push(modelDir);
  return createOcrEngine({ engine: kind, languages: ['eng', 'deu', 'fra', 'spa'], scripts, workers: 1, tesseractPath: 'tesseract', modelDir });
}

const GREEK = ['Η εταιρεία έκλεισε τον λογαριασμό', 'σύνολο 4.250 ευρώ για την ημέρα', 'της έκθεσης στην πόλη της Αθήνας'];
const HEBREW = ['החברה סגרה את החשבון של השנה הקודמת', 'הסכום הכולל של הדוח נשלח לכל העובדים', 'שלום לכל העולם ולכל הילדים בעיר'];

describe('a page in another script', () => {
  it('is read with the Greek models, found by reading its longest lines with each script', async () => {
    const ocr = await engine('auto');
    try {
      const reading = await readScan(ocr, await scriptPicture(GREEK), 300, 1);
      expect(reading.kept).toContain('models ell+eng');
      expect(reading.words.map((w) => w.text).join(' ')).toBe(GREEK.join(' '));
    } finally {
      await ocr.close();
    }
  }, 120_000);

  it('is read with the Greek models on tinted paper printed dim, its lines tried on a sheet of the same paper', async () => {
    const ocr = await engine('auto');
    try {
      const reading = await readScan(ocr, await scriptPicture(GREEK, { paper: '#c8c8c8', ink: '#606060' }), 300, 1);
      expect(reading.kept).toContain('models ell+eng');
      expect(reading.words.map((w) => w.text).join(' ')).toBe(GREEK.join(' '));
    } finally {
      await ocr.close();
    }
  }, 120_000);

  it('is read with the Hebrew models by the WebAssembly engine too, and a Latin page after it with the page languages', async () => {
    const ocr = await engine('wasm');
    try {
      const hebrew = await readScan(ocr, await scriptPicture(HEBREW, { size: 40 }), 300, 1);
      expect(hebrew.kept).toContain('models heb+eng');
      expect(hebrew.words.map((w) => w.text).join(' ')).toBe(HEBREW.join(' '));
      const latin = await readScan(ocr, await scriptPicture(['Größe und Preis: 12,50 €', 'Rechnung für den Kunden']), 300, 1);
      expect(latin.kept).not.toContain('models');
      expect(latin.words.map((w) => w.text).join(' ')).toBe('Größe und Preis: 12,50 € Rechnung für den Kunden');
    } finally {
      await ocr.close();
    }
  }, 120_000);

  it('stays read by the page languages when no script is configured', async () => {
    const ocr = await engine('auto', {});
    try {
      const reading = await readScan(ocr, await scriptPicture(GREEK), 300, 1);
      expect(reading.kept).not.toContain('models');
      expect(reading.words.map((w) => w.text).join(' ')).not.toContain('λογαριασμό');
    } finally {
      await ocr.close();
    }
  }, 120_000);
});

/**
 * An engine that reads one line of print surely only with the models `reads` names, and with doubt
 * with any other; it notes the models of each reading.
 */
class OneScriptEngine implements OcrEngine {
  readonly name = 'one script';
  readonly concurrency = 1;
  readonly calls: string[] = [];
  constructor(
    readonly scriptModels: Record<string, string[]>,
    private readonly reads: string,
  ) {}
  async recognize(image: GrayImage, _dpi: number, { mode }: RecognizeOptions = {}): Promise<OcrWord[]> {
    const models = mode?.languages?.join('+') ?? 'page';
    this.calls.push(models);
    const sure = models === this.reads;
    return ['ημέρα', 'πόλη', 'νερό', 'σπίτι'].map((text, i) => ({ text: sure ? text : 'nuepa', x0: 40 + i * 200, y0: 40, x1: 200 + i * 200, y1: 90, confidence: sure ? 93 : 40, paragraph: '1.1.1', line: '1.1.1.1' }));
  }
  async close(): Promise<void> {}
}

function printedLine(): GrayImage {
  const width = 1000;
  const height = 140;
  const data = new Uint8Array(width * height).fill(255);
  for (let y = 45; y < 85; y += 4) data.fill(0, y * width + 40, y * width + 960);
  return { width, height, data };
}

describe('choosing the script', () => {
  it('takes the models that read the sample most surely, and reads the page with them', async () => {
    const ocr = new OneScriptEngine({ Cyrillic: ['rus'], Greek: ['ell'], Arabic: ['ara'] }, 'ell');
    const reading = await readScan(ocr, printedLine(), 300, 1);
    // The page, the sample with each script, the sample turned over with the page languages (not
    // upside down: they read it no better), the page with Greek.
    expect(ocr.calls.slice(0, 6)).toEqual(['page', 'rus', 'ell', 'ara', 'page', 'ell']);
    expect(reading.kept).toContain('models ell');
    expect(reading.words.map((w) => w.text)).toEqual(['ημέρα', 'πόλη', 'νερό', 'σπίτι']);
  });

  it('tries no script on a page the page languages read surely', async () => {
    const ocr = new OneScriptEngine({ Greek: ['ell'] }, 'page');
    const reading = await readScan(ocr, printedLine(), 300, 1);
    expect(ocr.calls).toEqual(['page']);
    expect(reading.kept).not.toContain('models');
  });

  it('keeps the page languages when no script reads the sample more surely', async () => {
    const ocr = new OneScriptEngine({ Greek: ['ell'], Hebrew: ['heb'] }, 'none');
    const reading = await readScan(ocr, printedLine(), 300, 1);
    expect(ocr.calls.slice(1, 3)).toEqual(['ell', 'heb']);
    expect(reading.kept).not.toContain('models');
  });
});

/**
 * An engine for a page lying on its side that the shape of its ink does not give away: read as
 * given, its words stand taller than wide and are read with doubt; turned a quarter (or cut out of
 * the page so turned), they lie across and read surely with the Greek models alone.
 */
class SidewaysGreekEngine implements OcrEngine {
  readonly name = 'sideways greek';
  readonly concurrency = 1;
  readonly scriptModels = { Cyrillic: ['rus'], Greek: ['ell'] };
  readonly calls: string[] = [];
  async recognize(image: GrayImage, _dpi: number, { mode }: RecognizeOptions = {}): Promise<OcrWord[]> {
    const models = mode?.languages?.join('+') ?? 'page';
    const asGiven = image.width === 1000 && image.height === 140;
    this.calls.push(`${models}${asGiven ? ' as given' : ''}`);
    const sure = !asGiven && models === 'ell';
    return ['ημέρα', 'πόλη', 'νερό', 'σπίτι'].map((text, i) => {
      const box = asGiven ? { x0: 40 + i * 200, y0: 20, x1: 80 + i * 200, y1: 120 } : { x0: 5 + i * 32, y0: 40, x1: 35 + i * 32, y1: 52 };
      return { text: sure ? text : 'nuepa', ...box, confidence: sure ? 93 : 40, paragraph: '1.1.1', line: '1.1.1.1' };
    });
  }
  async close(): Promise<void> {}
}

describe('choosing the script of a page lying on its side', () => {
  it('turns the page first, then tries the scripts on its lines running across', async () => {
    const ocr = new SidewaysGreekEngine();
    const reading = await readScan(ocr, printedLine(), 300, 1);
    // As given, the page turned a quarter, the sample with each script and turned over, the page with Greek.
    expect(ocr.calls.slice(0, 6)).toEqual(['page as given', 'page', 'rus', 'ell', 'page', 'ell']);
    expect(reading.kept).toContain('turned 90');
    expect(reading.kept).toContain('models ell');
  });
});

describe('script models', () => {
  it('are configured as Script=language+language, and a script whose models are not installed is left out', () => {
    expect(loadConfig({ FOLIO_OCR_SCRIPTS: 'Greek=ell, Hebrew=heb+eng' }).ocr.scripts).toEqual({ Greek: ['ell'], Hebrew: ['heb', 'eng'] });
    expect(loadConfig({ FOLIO_OCR_SCRIPTS: '' }).ocr.scripts).toEqual({});
    expect(() => loadConfig({ FOLIO_OCR_SCRIPTS: 'Greek' })).toThrow(/Script=language/);
    expect(installedScripts({ Greek: ['ell', 'eng'], Klingon: ['tlh'] })).toEqual({ Greek: ['ell', 'eng'] });
  });

  it('read the micro sign in a Greek word as the letter mu, and leave it beside a figure', () => {
    const word = (text: string): OcrWord => ({ text, x0: 0, y0: 0, x1: 100, y1: 30, confidence: 90, paragraph: '1', line: '1' });
    expect(toWords([word('ηµέρα'), word('5'), word('µm')], (v) => v).map((w) => w.text)).toEqual(['ημέρα', '5', 'µm']);
  });

  it('leave out the direction marks the engine puts after a Latin word in a right-to-left line', () => {
    const word = (text: string): OcrWord => ({ text, x0: 0, y0: 0, x1: 100, y1: 30, confidence: 90, paragraph: '1', line: '1' });
    expect(toWords([word('Keller\u200f'), word('שלום')], (v) => v).map((w) => w.text)).toEqual(['Keller', 'שלום']);
  });
});
