import { describe, expect, it } from 'vitest';
import { analyzeDocument, blockText } from '../../src/pipeline/analysis/analyze-page.js';
import { lineNumberRulers } from '../../src/pipeline/analysis/line-numbers.js';
import { pageText } from '../../src/pipeline/outputs/text.js';
import { NO_GRAPHICS, type RawPage, type Word } from '../../src/pipeline/page-model.js';

// Synthetic pages (origin top-left, y down): a character is half the font size wide.

function word(text: string, x0: number, y0: number, size: number): Word {
  return { text, box: { x0, y0, x1: x0 + text.length * size * 0.5, y1: y0 + size }, fontName: 'Times', fontSize: size, bold: false, italic: false, confidence: 100, hyphenated: false };
}

function lineWords(text: string, x0: number, y0: number, size = 10): Word[] {
  const out: Word[] = [];
  let x = x0;
  for (const t of text.split(' ')) {
    out.push(word(t, x, y0, size));
    x += t.length * size * 0.5 + size * 0.3;
  }
  return out;
}

/** Numbers right-aligned at `right`, one every `pitch` points from `y0`, counting from `first`. */
function ruler(count: number, first: number, right: number, y0: number, pitch: number, size = 7): Word[] {
  return Array.from({ length: count }, (_, i) => {
    const text = String(first + i);
    return word(text, right - text.length * size * 0.5, y0 + i * pitch, size);
  });
}

function rawPage(words: Word[]): RawPage {
  return { number: 1, width: 612, height: 792, unit: 'pt', rotation: 0, skew: 0, words, graphics: NO_GRAPHICS, formFields: [], textSource: 'text_layer' };
}

const BODY = 'the quick brown fox jumps over the lazy dog and keeps running along';

describe('line-number rulers (analysis/line-numbers.ts)', () => {
  // A title at 20 pt spans two of the ruler's rows; body lines at 10 pt run on a pitch of their own.
  const title = lineWords('Early results of the survey', 80, 80, 20);
  const body = Array.from({ length: 12 }, (_, i) => lineWords(`${BODY} ${i}`, 80, 120 + i * 14)).flat();
  const numbers = ruler(20, 41, 70, 78, 13);

  it('a ruler that leaves lines unnumbered (where a figure stands) is one ruler, its short runs across the gaps included', () => {
    // 41 and 42, 45, 47, then 48 to 60: no run but the last counts five numbers on its own.
    const gapped = numbers.filter((w) => ![43, 44, 46].includes(Number(w.text)));
    const words = [...gapped, ...title, ...body];
    expect([...lineNumberRulers(words, new Set())].sort((a, b) => a - b)).toEqual(gapped.map((_, i) => i));
    // A number standing off the ruler's count (a figure's label level with no line) stays out.
    const label = word('44', 70 - 7, 78 + 3.6 * 13, 7);
    expect(lineNumberRulers([...gapped, label, ...title, ...body], new Set()).has(gapped.length)).toBe(false);
  });

  it('a column of smaller numbers counting down the margin is a ruler, apart from the text and out of it', () => {
    const words = [...numbers, ...title, ...body];
    expect([...lineNumberRulers(words, new Set())].sort((a, b) => a - b)).toEqual(numbers.map((_, i) => i));
    const [page] = analyzeDocument([rawPage(words)]);
    const notes = page.blocks.filter((b) => b.type === 'marginal_note');
    expect(notes.map((b) => blockText(b, page)).join(' ').split(/\s+/)).toEqual(numbers.map((w) => w.text));
    const title0 = page.blocks.find((b) => b.type === 'title');
    expect(title0 && blockText(title0, page)).toBe('Early results of the survey');
    const text = pageText(page);
    for (const n of numbers) expect(text.split(/\s+/)).not.toContain(n.text);
    expect(text).toContain(`${BODY} 11`);
  });

  it('numbers at the size of the text beside them, numbers with text on both sides, or not counting, are not', () => {
    const sameSize = ruler(8, 1, 70, 120, 14, 10);
    expect(lineNumberRulers([...sameSize, ...body], new Set()).size).toBe(0);
    const between = ruler(8, 1, 70, 120, 14).map((w) => ({ ...w, box: { ...w.box, x0: w.box.x0 + 300, x1: w.box.x1 + 300 } }));
    expect(lineNumberRulers([...between, ...body], new Set()).size).toBe(0);
    const amounts = ['12', '7', '310', '45', '9', '88'].map((t, i) => word(t, 70 - t.length * 3.5, 120 + i * 14, 7));
    expect(lineNumberRulers([...amounts, ...body], new Set()).size).toBe(0);
  });

  it('on a scanned page too, a ruler beside a table is no column of it', () => {
    // Read by OCR: each line of text and each number of the ruler a line of the engine's.
    const rows = [
      ['Project', 'Change', 'Threshold', 'Region'],
      ['Initial', '87,276.24', '51,272.27', '4,239'],
      ['Final', '21', '97,170.65', '3,809'],
      ['Internal', '21,134.38', '266', '2,281'],
      ['Total', '108,431.62', '148,709.00', '10,329'],
    ];
    const table = rows.flatMap((cells, r) => cells.flatMap((cell, c) => lineWords(cell, 80 + c * 110, 200 + r * 14)));
    const prose = [...Array.from({ length: 6 }, (_, i) => lineWords(BODY, 80, 78 + i * 14)), ...Array.from({ length: 6 }, (_, i) => lineWords(BODY, 80, 284 + i * 14))];
    const numbers = ruler(22, 1, 70, 78, 14);
    const lines = [...numbers.map((w) => [w]), ...prose, ...table.map((w) => [w])];
    const words = lines.flatMap((line, l) => line.map((w) => ({ ...w, ocrLine: l, ocrParagraph: l, confidence: 95 })));
    const [page] = analyzeDocument([{ ...rawPage(words), textSource: 'ocr' }]);
    expect(page.tables).toHaveLength(1);
    const [found] = page.tables;
    expect(found.columnCount).toBe(4);
    expect(found.cells.filter((c) => c.row === 0).map((c) => c.text)).toEqual(rows[0]);
  });

  it('a ruler drawn apart from its lines (in runs of numbers, as a text layer may write them) joins no block of the text', () => {
    // A ruler set tight (12 points a line) is one block of numbers. Short lines beside it (a
    // heading, a label) are no prose; drawn between two runs of its numbers, they would interleave
    // with it and be read as one block with it, and with the text it then touches.
    const tight = ruler(16, 1, 70, 78, 12);
    const heading = lineWords('Key results', 80, 77, 12);
    const label = lineWords('Net change', 80, 102);
    const text = Array.from({ length: 12 }, (_, i) => lineWords(BODY, 80, 126 + i * 12, 9)).flat();
    const words = [...tight.slice(0, 8), ...heading, ...label, ...tight.slice(8), ...text];
    const [page] = analyzeDocument([rawPage(words)]);
    const notes = page.blocks.filter((b) => b.type === 'marginal_note');
    expect(notes.flatMap((b) => blockText(b, page).split(/\s+/))).toEqual(tight.map((w) => w.text));
    const read = pageText(page);
    expect(read.startsWith('Key results')).toBe(true);
    for (const n of tight) expect(read.split(/\s+/)).not.toContain(n.text);
  });
});
