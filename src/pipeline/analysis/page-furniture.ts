// Page furniture: what belongs to the page rather than to the document's text. Running heads and
// feet are lines in the top or bottom band of the page, standing apart from its text, that recur
// at the same height on other pages of the document, numbers aside (document-stats.ts finds them);
// failing that, short lines set no larger than the body in the outer bands (the top and bottom
// 7%), nearest the edge, with text inwards of them or not reading as a sentence; or a bare page
// number in the outer fifth with nothing beyond it. Marginal notes stand outside the body text
// altogether: text turned up or down the page in its outer edge (a preprint's identifier, a side
// tab), or blocks set smaller than the body left or right of the type area, where the body's
// running text runs on the page and on pages like it (margin notes); a margin's column of line
// numbers is found before lines are made (line-numbers.ts). Furniture is typed so (page_header,
// page_footer, marginal_note), kept in the layout, and left out of the text, the markdown and the
// chunks.
import type { Block, BlockType, Box, Line, Page, RawPage, Word } from '../page-model.js';
import { EDGE_BAND, EDGE_TOLERANCE, ENVELOPE_MIN_CHARS, edgeKey, envelopeOf, type BodyEnvelope, type EdgeLine } from './document-stats.js';

/** A page number as pages print them: "7", "- 7 -", "– 7 –", "Page 7", "p. 7", "7 of 12", "vii". */
const PAGE_NUMBER = /^(?:page\s+|p\.\s*|[-–—]\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|\/)\s*\d{1,4})?(?:\s*[-–—])?$/i;

