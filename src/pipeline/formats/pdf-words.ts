// The words of a PDF page's text layer, read from PDFium's characters by a small state machine
// (WordReader): glyphs join into words by their positions, fonts and letter spacing; accents join
// the glyph they sit on; ligatures, soft hyphens, made-up spaces and glyphs PDFium could not name
// are handled as the file means them. Boxes are in the page model's frame.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import { turnBox, verticalOverlap, type Box, type Word } from '../page-model.js';
import { symbolGlyph } from './dingbats.js';
import { builtinGlyphNames, type CodeNames } from './font-program.js';
import { combiningAccent, glyphNameText, symbolPrivateUseText } from './glyph-names.js';
import { baselineDirection, TURNS } from './pdf-direction.js';
import { apply, heaps, isBreakingSpace, native, round2, roundBox, Scratch, type Transform } from './pdfium.js';

interface FontInfo {
  name: string;
  bold: boolean;
  italic: boolean;
  /** Custom glyph names of the embedded program's built-in encoding, by code; null when none. */
  codeNames: CodeNames | null;
}

const FONT_ITALIC_FLAG = 0x40;
/** Programs larger than this are TrueType or CJK fonts, never TeX's small Type 1 subsets. */
const MAX_PROGRAM_BYTES = 2 << 20;

/** The fonts of one document, each read once: name, weight, slant and embedded glyph names. */
export class FontCache {
  private readonly fonts = new Map<number, FontInfo>();
  private readonly nameBuffer: Scratch;

  constructor(private readonly lib: WrappedPdfiumModule) {
    this.nameBuffer = new Scratch(lib, 512);
  }

  /** The font a text object is set in. */
  of(textObject: number): FontInfo {
    const { lib, nameBuffer } = this;
    const font = textObject ? lib.FPDFTextObj_GetFont(textObject) : 0;
    const cached = this.fonts.get(font);
    if (cached) return cached;
    let name = '';
    if (font) {
      const length = lib.FPDFFont_GetBaseFontName(font, nameBuffer.ptr, 512);
      if (length > 0) name = lib.pdfium.UTF8ToString(nameBuffer.ptr).replace(/^[A-Z]{6}\+/, '');
    }
    const flags = font ? lib.FPDFFont_GetFlags(font) : 0;
    const info = {
      name,
      bold: /bold|black|heavy|semibold|demi/i.test(name),
      italic: (flags & FONT_ITALIC_FLAG) !== 0 || /italic|oblique/i.test(name),
      codeNames: font ? programGlyphNames(lib, font, nameBuffer) : null,
    };
    this.fonts.set(font, info);
    return info;
  }

  free(): void {
    this.nameBuffer.free();
  }
}

function programGlyphNames(lib: WrappedPdfiumModule, font: number, scratch: Scratch): CodeNames | null {
  if (!lib.FPDFFont_GetIsEmbedded(font)) return null;
  if (!lib.FPDFFont_GetFontData(font, 0, 0, scratch.ptr)) return null;
  const length = heaps(lib).HEAP32[scratch.ptr >> 2];
  if (length <= 4 || length > MAX_PROGRAM_BYTES) return null;
  const buffer = lib.pdfium.wasmExports.malloc(length);
  try {
    if (!lib.FPDFFont_GetFontData(font, buffer, length, scratch.ptr)) return null;
    return builtinGlyphNames(heaps(lib).HEAPU8.subarray(buffer, buffer + length));
  } finally {
    lib.pdfium.wasmExports.free(buffer);
  }
}

/** Text render modes that paint nothing: 3 (invisible) and 7 (adds to the clip only). */
const INVISIBLE_MODES = new Set([3, 7]);

/** PDFium reports a soft hyphen at a line end as U+0002. */
const PDFIUM_SOFT_HYPHEN = 0x02;

const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;

/** An accent drawn before the glyph it sits on, waiting for that glyph. */
interface PendingAccent {
  char: string;
  mark: string;
  box: Box;
  size: number;
  /**
   * The word it was drawn right after, when the file gives it as a combining mark (Unicode's
   * order puts a mark after its base): the mark's base when no glyph lies under it (a browser's
   * combining tilde, drawn with a box of its own beside the letter).
   */
  follows: Word | null;
}

