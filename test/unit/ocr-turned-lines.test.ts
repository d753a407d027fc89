// Lines the OCR engine read up or down the page (a preprint's stamp in the margin) are turned
// words, sized across the line, and a marginal note, not a heading (scans/scan-words.ts).
import { describe, expect, it } from 'vitest';
import type { OcrWord } from '../../src/models/ocr/engine.js';
import { analyzeDocument, blockText } from '../../src/pipeline/analysis/analyze-page.js';
import { NO_GRAPHICS, type RawPage } from '../../src/pipeline/page-model.js';
import { toWords, turnedLines } from '../../src/pipeline/scans/scan-words.js';

const SIZE = 40;

/** An upright engine line: words of SIZE-pixel type (ascenders 0.72 of it) from x0 on the baseline. */
function across(texts: string[], x0: number, baseline: number, line: string, paragraph: string): OcrWord[] {
  let x = x0;
  return texts.map((text) => {
    const w = { text, x0: x, y0: baseline - SIZE * 0.72, x1: x + text.length * SIZE * 0.5, y1: baseline + SIZE * 0.2, confidence: 95, line, paragraph };
    x = w.x1 + SIZE * 0.3;
    return w;
  });
}

/** A line read upwards: words stacked from `bottom` up the page, each as tall as its letters are wide. */
function upwards(texts: string[], x0: number, bottom: number, line: string): OcrWord[] {
  let y = bottom;
  return texts.map((text) => {
    const w = { text, x0, y0: y - text.length * SIZE * 0.5, x1: x0 + SIZE * 0.72, y1: y, confidence: 92, line, paragraph: line };
    y = w.y0 - SIZE * 0.3;
    return w;
  });
}

function page(words: OcrWord[]): RawPage {
  return { number: 1, width: 2480, height: 3508, unit: 'px', dpi: 300, rotation: 0, skew: 0, words: toWords(words, (v) => v), graphics: NO_GRAPHICS, formFields: [], textSource: 'ocr' };
}

const body = (count: number) =>
  Array.from({ length: count }, (_, k) => across(['the', 'quality', 'of', 'paper', 'was', 'good', 'and', 'lightly', 'yellowed', 'at', 'the', 'edges'], 400, 600 + k * SIZE * 1.3, `b${k}`, 'b')).flat();

describe('OCR lines read up or down the page', () => {
  it('a stamp read upwards in the margin is turned 90, sized across, and a marginal note', () => {
    const stamp = upwards(['arXiv:2040.26320v2', '[cs.CL]', '22.02.2019'], 60, 2400, 's');
    expect(turnedLines([...stamp, ...body(3)])).toEqual(new Map([['s', 90]]));
    const [analyzed] = analyzeDocument([page([...body(20), ...stamp])]);
    const stampWords = analyzed.words.filter((w) => w.text.startsWith('arXiv') || w.text === '[cs.CL]');
    expect(stampWords.every((w) => w.turn === 90)).toBe(true);
    // Its size is its letters' height across the line, as the body's is.
    expect(stampWords[0].fontSize).toBeLessThan(SIZE * 1.2);
    const block = analyzed.blocks.find((b) => blockText(b, analyzed).includes('arXiv'))!;
    expect(block.type).toBe('marginal_note');
    expect(blockText(block, analyzed)).toBe('arXiv:2040.26320v2 [cs.CL] 22.02.2019');
    expect(analyzed.blocks.some((b) => b.type === 'heading' || b.type === 'title')).toBe(false);
  });

  it('a line read downwards is turned 270; narrow upright words are not turned', () => {
    const down = upwards(['Chapter', 'three'], 2400, 1000, 'd').reverse();
    const narrow = across(['Ill', 'fill', 'lilt', '1111'], 400, 300, 'n', 'n');
    expect(turnedLines([...down, ...narrow])).toEqual(new Map([['d', 270]]));
  });
});
