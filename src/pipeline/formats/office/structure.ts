// Office readers know a document's structure (headings, paragraphs, list items, tables, figures)
// but not where its words would sit on paper: Word and Excel lay out at display time. They hand
// over items, and this module sets the items on a page of the page model, as a simple typesetter
// would (a fixed width, lines wrapped at it, heading sizes by level), so every output computed from
// the page model (text, markdown, tables, key/values, layout) works on Office files unchanged.
// Slides have real positions: their items carry boxes and are typeset inside them.
import { printedKeyValues } from '../../analysis/printed-key-values.js';
import { unionBox, type Block, type BlockType, type Box, type Figure, type Line, type Page, type Table, type TableCell, type Word } from '../../page-model.js';

export type OfficeItem =
  | { kind: 'title'; text: string; box?: Box }
  | { kind: 'heading'; level: number; text: string; box?: Box }
  | { kind: 'paragraph'; text: string; box?: Box }
  /** Lines of code, each as written (its indentation kept). */
  | { kind: 'code'; text: string; box?: Box }
  | { kind: 'formula'; text: string; box?: Box }
  | { kind: 'list_item'; text: string; depth: number; marker: string; box?: Box }
  | { kind: 'caption'; text: string; box?: Box }
  | { kind: 'footnote'; text: string; box?: Box }
  | { kind: 'figure'; caption: string | null; box?: Box }
  | { kind: 'table'; rowCount: number; columnCount: number; cells: Omit<TableCell, 'box'>[]; headerRows: number; box?: Box };

/** Page width of the typeset page (US Letter, in points) and its margins. */
const PAGE_WIDTH = 612;
const MIN_HEIGHT = 792;
const MARGIN = 72;
const BODY_SIZE = 11;
const HEADING_SIZES = [18, 15, 13, 12, 11, 11];

interface Sizes {
  size: number;
  bold: boolean;
  /** Set character by character as written (code): spaces kept, lines never wrapped. */
  preformatted?: boolean;
}

function sizesOf(item: OfficeItem): Sizes {
  switch (item.kind) {
    case 'title':
      return { size: 24, bold: true };
    case 'heading':
      return { size: HEADING_SIZES[Math.min(HEADING_SIZES.length, Math.max(1, item.level)) - 1], bold: true };
    case 'footnote':
    case 'caption':
      return { size: 9, bold: false };
    case 'code':
      return { size: BODY_SIZE - 1, bold: false, preformatted: true };
    default:
      return { size: BODY_SIZE, bold: false };
  }
}

const BLOCK_OF: Record<OfficeItem['kind'], BlockType> = {
  title: 'title',
  heading: 'heading',
  paragraph: 'paragraph',
  code: 'code',
  formula: 'formula',
  list_item: 'list_item',
  caption: 'caption',
  footnote: 'footnote',
  figure: 'figure',
  table: 'table',
};

class Typesetter {
  readonly words: Word[] = [];
  readonly lines: Line[] = [];

  /** Sets text from (x, y) within `width`; returns the line indices and the bottom. */
  set(text: string, x: number, y: number, width: number, sizes: Sizes): { lines: number[]; bottom: number } {
    const { lines, bottom } = this.wrap(text, x, y, width, sizes);
    return { lines: lines.map((words) => this.line(words)), bottom };
  }