/**
 * The words of a page's text layer, in the order the file draws them; the words of `hidden` text
 * objects (drawn in ink but covered: pdf-text-layer.ts textUnderPictures) are marked invisible,
 * as those drawn invisibly are.
 */
export function readWords(lib: WrappedPdfiumModule, textPage: number, t: Transform, scratch: Scratch, fonts: FontCache, hidden: ReadonlySet<number> = new Set()): Word[] {
  return new WordReader(lib, textPage, t, scratch, fonts, hidden).read();
}

/**
 * Reads a text page character by character, each step a soft hyphen, a space or a glyph, and
 * gathers glyphs into words: a glyph joins the word being read unless startsNewWord says it
 * stands apart; an accent joins the glyph it sits on, whichever is drawn first.
 */
class WordReader {
  private readonly words: Word[] = [];
  /** The word being read. */
  private current: Word | null = null;
  /** The box, size and font of the glyph read last. */
  private last: Box | null = null;
  private lastSize = 0;
  private lastFont = '';
  /** The text object read last, and what it sets for its glyphs. */
  private lastObject = -1;
  private font: FontInfo = { name: '', bold: false, italic: false, codeNames: null };
  private scale = 1;
  /** The letter spacing of the text object being read, and of the one the last glyph came from. */
  private tracking = 0;
  private lastTracking = 0;
  /** The quarter turns that make the text object being read run left to right; its glyphs are read in that turned frame. */
  private turn: Word['turn'] = undefined;
  /** The text object being read is drawn invisibly (render modes 3 and 7: a scanner's OCR layer) or under a picture. */
  private invisible = false;
  /** Characters of one glyph (a ligature) share its box; where it started in the word. */
  private glyphStart = -1;
  /** The word holds combining marks, so it is composed (NFC) when done. */
  private combined = false;
  private pendingAccent: PendingAccent | null = null;
  /** PDFium made up a space after the current word; the next glyph's position decides whether it is one. */
  private generatedSpace = false;

  constructor(
    private readonly lib: WrappedPdfiumModule,
    private readonly textPage: number,
    private readonly t: Transform,
    private readonly scratch: Scratch,
    private readonly fonts: FontCache,
    private readonly hidden: ReadonlySet<number>,
  ) {}

  read(): Word[] {
    const count = native(this.lib).FPDFText_CountChars(this.textPage);
    for (let i = 0; i < count; i++) this.step(i);
    this.settleAccent(count);
    this.flush();
    const joined = logicalBrackets(joinSpacedEllipses(this.words));
    for (const word of joined) roundBox(word.box);
    return joined;
  }

  private step(index: number): void {
    const code = native(this.lib).FPDFText_GetUnicode(this.textPage, index);
    if (code === PDFIUM_SOFT_HYPHEN) this.softHyphen(index);
    else if (isBreakingSpace(code) && !(code < 0x20 && this.controlCodeIsGlyph(index, code))) this.space(index, code);
    else this.glyph(index, code);
  }

  /** A hyphen PDFium found at a line's end: the word ends there, marked as broken. */
  private softHyphen(index: number): void {
    this.settleAccent(index);
    if (this.current) this.current.hyphenated = true;
    this.flush();
  }

  private space(index: number, code: number): void {
    const generated = native(this.lib).FPDFText_IsGenerated(this.textPage, index) === 1;
    // PDFium breaks the line it thinks it sees before a raised or lowered glyph (R², x₁); where
    // a word really ends the glyphs' positions tell, so its generated line breaks are ignored.
    if ((code === 0x0a || code === 0x0d) && generated) return;
    // PDFium often makes up a space between an accent and the raised glyph it sits on; the
    // accent waits for the next glyph all the same.
    if (!this.pendingAccent || !generated) this.settleAccent(index);
    // A space PDFium made up (the file has none; TeX writes none) ends the word only where the
    // next glyph stands at least a thin space away: a kern, an italic correction or the seam
    // between two text objects is no space ("V(f)", "Y.", "PR" under an overline).
    if (generated && code === 0x20 && this.current) this.generatedSpace = true;
    else this.flush();
  }

