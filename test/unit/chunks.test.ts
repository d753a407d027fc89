import { describe, expect, it } from 'vitest';
import { chunkPages, type ChunkablePage } from '../../src/page-outputs/chunks.js';
import type { LayoutElement, WireTable } from '../../src/page-outputs/shapes.js';
import { lengthTokens } from '../../src/domain/model.js';

const box = (top: number, height = 0.02) => ({ left: 0.1, top, width: 0.8, height });

function element(type: string, text: string, top: number, extra: Partial<LayoutElement> = {}): LayoutElement {
  return { type, text, bbox: box(top), reading_order: 0, lines: [{ text, bbox: box(top) }], ...extra };
}

function table(rows: string[][], top: number, flags: Partial<WireTable> = {}): { element: LayoutElement; table: WireTable } {
  const markdown = [rows[0], rows[0].map(() => '---'), ...rows.slice(1)].map((r) => `| ${r.join(' | ')} |`).join('\n');
  const cells = rows.flatMap((r, row) => r.map((text, column) => ({ row, column, row_span: 1, column_span: 1, text, bbox: { left: 0.1 + column * 0.2, top: top + row * 0.01, width: 0.2, height: 0.01 } })));
  const bbox = box(top, rows.length * 0.01);
  return {
    element: { type: 'table', text: markdown, bbox, reading_order: 0 },
    table: { rows, columns: rows[0].length, markdown, header_rows: 1, cells, bbox, continued_from_previous_page: false, continues_on_next_page: false, ...flags },
  };
}

const words = (n: number, seed = 'word') => Array.from({ length: n }, (_, i) => `${seed}${i}`).join(' ');

