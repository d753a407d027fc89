import { describe, expect, it } from 'vitest';
import { analyzeDocument, blockText } from '../../src/pipeline/analysis/analyze-page.js';
import { codeFaceOf, looksLikeFormula } from '../../src/pipeline/analysis/code-and-formulas.js';
import { pageMarkdown } from '../../src/pipeline/outputs/markdown.js';
import { NO_GRAPHICS, type Page, type RawPage, type Word } from '../../src/pipeline/page-model.js';

// Synthetic pages (origin top-left, y down): a character is 0.6 of the font size wide.

const BODY = 'the quick brown fox jumps over the lazy dog and keeps running';

function lineWords(text: string, x0: number, y0: number, fontName = 'Times-Roman', size = 10): Word[] {
  const out: Word[] = [];
  let x = x0;
  for (const t of text.split(' ')) {
    if (!t) {
      x += size * 0.6;
      continue;
    }
    const width = t.length * size * 0.6;
    out.push({ text: t, box: { x0: x, y0, x1: x + width, y1: y0 + size }, fontName, fontSize: size, bold: false, italic: false, confidence: 100, hyphenated: false });
    x += width + size * 0.6;
  }
  return out;
}

function rawPage(words: Word[]): RawPage {
  return { number: 1, width: 612, height: 792, unit: 'pt', rotation: 0, skew: 0, words, graphics: NO_GRAPHICS, formFields: [], textSource: 'text_layer' };
}

function prose(y0: number, lines = 6): Word[] {
  return Array.from({ length: lines }, (_, i) => lineWords(`${BODY} ${i}`, 72, y0 + i * 12)).flat();
}

const typed = (page: Page) => page.blocks.map((b) => ({ type: b.type, text: blockText(b, page) }));

describe('formulas (analysis/code-and-formulas.ts)', () => {
  it('tells a display formula from prose with an equals sign', () => {
    expect(looksLikeFormula('x = (-b + √(b² - 4ac)) / 2a (22)')).toBe(true);
    expect(looksLikeFormula('ŷ = argmax_y p(y | x; θ)')).toBe(true);
    expect(looksLikeFormula('E = ρ / ε₀ · ∇')).toBe(true);
    expect(looksLikeFormula('Revenue = price × volume, summed over the regions')).toBe(false);
    expect(looksLikeFormula('Results of the second survey')).toBe(false);
    // A name carrying an index or exponent is a symbol, however long: not a prose word.
    expect(looksLikeFormula('itemsₜ₊₁ = itemsₜ − η ∇L(itemsₜ)')).toBe(true);
    expect(looksLikeFormula('where items = the things the study counts')).toBe(false);
  });

  it("keeps a display formula's number on its line across the gap to the right margin, and the formula apart from the paragraphs around it", () => {
    // The formula centred, its number at the right margin, the paragraphs right above and below it at their usual pitch.
    const formula = [...lineWords('xₜ₊₁ = xₜ − η ∇L(xₜ)', 230, 172, 'Times-Italic'), ...lineWords('(7)', 520, 172)];
    const [page] = analyzeDocument([rawPage([...prose(100), ...formula, ...prose(184)])]);
    const blocks = typed(page);
    expect(blocks.map((b) => b.type)).toEqual(['paragraph', 'formula', 'paragraph']);
    expect(blocks[1].text).toBe('xₜ₊₁ = xₜ − η ∇L(xₜ) (7)');
    expect(pageMarkdown(page)).toContain('$$\nxₜ₊₁ = xₜ − η ∇L(xₜ) \\tag{7}\n$$');
  });

  it('a formula set larger than the body is a formula, not a heading, and $$ in markdown with its number as a tag', () => {
    const [page] = analyzeDocument([rawPage([...prose(100), ...lineWords('y = f(x) + ε (3)', 200, 190, 'Times-Italic', 12), ...prose(220)])]);
    expect(typed(page).find((b) => b.text.startsWith('y ='))).toEqual({ type: 'formula', text: 'y = f(x) + ε (3)' });
    expect(pageMarkdown(page)).toContain('$$\ny = f(x) + ε \\tag{3}\n$$');
    expect(pageMarkdown(page)).not.toMatch(/^#+ y =/m);
  });
});

describe('code (analysis/code-and-formulas.ts)', () => {
  const listing = [
    '1  def total(items):',
    '2      sum = 0',
    '3      for item in items:',
    '4          sum += item.price',
    '5      return sum',
  ];
  const codeWords = listing.flatMap((line, i) => lineWords(line, 90, 200 + i * 11, 'DejaVuSansMono', 9));

  it('a listing in a monospaced face is one code block, indented as set, never a table', () => {
    const [page] = analyzeDocument([rawPage([...prose(100, 6), ...codeWords, ...prose(270, 6)])]);
    expect(page.tables).toHaveLength(0);
    const code = typed(page).filter((b) => b.type === 'code');
    expect(code).toHaveLength(1);
    expect(code[0].text).toBe(listing.join('\n'));
    expect(pageMarkdown(page)).toContain(['```', ...listing, '```'].join('\n'));
  });

  it('in a document set in a monospaced face, nothing is code for its face', () => {
    const mono = Array.from({ length: 6 }, (_, i) => lineWords(`${BODY} ${i}`, 72, 100 + i * 12, 'Courier')).flat();
    const [page] = analyzeDocument([rawPage(mono)]);
    expect(typed(page).map((b) => b.type)).toEqual(['paragraph']);
  });

  it('in a document set in a monospaced face, a listing in another monospaced family is code, never a table', () => {
    const body = (y0: number) => Array.from({ length: 6 }, (_, i) => lineWords(`${BODY} ${i}`, 72, y0 + i * 12, 'LiberationMono')).flat();
    const [page] = analyzeDocument([rawPage([...body(100), ...codeWords, ...body(270)])]);
    expect(page.tables).toHaveLength(0);
    expect(typed(page).map((b) => b.type)).toEqual(['paragraph', 'code', 'paragraph']);
    expect(codeFaceOf({ bodyFont: 'LiberationMono', monospacedFonts: [] })({ fontName: 'ABCDEF+LiberationMono-Bold' } as Word)).toBe(false);
    expect(codeFaceOf({ bodyFont: 'CourierNewPSMT', monospacedFonts: [] })({ fontName: 'CourierNewPS-BoldMT' } as Word)).toBe(false);
  });

  it('a listing right above a table of aligned text stays code; its lines are not rows of the table', () => {
    // The listing's lines break at wide gaps too ("x  = 1" set with its spaces), close above the table.
    const tight = ['1  rate  = 0.25', '2  total = rate * 4', '3  print(total)'].flatMap((line, i) => lineWords(line, 72, 200 + i * 11, 'DejaVuSansMono', 9));
    const table = [
      ['Region', 'Units', 'Share'],
      ['North', '120', '31%'],
      ['South', '95', '24%'],
      ['East', '170', '45%'],
    ].flatMap((row, r) => row.flatMap((cell, c) => lineWords(cell, 72 + c * 110, 236 + r * 12)));
    const [page] = analyzeDocument([rawPage([...prose(100, 6), ...tight, ...table, ...prose(300, 6)])]);
    expect(page.tables).toHaveLength(1);
    expect(page.tables[0].rowCount).toBe(4);
    expect(typed(page).find((b) => b.type === 'code')?.text).toBe('1  rate  = 0.25\n2  total = rate * 4\n3  print(total)');
  });
});
