// Pages read by OCR keep the engine's page segmentation (issue 23 scope 1): its lines, its
// paragraphs as blocks, its reading order. Synthetic OCR words: boxes in pixels at 300 dpi, in
// the order the engine returned them, each with the engine's line and paragraph.
import { describe, expect, it } from 'vitest';
import { analyzeDocument, blockText } from '../../src/pipeline/analysis/analyze-page.js';
import { engineOrder } from '../../src/pipeline/analysis/ocr-layout.js';
import { NO_GRAPHICS, type Page, type RawPage, type Word } from '../../src/pipeline/page-model.js';
import type { OrderItem } from '../../src/pipeline/analysis/reading-order.js';
import { word } from '../helpers/words.js';

const SIZE = 40;

/** An OCR page in the making: words appended in the engine's order, numbered as the engine groups them. */
class EnginePage {
  readonly words: Word[] = [];
  private line = 0;
  private paragraph = 0;

  /**
   * A block of paragraphs; each paragraph is lines of words, each line set from x0 with `gap`
   * between words, in SIZE or in the size given with it.
   */
  addBlock(x0: number, y0: number, paragraphs: (string | [string, number])[][], gap = SIZE * 0.3): number {
    let y = y0;
    for (const lines of paragraphs) {
      for (const line of lines) {
        const [text, size] = typeof line === 'string' ? [line, SIZE] : line;
        let x = x0;
        for (const t of text.split(' ')) {
          const w = { ...word(t, x, y, { size, confidence: 95 }), ocrLine: this.line, ocrParagraph: this.paragraph };
          this.words.push(w);
          x = w.box.x1 + gap;
        }
        this.line++;
        y += size * 1.25;
      }
      this.paragraph++;
    }
    return y;
  }

  raw(width = 2480, height = 3508): RawPage {
    return { number: 1, width, height, unit: 'px', dpi: 300, rotation: 0, skew: 0, words: this.words, graphics: NO_GRAPHICS, formFields: [], textSource: 'ocr' };
  }
}

function texts(page: Page): string[] {
  return page.blocks.map((block) => blockText(block, page));
}

describe('OCR pages keep the engine segmentation', () => {
  it('a justified line is one line and a paragraph one block, however wide its word gaps', () => {
    // A narrow justified column: word gaps of nearly two font sizes, as wide as a gutter.
    const page = new EnginePage();
    page.addBlock(200, 400, [['Like little question after', 'because we market come today', 'against a story'], ['Finally man between one', 'up story for number light']], SIZE * 1.8);
    const [analyzed] = analyzeDocument([page.raw()]);
    expect(analyzed.lines).toHaveLength(5);
    expect(texts(analyzed)).toEqual(['Like little question after because we market come today against a story', 'Finally man between one up story for number light']);
  });

  it("cuts an engine paragraph where the type size steps by a heading's ratio, so a heading the engine joined to its text stands alone", () => {
    const page = new EnginePage();
    // The engine put the heading (set a third as large again) in one paragraph with the text under it.
    page.addBlock(200, 400, [[['2 Methods', SIZE * 1.3], 'We measured the flow in every', 'channel twice a day'], ['A second paragraph of text', 'follows it here']]);
    page.addBlock(200, 900, [['Body text set a little larger', ['than the line before it', SIZE * 1.1]]]);
    const [analyzed] = analyzeDocument([page.raw()]);
    expect(texts(analyzed)).toEqual(['2 Methods', 'We measured the flow in every channel twice a day', 'A second paragraph of text follows it here', 'Body text set a little larger than the line before it']);
    expect(analyzed.blocks[0].type).toBe('heading');
  });

  it('takes a line numbered as a section two levels deep, alone at the body size, for a heading; not a sentence, a contents line or a row', () => {
    const page = new EnginePage();
    let y = page.addBlock(200, 300, [['2.1 Sample preparation']]);
    y = page.addBlock(200, y + SIZE, [['The samples were dried and weighed', 'before they were sealed again']]);
    y = page.addBlock(200, y + SIZE, [['2.5 Million people live here.']]);
    y = page.addBlock(200, y + SIZE, [['3.2 Methods ........ 7']]);
    // Two numbered labels side by side: cells of a row.
    page.addBlock(200, y + SIZE, [['4.1 Inputs']]);
    page.addBlock(1400, y + SIZE, [['4.2 Outputs']]);
    const [analyzed] = analyzeDocument([page.raw()]);
    const typed = Object.fromEntries(analyzed.blocks.map((block) => [blockText(block, analyzed), block.type]));
    expect(typed['2.1 Sample preparation']).toBe('heading');
    expect(typed['The samples were dried and weighed before they were sealed again']).toBe('paragraph');
    expect(typed['2.5 Million people live here.']).not.toBe('heading');
    expect(typed['3.2 Methods ........ 7']).not.toBe('heading');
    expect(typed['4.1 Inputs']).not.toBe('heading');
    expect(typed['4.2 Outputs']).not.toBe('heading');
  });

  it('reads blocks in the order the engine read them, not cut into rows across the columns', () => {
    // Two columns with a quote set across the gutter between their upper and lower parts; the
    // engine read the first column, the quote, then the second column.
    const page = new EnginePage();
    page.addBlock(200, 400, [['The first column begins', 'with its opening lines']]);
    page.addBlock(200, 1100, [['and the first column', 'ends down here below']]);
    page.addBlock(400, 800, [['A quote set across the gutter between the two columns']]);
    page.addBlock(1400, 400, [['The second column starts', 'at the top of the page']]);
    page.addBlock(1400, 1100, [['and the second column', 'closes the article']]);
    const [analyzed] = analyzeDocument([page.raw()]);
    expect(texts(analyzed)).toEqual([
      'The first column begins with its opening lines',
      'and the first column ends down here below',
      'A quote set across the gutter between the two columns',
      'The second column starts at the top of the page',
      'and the second column closes the article',
    ]);
  });

  it('puts a picture before the first block the engine read below it in its column', () => {
    const item = (ref: number, x0: number, y0: number, x1: number, y1: number, streamRank: number | null): OrderItem => ({ ref, box: { x0, y0, x1, y1 }, lineCount: streamRank === null ? 0 : 3, streamRank });
    const leftTop = item(0, 100, 100, 1000, 600, 0);
    const leftBottom = item(1, 100, 700, 1000, 1200, 10);
    const rightBelowPicture = item(2, 1200, 700, 2100, 1200, 20);
    const picture = item(3, 1200, 100, 2100, 600, null);
    const pictureAtFoot = item(4, 100, 1300, 1000, 1500, null);
    expect(engineOrder([picture, rightBelowPicture, leftBottom, pictureAtFoot, leftTop]).map((i) => i.ref)).toEqual([0, 1, 4, 3, 2]);
  });
});
