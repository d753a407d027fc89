// Layout analysis of a page: words to lines (lines.ts), lines to blocks (blocks.ts), blocks typed
// (block-types.ts: title, heading, list item, code, formula, page header/footer, marginal note,
// paragraph), captions found and everything put in reading order (reading-order.ts), beside the
// page's figures, tables and key/values. Format-independent: it sees only the words and picture
// regions a reader found.
import {
  boxArea,
  unionBox,
  type Block,
  type BlockType,
  type Box,
  type Figure,
  type Line,
  type Page,
  type RawPage,
  type Table,
  type Word,
  verticalOverlap,
} from '../page-model.js';
import { findFigures } from './figures.js';
import { formKeyValues, pageKeyValueList } from './form-key-values.js';
import { printedKeyValues } from './printed-key-values.js';
import { drawsInSequence, joinInterleaved, linesInDrawingOrder } from './drawing-order.js';
import { buildLines, RTL } from './lines.js';
import { readingOrder, type OrderItem } from './reading-order.js';
import { engineBlocks, engineLines, engineOrder } from './ocr-layout.js';
import { findTables } from './tables/index.js';
import { CAPTION_START } from './markers.js';
import { bodyEnvelope, turnedMarginWords } from './page-furniture.js';
import { groupBlocks } from './blocks.js';
import { avgSize, classify, headingLevel, rowCells, setAgainst } from './block-types.js';
import { demoteHeadingsHeadingNothing } from './heading-sections.js';
import { lineNumberRulers } from './line-numbers.js';
import { documentStats, pageTally, typeArea, type DocumentStats } from './document-stats.js';
import { codeFaceOf, codeText } from './code-and-formulas.js';

/** Figures under this share of the page are not shown (docs/api.md picture rule 3). */
export const MIN_FIGURE_SHARE = 0.015;

/**
 * `analysis: layout` finds everything; `analysis: read` (docs/api.md: text only) reads the text in
 * order and finds no tables, key/values or figure crops; picture areas still count for whole-page
 * pictures.
 */
export function analyzeDocument(raw: RawPage[], analysis: 'layout' | 'read' = 'layout'): Page[] {
  const stats = documentStats(raw.map(pageTally));
  const pages = raw.map((page) => analyzePage(page, stats, analysis));
  flagContinuedTables(pages);
  return pages;
}

// ---- typing ---------------------------------------------------------------------------------


export function blockText(block: Block, page: Pick<Page, 'lines' | 'words'>): string {
  if (block.type === 'code') return codeText(block, page);
  if (block.keepLines) return block.lines.map((i) => page.lines[i].words.map((w) => page.words[w].text).join(' ')).join('\n');
  if (block.drawingOrder) return drawnBlockText(block, page);
  let text = '';
  block.lines.forEach((lineIndex, n) => {
    const line = page.lines[lineIndex];
    const lineWords = line.words.map((i) => page.words[i]);
    if (n > 0) {
      const previous = page.lines[block.lines[n - 1]];
      text += lineJoint(page.words[previous.words[previous.words.length - 1]], lineWords[0], !runsFull(previous, block));
    }
    text += lineWords.map((w) => w.text).join(' ');
  });
  return text;
}

/**
 * A block's text with its words in the order the file drew them. Words of one line are a space
 * apart. Where the drawing moves to another line, the lines join as in blockText, except that a
 * short line breaks only when the next line stands below everything since the last break, so a
 * formula's numerator, operator and denominator stay on one line of text.
 */
function drawnBlockText(block: Block, page: Pick<Page, 'lines' | 'words'>): string {
  const lineOf = new Map<number, Line>();
  for (const l of block.lines) for (const w of page.lines[l].words) lineOf.set(w, page.lines[l]);
  const order = [...lineOf.keys()].sort((a, b) => a - b);
  let text = '';
  let band: Box | null = null;
  order.forEach((w, n) => {
    const line = lineOf.get(w)!;
    if (n > 0) {
      const previousLine = lineOf.get(order[n - 1])!;
      const breaks = !runsFull(previousLine, block) && band !== null && line.box.y0 >= band.y1 - 1;
      const joint = previousLine === line ? ' ' : lineJoint(page.words[order[n - 1]], page.words[w], breaks);
      if (joint === '\n') band = null;
      text += joint;
    }
    band = band ? unionBox([band, line.box]) : { ...line.box };
    text += page.words[w].text;
  });
  return text;
}

