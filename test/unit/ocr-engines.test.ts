// Both OCR engines read the same picture alike (issue 6 scope 3): the WebAssembly build that
// installs from npm always, the system's tesseract where it is installed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOcrEngine, type OcrEngine } from '../../src/models/ocr/index.js';
import { findTesseract } from '../../src/models/ocr/tesseract-cli.js';
import { textPicture } from '../helpers/images.js';

const systemTesseract = await findTesseract('tesseract');
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function engine(kind: 'wasm' | 'system'): Promise<OcrEngine> {
  const modelDir = await mkdtemp(path.join(tmpdir(), 'folio-ocr-'));
  dirs.push(modelDir);
  return createOcrEngine({ engine: kind, languages: ['eng', 'deu', 'fra', 'spa'], scripts: {}, workers: 1, tesseractPath: 'tesseract', modelDir });
}

async function readWith(kind: 'wasm' | 'system'): Promise<string[]> {
  const ocr = await engine(kind);
  try {
    const words = await ocr.recognize(await textPicture(['Größe und Preis: 12,50 €', 'prix très élevé, canción más rápida']), 300);
    for (const w of words) {
      expect(w.x1).toBeGreaterThan(w.x0);
      expect(w.confidence).toBeGreaterThan(50);
    }
    return words.map((w) => w.text);
  } finally {
    await ocr.close();
  }
}

describe('OCR engines', () => {
  it('the WebAssembly engine reads English, German, French and Spanish with word boxes', async () => {
    expect(await readWith('wasm')).toEqual(['Größe', 'und', 'Preis:', '12,50', '€', 'prix', 'très', 'élevé,', 'canción', 'más', 'rápida']);
  }, 60_000);

  it.skipIf(!systemTesseract)('the system engine reads the same words with the same models', async () => {
    expect(await readWith('system')).toEqual(await readWith('wasm'));
  }, 60_000);

  it.each([['wasm'], ...(systemTesseract ? [['system']] : [])] as ['wasm' | 'system'][])('the %s engine reads with a local threshold when asked, and with its global one again after', async (kind) => {
    // Paper half in shadow: Tesseract's global threshold takes the shadow for ink.
    const paper = await textPicture(['TOTAL AMOUNT 35.80', 'CASH 50.00', 'CHANGE 14.20'], { size: 12, heightPt: 160 });
    const shadowed = { ...paper, data: paper.data.map((v, i) => (i % paper.width < paper.width / 2 ? Math.round(v * 0.4) : v)) };
    const ocr = await engine(kind);
    try {
      const text = async (binarization: 'otsu' | 'sauvola') => (await ocr.recognize(shadowed, 300, { mode: { segmentation: 'auto', binarization } })).map((w) => w.text).join(' ');
      expect(await text('sauvola')).toBe('TOTAL AMOUNT 35.80 CASH 50.00 CHANGE 14.20');
      expect(await text('otsu')).toBe('');
    } finally {
      await ocr.close();
    }
  }, 60_000);

  it('refuses FOLIO_OCR_ENGINE=system with a clear message when tesseract is missing', async () => {
    const modelDir = await mkdtemp(path.join(tmpdir(), 'folio-ocr-'));
    dirs.push(modelDir);
    await expect(createOcrEngine({ engine: 'system', languages: ['eng'], scripts: {}, workers: 1, tesseractPath: '/nonexistent/tesseract', modelDir })).rejects.toThrow(/not installed/);
  });
});
