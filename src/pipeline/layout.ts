// Layout analysis, first version: words to lines, lines to blocks, blocks typed (title, heading,
// list item, caption, page header/footer, paragraph) and put in reading order by a recursive
// XY-cut. Format-independent: it sees only the words and picture regions a reader found.
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
  type Word,
} from './page-model.js';
import { formKeyValues } from './key-values.js';

/** Figures under this share of the page are not shown (SPEC.md picture rule 3). */
export const MIN_FIGURE_SHARE = 0.015;

export interface DocumentStats {
  bodyFontSize: number;
  /** Distinct heading sizes, largest first. */
  headingSizes: number[];
}

export function analyzeDocument(raw: RawPage[]): Page[] {
  const linesByPage = raw.map((page) => buildLines(page.words));
  const stats = documentStats(raw);
  return raw.map((page, i) => analyzePage(page, linesByPage[i], stats));
}

function documentStats(pages: RawPage[]): DocumentStats {
  const weightBySize = new Map<number, number>();
  for (const page of pages) {
    for (const word of page.words) {
      const size = Math.round(word.fontSize * 2) / 2;
      weightBySize.set(size, (weightBySize.get(size) ?? 0) + word.text.length);
    }
  }
  let bodyFontSize = 10;
  let best = -1;
  for (const [size, weight] of weightBySize) {
    if (weight > best) {
      best = weight;
      bodyFontSize = size;
    }
  }
  const headingSizes = [...weightBySize.keys()].filter((s) => s >= bodyFontSize * 1.15).sort((a, b) => b - a);
  return { bodyFontSize, headingSizes };
}

// ---- lines ----------------------------------------------------------------------------------

function verticalOverlap(a: Box, b: Box): number {
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  const minHeight = Math.min(a.y1 - a.y0, b.y1 - b.y0);
  return minHeight > 0 ? overlap / minHeight : 0;
}

function horizontalGap(a: Box, b: Box): number {
  return Math.max(b.x0 - a.x1, a.x0 - b.x1);
}

const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;

export function buildLines(words: Word[]): Line[] {
  // Pass 1: runs of words in reader order that sit on one baseline with word-sized gaps.
  const segments: number[][] = [];
  for (let i = 0; i < words.length; i++) {
    const segment = segments[segments.length - 1];
    if (segment) {
      const last = words[segment[segment.length - 1]];
      const word = words[i];
      const size = Math.max(last.fontSize, word.fontSize, 1);
      if (verticalOverlap(last.box, word.box) >= 0.5 && horizontalGap(last.box, word.box) <= size * 0.7) {
        segment.push(i);
        continue;
      }
    }
    segments.push([i]);
  }
  const boxes = segments.map((s) => unionBox(s.map((i) => words[i].box)));
  // Pass 2: runs on one visual line are joined (content streams often draw a line in pieces),
  // except across a gutter: a gap that the lines above and below leave empty too is a column
  // or table boundary, not a space between words.
  const order = segments.map((_, i) => i).sort((a, b) => centerY(boxes[a]) - centerY(boxes[b]) || boxes[a].x0 - boxes[b].x0);
  const merged: { words: number[]; box: Box; size: number }[] = [];
  for (const index of order) {
    const box = boxes[index];
    const size = Math.max(...segments[index].map((i) => words[i].fontSize), 1);
    const target = merged.find((line) => {
      if (verticalOverlap(line.box, box) < 0.6) return false;
      const gap = horizontalGap(line.box, box);
      const lineSize = Math.max(size, line.size);
      if (gap < -lineSize || gap > lineSize * 1.5) return false;
      if (gap <= lineSize * 0.35) return true;
      const left = line.box.x0 <= box.x0 ? line.box : box;
      const right = left === box ? line.box : box;
      return !isGutter(left.x1, right.x0, line.box, boxes, lineSize);
    });
    if (target) {
      target.words.push(...segments[index]);
      target.box = unionBox([target.box, box]);
      target.size = Math.max(target.size, size);
    } else {
      merged.push({ words: [...segments[index]], box: { ...box }, size });
    }
  }
  for (const line of merged) {
    const rtl = line.words.some((i) => RTL.test(words[i].text));
    if (!rtl) line.words.sort((a, b) => words[a].box.x0 - words[b].box.x0);
  }
  return merged
    .map(({ words: w, box }) => ({ words: w, box }))
    .sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
}

