import { describe, expect, it } from 'vitest';
import { analyzeDocument } from '../../src/pipeline/analysis/analyze-page.js';
import { pageMarkdown } from '../../src/pipeline/outputs/markdown.js';
import { pageText } from '../../src/pipeline/outputs/text.js';
import { documentMarkdown, documentText, FIGURE_MARKER } from '../../src/page-outputs/document-text.js';
import type { WireTable } from '../../src/page-outputs/shapes.js';
import { NO_GRAPHICS, type Block, type BlockType, type Box, type Figure, type Line, type Page, type Word } from '../../src/pipeline/page-model.js';

// A hand-built analyzed page: each block is a list of line texts; every line is 12 units tall and
// short (well under 80% of the block's 500-unit width), so lines inside a block keep their breaks.

interface BlockSpec {
  type: BlockType;
  lines: string[];
  level?: number;
  figure?: number;
}

function page(specs: BlockSpec[], figures: Figure[] = []): Page {
  const words: Word[] = [];
  const lines: Line[] = [];
  const blocks: Block[] = [];
  let y = 50;
  for (const spec of specs) {
    const lineIndexes: number[] = [];
    const top = y;
    for (const text of spec.lines) {
      const wordIndexes: number[] = [];
      let x = 50;
      for (const t of text.split(' ')) {
        const box: Box = { x0: x, y0: y, x1: x + t.length * 5, y1: y + 10 };
        wordIndexes.push(words.length);
        words.push({ text: t, box, fontName: 'Helvetica', fontSize: 10, bold: false, italic: false, confidence: 100, hyphenated: false });
        x = box.x1 + 3;
      }
      lineIndexes.push(lines.length);
      lines.push({ words: wordIndexes, box: { x0: 50, y0: y, x1: Math.min(x, 200), y1: y + 10 } });
      y += 12;
    }
    const box: Box = spec.type === 'figure' ? figures[spec.figure!].box : { x0: 50, y0: top, x1: 550, y1: Math.max(y - 2, top + 10) };
    blocks.push({ type: spec.type, lines: lineIndexes, box, ...(spec.level ? { level: spec.level } : {}), ...(spec.figure !== undefined ? { figure: spec.figure } : {}) });
    y += 20;
  }
  return { number: 1, width: 612, height: 792, unit: 'pt', rotation: 0, skew: 0, textSource: 'text_layer', words, lines, blocks, figures, tables: [], keyValues: [] };
}

describe('documentText (include=text: every page under a "=== Page N ===" line)', () => {
  it('joins pages as "=== Page N ===" and the text, a blank line apart', () => {
    expect(
      documentText([
        { page_number: 1, text: 'First page.' },
        { page_number: 2, text: 'Second page,\ntwo lines.' },
      ]),
    ).toBe('=== Page 1 ===\nFirst page.\n\n=== Page 2 ===\nSecond page,\ntwo lines.');
  });

  it('keeps an empty page and its header', () => {
    expect(documentText([{ page_number: 1, text: '' }, { page_number: 2, text: 'x' }])).toBe('=== Page 1 ===\n\n\n=== Page 2 ===\nx');
  });

  it('no pages give an empty string', () => {
    expect(documentText([])).toBe('');
  });
});

