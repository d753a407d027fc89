// Blocks that are neither prose nor headings, told by what they are set in and made of. Code is
// text set in a monospaced face where the document's body is not (a listing, its line numbers
// included); its lines stand as drawn, indented as far as they are set in. A display formula is a
// block built around a relation or operator sign whose characters are mostly not words (a
// function's name aside): "x = (-b ± √(b² − 4ac)) / 2a (3)" is one, "Revenue = price × volume"
// is prose. Both keep their text; the markdown fences code and sets formulas between $$.
import { isMonospacedFont, type Block, type Line, type Page, type Word } from '../page-model.js';
import type { DocumentStats } from './document-stats.js';
import { EQUATION_LABEL, MATH_SIGN } from './markers.js';

/** Whether a word is set in the document's code face (codeFaceOf). */
export type CodeFace = (word: Word) => boolean;

/**
 * A word set in a face that marks code in this document: a monospaced face of another family than
 * the body text's. Where the body is set in a proportional face that is any monospaced one; where
 * it is itself monospaced, only a second monospaced family tells code apart (sizes and styles of
 * the body's own family are its emphasis and headings).
 */
export function codeFaceOf(stats: Pick<DocumentStats, 'bodyFont' | 'monospacedFonts'>): CodeFace {
  // Monospaced as measured on its pages (font-pitch.ts), or as named (a face with too few words to measure).
  const measured = new Set(stats.monospacedFonts);
  const monospaced = (fontName: string) => measured.has(fontName) || isMonospacedFont(fontName);
  if (!monospaced(stats.bodyFont)) return (word) => monospaced(word.fontName);
  const body = fontFamily(stats.bodyFont);
  return (word) => monospaced(word.fontName) && fontFamily(word.fontName) !== body;
}

/** The family of a font's name, without the subset tag and the style ("ABCDEF+CourierNewPS-BoldMT" is "couriernew"). */
export function fontFamily(fontName: string): string {
  return fontName
    .replace(/^[A-Z]{6}\+/, '')
    .split(/[-,]/)[0]
    .replace(/(?:MT|PS|Regular|Bold|Italic|Oblique|Book|Roman)+$/, '')
    .replace(/\s+/g, '')
    .toLowerCase();
}

/** Every word of the block is set in the document's code face. */
export function isCodeBlock(block: Block, page: Pick<Page, 'lines' | 'words'>, codeFace: CodeFace): boolean {
  let any = false;
  for (const l of block.lines) {
    for (const i of page.lines[l].words) {
      if (!codeFace(page.words[i])) return false;
      any = true;
    }
  }
  return any;
}

/** The width of one character of a line's monospaced words. */
function characterWidth(line: Line, words: Word[]): number {
  let width = 0;
  let chars = 0;
  for (const i of line.words) {
    width += words[i].box.x1 - words[i].box.x0;
    chars += words[i].text.length;
  }
  return chars ? width / chars : 0;
}

/**
 * A code block's text, row by row (a listing's line number and its code may have been found as
 * separate lines, side by side), each row indented by the characters it is set in from the block's
 * left edge and its words spaced as far apart as they stand.
 */
export function codeText(block: Block, page: Pick<Page, 'lines' | 'words'>): string {
  const widths = block.lines.map((l) => characterWidth(page.lines[l], page.words)).filter((w) => w > 0);
  const char = widths.length ? widths.sort((a, b) => a - b)[Math.floor(widths.length / 2)] : 0;
  const rows: { y0: number; y1: number; words: number[] }[] = [];
  const ordered = [...block.lines].sort((a, b) => page.lines[a].box.y0 - page.lines[b].box.y0);
  for (const l of ordered) {
    const { box, words } = page.lines[l];
    const row = rows.find((r) => Math.min(r.y1, box.y1) - Math.max(r.y0, box.y0) >= Math.min(r.y1 - r.y0, box.y1 - box.y0) * 0.5);
    if (row) row.words.push(...words);
    else rows.push({ y0: box.y0, y1: box.y1, words: [...words] });
  }
  const left = block.box.x0;
  return rows
    .map((row) => {
      let out = '';
      let at = left;
      for (const i of row.words.sort((a, b) => page.words[a].box.x0 - page.words[b].box.x0)) {
        const word = page.words[i];
        const gap = char > 0 ? Math.round((word.box.x0 - at) / char) : out ? 1 : 0;
        out += ' '.repeat(Math.max(out ? 1 : 0, gap)) + word.text;
        at = word.box.x1;
      }
      return out.trimEnd();
    })
    .join('\n');
}

/** Names of functions and operators written in letters inside formulas. */
const FUNCTION_NAMES = new Set(['sin', 'cos', 'tan', 'log', 'exp', 'max', 'min', 'argmax', 'argmin', 'lim', 'sup', 'inf', 'det', 'mod', 'arg', 'softmax', 'tanh', 'sinh', 'cosh']);
/** An equation's number at its right: "(3)", "(2.14)". */
const EQUATION_NUMBER = new RegExp(`${EQUATION_LABEL.source}\\s*$`);
/** Sub- and superscript characters: a word carrying one is a symbol with an index or exponent ("xₜ₊₁", "nodeᵢ"), not prose. */
const SCRIPT_CHARACTER = /[\u00B2\u00B3\u00B9\u2070-\u209F\u1D62-\u1D6A\u2C7C]/u;

export function looksLikeFormula(text: string): boolean {
  const body = text.replace(EQUATION_NUMBER, '').trim();
  if (!body || body.length > 300 || !MATH_SIGN.test(body)) return false;
  let chars = 0;
  let prose = 0;
  for (const token of body.split(/\s+/)) {
    chars += token.length;
    const word = token.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
    if (word.length >= 3 && /^\p{L}+$/u.test(word) && !FUNCTION_NAMES.has(word.toLowerCase()) && !SCRIPT_CHARACTER.test(token)) prose += word.length;
  }
  return prose < chars * 0.3;
}
