// A scanned magazine page in three columns (issue 23 scope 1): a page made in code (running
// header, title, byline, justified columns that run on from one to the next, a picture with a
// caption, a pull quote between rules, page number), rendered at 300 dpi, skewed and noised, read
// by Folio's OCR and layout, and checked against its source text and against the plain engine
// (Tesseract's own page segmentation and order, as `tesseract IMG -` prints it).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cer, normalizeText, stripTableMarkup } from '../../bench/quality/metrics.js';
import { createOcrEngine, type OcrEngine } from '../../src/models/ocr/index.js';
import { analyzeDocument, blockText } from '../../src/pipeline/analysis/analyze-page.js';
import { readScan } from '../../src/pipeline/scans/read-scan.js';
import { pageText } from '../../src/pipeline/outputs/text.js';
import { NO_GRAPHICS } from '../../src/pipeline/page-model.js';
import { magazinePage, scan } from '../helpers/magazine.js';

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

const tokens = (text: string) => normalizeText(text).toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').split(/\s+/).filter(Boolean);

/** Share of the source's words found in the same order in the output (longest common subsequence). */
function inOrder(output: string, source: string): number {
  const a = tokens(output);
  const b = tokens(source);
  let previous = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const current = new Uint32Array(b.length + 1);
    for (let j = 1; j <= b.length; j++) current[j] = a[i - 1] === b[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
    previous = current;
  }
  return previous[b.length] / b.length;
}

describe('a scanned page in columns', () => {
  it('reads column by column, with the caption and the pull quote as blocks of their own, no worse than Tesseract alone', async () => {
    const source = await magazinePage({ columns: 3, seed: 2, figure: true, pullQuote: true });
    const picture = await scan(source.pdf, { skew: 1.2, noise: 25, specks: 0.002, seed: 2 });

    // The engine alone: its words in its order, a line break between its lines.
    let plain = '';
    let lastLine = '';
    for (const w of await engine.recognize(picture, 300)) {
      plain += (w.line === lastLine ? ' ' : '\n') + w.text;
      lastLine = w.line;
    }

    const reading = await readScan(engine, picture, 300, 1);
    const [page] = analyzeDocument([
      { number: 1, width: reading.width, height: reading.height, unit: 'px', dpi: 300, rotation: reading.rotation, skew: reading.skew, words: reading.words, graphics: { ...NO_GRAPHICS, segments: reading.segments }, formFields: [], textSource: 'ocr' },
    ]);
    const folio = stripTableMarkup(pageText(page));

    // The running text, which flows from column to column, in its order.
    const order = inOrder(folio, source.body);
    expect(order).toBeGreaterThanOrEqual(0.99);
    expect(order).toBeGreaterThanOrEqual(inOrder(plain, source.body) - 0.005);
    // The whole page against its source, as the quality bench scores ocr_scans.
    const truth = [source.header, source.title, source.byline, source.body, source.pullQuote, source.caption, source.pageNumber].join('\n');
    expect(cer(folio, truth)).toBeLessThanOrEqual(cer(plain, truth) + 0.01);
    // Caption and pull quote are each a block, not lines run into the columns beside them.
    const blocks = page.blocks.map((block) => normalizeText(blockText(block, page)));
    for (const inset of [source.caption!, source.pullQuote!]) {
      expect(Math.min(...blocks.map((b) => cer(b, inset)))).toBeLessThan(0.1);
    }
  }, 240_000);
});