  private glyph(index: number, code: number): void {
    const { lib, textPage, t, scratch } = this;
    const api = native(lib);
    if (!api.FPDFText_GetLooseCharBox(textPage, index, scratch.ptr)) return;
    // FS_RECTF: left, top, right, bottom in user space.
    const [xa, ya] = apply(t, scratch.f32(0), scratch.f32(1));
    const [xb, yb] = apply(t, scratch.f32(2), scratch.f32(3));
    const object = api.FPDFText_GetTextObject(textPage, index);
    if (object !== this.lastObject) this.enterObject(index, object);
    // Text set in another direction (a vertical axis label, a sideways table header) is read in
    // the frame where it runs left to right, so its glyphs make words and its words lines.
    const box = turnBox({ x0: Math.min(xa, xb), y0: Math.min(ya, yb), x1: Math.max(xa, xb), y1: Math.max(ya, yb) }, this.turn ?? 0);
    // Many producers set a 1-point font and scale it with the text matrix; the size that means
    // something for layout is the one on the page.
    const size = api.FPDFText_GetFontSize(textPage, index) * this.scale;
    const named = glyphText(code, this.font);
    if (named === '') return;
    const char = named ?? symbolGlyph(code, this.font.name) ?? String.fromCodePoint(code);

    // An accent over a glyph (TeX's \tilde, \hat, \not, a text accent) becomes the combining mark
    // after that glyph, whichever of the two the file draws first.
    const mark = combiningAccent(char);
    if (mark) {
      this.settleAccent(index);
      if (this.current && this.last && overlapsAcross(this.last, box)) {
        this.current.text += mark;
        this.combined = true;
        return;
      }
      this.pendingAccent = { char, mark, box, size, follows: COMBINING_MARK.test(char) ? this.current : null };
      return;
    }
    const accent = this.pendingAccent;
    if (accent && overlapsAcross(accent.box, box)) {
      this.pendingAccent = null;
      const word = this.addGlyph(char, box, size, index);
      word.text += accent.mark;
      growBox(word.box, accent.box);
      this.combined = true;
      return;
    }
    this.settleAccent(index);
    this.addGlyph(char, box, size, index);
    // A combining mark the file gives as a glyph of its own (one it does not draw over a letter).
    if (char.codePointAt(0)! >= FIRST_MARK && COMBINING_MARK.test(char)) this.combined = true;
  }

  /** A glyph of another text object: its font, scale, direction and letter spacing. */
  private enterObject(index: number, object: number): void {
    const { lib, textPage, t, scratch } = this;
    this.font = this.fonts.of(object);
    this.scale = textScale(lib, textPage, index, scratch);
    this.turn = TURNS[baselineDirection(lib, textPage, index, t, scratch)];
    this.tracking = letterSpacing(lib, textPage, index, object, t, this.turn, scratch);
    this.invisible = object !== 0 && (INVISIBLE_MODES.has(lib.FPDFTextObj_GetTextRenderMode(object)) || this.hidden.has(object));
    this.lastObject = object;
  }

  /** Adds a glyph to the word being read, or starts a new word with it; the word it went to. */
  private addGlyph(char: string, box: Box, size: number, index: number): Word {
    // Two glyphs of one tracked-out run (or of two runs tracked alike) stand apart by its letter spacing.
    const spacing = Math.min(this.tracking, this.lastTracking);
    if (this.current && (this.current.turn !== this.turn || (this.current.invisible ?? false) !== this.invisible)) this.flush();
    if (this.current && this.last && startsNewWord(this.last, this.lastSize, box, size, { fontChanged: this.font.name !== this.lastFont, afterGeneratedSpace: this.generatedSpace, tracking: spacing })) this.flush();
    this.generatedSpace = false;
    let word = this.current;
    if (!word) {
      word = {
        text: char,
        box: { ...box },
        fontName: this.font.name,
        fontSize: round2(size),
        bold: this.font.bold || native(this.lib).FPDFText_GetFontWeight(this.textPage, index) >= 600,
        italic: this.font.italic,
        confidence: 100,
        hyphenated: false,
      };
      if (this.tracking > 0) word.letterSpacing = round2(this.tracking);
      if (this.turn) word.turn = this.turn;
      if (this.invisible) word.invisible = true;
      this.current = word;
      this.glyphStart = 0;
    } else {
      const sameGlyph = this.last !== null && sameBox(this.last, box);
      if (sameGlyph && RTL.test(char) && this.glyphStart >= 0) {
        // A right-to-left ligature (lam-alef) is stored in visual order: put its letters back in
        // logical order by placing each further letter before the glyph's first one.
        word.text = word.text.slice(0, this.glyphStart) + char + word.text.slice(this.glyphStart);
      } else {
        if (!sameGlyph) this.glyphStart = word.text.length;
        word.text += char;
      }
      growBox(word.box, box);
    }
    this.last = box;
    this.lastSize = size;
    this.lastFont = this.font.name;
    this.lastTracking = this.tracking;
    return word;
  }