describe('pageText (docs/api.md Page.text: reading order, figures as [FIGURE])', () => {
  it('blocks a blank line apart, shown figures as markers, hidden figures left out', () => {
    const figures: Figure[] = [
      { box: { x0: 50, y0: 300, x1: 400, y1: 500 }, index: 0, caption: null, text: "" },
      { box: { x0: 50, y0: 510, x1: 55, y1: 515 }, index: null, caption: null, text: "" },
    ];
    const p = page(
      [
        { type: 'heading', lines: ['Intro'], level: 1 },
        { type: 'paragraph', lines: ['Some text.'] },
        { type: 'figure', lines: [], figure: 0 },
        { type: 'figure', lines: [], figure: 1 },
        { type: 'caption', lines: ['Figure 1. A chart'] },
      ],
      figures,
    );
    expect(pageText(p)).toBe(`Intro\n\nSome text.\n\n${FIGURE_MARKER}\n\nFigure 1. A chart`);
  });

  it('agrees with the layout analysis of a real page', () => {
    const word = (text: string, x0: number, y0: number): Word => ({
      text,
      box: { x0, y0, x1: x0 + text.length * 5, y1: y0 + 10 },
      fontName: 'Helvetica',
      fontSize: 10,
      bold: false,
      italic: false,
      confidence: 100,
      hyphenated: false,
    });
    const [analyzed] = analyzeDocument([
      { number: 1, width: 612, height: 792, unit: 'pt', rotation: 0, skew: 0, textSource: 'text_layer', graphics: NO_GRAPHICS, formFields: [], words: [word('Hello', 50, 100), word('world.', 78, 100)] },
    ]);
    expect(pageText(analyzed)).toBe('Hello world.');
  });
});

describe('pageText leaves page furniture out', () => {
  it('drops blocks typed page_header and page_footer, keeping the rest in order', () => {
    const p = page([
      { type: 'page_header', lines: ['ACME Corp annual report'] },
      { type: 'heading', lines: ['Background'], level: 1 },
      { type: 'paragraph', lines: ['Plain text.'] },
      { type: 'page_footer', lines: ['Page 7 of 12'] },
    ]);
    expect(pageText(p)).toBe('Background\n\nPlain text.');
  });
});

