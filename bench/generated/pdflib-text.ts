// Text for the pdf-lib producer: what its standard fonts can draw, how wide it is, and how it breaks
// into lines. The fonts are PDF's base fourteen, unembedded and encoded in WinAnsi, so every string
// is made drawable first and the truth records the drawable string, never the one the DocSpec asked
// for. Widths are summed glyph by glyph without kerning, because a Tj draws glyphs without kerning:
// positions computed here are the positions a reader sees.
import { type PDFDocument, type PDFFont, StandardFontEmbedder, StandardFonts } from 'pdf-lib';
import type { BlockKind, TruthBlock, TruthTable } from './truth.js';

export type Rgb = readonly [number, number, number];

/**
 * How a line's text is written into the content stream: each word its own Tj at its own x with no
 * space glyphs at all, the whole line as one string with its spaces, or each letter its own Tj with
 * extra room after it.
 */
export type Spacing = 'words' | 'line' | 'letters';

/** [left, top, right, bottom] in points from the page's top left (pdf-lib measures from the bottom). */
export type Rect = [number, number, number, number];

export interface Word {
  text: string;
  font: StandardFonts;
}

export interface PlacedWord extends Word {
  x: number;
}

export interface TextLine {
  kind: 'text';
  /** From the top of whatever holds the line (a chunk, then the page). */
  baseline: number;
  size: number;
  /** Horizontal scaling (PDF's Tz) as a fraction: below 1 for the narrow face. */
  squeeze: number;
  letterSpacing: number;
  color: Rgb;
  spacing: Spacing;
  words: PlacedWord[];
  /** Degrees, for text turned up or down the page: drawn from (words[0].x, baseline) as one string. */
  rotate?: 90 | -90;
}

export interface RuleMark {
  kind: 'rule';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  thickness: number;
  color: Rgb;
}

/** Painted areas; drawn before any text so that none hides what stands on it. */
export interface FillMark {
  kind: 'fill';
  shape: 'rect' | 'ellipse';
  rect: Rect;
  color: Rgb;
  border?: { color: Rgb; thickness: number };
}

export type Mark = TextLine | RuleMark | FillMark;

/** A truth item as laid out, its box in points relative to whatever holds it; page and order are set when the page is done. */
export type Entry = { kind: 'block'; block: TruthBlock } | { kind: 'table'; table: TruthTable };

export const INK: Rgb = [0.07, 0.07, 0.07];
export const GREY: Rgb = [0.27, 0.27, 0.27];

export const FAMILIES = {
  serif: { regular: StandardFonts.TimesRoman, bold: StandardFonts.TimesRomanBold, italic: StandardFonts.TimesRomanItalic, boldItalic: StandardFonts.TimesRomanBoldItalic },
  sans: { regular: StandardFonts.Helvetica, bold: StandardFonts.HelveticaBold, italic: StandardFonts.HelveticaOblique, boldItalic: StandardFonts.HelveticaBoldOblique },
  mono: { regular: StandardFonts.Courier, bold: StandardFonts.CourierBold, italic: StandardFonts.CourierOblique, boldItalic: StandardFonts.CourierBoldOblique },
} as const;

export type Family = (typeof FAMILIES)[keyof typeof FAMILIES];

// Characters WinAnsi lacks, by the nearest thing it has. What is neither here nor reachable by
// compatibility or by dropping accents is left out.
const SUBSTITUTES: Record<string, string> = {
  ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ħ: 'h', Ħ: 'H', ı: 'i', ŋ: 'n',
  '−': '-', '∑': 'S', '∏': 'P', '∫': 'ƒ', '√': 'v', '∞': 'oo', '∇': 'V', '∂': 'd', '∈': 'e',
  '≤': '<', '≥': '>', '≠': '!=', '≈': '~', '→': '->', '←': '<-', '⋅': '·', '∗': '*',
  μ: 'µ', α: 'a', β: 'b', γ: 'g', δ: 'd', ε: 'e', ζ: 'z', η: 'n', θ: 'th', κ: 'k', λ: 'l', ν: 'v', ξ: 'x', π: 'p', ρ: 'r', σ: 's', τ: 't', φ: 'ph', χ: 'x', ψ: 'ps', ω: 'w',
  Σ: 'S', Δ: 'D', Ω: 'W', Π: 'P', Φ: 'Ph', Γ: 'G', Λ: 'L', Θ: 'Th',
};