  /** Ends the word being read. */
  private flush(): void {
    this.generatedSpace = false;
    const word = this.current;
    if (word && word.text.length > 0) {
      // An unreadable symbol alone marks an item; inside other text it is dropped.
      const alone = /^\u0000+$/.test(word.text);
      word.text = alone ? '•' : expandLigatures(word.text.replace(/\u0000/g, ''));
      // Marks joined to their letters here, or given by the file after them (a glyph mapped to a
      // letter and a combining mark), compose with them.
      if (this.combined) word.text = word.text.normalize('NFC');
      if (word.turn) word.box = turnBox(word.box, 360 - word.turn);
      if (word.text.length > 0) this.words.push(word);
    }
    this.current = null;
    this.last = null;
    this.glyphStart = -1;
    this.combined = false;
  }

  /**
   * A pending accent that found no glyph under it stays the spacing character it is, unless the
   * file gave it as a combining mark right after a word's glyph: it combines with that glyph.
   */
  private settleAccent(index: number): void {
    if (!this.pendingAccent) return;
    const accent = this.pendingAccent;
    this.pendingAccent = null;
    if (accent.follows && accent.follows === this.current) {
      // The letter and its mark are one glyph: the next glyph's gap is measured from both.
      this.current.text += accent.mark;
      growBox(this.current.box, accent.box);
      if (this.last) {
        const last = { ...this.last };
        growBox(last, accent.box);
        this.last = last;
      }
      this.combined = true;
      return;
    }
    this.addGlyph(SPACING_FORM[accent.char] ?? accent.char, accent.box, accent.size, index);
  }

  /** A control code that is really a glyph's raw code, in a font that names that glyph (cmex's big parentheses sit at 0x00-0x1F). */
  private controlCodeIsGlyph(index: number, code: number): boolean {
    const api = native(this.lib);
    // A tab or line break PDFium made up is one; drawn from a font that names a glyph there (cmex's
    // double bar, the piece of a tall norm, sits at 0x0D), it is that glyph.
    if ((code === 0x09 || code === 0x0a || code === 0x0d) && api.FPDFText_IsGenerated(this.textPage, index) === 1) return false;
    const object = api.FPDFText_GetTextObject(this.textPage, index);
    return object !== 0 && glyphText(code, this.fonts.of(object)) !== undefined;
  }
}

/** Widest gap, in font sizes, between the periods of an ellipsis set as spaced periods. */
const ELLIPSIS_GAP = 0.25;

/**
 * Three periods set a thin space apart (TeX's \ldots, "x1, . . . , xn") are one ellipsis and
 * read "..."; dot leaders, set half a font size apart and more, stay as they are.
 */
function joinSpacedEllipses(words: Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const [a, b, c] = [words[i], words[i + 1], words[i + 2]];
    if (a.text === '.' && b?.text === '.' && c?.text === '.' && closeOnLine(a, b) && closeOnLine(b, c)) {
      out.push({ ...a, text: '...', box: { x0: a.box.x0, y0: Math.min(a.box.y0, c.box.y0), x1: c.box.x1, y1: Math.max(a.box.y1, c.box.y1) } });
      i += 2;
      continue;
    }
    out.push(a);
  }
  return out;
}

/**
 * A word of brackets, signs and figures without letters ("(%)", "(631)") drawn beside a word of a
 * right-to-left script takes that direction: the file draws it in visual order, each bracket
 * shaped as its mirror, so its characters come out reversed (")%(" for "(%)"). Its runs (a
 * figure with its separators stays one run, read left to right) are put back in logical order.
 * Right-to-left words themselves come out in logical order already.
 */
