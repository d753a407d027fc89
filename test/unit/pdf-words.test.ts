// Words from PDFium's glyphs (formats/pdf.ts): where one word ends and the next begins.
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/pipeline/formats/pdf.js';
import { logicalBrackets } from '../../src/pipeline/formats/pdf-words.js';
import { word } from '../helpers/words.js';
import { analyzeDocument } from '../../src/pipeline/analysis/analyze-page.js';
import { pageText } from '../../src/pipeline/outputs/text.js';
import { spacedTextPdf, turnedLabelsPdf } from '../helpers/pdfs.js';

describe('letter-spaced text', () => {
  it('reads words set with character spacing whole, breaking only where the gap is wider than the letter spacing', async () => {
    const [raw] = await readPdf(
      await spacedTextPdf([
        { text: 'Double quote marks', charSpacing: 4 },
        { text: 'TRACKED HEADING', charSpacing: 6 },
        { text: 'Single quote', charSpacing: 2, wordSpacing: 6 },
        { text: 'Normal text here', charSpacing: 0 },
        { text: 'Wide tracking and wide words', charSpacing: 8, wordSpacing: 10 },
      ]),
    );
    expect(raw.words.map((w) => w.text).join(' ')).toBe('Double quote marks TRACKED HEADING Single quote Normal text here Wide tracking and wide words');
    expect(raw.words[0].letterSpacing).toBeCloseTo(4, 0);
    expect(raw.words.find((w) => w.text === 'Normal')!.letterSpacing).toBeUndefined();
    // Word gaps hold the letter spacing twice (after the letter and after the space): no gutter.
    const [page] = analyzeDocument([raw]);
    expect(pageText(page).split('\n').filter(Boolean)).toEqual(['Double quote marks', 'TRACKED HEADING', 'Single quote', 'Normal text here', 'Wide tracking and wide words']);
  });

  it('keeps marks set further apart than they are wide as separate words (a table row of ticks)', async () => {
    const [raw] = await readPdf(await spacedTextPdf([{ text: 'XXXX', charSpacing: 24 }]));
    expect(raw.words.map((w) => w.text)).toEqual(['X', 'X', 'X', 'X']);
  });
});

describe('text set in another direction', () => {
  it('reads glyphs running up or down the page as words and lines in their own direction', async () => {
    const [raw] = await readPdf(await turnedLabelsPdf());
    const up = raw.words.filter((w) => w.turn === 90);
    const down = raw.words.filter((w) => w.turn === 270);
    expect(up.map((w) => w.text)).toEqual(['Axial', 'load', '(kN)']);
    expect(down.map((w) => w.text)).toEqual(['Text', 'going', 'down', 'the', 'page']);
    expect(raw.words.filter((w) => !w.turn)).toHaveLength(23);
    // Boxes stay in the page's frame: an upward label is tall and narrow, its first word lowest.
    const axial = up[0].box;
    expect(axial.y1 - axial.y0).toBeGreaterThan(axial.x1 - axial.x0);
    expect(up[0].box.y0).toBeGreaterThan(up[2].box.y1);
    const [page] = analyzeDocument([raw]);
    const paragraphs = pageText(page).split('\n').filter(Boolean);
    expect(paragraphs).toContain('Axial load (kN)');
    expect(paragraphs).toContain('Text going down the page');
    const label = page.lines.find((l) => l.words.map((i) => raw.words[i].text).join(' ') === 'Axial load (kN)')!;
    expect(label.box.y1 - label.box.y0).toBeGreaterThan(50);
  });
});

describe('brackets beside right-to-left words', () => {
  it('puts a word of brackets, signs and figures drawn in visual order back in logical order beside a right-to-left word', () => {
    // The file draws "ספר (%)" right to left: the bracket word comes out as ")%(".
    const words = [word('ספר', 300, 100), word(')%(', 270, 100), word(')631(', 220, 100), word('ספר', 180, 100), word('(12)', 100, 200), word('-72.5%', 140, 200)];
    expect(logicalBrackets(words).map((w) => w.text)).toEqual(['ספר', '(%)', '(631)', 'ספר', '(12)', '-72.5%']);
  });
});
