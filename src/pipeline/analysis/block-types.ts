// What a block of text is: furniture, code, a formula, a list item, a heading, a title or a
// paragraph. Furniture, code and formulas are told first; a heading then needs typographic
// evidence against the document's own body text (size, face, weight, or a section's numbering
// at the body's size), and stands alone as one phrase: never turned, never a figure's label,
// never a caption's numbered label ("Table 8:"), never a cell of a row, never opening in lower
// case, never a sentence ending in a full stop.
import type { Block, BlockType, Box, Line, Page, RawPage } from '../page-model.js';
import { verticalOverlap } from '../page-model.js';
import { endsInPageReference, lineBold, startsBulleted, startsListItem } from './blocks.js';
import { isCodeBlock, looksLikeFormula, type CodeFace } from './code-and-formulas.js';
import { CAPTION_LABEL, SECTION_NUMBER } from './markers.js';
import { HEADING_SIZE, type BodyEnvelope, type DocumentStats } from './document-stats.js';
import { furnitureType, turned } from './page-furniture.js';

export function classify(
  block: Block,
  text: string,
  raw: RawPage,
  page: Page,
  stats: DocumentStats,
  figureBoxes: Box[],
  envelope: BodyEnvelope | null,
  codeFace: CodeFace,
  inRow: boolean,
): BlockType {
  const size = avgSize(block, page);
  const furniture = furnitureType(block, text, size, { raw, page, bodyFontSize: stats.bodyFontSize, envelope, runningLines: stats.runningLines });
  if (furniture) return furniture;
  // Code and formulas are told before headings: a listing's line or an equation is neither a
  // heading nor a list item, however it is set (code-and-formulas.ts).
  if (isCodeBlock(block, page, codeFace)) return 'code';
  if (block.lines.length <= 4 && looksLikeFormula(text)) return 'formula';
  // Text turned across the page (an axis label, a table's sideways header) is never a heading.
  if (turned(block, page)) return 'paragraph';
  const firstLine = page.lines[block.lines[0]];
  if (startsBulleted(firstLine, page.words)) return 'list_item';
  // The document's title is told by its size and place alone: the largest type, half as large
  // again as the body's, in the top of the first page, even set right under a masthead drawing.
  const titleSized = raw.number === 1 && size === stats.headingSizes[0] && size >= stats.bodyFontSize * 1.5 && block.box.y0 < raw.height * 0.4;
  // A heading stands apart from the figures; a short line set against one ("Untightened nut"
  // under a photo, as large and bold as the section titles) is its label, whatever its font.
  if (!titleSized && figureBoxes.some((box) => setAgainst(block.box, box, size))) return 'paragraph';
  // A heading reads as one phrase: it never opens with a lower-case letter (that continues a
  // sentence), and its words are spaced as words, not as the cells of a row.
  const phrase = text.trim();
  if (/^\p{Ll}/u.test(phrase) || spacedAsCells(block, page)) return startsListItem(firstLine, page.words) ? 'list_item' : 'paragraph';
  // A numbered figure's or table's label opens its caption, not a section ("Table 8: Costs").
  if (CAPTION_LABEL.test(phrase)) return 'paragraph';
  // A contents entry ending in its page number names a section elsewhere: it heads nothing here, however it is set.
  if (endsInPageReference(page.lines[block.lines[block.lines.length - 1]], page.words)) return 'paragraph';
  // A heading names a section; it does not state something. A block of four words or more
  // closing with a full stop that ends no abbreviation is a sentence however large it is set (a
  // standfirst, a pull quote, or a line OCR measured tall). The title keeps to its size and place.
  if (!titleSized && endsSentence(phrase)) return startsListItem(firstLine, page.words) ? 'list_item' : 'paragraph';
  // A heading names something: a figure alone ("27,267", a table's total the table did not take)
  // heads nothing, however large it is set.
  if (!/\p{L}/u.test(text)) return startsListItem(firstLine, page.words) ? 'list_item' : 'paragraph';
  // A heading is told by its font against the body text: clearly larger, or set in a face of its
  // own and larger at all, however it is numbered ("(1) …", "2. Methods").
  if (block.lines.length <= 3 && text.length < 200 && size >= stats.bodyFontSize * HEADING_SIZE) return titleSized ? 'title' : 'heading';
  // Set at the body's size or near it, a heading stands alone as a short phrase: one or two lines,
  // not ending as a sentence or a clause does, and not level with another short block (then it is
  // one cell or label of a row: a table's header the table did not take, a form's labels).
  const standsAlone = !inRow && block.lines.length <= 2 && text.length < 120 && !/[.:;,]$/.test(text) && /\p{L}/u.test(text);
  if (standsAlone && size > stats.bodyFontSize && ownFace(block, page, stats.bodyFont)) return 'heading';
  // Or it is numbered as a section two levels deep or more ("2.1 Scope", "4.3.2 Limits") on its
  // one line, which a sentence or a list item does not take, and is no contents line with leader
  // dots: a scan, whose OCR says nothing of weight or face, has no other evidence at the body's size.
  if (standsAlone && block.lines.length === 1 && text.length < 100 && SECTION_HEADING.test(phrase) && !/\.{4}|…/.test(text)) return 'heading';
  if (startsListItem(firstLine, page.words)) return 'list_item';
  if (standsAlone && block.lines.every((i) => lineBold(page.lines[i], page.words))) return 'heading';
  return 'paragraph';
}