export function logicalBrackets(words: Word[]): Word[] {
  const besideRtl = (i: number) => [words[i - 1], words[i + 1]].some((w) => w !== undefined && RTL.test(w.text) && verticalOverlap(w.box, words[i].box) > 0);
  return words.map((word, i) => {
    if (!/[()[\]{}]/.test(word.text) || /\p{L}/u.test(word.text) || !besideRtl(i)) return word;
    const runs = word.text.match(/\p{Nd}[\p{Nd}.,]*|[^\p{Nd}]/gu) ?? [];
    return { ...word, text: runs.reverse().join('') };
  });
}

function closeOnLine(a: Word, b: Word): boolean {
  const gap = b.box.x0 - a.box.x1;
  return gap >= 0 && gap <= Math.max(a.fontSize, 1) * ELLIPSIS_GAP && verticalOverlap(a.box, b.box) > 0;
}

/**
 * The text PDFium could not give for a character: Adobe Symbol's private-use pieces, and glyphs
 * whose names PDFium does not know, for which it reports the raw character code (TeX's prime then
 * reads "0"). Undefined keeps PDFium's reading; an empty string drops the glyph.
 */
function glyphText(code: number, font: FontInfo): string | undefined {
  if (code >= 0xf8e6 && code <= 0xf8fe) return symbolPrivateUseText(code);
  if (code > 0xff || !font.codeNames || font.codeNames.ascii.has(code)) return undefined;
  const name = font.codeNames.custom.get(code);
  return name === undefined ? undefined : glyphNameText(name);
}

/** A combining mark by Unicode (category Mn), as opposed to a spacing accent (´, ˜, ¨). */
const COMBINING_MARK = /^\p{Mn}$/u;
/** Below this code point no character is a combining mark (U+0300 opens the combining diacriticals). */
const FIRST_MARK = 0x300;

/** Marks that fonts draw as glyphs of their own, as characters when they stand alone. */
const SPACING_FORM: Record<string, string> = { '\u0303': '\u02DC', '\u0302': '\u02C6', '\u0338': '/', '\u20D7': '\u2192' };

/** Two glyphs stacked on each other: most of the narrower one's width is over the other, and they touch or nearly. */
function overlapsAcross(a: Box, b: Box): boolean {
  const overlap = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const narrower = Math.min(a.x1 - a.x0, b.x1 - b.x0);
  const apart = Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1);
  return narrower > 0 && overlap >= narrower * 0.5 && apart < Math.max(a.y1 - a.y0, b.y1 - b.y0) * 0.5;
}

function growBox(target: Box, box: Box): void {
  target.x0 = Math.min(target.x0, box.x0);
  target.y0 = Math.min(target.y0, box.y0);
  target.x1 = Math.max(target.x1, box.x1);
  target.y1 = Math.max(target.y1, box.y1);
}

function sameBox(a: Box, b: Box): boolean {
  return Math.abs(a.x0 - b.x0) < 0.01 && Math.abs(a.x1 - b.x1) < 0.01 && Math.abs(a.y0 - b.y0) < 0.01 && Math.abs(a.y1 - b.y1) < 0.01;
}

/** The vertical scale of a character's text matrix (FS_MATRIX a, b, c, d, e, f as floats). */
function textScale(lib: WrappedPdfiumModule, textPage: number, index: number, scratch: Scratch): number {
  const at = scratch.ptr + 16;
  if (!native(lib).FPDFText_GetMatrix(textPage, index, at)) return 1;
  const c = scratch.f32(6);
  const d = scratch.f32(7);
  const scale = Math.hypot(c, d);
  return scale > 0.01 && Number.isFinite(scale) ? scale : 1;
}

/** A gap between letters under this (in points) is no letter spacing worth taking off a word gap. */
const UNTRACKED_GAP = 0.1;

/**
 * The letter spacing of a text object: the narrowest gap between two of its glyphs that follow
 * each other on one line, where it has at least two such gaps, none overlaps, and it is narrower
 * than the run's widest glyph (PDFium's base space, which it takes off before it makes up spaces).
 * A run set with character spacing (the Tc operator; tracked-out capitals, "D o u b l e") has
 * every letter that far apart, its words further; ordinary text has kerned or touching letters
 * and spacing 0; items set further apart than they are wide (a table row's marks, "X  X  X") are
 * no letters of one word.
 */
