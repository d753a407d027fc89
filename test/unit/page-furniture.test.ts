import { describe, expect, it } from 'vitest';
import { analyzeDocument, blockText } from '../../src/pipeline/analysis/analyze-page.js';
import { documentStats, pageTally } from '../../src/pipeline/analysis/document-stats.js';
import { pageText } from '../../src/pipeline/outputs/text.js';
import { NO_GRAPHICS, type Page, type RawPage, type Word } from '../../src/pipeline/page-model.js';

// Synthetic pages (origin top-left, y down): a character is half the font size wide.

const BODY = 'the quick brown fox jumps over the lazy dog and keeps running';

function lineWords(text: string, x0: number, y0: number, size = 10): Word[] {
  const out: Word[] = [];
  let x = x0;
  for (const t of text.split(' ')) {
    const width = t.length * size * 0.5;
    out.push({ text: t, box: { x0: x, y0, x1: x + width, y1: y0 + size }, fontName: 'Times', fontSize: size, bold: false, italic: false, confidence: 100, hyphenated: false });
    x += width + size * 0.3;
  }
  return out;
}

function rawPage(words: Word[], number: number): RawPage {
  return { number, width: 612, height: 792, unit: 'pt', rotation: 0, skew: 0, words, graphics: NO_GRAPHICS, formFields: [], textSource: 'text_layer' };
}

/** Ten lines of body text from y0. */
function body(y0: number, x0 = 72): Word[] {
  return Array.from({ length: 10 }, (_, i) => lineWords(`${BODY} ${i}`, x0, y0 + i * 12)).flat();
}

const typed = (page: Page) => page.blocks.map((b) => ({ type: b.type, text: blockText(b, page) }));

