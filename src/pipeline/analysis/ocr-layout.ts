// The layout of a page read by OCR starts from the engine's own page segmentation. Tesseract
// finds the columns, captions and headings of a page before it reads it, and returns blocks,
// paragraphs and lines in reading order; a text line of a justified column, with word gaps
// wider than a gutter, is still one line to it, and its block order reads a page column by
// column. Folio's geometric analysis, made for the positioned words of born-digital files, cut
// such lines at their widest gaps and read their pieces across columns; so on OCR pages the
// engine's lines are the lines, its paragraphs the blocks, and its order the reading order.
import { SURE_CONFIDENCE, unionBox, type Line, type Word } from '../page-model.js';
import { HEADING_SIZE } from './document-stats.js';
import { RTL } from './lines.js';
import type { OrderItem } from './reading-order.js';

/**
 * The engine's text lines, words left to right; as read for right-to-left script and for lines
 * read up or down the page (Word.turn), whose words do not run left to right. `skip` holds words
 * that are not running text.
 */
export function engineLines(words: Word[], skip?: Set<number>): Line[] {
  const byLine = new Map<number | string, number[]>();
  words.forEach((word, i) => {
    if (skip?.has(i)) return;
    // A word without a line of the engine's (none on OCR pages) is a line of its own.
    const key = word.ocrLine ?? `word ${i}`;
    const line = byLine.get(key);
    if (line) line.push(i);
    else byLine.set(key, [i]);
  });
  const lines: Line[] = [];
  for (const indexes of byLine.values()) {
    if (!indexes.some((i) => RTL.test(words[i].text) || words[i].turn)) indexes.sort((a, b) => words[a].box.x0 - words[b].box.x0);
    lines.push({ words: indexes, box: unionBox(indexes.map((i) => words[i].box)) });
  }
  return lines.sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
}

/**
 * Lines into blocks: the engine's paragraphs, cut where the type size steps by a heading's ratio
 * from one line read surely to the next (the engine joins a heading to the paragraph under it, or
 * a title to the heading after it, where the space between them is no wider than a line's). Folio's own
 * grouping is not used: it splits at changes of line height, which on OCR pages follow ascenders
 * and descenders; the sizes here are the engine lines' type sizes (scan-words.ts lineSizes).
 */
export function engineBlocks(lines: Line[], words: Word[]): number[][] {
  const byParagraph = new Map<number | string, number[]>();
  lines.forEach((line, i) => {
    const key = words[line.words[0]]?.ocrParagraph ?? `line ${i}`;
    const members = byParagraph.get(key);
    if (members) members.push(i);
    else byParagraph.set(key, [i]);
  });
  // A line's size is measured on the letters read (its ascenders), so only a line read surely has one.
  const sizes = lines.map(({ words: members }) => {
    const sure = members.filter((i) => words[i].confidence >= SURE_CONFIDENCE).length;
    return sure * 2 > members.length ? words[members[0]].fontSize : 0;
  });
  const blocks: number[][] = [];
  for (const members of byParagraph.values()) {
    members.sort((a, b) => lines[a].box.y0 - lines[b].box.y0);
    let block = [members[0]];
    for (let k = 1; k < members.length; k++) {
      const [small, large] = [sizes[members[k - 1]], sizes[members[k]]].sort((a, b) => a - b);
      if (small > 0 && large >= small * HEADING_SIZE) {
        blocks.push(block);
        block = [];
      }
      block.push(members[k]);
    }
    blocks.push(block);
  }
  return blocks;
}

/**
 * The engine's reading order: items with words (blocks, tables) in the order the engine read
 * their first word; an item without words (a picture) goes before the first item the engine read
 * after it in its column (the first below its top that shares some of its width), else after
 * the last item above it in its column, else last.
 */
export function engineOrder(items: OrderItem[]): OrderItem[] {
  const read = items.filter((item) => item.streamRank !== null).sort((a, b) => a.streamRank! - b.streamRank!);
  for (const item of items) {
    if (item.streamRank !== null) continue;
    const sharesWidth = (other: OrderItem) => Math.min(other.box.x1, item.box.x1) - Math.max(other.box.x0, item.box.x0) > 0;
    let at = read.findIndex((other) => other.streamRank !== null && sharesWidth(other) && other.box.y0 >= item.box.y0);
    if (at < 0) {
      const above = read.map((other, i) => (sharesWidth(other) && other.box.y1 <= item.box.y0 ? i : -1)).filter((i) => i >= 0);
      at = above.length ? above[above.length - 1] + 1 : read.length;
    }
    read.splice(at, 0, item);
  }
  return read;
}