function letterSpacing(lib: WrappedPdfiumModule, textPage: number, start: number, object: number, t: Transform, turn: Word['turn'], scratch: Scratch): number {
  const api = native(lib);
  const count = api.FPDFText_CountChars(textPage);
  let previous: Box | null = null;
  let narrowest = Infinity;
  let gaps = 0;
  let widest = 0;
  for (let i = start; i < count && api.FPDFText_GetTextObject(textPage, i) === object; i++) {
    if (isBreakingSpace(api.FPDFText_GetUnicode(textPage, i)) || api.FPDFText_IsGenerated(textPage, i) === 1) {
      previous = null;
      continue;
    }
    if (!api.FPDFText_GetLooseCharBox(textPage, i, scratch.ptr)) continue;
    const [xa, ya] = apply(t, scratch.f32(0), scratch.f32(1));
    const [xb, yb] = apply(t, scratch.f32(2), scratch.f32(3));
    const box = turnBox({ x0: Math.min(xa, xb), y0: Math.min(ya, yb), x1: Math.max(xa, xb), y1: Math.max(ya, yb) }, turn ?? 0);
    widest = Math.max(widest, box.x1 - box.x0);
    if (previous && verticalOverlap(previous, box) >= 0.5) {
      // Either direction, so right-to-left runs are measured too.
      const gap = Math.max(box.x0 - previous.x1, previous.x0 - box.x1);
      // Letters that touch or overlap: the run is not tracked out (and most runs end here).
      if (gap < UNTRACKED_GAP) return 0;
      narrowest = Math.min(narrowest, gap);
      gaps++;
    }
    previous = box;
  }
  return gaps >= 2 && narrowest < widest ? narrowest : 0;
}

/**
 * A glyph starts a new word when it leaves the previous one's line or stands apart from it. A
 * smaller glyph touching the previous one (a superscript or subscript: R², x₁) stays in the word
 * although it sits higher or lower. Within one font, glyphs are set with the font's own kerning,
 * so only a quarter of the font size apart beyond the run's letter spacing is a word space; where
 * the font changes (a formula moving between its italic, roman and symbol fonts, a box glyph
 * before a word), a thin space already is (", sin", "☐ There"), and so it is after a space PDFium
 * made up (see GENERATED_SPACE_MIN).
 */
function startsNewWord(
  previous: Box,
  previousSize: number,
  box: Box,
  size: number,
  context: { fontChanged: boolean; afterGeneratedSpace: boolean; tracking: number },
): boolean {
  // Either direction, so right-to-left runs stay whole; the run's letter spacing is no space.
  const gap = Math.max(box.x0 - previous.x1, previous.x0 - box.x1) - context.tracking;
  if (context.afterGeneratedSpace && gap >= Math.max(size, 1) * GENERATED_SPACE_MIN) return true;
  const overlap = Math.min(previous.y1, box.y1) - Math.max(previous.y0, box.y0);
  const minHeight = Math.min(previous.y1 - previous.y0, box.y1 - box.y0);
  const scripted = Math.min(size, previousSize) < Math.max(size, previousSize) * 0.85;
  if (scripted && overlap > 0 && gap <= Math.max(size, previousSize, 1) * 0.12) return false;
  if (minHeight > 0 && overlap < minHeight * 0.5) return true;
  return gap > Math.max(size, 1) * (context.fontChanged ? GENERATED_SPACE_MIN : 0.25);
}

/**
 * Smallest gap, in font sizes, that a space PDFium made up needs to end a word: just under TeX's
 * thin space (1/6 em), which sets words apart in formulas ("d(x, y)"), and above the kerns and
 * italic corrections PDFium takes for spaces ("V (f)", "Y .").
 */
const GENERATED_SPACE_MIN = 0.15;

const LIGATURES = /[\uFB00-\uFB06]/g;

function expandLigatures(text: string): string {
  return text.replace(LIGATURES, (ligature) => ligature.normalize('NFKC'));
}