/** A line that ends as sentences do. */
const SENTENCE_END = /[.!?]["'’”)]?$/;

/** The top and bottom share of the page where a short line is a running head or foot by position alone. */
const OUTER_BAND = 0.07;

/** Text set at less than this share of the body's size is set smaller than the body (a note, a line number). */
const BODY_SIZE_SHARE = 0.95;

/**
 * Where the body text of a page runs: in a document of several pages, its type area
 * (document-stats.ts), widened to where the page's lines that reach into it run, so a page whose
 * body fills one column of two, the other holding a figure or a listing, still runs across both,
 * a listing that hangs out into the margin takes its margin in, and notes wholly outside it, however
 * many, stay outside. A page alone says it by all its upright lines. Weighted by characters so
 * that short lines (numbers) do not move it; null when there is too little text to say.
 */
export function bodyEnvelope(lines: Line[], words: Word[], area: BodyEnvelope | undefined): BodyEnvelope | null {
  const measured = lines
    .filter((line) => line.words.every((i) => !words[i].turn) && (!area || (line.box.x1 > area.x0 && line.box.x0 < area.x1)))
    .map((line) => ({ x0: line.box.x0, x1: line.box.x1, chars: line.words.reduce((n, i) => n + words[i].text.length, 0) }));
  const own = measured.reduce((n, m) => n + m.chars, 0) < ENVELOPE_MIN_CHARS ? null : envelopeOf(measured);
  if (!own || !area) return own ?? area ?? null;
  return { x0: Math.min(own.x0, area.x0), x1: Math.max(own.x1, area.x1) };
}

export interface FurnitureContext {
  raw: Pick<RawPage, 'width' | 'height'>;
  page: Pick<Page, 'lines' | 'words' | 'blocks' | 'tables' | 'figures'>;
  bodyFontSize: number;
  envelope: BodyEnvelope | null;
  /** The document's running lines (document-stats.ts). */
  runningLines: EdgeLine[];
}

/**
 * 'top' or 'bottom' when every line of the block is part of a line that runs at its height on
 * other pages too, set no larger than the body: "Chapter 2" or a title at the head of a page is
 * a heading whatever recurs there, "Annual report 2025, page 2" a running head.
 */
function runningBand(block: Block, size: number, ctx: FurnitureContext): 'top' | 'bottom' | null {
  const { raw, page, runningLines } = ctx;
  if (runningLines.length === 0) return null;
  const height = raw.height || 1;
  let band: 'top' | 'bottom' | null = null;
  for (const index of block.lines) {
    const line = page.lines[index];
    const y = (line.box.y0 + line.box.y1) / 2 / height;
    const lineBand = y <= EDGE_BAND ? 'top' : y >= 1 - EDGE_BAND ? 'bottom' : null;
    if (!lineBand || (band && band !== lineBand)) return null;
    band = lineBand;
    const key = edgeKey(line.words.map((i) => page.words[i].text).join(' '));
    if (!key || size > ctx.bodyFontSize * 1.05) return null;
    if (!runningLines.some((r) => Math.abs(r.y - y) <= EDGE_TOLERANCE && r.key.includes(key))) return null;
  }
  // A running head or foot stands apart from the text: more than a line's height from the nearest
  // line towards the middle of the page (the first line of a page's text is set closer).
  const edge = band === 'top' ? block.box.y1 : block.box.y0;
  const lineHeight = (block.box.y1 - block.box.y0) / block.lines.length;
  const gap = Math.min(
    ...page.lines
      .filter((line, i) => !block.lines.includes(i) && (band === 'top' ? line.box.y0 >= edge : line.box.y1 <= edge))
      .map((line) => (band === 'top' ? line.box.y0 - edge : edge - line.box.y1)),
  );
  return gap > lineHeight ? band : null;
}

/** Every word of the block is set turned from the page's upright text. */
export function turned(block: Block, page: Pick<Page, 'lines' | 'words'>): boolean {
  return block.lines.every((l) => page.lines[l].words.every((i) => page.words[i].turn !== undefined));
}

/**
 * Wholly left or right of where the body text runs (by a quarter of the body size, for edges set
 * a hair apart): no paragraph of the body starts right of its right edge or ends left of its left.
 */
function outsideBody(box: Box, envelope: BodyEnvelope, bodyFontSize: number): boolean {
  const slack = bodyFontSize * 0.25;
  return box.x1 < envelope.x0 - slack || box.x0 > envelope.x1 + slack;
}

/** The outer share of the page's width, left and right, where turned text is a marginal note. */
const OUTER_MARGIN = 0.15;

/** Wholly within the outer share of the page's width, left or right. */
function inOuterMargin(box: Box, pageWidth: number): boolean {
  return box.x1 <= pageWidth * OUTER_MARGIN || box.x0 >= pageWidth * (1 - OUTER_MARGIN);
}

/** The words turned from the page's text and set in its outer margin (a preprint's stamp, a side tab's label): marginal notes. */
export function turnedMarginWords(words: Word[], pageWidth: number): number[] {
  return words.flatMap((w, i) => (w.turn !== undefined && inOuterMargin(w.box, pageWidth) ? [i] : []));
}

/** The furniture type of a block, or null when it is part of the document's text. */
export function furnitureType(block: Block, text: string, size: number, ctx: FurnitureContext): BlockType | null {
  const { raw, page, bodyFontSize, envelope } = ctx;
  const { box } = block;
  if (turned(block, page) && inOuterMargin(box, raw.width)) return 'marginal_note';
  // Margin notes and line numbers are set smaller than the body: a table of contents' page
  // numbers and a proof's closing box, out at the body's edge, are body size.
  if (envelope && outsideBody(box, envelope, bodyFontSize) && text.length < 200 && size < bodyFontSize * BODY_SIZE_SHARE) return 'marginal_note';
  const running = text.length < 200 ? runningBand(block, size, ctx) : null;
  if (running) return running === 'top' ? 'page_header' : 'page_footer';
  const singleLine = block.lines.length === 1;
  if (!singleLine || text.length >= 80 || size > bodyFontSize * 1.05) return null;
  // By position alone, only the line nearest the page's edge is its head or foot (a letter's closing
  // set under the head of its last page is text); with no text inwards of it but the other band's
  // furniture, it is the head only if it does not read as a sentence ("This page is intentionally
  // left blank." at a page's head is the page's text, a running head over a blank page is not).
  const top = box.y1 <= raw.height * OUTER_BAND;
  const bottom = box.y0 >= raw.height * (1 - OUTER_BAND);
  if (top || bottom) {
    const content = [...page.blocks.filter((other) => other !== block).map((other) => other.box), ...page.tables.map((t) => t.box), ...page.figures.map((f) => f.box)];
    const outwards = content.some((other) => (top ? other.y1 <= box.y0 : other.y0 >= box.y1));
    const inwards = content.some((other) => (top ? other.y0 >= box.y1 && other.y0 < raw.height * (1 - OUTER_BAND) : other.y1 <= box.y0 && other.y1 > raw.height * OUTER_BAND));
    if (!outwards && (inwards || !SENTENCE_END.test(text.trim()))) return top ? 'page_header' : 'page_footer';
  }
  // A bare page number in the outer fifth of the page, with nothing beyond it.
  if (PAGE_NUMBER.test(text.trim())) {
    const beyond = (other: Block) => other !== block && other.box.y0 >= box.y1;
    const before = (other: Block) => other !== block && other.box.y1 <= box.y0;
    if (box.y0 >= raw.height * 0.8 && !page.blocks.some(beyond)) return 'page_footer';
    if (box.y1 <= raw.height * 0.2 && !page.blocks.some(before)) return 'page_header';
  }
  return null;
}