/** A line that runs to its block's right edge flows into the next one. */
function runsFull(line: Line, block: Block): boolean {
  return line.box.x1 >= block.box.x0 + (block.box.x1 - block.box.x0) * 0.8;
}

/**
 * What joins two lines of a block: a word hyphenated across the line end is joined back without a
 * separator, unless the next part starts with a capital or digit (then the hyphen is part of a
 * compound, "Schwarz-Weiß", "COVID-19", and stays); else a line break where the line ends short
 * (addresses, verse, list continuations keep their breaks), a space where the text flows on.
 */
function lineJoint(last: Word | undefined, next: Word | undefined, breaks: boolean): string {
  if (!last?.hyphenated) return breaks ? '\n' : ' ';
  return /^[\p{Lu}\p{N}]/u.test(next?.text ?? '') ? '-' : '';
}

/** A table's words as a block of lines, one per table row, cells in reading order. */
function tableAsRows(table: Table, held: number[], words: Word[], lines: Line[], rightToLeft: boolean): Block {
  const place = new Map<number, { row: number; column: number }>();
  for (const i of held) {
    const b = words[i].box;
    const cx = (b.x0 + b.x1) / 2;
    const cy = (b.y0 + b.y1) / 2;
    const cell = table.cells.find((c) => c.box && cx >= c.box.x0 && cx <= c.box.x1 && cy >= c.box.y0 && cy <= c.box.y1);
    if (cell) place.set(i, { row: cell.row, column: cell.column });
  }
  const first = lines.length;
  for (let row = 0; row < table.rowCount; row++) {
    const inRow = held.filter((i) => place.get(i)?.row === row);
    if (inRow.length === 0) continue;
    inRow.sort((a, b) => place.get(a)!.column - place.get(b)!.column || words[a].box.y0 - words[b].box.y0 || (rightToLeft ? words[b].box.x0 - words[a].box.x0 : words[a].box.x0 - words[b].box.x0));
    lines.push({ words: inRow, box: unionBox(inRow.map((i) => words[i].box)) });
  }
  const own = lines.slice(first).map((_, k) => first + k);
  return { type: 'paragraph', lines: own, box: table.box, keepLines: true };
}

/** The words claimed by drawings that sit in this one's box, in drawing order. */
function labelsInside(words: Word[], box: Box, claimed: Set<number>): number[] {
  return [...claimed]
    .filter((i) => {
      const b = words[i].box;
      const cx = (b.x0 + b.x1) / 2;
      const cy = (b.y0 + b.y1) / 2;
      return cx >= box.x0 && cx <= box.x1 && cy >= box.y0 && cy <= box.y1;
    })
    .sort((a, b) => a - b);
}

/**
 * A drawing's labels as text: in the order the file drew them where that order is trusted, a line
 * break wherever the next label leaves the previous one's row; else line by line, top to bottom.
 */
function labelText(words: Word[], labels: number[], inSequence: boolean): string {
  const sub = labels.map((i) => words[i]);
  if (inSequence) return sub.map((w, n) => (n === 0 ? '' : verticalOverlap(sub[n - 1].box, w.box) >= 0.5 ? ' ' : '\n') + w.text).join('');
  // Labels spread along one row (tick labels under an axis) read as one line.
  const rows: { box: Box; texts: string[] }[] = [];
  for (const line of buildLines(sub).sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0)) {
    const text = line.words.map((i) => sub[i].text).join(' ');
    const row = rows.find((r) => Math.min(r.box.y1, line.box.y1) - Math.max(r.box.y0, line.box.y0) > (line.box.y1 - line.box.y0) * 0.5);
    if (row) {
      row.texts.push(text);
      row.box = unionBox([row.box, line.box]);
    } else rows.push({ box: line.box, texts: [text] });
  }
  return rows.map((r) => r.texts.join(' ')).join('\n');
}