  /**
   * Sets text's words from (x, y), wrapped within `width`; returns the words of each line it
   * took and the bottom, and makes no lines of the page (a table cell's words go to its row's).
   */
  wrap(text: string, x: number, y: number, width: number, sizes: Sizes): { lines: number[][]; bottom: number } {
    const advance = sizes.size * 0.5;
    const lineHeight = sizes.size * 1.25;
    const out: number[][] = [];
    let top = y;
    for (const hardLine of text.split('\n')) {
      if (sizes.preformatted) {
        // Each word at its column, so that the code's indentation and alignment read back (codeText).
        const line = [...hardLine.matchAll(/\S+/g)].map((m) => this.place(m[0], x + m.index * advance, top, sizes));
        if (line.length) out.push(line);
        top += lineHeight;
        continue;
      }
      const tokens = hardLine.split(/[ \t\u00a0]+/).filter((t) => t.length > 0);
      let current: number[] = [];
      let cursor = x;
      const flush = () => {
        if (current.length === 0) return;
        out.push(current);
        current = [];
        cursor = x;
        top += lineHeight;
      };
      for (const token of tokens) {
        const w = token.length * advance;
        if (current.length > 0 && cursor + w > x + width) flush();
        current.push(this.place(token, cursor, top, sizes));
        cursor += w + advance;
      }
      flush();
    }
    return { lines: out, bottom: out.length ? top : y };
  }

  /** A word set at (x, y), each character half the size wide; its index. */
  private place(text: string, x: number, y: number, sizes: Sizes): number {
    this.words.push({
      text,
      box: { x0: x, y0: y, x1: x + text.length * sizes.size * 0.5, y1: y + sizes.size },
      fontName: sizes.preformatted ? 'office monospace' : 'office',
      fontSize: sizes.size,
      bold: sizes.bold,
      italic: false,
      confidence: 100,
      hyphenated: false,
    });
    return this.words.length - 1;
  }

  /** A line of the page from its words; its index. */
  line(words: number[]): number {
    this.lines.push({ words, box: unionBox(words.map((i) => this.words[i].box)) });
    return this.lines.length - 1;
  }
}

/**
 * Sets a page's items. Without boxes they flow top to bottom on a Letter-wide page that grows as
 * long as the content; with boxes (slides) each is set inside its own box, in the order given, and
 * a slide's items without a box (its notes, its comments) below the slide, the page growing by them.
 * With `analysis: read` tables are read row by row as text, and figures and key/values left out.
 */
export function typesetPage(number: number, items: OfficeItem[], analysis: 'layout' | 'read', size?: { width: number; height: number }): Page {
  const layout = analysis === 'layout';
  const setter = new Typesetter();
  const blocks: Block[] = [];
  const tables: Table[] = [];
  const figures: Figure[] = [];
  const width = size?.width ?? PAGE_WIDTH;
  let y = MARGIN;
  let figureIndex = 0;
  // Items of one slide shape share its box and follow one another inside it.
  const nextInBox = new Map<Box, number>();
  for (const [index, item] of items.entries()) {
    // On a slide, what has no place on it (speaker notes, comments) is set below it.
    if (size && !item.box) y = Math.max(y, size.height + MARGIN / 2);
    const frame = item.box ?? { x0: MARGIN, y0: y, x1: width - MARGIN, y1: y };
    const top = item.box ? (nextInBox.get(item.box) ?? item.box.y0) : y;
    const sizes = sizesOf(item);
    if (item.kind === 'figure') {
      if (!layout) continue;
      const box = item.box ?? { x0: MARGIN, y0: y, x1: MARGIN + 200, y1: y + 120 };
      // A caption set right after the figure names it.
      const next = items[index + 1];
      const caption = item.caption ?? (next?.kind === 'caption' ? next.text : null);
      figures.push({ box, index: figureIndex++, caption, text: '' });
      blocks.push({ type: 'figure', lines: [], box, figure: figures.length - 1 });
      y = Math.max(y, box.y1 + 12);
      continue;
    }
    if (item.kind === 'table') {
      const placed = setTable(setter, item, frame.x0, top, frame.x1 - frame.x0);
      if (item.box) nextInBox.set(item.box, placed.table.box.y1 + 6);
      if (layout) {
        tables.push(placed.table);
        blocks.push({ type: 'table', lines: [], box: placed.table.box, table: tables.length - 1 });
      } else {
        blocks.push({ type: 'paragraph', lines: placed.rowLines, box: placed.table.box, keepLines: true });
      }
      y = Math.max(y, placed.table.box.y1 + 12);
      continue;
    }
    const text = item.kind === 'list_item' ? `${item.marker} ${item.text}` : item.text;
    if (!text.trim()) continue;
    const indent = item.kind === 'list_item' ? item.depth * 18 : 0;
    const set = setter.set(text, frame.x0 + indent, top, Math.max(40, frame.x1 - frame.x0 - indent), sizes);
    if (set.lines.length === 0) continue;
    const block: Block = { type: BLOCK_OF[item.kind], lines: set.lines, box: unionBox(set.lines.map((i) => setter.lines[i].box)) };
    if (item.kind === 'heading') block.level = item.level;
    if (item.kind === 'list_item') block.depth = item.depth;
    blocks.push(block);
    if (item.box) nextInBox.set(item.box, set.bottom + sizes.size * 0.3);
    y = Math.max(y, set.bottom + sizes.size * 0.6);
  }
  const height = size ? (items.some((item) => !item.box) ? Math.max(size.height, y + MARGIN / 2) : size.height) : Math.max(MIN_HEIGHT, y + MARGIN);
  const page: Page = {
    number,
    width,
    height,
    unit: 'pt',
    rotation: 0,
    skew: 0,
    words: setter.words,
    lines: setter.lines,
    blocks,
    figures,
    tables,
    keyValues: [],
    textSource: 'native',
  };
  if (layout) {
    // Key/values printed as "Label: value" in the running text (table cells are not lines, code is not running text).
    const running = new Set(blocks.flatMap((b) => (b.type !== 'table' && b.type !== 'code' ? b.lines : [])));
    page.keyValues = printedKeyValues(
      page.lines.filter((_, i) => running.has(i)),
      page.words,
    );
  }
  return page;
}