/** Whether the horizontal gap [from, to] on this line stays empty in the nearby lines. */
function isGutter(from: number, to: number, line: Box, boxes: Box[], size: number): boolean {
  const height = Math.max(line.y1 - line.y0, size);
  let nearby = 0;
  for (const box of boxes) {
    if (box.y1 < line.y0 - height * 4 || box.y0 > line.y1 + height * 4) continue;
    if (verticalOverlap(box, line) >= 0.5) continue;
    if (box.x1 < from - size * 3 || box.x0 > to + size * 3) continue;
    if (box.x0 < from && box.x1 > to) return false;
    nearby++;
  }
  return nearby >= 2;
}

function centerY(box: Box): number {
  return (box.y0 + box.y1) / 2;
}

// ---- blocks ---------------------------------------------------------------------------------

const LIST_MARKER = /^(?:[•●○◦▪■□‣⁃∙·*–—-]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?(?:i|ii|iii|iv|v|vi|vii|viii|ix|x)[.)])$/i;
const BULLET_START = /^[•●○◦▪■□‣⁃∙]/;

function startsListItem(line: Line, words: Word[]): boolean {
  const first = words[line.words[0]]?.text ?? '';
  return LIST_MARKER.test(first) || BULLET_START.test(first);
}

function lineSize(line: Line, words: Word[]): number {
  let total = 0;
  let chars = 0;
  for (const i of line.words) {
    total += words[i].fontSize * words[i].text.length;
    chars += words[i].text.length;
  }
  return chars ? total / chars : 0;
}

function lineBold(line: Line, words: Word[]): boolean {
  return line.words.every((i) => words[i].bold);
}

function groupBlocks(lines: Line[], words: Word[]): number[][] {
  const blocks: number[][] = [];
  const lastLineOf = (block: number[]) => lines[block[block.length - 1]];
  lines.forEach((line, index) => {
    const size = lineSize(line, words);
    const height = line.box.y1 - line.box.y0;
    let best: number[] | null = null;
    let bestGap = Infinity;
    if (!startsListItem(line, words)) {
      for (const block of blocks) {
        const last = lastLineOf(block);
        const gap = line.box.y0 - last.box.y1;
        if (gap < -height * 0.3 || gap > Math.max(height, lineSize(last, words)) * 0.8) continue;
        const overlap = Math.min(line.box.x1, last.box.x1) - Math.max(line.box.x0, last.box.x0);
        const minWidth = Math.min(line.box.x1 - line.box.x0, last.box.x1 - last.box.x0);
        if (overlap < minWidth * 0.3) continue;
        const lastSize = lineSize(last, words);
        if (Math.max(size, lastSize) > Math.min(size, lastSize) * 1.2) continue;
        if (lineBold(line, words) !== lineBold(last, words)) continue;
        if (gap < bestGap) {
          bestGap = gap;
          best = block;
        }
      }
    }
    if (best) best.push(index);
    else blocks.push([index]);
  });
  return blocks;
}

// ---- reading order --------------------------------------------------------------------------

interface Item {
  box: Box;
  lineCount: number;
  ref: number;
}