/** A page's body (no running headers, footers or footnotes) starts or ends with these tables. */
export interface TableEdges {
  /** The page's number, so only a page and the one right after it are taken for a break. */
  page: number;
  first: { table: number; columns: number } | null;
  last: { table: number; columns: number } | null;
}

/** A table to mark as running across a page break (`from`: on a continuation, the table it continues). */
export interface TableMark {
  page: number;
  table: number;
  continues: boolean;
  from?: number;
}

export function tableEdges(page: Page): TableEdges {
  const body = page.blocks.filter((b) => b.type !== 'page_header' && b.type !== 'page_footer' && b.type !== 'footnote');
  const edge = (block: Block | undefined) => (block?.type === 'table' ? { table: block.table!, columns: page.tables[block.table!].columnCount } : null);
  return { page: page.number, first: edge(body[0]), last: edge(body.at(-1)) };
}

/**
 * A table that ends one page's body and one that starts the next page's, with as many columns,
 * are one table running across the page break: the pairs of (index in `pages`, table index) to
 * mark; the continuation's mark names the table it continues (`from`, its index on the page
 * before). Pages that do not follow each other (a page selection left those between out) have no
 * break between them to run across.
 */
export function continuedTables(pages: readonly TableEdges[]): TableMark[] {
  const marks: TableMark[] = [];
  for (let i = 0; i + 1 < pages.length; i++) {
    const last = pages[i].last;
    const first = pages[i + 1].first;
    if (pages[i + 1].page !== pages[i].page + 1 || !last || !first || last.columns !== first.columns) continue;
    marks.push({ page: i, table: last.table, continues: true }, { page: i + 1, table: first.table, continues: false, from: last.table });
  }
  return marks;
}

function flagContinuedTables(pages: Page[]): void {
  for (const mark of continuedTables(pages.map(tableEdges))) {
    const table = pages[mark.page].tables[mark.table];
    if (mark.continues) table.continuesOnNext = true;
    else {
      table.continuedFromPrevious = true;
      table.continuesTable = mark.from;
    }
  }
}

function firstWord(block: Block, lines: Line[]): number {
  let first = Infinity;
  for (const i of block.lines) for (const w of lines[i].words) first = Math.min(first, w);
  return first;
}

/** Most letters of the page belong to a right-to-left script. */
function isRightToLeft(words: Word[]): boolean {
  const text = words.map((w) => w.text).join('');
  if (!RTL.test(text)) return false;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const rtl = text.match(RTL_ALL)?.length ?? 0;
  return letters > 0 && rtl > letters / 2;
}

const RTL_ALL = new RegExp(RTL.source, 'g');