/** A table's cells laid out in a grid of equal columns, each cell's text set inside it. */
function setTable(setter: Typesetter, item: Extract<OfficeItem, { kind: 'table' }>, x: number, y: number, width: number): { table: Table; rowLines: number[] } {
  const columnWidth = width / Math.max(1, item.columnCount);
  const sizes = { size: 10, bold: false };
  const rowTop: number[] = [y];
  const placed: TableCell[] = [];
  const rowLines: number[] = [];
  const cellsOfRow: (typeof item.cells)[] = Array.from({ length: item.rowCount }, () => []);
  for (const cell of item.cells) cellsOfRow[cell.row]?.push(cell);
  for (let row = 0; row < item.rowCount; row++) {
    let bottom = rowTop[row] + 14;
    const rowWords: number[] = [];
    for (const cell of cellsOfRow[row]) {
      const x0 = x + cell.column * columnWidth;
      const set = setter.wrap(cell.text, x0 + 3, rowTop[row] + 2, columnWidth * cell.columnSpan - 6, { ...sizes, bold: row < item.headerRows });
      for (const line of set.lines) for (const word of line) rowWords.push(word);
      bottom = Math.max(bottom, set.bottom + 4);
      placed.push({ ...cell, box: { x0, y0: rowTop[row], x1: x0 + columnWidth * cell.columnSpan, y1: 0 } });
    }
    rowTop.push(bottom);
    if (rowWords.length) rowLines.push(setter.line(rowWords));
  }
  for (const cell of placed) cell.box!.y1 = rowTop[Math.min(rowTop.length - 1, cell.row + cell.rowSpan)];
  const table: Table = {
    box: { x0: x, y0: y, x1: x + width, y1: rowTop[rowTop.length - 1] },
    rowCount: item.rowCount,
    columnCount: item.columnCount,
    cells: placed.sort((a, b) => a.row - b.row || a.column - b.column),
    headerRows: item.headerRows,
    source: 'native',
    continuedFromPrevious: false,
    continuesOnNext: false,
  };
  return { table, rowLines };
}