function intervals(items: Item[], axis: 'x' | 'y'): { start: number; end: number; items: Item[] }[] {
  const key0 = axis === 'x' ? 'x0' : 'y0';
  const key1 = axis === 'x' ? 'x1' : 'y1';
  const sorted = [...items].sort((a, b) => a.box[key0] - b.box[key0]);
  const groups: { start: number; end: number; items: Item[] }[] = [];
  for (const item of sorted) {
    const group = groups[groups.length - 1];
    // A sliver of overlap (a descender, a tight gutter) still separates.
    if (group && item.box[key0] < group.end - 0.5) {
      group.end = Math.max(group.end, item.box[key1]);
      group.items.push(item);
    } else {
      groups.push({ start: item.box[key0], end: item.box[key1], items: [item] });
    }
  }
  return groups;
}

/** Recursive XY-cut: columns are cut apart before rows when both sides hold running text. */
function readingOrder(items: Item[], fontSize: number): Item[] {
  if (items.length <= 1) return items;
  const columns = intervals(items, 'x');
  const rows = intervals(items, 'y');
  const columnsLookLikeText = columns.length > 1 && columns.filter((c) => c.items.some((i) => i.lineCount >= 2)).length >= 2;
  const widestColumnGap = Math.max(0, ...columns.slice(1).map((c, i) => c.start - columns[i].end));
  if (columns.length > 1 && (rows.length === 1 || (columnsLookLikeText && widestColumnGap >= fontSize * 0.8))) {
    return columns.flatMap((c) => readingOrder(c.items, fontSize));
  }
  if (rows.length > 1) return rows.flatMap((r) => readingOrder(r.items, fontSize));
  return [...items].sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
}

// ---- typing ---------------------------------------------------------------------------------

const PAGE_NUMBER = /^(?:page\s+|p\.\s*|-\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|\/)\s*\d{1,4})?(?:\s*-)?$/i;

const CAPTION_START = /^(?:fig(?:ure)?|image|photo|chart|graph|diagram|plate|abbildung|abb|tableau|tabla|figura)\.?\s*\d*/i;

export function blockText(block: Block, page: Pick<Page, 'lines' | 'words'>): string {
  let text = '';
  const width = block.box.x1 - block.box.x0;
  block.lines.forEach((lineIndex, n) => {
    const line = page.lines[lineIndex];
    const lineWords = line.words.map((i) => page.words[i]);
    const lineText = lineWords.map((w) => w.text).join(' ');
    if (n > 0) {
      const previous = page.lines[block.lines[n - 1]];
      const previousLast = page.words[previous.words[previous.words.length - 1]];
      // Lines that run to the block's right edge flow into one another; a short line ends a
      // line of its own (addresses, verse, list continuations keep their breaks).
      const full = previous.box.x1 >= block.box.x0 + width * 0.8;
      // A word hyphenated across the line end is joined back without a separator.
      if (!previousLast?.hyphenated) text += full ? ' ' : '\n';
    }
    text += lineText;
  });
  return text;
}