describe('chunks', () => {
  it('starts a chunk at each heading and carries the headings above it, outermost first', () => {
    const page: ChunkablePage = {
      page: 1,
      tables: [],
      layout: [
        element('page_header', 'Running header', 0.01),
        element('title', 'The Book', 0.05),
        element('heading', '1 Intro', 0.1, { level: 1 }),
        element('paragraph', 'Intro text.', 0.15),
        element('heading', '1.1 Detail', 0.2, { level: 2 }),
        element('paragraph', 'Detail text.', 0.25),
        element('figure', 'Figure 1: a caption', 0.3, { figure_index: 0 }),
        element('caption', 'Figure 1: a caption', 0.4),
        element('heading', '2 Next', 0.5, { level: 1 }),
        element('list_item', '- an item', 0.55),
        element('page_footer', '7', 0.97),
      ],
    };
    const chunks = chunkPages([page], { maxTokens: 512, analysis: 'layout' });
    expect(chunks.map((c) => c.text)).toEqual(['The Book\n\n1 Intro\n\nIntro text.', '1.1 Detail\n\nDetail text.\n\nFigure 1: a caption', '2 Next\n\n- an item']);
    expect(chunks.map((c) => c.headings)).toEqual([['The Book', '1 Intro'], ['The Book', '1 Intro', '1.1 Detail'], ['The Book', '2 Next']]);
    expect(chunks.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(chunks[0].boxes).toHaveLength(3);
    expect(chunks.every((c) => c.pages.length === 1 && c.pages[0] === 1)).toBe(true);
  });

  it('packs paragraphs up to the limit, never over it, and cuts a longer one at words with its lines', () => {
    const long = words(400);
    const lines = Array.from({ length: 10 }, (_, i) => ({ text: `line ${i}`, bbox: box(0.1 + i * 0.05) }));
    const page: ChunkablePage = {
      page: 3,
      tables: [],
      layout: [element('paragraph', words(30, 'a'), 0.02), element('paragraph', words(30, 'b'), 0.05), element('paragraph', long, 0.1, { lines })],
    };
    const chunks = chunkPages([page], { maxTokens: 64, analysis: 'layout' });
    for (const chunk of chunks) {
      expect(chunk.tokens).toBe(lengthTokens(chunk.text.length));
      expect(chunk.tokens).toBeLessThanOrEqual(64);
    }
    // Every word once, in order.
    expect(chunks.map((c) => c.text).join(' ').split(/\s+/)).toEqual([words(30, 'a'), words(30, 'b'), long].join(' ').split(' '));
    // The cut paragraph's parts hold its lines in order, from the first to the last.
    const cut = chunks.filter((c) => c.text.includes('word'));
    expect(cut[0].boxes[0].top).toBeCloseTo(0.1);
    expect(cut.at(-1)!.boxes.at(-1)!.top).toBeCloseTo(0.55);
    expect(cut.every((c) => c.boxes.length < 10)).toBe(true);
  });

  it('cuts a table too big for one chunk between rows, with its header row in every part', () => {
    const rows = [['Name', 'Value'], ...Array.from({ length: 60 }, (_, i) => [`item ${i}`, `${i * 7}`])];
    const { element: el, table: t } = table(rows, 0.1);
    const chunks = chunkPages([{ page: 1, layout: [element('paragraph', 'Before.', 0.05), el], tables: [t] }], { maxTokens: 128, analysis: 'layout' });
    expect(chunks[0].text).toBe('Before.');
    const parts = chunks.slice(1);
    expect(parts.length).toBeGreaterThan(1);
    const bodyRows: string[] = [];
    for (const part of parts) {
      expect(part.tokens).toBeLessThanOrEqual(128);
      const lines = part.text.split('\n');
      expect(lines.slice(0, 2)).toEqual(['| Name | Value |', '| --- | --- |']);
      bodyRows.push(...lines.slice(2));
      // One box per row shown: the header's and each body row's.
      expect(part.boxes).toHaveLength(lines.length - 1);
    }
    expect(bodyRows).toEqual(rows.slice(1).map((r) => `| ${r.join(' | ')} |`));
  });

  it('joins a table continued on the next page into one, its repeated header once', () => {
    const first = table([['A', 'B'], ['1', '2'], ['3', '4']], 0.7, { continues_on_next_page: true });
    const second = table([['A', 'B'], ['5', '6']], 0.05, { continued_from_previous_page: true, continues_table: 0 } as Partial<WireTable>);
    const chunks = chunkPages(
      [
        { page: 1, layout: [first.element, element('page_footer', 'p. 1', 0.97)], tables: [first.table] },
        { page: 2, layout: [element('page_header', 'Header', 0.01), second.element, element('paragraph', 'After.', 0.5)], tables: [second.table] },
      ],
      { maxTokens: 512, analysis: 'layout' },
    );
    expect(chunks).toHaveLength(1);
    expect(chunks[0].text).toBe('| A | B |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n\nAfter.');
    expect(chunks[0].pages).toEqual([1, 2]);
  });

  it('chunks a read document by paragraph, without headings', () => {
    const page: ChunkablePage = { page: 1, tables: [], layout: [element('heading', 'Title-like', 0.05, { level: 1 }), element('paragraph', 'Body.', 0.1)] };
    const chunks = chunkPages([page], { maxTokens: 512, analysis: 'read' });
    expect(chunks).toEqual([expect.objectContaining({ text: 'Title-like\n\nBody.', headings: [] })]);
  });

  it('cuts a table row longer than a chunk between cells', () => {
    const wide = [['h1', 'h2', 'h3'], [words(60, 'x'), words(60, 'y'), words(60, 'z')]];
    const { element: el, table: t } = table(wide, 0.1);
    const chunks = chunkPages([{ page: 1, layout: [el], tables: [t] }], { maxTokens: 64, analysis: 'layout' });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(64);
    expect(chunks.map((c) => c.text).join(' ')).toContain('x59');
  });
});

describe('chunks, cutting a paragraph under a heading', () => {
  it('never cuts a word to fill what a heading leaves of a chunk', () => {
    const heading = 'H'.repeat(248);
    const page: ChunkablePage = { page: 1, tables: [], layout: [element('heading', heading, 0.05, { level: 1 }), element('paragraph', words(200, 'longword'), 0.1)] };
    const chunks = chunkPages([page], { maxTokens: 64, analysis: 'layout' });
    const all = chunks.flatMap((c) => c.text.split(/\s+/));
    for (const word of all) expect(word === heading || /^longword\d+$/.test(word), word).toBe(true);
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(64);
  });
});