/** A word closed by an abbreviation's full stop: a short capitalised word ("Inc.", "Co.", "Dr."), initials ("U.S.", "e.g.") or a common lower-case one. */
const ABBREVIATION_END = /(?:^|\s)(?:\p{Lu}\p{L}{0,3}|\p{L}{1,2}(?:\.\p{L}{1,2})+|etc|al|vs|approx|incl|cf)\.$/u;

/** Four words or more ending with a full stop that closes no abbreviation (`phrase` trimmed). */
function endsSentence(phrase: string): boolean {
  return /[^.]\.$/u.test(phrase) && phrase.split(/\s+/).length >= 4 && !ABBREVIATION_END.test(phrase);
}

/** Blocks this short or shorter can be the cells of one row. */
const ROW_CELL_LINES = 3;

/**
 * Short blocks whose first line is level with the first line of another short block (their tops
 * within a third of the line's height): the cells or labels of one row, side by side.
 */
export function rowCells(blocks: Block[], lines: Line[]): Set<Block> {
  const short = blocks.filter((block) => block.lines.length <= ROW_CELL_LINES);
  const first = short.map((block) => lines[Math.min(...block.lines)].box);
  const out = new Set<Block>();
  for (let i = 0; i < short.length; i++) {
    for (let j = i + 1; j < short.length; j++) {
      const [a, b] = [first[i], first[j]];
      const height = Math.min(a.y1 - a.y0, b.y1 - b.y0);
      if (Math.abs(a.y0 - b.y0) <= height / 3 && verticalOverlap(a, b) >= 0.5 && (a.x1 <= b.x0 || b.x1 <= a.x0)) {
        out.add(short[i]);
        out.add(short[j]);
      }
    }
  }
  return out;
}

/** A section number at least two levels deep ("2.1", "4.3.2."), each part a number of at most two digits, then a title opening in a capital. */
const SECTION_HEADING = /^\d{1,2}(?:\.\d{1,2})+\.?\s+\p{Lu}/u;


/** Some line of the block has a gap between words wider than two of its font sizes (past a leading section number). */
function spacedAsCells(block: Block, page: Pick<Page, 'lines' | 'words'>): boolean {
  return block.lines.some((l) => {
    const words = page.lines[l].words.map((i) => page.words[i]);
    for (let k = 1; k < words.length; k++) {
      if (k === 1 && SECTION_NUMBER.test(words[0].text)) continue;
      const gap = words[k].box.x0 - words[k - 1].box.x1;
      if (gap > 2 * Math.max(words[k].fontSize, words[k - 1].fontSize)) return true;
    }
    return false;
  });
}

/** The block is set wholly in one font, not the body text's. */
function ownFace(block: Block, page: Pick<Page, 'lines' | 'words'>, bodyFont: string): boolean {
  const fonts = new Set(block.lines.flatMap((l) => page.lines[l].words.map((i) => page.words[i].fontName)));
  return fonts.size === 1 && !fonts.has(bodyFont);
}

/**
 * A block set against a figure as its label: within one of its font sizes over or under it (or
 * on its edge), no wider than it. Text wholly on the picture (a heading on a banner) and text
 * beside it (a chapter title by its number graphic) is not.
 */
export function setAgainst(block: Box, figure: Box, size: number): boolean {
  const reach = Math.max(size, 1);
  const within = block.x0 >= figure.x0 - reach && block.x1 <= figure.x1 + reach;
  const touching = block.y0 < figure.y1 + reach && block.y1 > figure.y0 - reach;
  const on = block.y0 >= figure.y0 && block.y1 <= figure.y1;
  return within && touching && !on;
}

export function avgSize(block: Block, page: Pick<Page, 'lines' | 'words'>): number {
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

export function headingLevel(block: Block, page: Page, stats: DocumentStats): number {
  const size = avgSize(block, page);
  const rank = stats.headingSizes.findIndex((s) => size >= s - 0.25);
  // Size-ranked levels start at 1 (0 is the title); bold body-size headings sit below them.
  const level = rank === -1 ? stats.headingSizes.length + 1 : rank + 1;
  return Math.min(6, Math.max(1, level));
}
