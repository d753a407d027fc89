// The generator's text layer (bench/generated/scan.ts) sets the words of a line read along the
// page's height turned, as OCR programs write them: a stamp reads up the page, a side tab down;
// narrow upright words, and a title's large short words, stay upright.
import { describe, expect, it } from 'vitest';
import type { PopplerWord } from '../../bench/generated/poppler.js';
import { verticalLines } from '../../bench/generated/scan.js';

const upright = (text: string, x0: number, y0: number, size = 10): PopplerWord => ({ text, x0, y0, x1: x0 + text.length * size * 0.5, y1: y0 + size * 1.2 });
/** A word on a vertical line at x0, its length along the page from y0 (up: the word's start at the bottom). */
const vertical = (text: string, x0: number, y0: number, size = 13): PopplerWord => ({ text, x0, y0, x1: x0 + size * 1.2, y1: y0 + text.length * size * 0.5 });

describe("the generator's text layer turns vertical lines", () => {
  const body = Array.from({ length: 30 }, (_, i) => upright(['the', 'ill', 'in', 'fit', 'minimum'][i % 5], 80 + (i % 6) * 40, 100 + Math.floor(i / 6) * 14));

  it('a stamp whose words climb the page reads up; its short words go with it', () => {
    const stamp = [vertical('arXiv:2353.60388v4', 19, 490), vertical('[cs.CV]', 19, 442), vertical('19', 19, 424), vertical('January', 19, 378)];
    const turns = verticalLines([...body, ...stamp]);
    expect([...turns.entries()]).toEqual(stamp.map((_, i) => [body.length + i, 'up']));
  });

  it('a side tab whose words descend the page reads down', () => {
    const tab = [vertical('Chapter', 580, 216, 8), vertical('10', 580, 251, 8)];
    expect([...verticalLines([...body, ...tab]).entries()]).toEqual([[body.length, 'down'], [body.length + 1, 'down']]);
  });

  it('narrow upright words and large short words are not turned', () => {
    // Boxes as pdftotext gives them: "it" in body type is 4 points wide and 11.5 tall; "in" in a
    // title's type 14.5 wide and 23 tall; "ill" 6 wide.
    const narrow = [{ text: 'it', x0: 95.3, y0: 424.9, x1: 99.4, y1: 436.4 }, { text: 'in', x0: 139.3, y0: 115.5, x1: 153.8, y1: 138.5 }, { text: 'ill', x0: 200, y0: 424.9, x1: 206, y1: 436.4 }];
    expect(verticalLines([...body, ...narrow]).size).toBe(0);
  });
});