export function analyzePage(raw: RawPage, stats: DocumentStats, analysis: 'layout' | 'read'): Page {
  const layout = analysis === 'layout';
  const { words } = raw;
  const rightToLeft = isRightToLeft(words);
  // Tolerances are in points; pages measured in pixels scale them by their resolution.
  const scale = raw.unit === 'px' ? (raw.dpi ?? 72) / 72 : 1;
  const drawn = findFigures(words, raw.graphics, raw.width, raw.height, { scale, bodySize: stats.bodyFontSize });
  const inDrawings = layout ? drawn.words : new Set<number>();
  const codeFace = codeFaceOf(stats);
  // OCR pages keep the engine's page segmentation (ocr-layout.ts).
  const ocr = raw.textSource === 'ocr';
  // A margin's line numbers are neither a table's column nor the start of the lines beside them,
  // on a scan as in a text layer.
  const ruler = layout ? lineNumberRulers(words, inDrawings, scale) : new Set<number>();
  // Nor is text turned up the page's outer margin (a preprint's stamp, a side tab: page-furniture.ts).
  const stamps = turnedMarginWords(words, raw.width);
  const notForTables = ruler.size || stamps.length ? new Set([...inDrawings, ...ruler, ...stamps]) : inDrawings;
  const found = findTables(raw, drawn.rest, notForTables, rightToLeft, scale, codeFace);
  const notText = new Set([...inDrawings, ...found.words.flat()]);
  const lines = ocr ? engineLines(words, notText) : buildLines(words, notText, ruler);
  const groups = ocr ? engineBlocks(lines, words) : groupBlocks(lines, words, codeFace);
  let blocks: Block[] = groups.map((lineIndexes) => ({
    type: 'paragraph' as BlockType,
    lines: lineIndexes,
    box: unionBox(lineIndexes.map((i) => lines[i].box)),
  }));
  // Where the file draws the page in reading sequence, each block reads in drawing order, and the
  // pieces of one formula are one block. (Right-to-left text is drawn in visual order, and OCR's
  // order is the engine's, not a file's.)
  const inSequence = raw.textSource === 'text_layer' && !rightToLeft && drawsInSequence(words);
  // A ruler's blocks belong to the margin, not to any block of text: drawn apart from their lines
  // (in runs of numbers, as a text layer may write them), they would interleave with the text's
  // blocks and be joined to them.
  const rulerBlocks = new Set(ruler.size ? blocks.filter((block) => block.lines.every((l) => lines[l].words.every((i) => ruler.has(i)))) : []);
  if (inSequence) {
    blocks = [...joinInterleaved(blocks.filter((block) => !rulerBlocks.has(block)), lines, words, stats.bodyFontSize), ...rulerBlocks];
    for (const block of blocks) {
      block.drawingOrder = true;
      block.lines = linesInDrawingOrder(block, lines);
    }
  }
  // `read` returns no tables, but reads a table's words row by row, as a person reads it.
  if (!layout) found.tables.forEach((table, i) => blocks.push(tableAsRows(table, found.words[i], words, lines, rightToLeft)));

  const pageArea = raw.width * raw.height;
  const labels = drawn.figures.map(({ box }) => (layout ? labelsInside(words, box, drawn.words) : []));
  const figures: Figure[] = drawn.figures.map(({ box }, i) => ({ box, index: null, caption: null, text: labelText(words, labels[i], inSequence) }));
  const tables = layout ? found.tables : [];
  const kinds: ('block' | 'figure' | 'table')[] = [];
  const refs: number[] = [];
  const items: OrderItem[] = [];
  const add = (kind: 'block' | 'figure' | 'table', ref: number, item: Omit<OrderItem, 'ref'>) => {
    kinds.push(kind);
    refs.push(ref);
    items.push({ ...item, ref: items.length });
  };
  // A ruler's blocks take no part in the reading order: they go with the margins.
  blocks.forEach((block, i) => {
    if (!rulerBlocks.has(block)) add('block', i, { box: block.box, lineCount: block.lines.length, streamRank: firstWord(block, lines) });
  });
  // A picture under the page's text (a scan under its text layer) counts for whole-page pictures
  // but is no figure of the text.
  const background = drawn.figures.map((figure) => figure.background === true);
  // A figure with labels takes its place in a trusted drawing order where its labels were drawn;
  // figures without, and any elsewhere, where they stand.
  figures.forEach((figure, i) => {
    if (!background[i]) add('figure', i, { box: figure.box, lineCount: 0, streamRank: inSequence && labels[i].length ? labels[i][0] : null });
  });
  tables.forEach((table, i) => add('table', i, { box: table.box, lineCount: table.rowCount, streamRank: Math.min(...found.words[i]) }));
  const ordered = ocr ? engineOrder(items) : readingOrder(items, stats.bodyFontSize, rightToLeft, raw.height);
  const shownFigures = layout ? figures.filter((f, i) => !background[i] && boxArea(f.box) >= pageArea * MIN_FIGURE_SHARE).map((f) => f.box) : [];

  const { formFields, graphics: _graphics, ...rest } = raw;
  const page: Page = { ...rest, lines, blocks, figures, tables, keyValues: [] };
  page.keyValues = layout ? pageKeyValueList(formKeyValues(formFields, page), printedKeyValues(lines, words)) : [];
  const out: Block[] = [];
  const headers: Block[] = [];
  const footers: Block[] = [];
  const margins: Block[] = [];
  // Where the body text runs, for what stands outside it (page-furniture.ts).
  const envelope = layout ? bodyEnvelope(lines, words, typeArea(stats, raw)) : null;
  const inRow = rowCells(blocks.filter((block) => !rulerBlocks.has(block)), lines);
  let figureIndex = 0;
  for (const item of ordered) {
    const kind = kinds[item.ref];
    const ref = refs[item.ref];
    if (kind === 'figure') {
      const figure = figures[ref];
      // With `read`, picture areas only decide whole-page pictures; pages show no figures.
      if (!layout) continue;
      if (boxArea(figure.box) >= pageArea * MIN_FIGURE_SHARE) figure.index = figureIndex++;
      out.push({ type: 'figure', lines: [], box: figure.box, figure: ref });
      continue;
    }
    if (kind === 'table') {
      out.push({ type: 'table', lines: [], box: tables[ref].box, table: ref });
      continue;
    }
    const block = blocks[ref];
    const text = blockText(block, page);
    if (!block.keepLines) block.type = classify(block, text, raw, page, stats, shownFigures, envelope, codeFace, inRow.has(block));
    if (block.type === 'heading') block.level = headingLevel(block, page, stats);
    if (block.type === 'page_header') headers.push(block);
    else if (block.type === 'page_footer') footers.push(block);
    else if (block.type === 'marginal_note') margins.push(block);
    else out.push(block);
  }
  for (const block of rulerBlocks) {
    block.type = 'marginal_note';
    margins.push(block);
  }
  // A running header or footer is often a row of short pieces (a report's name, the page number,
  // a date) set on one line across the page: the pieces beside a recognised header or footer
  // belong to it, wherever the file draws them.
  for (const [band, type] of [[headers, 'page_header'], [footers, 'page_footer']] as const) {
    if (band.length === 0) continue;
    const beside = out.filter(
      (block) => block.lines.length === 1 && (block.type === 'paragraph' || block.type === 'heading') && blockText(block, page).length < 80 && band.some((b) => sameRow(b.box, block.box)),
    );
    for (const block of beside) {
      block.type = type;
      delete block.level;
      band.push(block);
      out.splice(out.indexOf(block), 1);
    }
    band.sort((a, b) => (sameRow(a.box, b.box) ? a.box.x0 - b.box.x0 : a.box.y0 - b.box.y0));
  }
  demoteHeadingsHeadingNothing(out, page);
  // A caption is the text block right after (or right before) a figure that names itself so,
  // past the figure's neighbours (pictures side by side) and the labels set against them.
  const passedOver = (block: Block) => block.type === 'figure' || (block.type === 'paragraph' && shownFigures.some((box) => setAgainst(block.box, box, avgSize(block, page))) && !CAPTION_START.test(blockText(block, page)));
  const neighbour = (from: number, step: 1 | -1): Block | undefined => {
    let k = from + step;
    while (out[k] && passedOver(out[k])) k += step;
    return out[k];
  };
  out.forEach((block, i) => {
    if (block.type !== 'figure') return;
    for (const next of [neighbour(i, 1), neighbour(i, -1)]) {
      if (next && (next.type === 'paragraph' || next.type === 'caption')) {
        const text = blockText(next, page);
        if (CAPTION_START.test(text) && text.length < 600) {
          next.type = 'caption';
          figures[block.figure!].caption = text;
          break;
        }
      }
    }
  });
  page.blocks = [...headers, ...out, ...footers, ...margins];
  return page;
}

/** Two boxes on one row: they overlap vertically by at least half the shorter one's height. */
function sameRow(a: Box, b: Box): boolean {
  return verticalOverlap(a, b) >= 0.5;
}