describe('page furniture (analysis/page-furniture.ts)', () => {
  it('a line recurring at the top of every page, numbers aside, is a page header even below the 7% band', () => {
    // 80 pt from the top is past the 7% band (55 pt) but inside the top eighth (95 pt).
    const pages = [1, 2, 3].map((n) => rawPage([...lineWords(`Annual review 2025, part ${n}`, 72, 80, 9), ...body(150)], n));
    const analysed = analyzeDocument(pages);
    for (const page of analysed) {
      expect(typed(page)[0]).toEqual({ type: 'page_header', text: `Annual review 2025, part ${page.number}` });
      expect(pageText(page)).not.toContain('Annual review');
    }
  });

  it('the same line on one page only is text', () => {
    const pages = [rawPage([...lineWords('Annual review 2025, part 1', 72, 80, 9), ...body(150)], 1), rawPage(body(150), 2)];
    const [first] = analyzeDocument(pages);
    expect(typed(first)[0].type).toBe('paragraph');
    expect(pageText(first)).toContain('Annual review 2025');
  });

  it('a short line in the top band is a page header nearest the edge, with text below it or not a sentence', () => {
    const withBody = analyzeDocument([rawPage([...lineWords('Internal memo', 72, 30, 9), ...body(150)], 1)]);
    expect(typed(withBody[0])[0]).toEqual({ type: 'page_header', text: 'Internal memo' });
    // Only the line and a page number at the foot: nothing for either to run around but the number.
    const [blank] = analyzeDocument([rawPage([...lineWords('This page is intentionally left blank.', 72, 30, 9), ...lineWords('7', 300, 760, 9)], 1)]);
    expect(typed(blank)).toEqual([
      { type: 'paragraph', text: 'This page is intentionally left blank.' },
      { type: 'page_footer', text: '7' },
    ]);
    expect(pageText(blank)).toBe('This page is intentionally left blank.');
    // A running head over an otherwise blank page is still the page's head.
    const [headed] = analyzeDocument([rawPage([...lineWords('Median market of fund', 72, 20, 9), ...lineWords('7', 300, 760, 9)], 1)]);
    expect(typed(headed).map((b) => b.type)).toEqual(['page_header', 'page_footer']);
    // A letter's last page: its closing within the top band, under the page's head.
    const [last] = analyzeDocument([rawPage([...lineWords('Clinical goal', 450, 16, 9), ...lineWords('Yours sincerely, Maria Andersen', 72, 40, 10)], 1)]);
    expect(typed(last)).toEqual([
      { type: 'page_header', text: 'Clinical goal' },
      { type: 'paragraph', text: 'Yours sincerely, Maria Andersen' },
    ]);
  });

  it('a large line recurring at the head of pages stays a heading', () => {
    const pages = [1, 2].map((n) => rawPage([...lineWords(`Chapter ${n}`, 72, 80, 18), ...body(150)], n));
    const analysed = analyzeDocument(pages);
    expect(analysed.map((p) => typed(p)[0].type)).toEqual(['title', 'heading']);
  });

  /** A preprint's stamp turned up the left margin from `bottom`: each word's box tall and narrow, the next one above it. */
  function stampWords(bottom: number): Word[] {
    let y = bottom;
    return 'arXiv:2401.01234v2 [cs.CL] 3 Jan 2024'.split(' ').map((t): Word => {
      const length = t.length * 7;
      y -= length + 4;
      return { text: t, box: { x0: 20, y0: y, x1: 34, y1: y + length }, fontName: 'Times', fontSize: 14, bold: false, italic: false, confidence: 100, hyphenated: false, turn: 270 };
    });
  }

  it('text turned up the outer margin is a marginal note, left out of the text', () => {
    const [page] = analyzeDocument([rawPage([...stampWords(600), ...body(150)], 1)]);
    expect(typed(page).find((b) => b.text.startsWith('arXiv'))?.type).toBe('marginal_note');
    expect(pageText(page)).not.toContain('arXiv');
  });

  it('text turned up the outer margin takes no part in a table beside it', () => {
    // A table of three columns, its rows level with the stamp's words.
    const rows = Array.from({ length: 12 }, (_, r) => [...lineWords(`Item ${r}`, 72, 250 + r * 20), ...lineWords(`${100 + r}.50`, 250, 250 + r * 20), ...lineWords(`${7 * r}%`, 400, 250 + r * 20)]).flat();
    const [page] = analyzeDocument([rawPage([...stampWords(520), ...rows], 1)]);
    expect(page.tables.length).toBe(1);
    expect(page.tables[0].columnCount).toBe(3);
    expect(JSON.stringify(page.tables[0].cells)).not.toContain('arXiv');
    expect(typed(page).find((b) => b.text.startsWith('arXiv'))?.type).toBe('marginal_note');
  });

  it('a note set smaller just right of the text, on the same lines, is a marginal note, not the end of those lines', () => {
    const lines = body(150);
    const right = Math.max(...lines.map((w) => w.box.x1));
    // Closer to the text than a space of the text's size (5 pt), further than one of its own (3.5 pt).
    const note = [...lineWords('Key point', right + 4.5, 150 + 2 * 12 + 1, 7), ...lineWords('of the year', right + 4.5, 150 + 3 * 12 + 1, 7)];
    const [page] = analyzeDocument([rawPage([...lines, ...note], 1)]);
    expect(typed(page).find((b) => b.text.includes('Key point'))?.type).toBe('marginal_note');
    expect(pageText(page)).not.toContain('Key point');
    expect(pageText(page)).toContain('keeps running 2');
  });

  /** Words of `text` set from x0 to x1 (ragged lines end where the text does), size 11. */
  function spanWords(text: string, x0: number, x1: number, y0: number, size = 11): Word[] {
    const parts = text.split(' ');
    const chars = parts.reduce((n, t) => n + t.length, 0);
    const space = size * 0.25;
    const per = (x1 - x0 - space * (parts.length - 1)) / chars;
    let x = x0;
    return parts.map((t) => {
      const word: Word = { text: t, box: { x0: x, y0, x1: x + t.length * per, y1: y0 + size * 1.3 }, fontName: 'Times', fontSize: size, bold: false, italic: false, confidence: 100, hyphenated: false };
      x = word.box.x1 + space;
      return word;
    });
  }

  it('a note set smaller beyond the end of a ragged line stays apart from it, and from a number the line ends with', () => {
    // Lines that end where their words do; a note 7 pt high stands 6.5 pt right of the longest, so
    // 15 pt beyond the first line of the second paragraph, less than a space and a half of the
    // text's size, with the lines around ending short of it; in the third, a justified line's
    // last word, a number set alone, ends at the body's edge beside another note.
    const first = Array.from({ length: 12 }, (_, i) => spanWords(`${BODY} ${i}`, 54, 556, 334 + i * 14.2)).flat();
    const second = [
      ...spanWords('Us project take Maria Ivanova private us who system from between many their protocol review small my just', 54, 547.6, 592),
      ...spanWords('row could provides is how period and absolute follows key 103 272 in minor may way product vector', 54, 535.8, 606.3),
      ...spanWords('those an on against.', 54, 140, 620.6),
      ...spanWords('Their just and stock inventory rose by a tenth. They product those', 54, 523, 680),
      ...spanWords('629', 534, 556, 680),
      ...spanWords('against might 895 by fixed loan go absolute like grant reduces', 54, 556, 694.2),
    ];
    const notes = [...lineWords('Increases dose', 562.5, 591.6, 7), ...lineWords('reflects life', 562.5, 599.9, 7), ...lineWords('global view', 562.5, 681, 7)];
    const [page] = analyzeDocument([rawPage([...first, ...second, ...notes], 1)]);
    const text = pageText(page);
    expect(text).not.toContain('dose');
    expect(text).not.toContain('global');
    expect(text).toContain('my just');
    expect(text).toContain('those 629');
    expect(typed(page).filter((b) => b.type === 'marginal_note').map((b) => b.text.replace(/\s+/g, ' ')).join(' ')).toBe('Increases dose reflects life global view');
  });

  it("text set smaller in a column of its own stays text where the document's other pages run their body across it", () => {
    // Two columns of body text on pages 1 to 3; page 4 has body text in its left column only, and
    // a caption and a listing set smaller in its right one.
    const column = (x0: number) => Array.from({ length: 30 }, (_, i) => lineWords('the quick brown fox jumps over it', x0, 100 + i * 12)).flat();
    const pages = [1, 2, 3].map((n) => rawPage([...column(54), ...column(320)], n));
    const side = [...lineWords('Figure 1: the yearly figures by region', 320, 200, 8), ...lineWords('total = sum(values) / count', 320, 220, 8)];
    pages.push(rawPage([...column(54), ...side], 4));
    const last = analyzeDocument(pages)[3];
    expect(pageText(last)).toContain('Figure 1: the yearly figures');
    expect(typed(last).filter((b) => b.type === 'marginal_note')).toEqual([]);
  });

  it('margin notes stay notes on a page where they hold more of the text than its body does at its edge', () => {
    // Eight notes of five words beside twelve lines: a tenth of the page's characters; two such pages.
    const lines = Array.from({ length: 12 }, (_, i) => lineWords(`${BODY} ${i}`, 72, 150 + i * 12)).flat();
    const right = Math.max(...lines.map((w) => w.box.x1));
    const notes = Array.from({ length: 8 }, (_, i) => lineWords('note on this very line', right + 8, 151 + i * 18, 7)).flat();
    const [page] = analyzeDocument([rawPage([...lines, ...notes], 1), rawPage([...lines, ...notes], 2)]);
    expect(pageText(page)).not.toContain('note on');
    expect(typed(page).filter((b) => b.type === 'marginal_note').length).toBeGreaterThan(0);
  });

  it('small numbers standing left of the body text are marginal notes (line numbers)', () => {
    const numbers = Array.from({ length: 10 }, (_, i) => lineWords(String(i + 1), 40, 151 + i * 12, 7)).flat();
    const [page] = analyzeDocument([rawPage([...numbers, ...body(150, 90)], 1)]);
    expect(pageText(page)).not.toMatch(/^\d+$/m);
    expect(typed(page).filter((b) => b.type === 'marginal_note').length).toBeGreaterThan(0);
  });

  it('body-size numbers out at the right of the text stay text (a table of contents)', () => {
    const entries = Array.from({ length: 10 }, (_, i) => [...lineWords(`${BODY} ${i}`, 72, 150 + i * 12), ...lineWords(String(10 * i + 3), 520, 150 + i * 12)]).flat();
    const [page] = analyzeDocument([rawPage(entries, 1)]);
    expect(typed(page).some((b) => b.type === 'marginal_note')).toBe(false);
    expect(pageText(page)).toContain('93');
  });

  it('a line opening two pages of many alike is text, and so is one whose numbers do not move with the page', () => {
    // Set well apart from the text below: only recurrence could make them furniture.
    const opening = (n: number) => (n <= 2 ? 'Proof:' : `Lemma ${n * 3}`);
    const pages = [1, 2, 3, 4, 5].map((n) => rawPage([...lineWords(opening(n), 72, 60), ...body(100)], n));
    const analysed = analyzeDocument(pages);
    expect(analysed.map((p) => pageText(p).split(/\s+/).slice(0, 2).join(' '))).toEqual(['Proof: the', 'Proof: the', 'Lemma 9', 'Lemma 12', 'Lemma 15']);
  });

  it('the document statistics name running lines found on two pages at one height', () => {
    const tallies = [1, 2].map((n) => pageTally(rawPage([...lineWords(`Page ${n} of 2`, 280, 760, 9), ...body(150)], n)));
    expect(documentStats(tallies).runningLines).toEqual([{ key: 'page # of #', y: expect.closeTo(764.5 / 792, 3) }]);
  });

  it("the document's body size is its running text's, however much smaller type its tables hold", () => {
    // Forty rows of three 8-point cells, a column's gap apart, against five lines of 11-point prose.
    const cells = Array.from({ length: 40 }, (_, row) => ['Regional margin', '12,450.00', '(3,210.75)'].flatMap((cell, col) => lineWords(cell, 72 + col * 150, 300 + row * 10, 8))).flat();
    const prose = Array.from({ length: 5 }, (_, i) => lineWords(`${BODY} ${i}`, 72, 150 + i * 14, 11)).flat();
    const stats = documentStats([pageTally(rawPage([...prose, ...cells], 1))]);
    expect(stats.bodyFontSize).toBe(11);
    // With no running text to speak of (a page of tables alone), all the text decides.
    expect(documentStats([pageTally(rawPage(cells, 1))]).bodyFontSize).toBe(8);
  });
});