describe('pageMarkdown / documentMarkdown (include=markdown)', () => {
  it('renders title, headings by level, list items and paragraphs; leaves out headers and footers', () => {
    const p = page([
      { type: 'page_header', lines: ['ACME Corp'] },
      { type: 'title', lines: ['Annual', 'Report'] },
      { type: 'heading', lines: ['Background'], level: 1 },
      { type: 'heading', lines: ['Details'], level: 2 },
      { type: 'list_item', lines: ['• apples'] },
      { type: 'list_item', lines: ['2) pears'] },
      { type: 'list_item', lines: ['(3) plums'] },
      { type: 'paragraph', lines: ['Plain text.'] },
      { type: 'page_footer', lines: ['7'] },
    ]);
    // A number keeps the delimiter it is printed with where markdown has one.
    expect(pageMarkdown(p)).toBe('# Annual Report\n\n## Background\n\n### Details\n\n- apples\n\n2) pears\n3. plums\n\nPlain text.');
  });

  it('a paragraph line beginning with "# " is escaped', () => {
    expect(pageMarkdown(page([{ type: 'paragraph', lines: ['# not a heading'] }]))).toBe('\\# not a heading');
    // A "#" alone on its line (a symbol font's glyph) is no empty heading.
    expect(pageMarkdown(page([{ type: 'paragraph', lines: ['#'] }, { type: 'paragraph', lines: ['Text', '##'] }]))).toBe('\\#\n\nText\n\\##');
  });

  it('a paragraph line beginning with "1. " is escaped', () => {
    expect(pageMarkdown(page([{ type: 'paragraph', lines: ['1. not a list'] }]))).toBe('1\\. not a list');
    expect(pageMarkdown(page([{ type: 'paragraph', lines: ['12) not a list either'] }]))).toBe('12\\) not a list either');
  });

  it('every line of a paragraph is escaped, not just the first', () => {
    const p = page([{ type: 'paragraph', lines: ['Totals', '- 5 items', '> 3 boxes', '+ 2 more', '* 1 left'] }]);
    expect(pageMarkdown(p)).toBe('Totals\n\\- 5 items\n\\> 3 boxes\n\\+ 2 more\n\\* 1 left');
  });

  it("escapes underscores and a backslash before punctuation, so a form's blanks and identifiers are no emphasis", () => {
    const p = page([
      { type: 'paragraph', lines: ['Other (Please specify) ______', 'FCNID(QIBM_DB_SECADM) and a\\_b'] },
      { type: 'heading', lines: ['The _init_ hook'], level: 1 },
      { type: 'list_item', lines: ['• ____ at the national level'] },
    ]);
    expect(pageMarkdown(p)).toBe(
      'Other (Please specify) \\_\\_\\_\\_\\_\\_\nFCNID(QIBM\\_DB\\_SECADM) and a\\\\\\_b\n\n## The \\_init\\_ hook\n\n- \\_\\_\\_\\_ at the national level',
    );
  });

  it('leaves an equation between dollars as LaTeX, and escapes prices between dollars as text', () => {
    const p = page([{ type: 'paragraph', lines: ['The mean is $\\hat{x}$ and $$\\sum_{i=1}^{n}\\frac{x}{n}$$, at $5 and $6_a.'] }]);
    expect(pageMarkdown(p)).toBe('The mean is $\\hat{x}$ and $$\\sum_{i=1}^{n}\\frac{x}{n}$$, at $5 and $6\\_a.');
  });

  it('text that is not markup is left alone', () => {
    const p = page([{ type: 'paragraph', lines: ['#hashtag', '-5 degrees', '2024.', '3.5 percent'] }]);
    expect(pageMarkdown(p)).toBe('#hashtag\n-5 degrees\n2024.\n3.5 percent');
  });

  // Source bug (reported): escapeLineStart only escapes a single marker character followed by
  // whitespace, so a paragraph line "## Notes" comes out as a level-2 markdown heading.
  it('a paragraph line beginning with "## " is escaped too', () => {
    expect(pageMarkdown(page([{ type: 'paragraph', lines: ['## not a heading'] }]))).not.toMatch(/^##\s/);
  });

  it('figures: shown ones become <!-- image -->, hidden ones nothing', () => {
    const figures: Figure[] = [
      { box: { x0: 50, y0: 300, x1: 400, y1: 500 }, index: 0, caption: null, text: "" },
      { box: { x0: 50, y0: 510, x1: 55, y1: 515 }, index: null, caption: null, text: "" },
    ];
    const p = page(
      [
        { type: 'figure', lines: [], figure: 0 },
        { type: 'figure', lines: [], figure: 1 },
        { type: 'caption', lines: ['Figure 1. Sales'] },
      ],
      figures,
    );
    expect(pageMarkdown(p)).toBe('<!-- image -->\n\nFigure 1. Sales');
  });

  it('documentMarkdown joins non-empty pages a blank line apart and ends with a newline', () => {
    const plain = (markdown: string) => ({ markdown, tables: [] });
    expect(documentMarkdown([plain('# One'), plain(''), plain('Two')])).toBe('# One\n\nTwo\n');
    expect(documentMarkdown([])).toBe('\n');
  });

  it('documentMarkdown joins a table continued over page breaks into one, its repeated header left out', () => {
    const table = (markdown: string, flags: Partial<WireTable>): WireTable => ({
      rows: [], columns: 2, markdown, header_rows: 1, cells: [], bbox: { left: 0, top: 0, width: 1, height: 1 },
      continued_from_previous_page: false, continues_on_next_page: false, ...flags,
    });
    const first = '| A | B |\n| --- | --- |\n| 1 | 2 |';
    const second = '| A | B |\n| --- | --- |\n| 3 | 4 |';
    const third = '| 5 | 6 |\n| --- | --- |\n| 7 | 8 |';
    const pages = [
      { markdown: `# Sales\n\n${first}`, tables: [table(first, { continues_on_next_page: true })] },
      { markdown: second, tables: [table(second, { continued_from_previous_page: true, continues_table: 0, continues_on_next_page: true })] },
      { markdown: `${third}\n\nAfter.`, tables: [table(third, { continued_from_previous_page: true, continues_table: 0 })] },
      { markdown: first, tables: [table(first, {})] },
    ];
    expect(documentMarkdown(pages)).toBe(`# Sales\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n| 7 | 8 |\n\nAfter.\n\n${first}\n`);
  });
});