function analyzePage(raw: RawPage, lines: Line[], stats: DocumentStats): Page {
  const { words } = raw;
  const groups = groupBlocks(lines, words);
  const blocks: Block[] = groups.map((lineIndexes) => ({
    type: 'paragraph' as BlockType,
    lines: lineIndexes,
    box: unionBox(lineIndexes.map((i) => lines[i].box)),
  }));

  const pageArea = raw.width * raw.height;
  const figures: Figure[] = raw.pictures.map((box) => ({ box, index: null, caption: null }));
  const items: Item[] = [
    ...blocks.map((block, ref) => ({ box: block.box, lineCount: block.lines.length, ref })),
    ...figures.map((figure, i) => ({ box: figure.box, lineCount: 0, ref: -1 - i })),
  ];
  const ordered = readingOrder(items, stats.bodyFontSize);

  const { formFields, pictures: _pictures, ...rest } = raw;
  const page: Page = { ...rest, lines, blocks, figures, keyValues: [] };
  page.keyValues = formKeyValues(formFields, page);
  const out: Block[] = [];
  const headers: Block[] = [];
  const footers: Block[] = [];
  let figureIndex = 0;
  for (const item of ordered) {
    if (item.ref < 0) {
      const figureNumber = -1 - item.ref;
      const figure = figures[figureNumber];
      if (boxArea(figure.box) >= pageArea * MIN_FIGURE_SHARE) figure.index = figureIndex++;
      out.push({ type: 'figure', lines: [], box: figure.box, figure: figureNumber });
      continue;
    }
    const block = blocks[item.ref];
    const text = blockText(block, page);
    block.type = classify(block, text, raw, page, stats);
    if (block.type === 'heading') block.level = headingLevel(block, page, stats);
    if (block.type === 'page_header') headers.push(block);
    else if (block.type === 'page_footer') footers.push(block);
    else out.push(block);
  }
  // A caption is the text block right after (or right before) a figure that names itself so.
  out.forEach((block, i) => {
    if (block.type !== 'figure') return;
    for (const neighbour of [out[i + 1], out[i - 1]]) {
      if (neighbour && neighbour.type === 'paragraph') {
        const text = blockText(neighbour, page);
        if (CAPTION_START.test(text) && text.length < 600) {
          neighbour.type = 'caption';
          figures[block.figure!].caption = text;
          break;
        }
      }
    }
  });
  page.blocks = [...headers, ...out, ...footers];
  return page;
}

function classify(block: Block, text: string, raw: RawPage, page: Page, stats: DocumentStats): BlockType {
  const size = avgSize(block, page);
  const singleLine = block.lines.length === 1;
  const short = text.length < 80;
  if (singleLine && short && size <= stats.bodyFontSize * 1.05) {
    if (block.box.y1 <= raw.height * 0.07) return 'page_header';
    if (block.box.y0 >= raw.height * 0.93) return 'page_footer';
    // A bare page number in the outer fifth of the page, with nothing beyond it.
    if (PAGE_NUMBER.test(text.trim())) {
      const beyond = (other: Block) => other !== block && other.box.y0 >= block.box.y1;
      const before = (other: Block) => other !== block && other.box.y1 <= block.box.y0;
      if (block.box.y0 >= raw.height * 0.8 && !page.blocks.some(beyond)) return 'page_footer';
      if (block.box.y1 <= raw.height * 0.2 && !page.blocks.some(before)) return 'page_header';
    }
  }
  const firstLine = page.lines[block.lines[0]];
  if (startsListItem(firstLine, page.words)) return 'list_item';
  if (block.lines.length <= 3 && text.length < 200 && size >= stats.bodyFontSize * 1.15) {
    if (raw.number === 1 && size === stats.headingSizes[0] && size >= stats.bodyFontSize * 1.5 && block.box.y0 < raw.height * 0.4) {
      return 'title';
    }
    return 'heading';
  }
  const allBold = block.lines.every((i) => lineBold(page.lines[i], page.words));
  if (allBold && block.lines.length <= 2 && text.length < 120 && !/[.:;,]$/.test(text) && /\p{L}/u.test(text)) return 'heading';
  return 'paragraph';
}

function avgSize(block: Block, page: Pick<Page, 'lines' | 'words'>): number {
  let total = 0;
  let chars = 0;
  for (const lineIndex of block.lines) {
    for (const i of page.lines[lineIndex].words) {
      const w = page.words[i];
      total += w.fontSize * w.text.length;
      chars += w.text.length;
    }
  }
  return chars ? Math.round((total / chars) * 2) / 2 : 0;
}

function headingLevel(block: Block, page: Page, stats: DocumentStats): number {
  const size = avgSize(block, page);
  const rank = stats.headingSizes.findIndex((s) => size >= s - 0.25);
  // Size-ranked levels start at 1 (0 is the title); bold body-size headings sit below them.
  const level = rank === -1 ? stats.headingSizes.length + 1 : rank + 1;
  return Math.min(6, Math.max(1, level));
}