// Measured without a document: a font is embedded in one only when something is drawn in it, so
// what a PDF holds, and in what order, depends on that PDF alone.
type FontName = Parameters<typeof StandardFontEmbedder.for>[0];
const embedders = new Map<StandardFonts, StandardFontEmbedder>();
const glyphWidths = new Map<string, number>();

function embedder(name: StandardFonts): StandardFontEmbedder {
  let found = embedders.get(name);
  if (!found) {
    found = StandardFontEmbedder.for(name as unknown as FontName);
    embedders.set(name, found);
  }
  return found;
}

let winAnsi: Set<number> | null = null;

/**
 * Characters a family's standard font names but the fonts that stand in for it when the page is
 * rasterized lack: the Courier that TeX Live installs (the one poppler finds for a scan's picture)
 * has no euro sign and draws nothing there, so a scanned table in Courier would hold amounts whose
 * truth has a sign the picture does not. Written out instead, in the drawing and in the truth.
 */
const MISSING_IN: Partial<Record<StandardFonts, Record<string, string>>> = Object.fromEntries(
  [StandardFonts.Courier, StandardFonts.CourierBold, StandardFonts.CourierOblique, StandardFonts.CourierBoldOblique].map((font) => [font, { '€': 'EUR' }]),
);

/** `text` as the standard fonts (`font`'s, where one is given) can draw it, whitespace collapsed. */
export function drawable(text: string, font?: StandardFonts): string {
  winAnsi ??= new Set(embedder(StandardFonts.Helvetica).encoding.supportedCodePoints);
  const encodable = (s: string) => [...s].every((c) => winAnsi!.has(c.codePointAt(0)!));
  const missing = (font && MISSING_IN[font]) || {};
  let out = '';
  for (const c of text.normalize('NFC')) {
    if (missing[c] !== undefined) {
      out += missing[c];
      continue;
    }
    if (/\s/.test(c)) out += ' ';
    else if (encodable(c)) out += c;
    else if (SUBSTITUTES[c] !== undefined) out += SUBSTITUTES[c];
    else if (encodable(c.normalize('NFKC'))) out += c.normalize('NFKC');
    else {
      const bare = c.normalize('NFD').replace(/\p{M}/gu, '');
      if (encodable(bare)) out += bare;
    }
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** The fonts of one PDF, embedded as they are first drawn with, and the widths of their glyphs. */
export class Metrics {
  private readonly fonts = new Map<StandardFonts, PDFFont>();

  constructor(private readonly pdf: PDFDocument) {}

  font(name: StandardFonts): PDFFont {
    let font = this.fonts.get(name);
    if (!font) {
      font = this.pdf.embedStandardFont(name);
      this.fonts.set(name, font);
    }
    return font;
  }

  private glyph(c: string, font: StandardFonts): number {
    const key = `${font}\u0000${c}`;
    let width = glyphWidths.get(key);
    if (width === undefined) {
      width = embedder(font).widthOfTextAtSize(c, 1);
      glyphWidths.set(key, width);
    }
    return width;
  }

  /** The advance of `text` drawn at `size`, `letterSpacing` after every character. */
  width(text: string, font: StandardFonts, size: number, squeeze = 1, letterSpacing = 0): number {
    let width = 0;
    for (const c of text) width += this.glyph(c, font) * size * squeeze + letterSpacing;
    return width;
  }
}

export interface LineStyle {
  size: number;
  lineHeight: number;
  squeeze: number;
  letterSpacing: number;
  color: Rgb;
  spacing: Spacing;
  align: 'left' | 'right' | 'center' | 'justify';
}

/** Words from text, each in `font`. */
export function wordsOf(text: string, font: StandardFonts): Word[] {
  return text
    .split(' ')
    .filter(Boolean)
    .map((t) => ({ text: t, font }));
}

/**
 * `words` broken into lines no wider than `width` (a word wider than that stands alone), set from
 * `x`, the first line's box starting at `top`. Returns the lines and the height they take.
 */
export function setText(words: Word[], x: number, width: number, top: number, style: LineStyle, metrics: Metrics): { lines: TextLine[]; height: number } {
  const measure = (w: Word) => metrics.width(w.text, w.font, style.size, style.squeeze, style.letterSpacing);
  const space = (w: Word) => metrics.width(' ', w.font, style.size, style.squeeze, style.letterSpacing);
  const rows: Word[][] = [];
  let row: Word[] = [];
  let used = 0;
  for (const word of words) {
    const add = (row.length ? space(row[row.length - 1]) : 0) + measure(word);
    if (row.length && used + add > width) {
      rows.push(row);
      row = [];
      used = 0;
    }
    used += row.length ? space(row[row.length - 1]) + measure(word) : measure(word);
    row.push(word);
  }
  if (row.length) rows.push(row);
  const lines = rows.map((r, i): TextLine => {
    const natural = r.reduce((sum, w, j) => sum + measure(w) + (j ? space(r[j - 1]) : 0), 0);
    const slack = Math.max(0, width - natural);
    const last = i === rows.length - 1;
    const extra = style.align === 'justify' && !last && r.length > 1 ? slack / (r.length - 1) : 0;
    let at = x + (style.align === 'right' ? slack : style.align === 'center' ? slack / 2 : 0);
    const placed = r.map((w, j) => {
      if (j) at += space(r[j - 1]) + extra;
      const p = { ...w, x: at };
      at += measure(w);
      return p;
    });
    return { kind: 'text', baseline: top + baselineIn(i, style), size: style.size, squeeze: style.squeeze, letterSpacing: style.letterSpacing, color: style.color, spacing: style.spacing, words: placed };
  });
  return { lines, height: rows.length * style.lineHeight };
}

/** The baseline of line `i` below its block's top: the leading shared above and below, as CSS does. */
export function baselineIn(i: number, style: Pick<LineStyle, 'size' | 'lineHeight'>): number {
  return i * style.lineHeight + (style.lineHeight - style.size) / 2 + style.size * 0.8;
}

export function blockEntry(kind: BlockKind, text: string, box: Rect, level?: number): Entry {
  return { kind: 'block', block: { kind, ...(level !== undefined ? { level } : {}), text, page: 0, box, order: 0 } };
}

/** `mark` moved by (dx, dy). */
export function moveMark(mark: Mark, dx: number, dy: number): Mark {
  switch (mark.kind) {
    case 'text':
      return { ...mark, baseline: mark.baseline + dy, words: mark.words.map((w) => ({ ...w, x: w.x + dx })) };
    case 'rule':
      return { ...mark, x1: mark.x1 + dx, x2: mark.x2 + dx, y1: mark.y1 + dy, y2: mark.y2 + dy };
    case 'fill':
      return { ...mark, rect: moveRect(mark.rect, dx, dy) };
  }
}

export function moveRect(rect: Rect, dx: number, dy: number): Rect {
  return [rect[0] + dx, rect[1] + dy, rect[2] + dx, rect[3] + dy];
}

export function moveEntry(entry: Entry, dx: number, dy: number): Entry {
  const move = (box: Rect | null) => (box ? moveRect(box, dx, dy) : null);
  if (entry.kind === 'block') return { kind: 'block', block: { ...entry.block, box: move(entry.block.box as Rect | null) } };
  return { kind: 'table', table: { ...entry.table, box: move(entry.table.box as Rect | null), cells: entry.table.cells.map((c) => ({ ...c, box: move(c.box as Rect | null) })) } };
}
