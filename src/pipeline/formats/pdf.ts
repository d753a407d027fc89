// PDF reader: pages, words with boxes and fonts from the text layer, and the regions that hold
// embedded pictures. It reads and renders; it does no layout analysis and no OCR.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import sharp from 'sharp';
import { boxArea, turnBox, verticalOverlap, type Box, type FormField, type PageGraphics, type RawPage, type Word } from '../page-model.js';
import { symbolGlyph } from './dingbats.js';
import { builtinGlyphNames, type CodeNames } from './font-program.js';
import { combiningAccent, glyphNameText, symbolPrivateUseText } from './glyph-names.js';
import { readGraphics } from './pdf-graphics.js';
import { apply, heaps, native, PdfDocument, pageTransform, Scratch, type Transform } from './pdfium.js';

export async function countPdfPages(bytes: Uint8Array): Promise<number> {
  const doc = await PdfDocument.open(bytes);
  try {
    return doc.pageCount;
  } finally {
    doc.close();
  }
}

export async function readPdf(bytes: Uint8Array): Promise<RawPage[]> {
  const doc = await PdfDocument.open(bytes);
  const { lib } = doc;
  const scratch = new Scratch(lib, 64);
  const nameBuffer = new Scratch(lib, 512);
  const fonts = new Map<number, FontInfo>();
  const formInfo = lib.PDFiumExt_OpenFormFillInfo();
  const form = lib.PDFiumExt_InitFormFillEnvironment(doc.handle, formInfo);
  try {
    const pages: RawPage[] = [];
    for (let index = 0; index < doc.pageCount; index++) {
      const page = lib.FPDF_LoadPage(doc.handle, index);
      if (!page) throw new Error(`page ${index + 1} could not be loaded`);
      try {
        const displayWidth = lib.FPDF_GetPageWidthF(page);
        const displayHeight = lib.FPDF_GetPageHeightF(page);
        const textPage = lib.FPDFText_LoadPage(page);
        try {
          const display = pageTransform(lib, page, displayWidth, displayHeight, scratch);
          const rotation = textPage ? uprightRotation(lib, textPage, display, scratch) : 0;
          const { transform, width, height } = turned(display, rotation, displayWidth, displayHeight);
          const words = textPage ? readWords(lib, textPage, transform, scratch, nameBuffer, fonts) : [];
          const graphics = readGraphics(lib, page, transform, width, height, scratch);
          const ocr = needsOcr(words, graphics, width, height);
          pages.push({
            number: index + 1,
            width,
            height,
            unit: 'pt',
            rotation,
            skew: 0,
            words: ocr ? [] : words,
            graphics,
            formFields: form ? readFormFields(lib, form, page, transform, scratch) : [],
            textSource: ocr ? 'ocr' : 'text_layer',
          });
        } finally {
          if (textPage) lib.FPDFText_ClosePage(textPage);
        }
      } finally {
        lib.FPDF_ClosePage(page);
      }
    }
    return pages;
  } finally {
    if (form) lib.PDFiumExt_ExitFormFillEnvironment(form);
    lib.PDFiumExt_CloseFormFillInfo(formInfo);
    scratch.free();
    nameBuffer.free();
    doc.close();
  }
}

/**
 * Whether a page's text must come from OCR: it has (almost) no text layer but is covered by a
 * picture (a scan) or by many filled shapes (text turned into outlines), or its text layer is
 * mostly characters no font mapped to Unicode (a garbage layer).
 */
export function needsOcr(words: Word[], graphics: PageGraphics, width: number, height: number): boolean {
  let characters = 0;
  let unreadable = 0;
  for (const word of words) {
    for (const char of word.text) {
      characters++;
      const code = char.codePointAt(0)!;
      if (code === 0xfffd || (code >= 0xe000 && code <= 0xf8ff) || code < 0x20 || (code >= 0x7f && code <= 0x9f)) unreadable++;
    }
  }
  if (characters >= 20 && unreadable > characters * 0.3) return true;
  if (words.length >= 5) return false;
  const pictured = graphics.images.reduce((sum, box) => sum + boxArea(box), 0);
  return pictured >= width * height * 0.3 || graphics.shapes.length >= 200;
}

const ANNOT_WIDGET = 20;
const FIELD_KINDS: Record<number, FormField['kind'] | undefined> = {
  2: 'checkbox',
  3: 'radio',
  4: 'choice',
  5: 'choice',
  6: 'text',
  7: 'signature',
};

/** Reads a UTF-16LE string through PDFium's two-call pattern (ask the size, then fill). */
function readUtf16(lib: WrappedPdfiumModule, read: (buffer: number, length: number) => number): string {
  const length = read(0, 0);
  if (length <= 2) return '';
  const buffer = lib.pdfium.wasmExports.malloc(length);
  try {
    read(buffer, length);
    return lib.pdfium.UTF16ToString(buffer);
  } finally {
    lib.pdfium.wasmExports.free(buffer);
  }
}

/** The page's form widgets: name, tooltip, kind, value or state, and where they sit. */
function readFormFields(lib: WrappedPdfiumModule, form: number, page: number, t: Transform, scratch: Scratch): FormField[] {
  const count = lib.FPDFPage_GetAnnotCount(page);
  if (count === 0) return [];
  // Checkbox and radio states are only known once the form has seen the page.
  lib.FORM_OnAfterLoadPage(page, form);
  try {
    return readWidgets(lib, form, page, count, t, scratch);
  } finally {
    lib.FORM_OnBeforeClosePage(page, form);
  }
}

function readWidgets(lib: WrappedPdfiumModule, form: number, page: number, count: number, t: Transform, scratch: Scratch): FormField[] {
  const fields: FormField[] = [];
  for (let i = 0; i < count; i++) {
    const annot = lib.FPDFPage_GetAnnot(page, i);
    if (!annot) continue;
    try {
      if (lib.FPDFAnnot_GetSubtype(annot) !== ANNOT_WIDGET) continue;
      const kind = FIELD_KINDS[lib.FPDFAnnot_GetFormFieldType(form, annot)];
      if (!kind || !lib.FPDFAnnot_GetRect(annot, scratch.ptr)) continue;
      const [xa, ya] = apply(t, scratch.f32(0), scratch.f32(1));
      const [xb, yb] = apply(t, scratch.f32(2), scratch.f32(3));
      const name = readUtf16(lib, (b, l) => lib.FPDFAnnot_GetFormFieldName(form, annot, b, l));
      const alternateName = readUtf16(lib, (b, l) => lib.FPDFAnnot_GetFormFieldAlternateName(form, annot, b, l));
      const toggles = kind === 'checkbox' || kind === 'radio';
      const value = toggles
        ? readUtf16(lib, (b, l) => lib.FPDFAnnot_GetFormFieldExportValue(form, annot, b, l))
        : readUtf16(lib, (b, l) => lib.FPDFAnnot_GetFormFieldValue(form, annot, b, l));
      fields.push({
        name,
        alternateName: alternateName || null,
        kind,
        value,
        selected: toggles ? lib.FPDFAnnot_IsChecked(form, annot) : null,
        box: roundBox({ x0: Math.min(xa, xb), y0: Math.min(ya, yb), x1: Math.max(xa, xb), y1: Math.max(ya, yb) }),
      });
    } finally {
      lib.FPDFPage_CloseAnnot(annot);
    }
  }
  return fields;
}

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

function fontOf(lib: WrappedPdfiumModule, textObject: number, nameBuffer: Scratch, fonts: Map<number, FontInfo>): FontInfo {
  const font = textObject ? lib.FPDFTextObj_GetFont(textObject) : 0;
  const cached = fonts.get(font);
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
  fonts.set(font, info);
  return info;
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

function isBreakingSpace(code: number): boolean {
  return (
    code <= 0x20 ||
    code === 0xa0 ||
    code === 0x3000 ||
    (code >= 0x2000 && code <= 0x200b) ||
    code === 0xfeff ||
    code === 0xfffe ||
    code === 0xffff
  );
}

/** PDFium reports a soft hyphen at a line end as U+0002. */
const PDFIUM_SOFT_HYPHEN = 0x02;

/**
 * The clockwise quarter turns that make the page's text read left to right: the direction of
 * most characters' baselines on the displayed page decides (a landscape table printed sideways on
 * a portrait page is read turned, as a person would turn the paper).
 */
function uprightRotation(lib: WrappedPdfiumModule, textPage: number, display: Transform, scratch: Scratch): RawPage['rotation'] {
  const votes = [0, 0, 0, 0];
  const count = native(lib).FPDFText_CountChars(textPage);
  let lastObject = -1;
  let direction = 0;
  for (let i = 0; i < count; i++) {
    const object = native(lib).FPDFText_GetTextObject(textPage, i);
    if (object !== lastObject) {
      lastObject = object;
      direction = baselineDirection(lib, textPage, i, display, scratch);
    }
    if (direction >= 0 && !isBreakingSpace(native(lib).FPDFText_GetUnicode(textPage, i))) votes[direction]++;
  }
  const total = votes.reduce((a, b) => a + b, 0);
  const best = votes.indexOf(Math.max(...votes));
  // Only a clear majority turns the page; mixed pages stay as displayed.
  if (best === 0 || total < 20 || votes[best] < total * 0.6) return 0;
  return ([0, 90, 180, 270] as const)[best];
}

/** The turn that makes text of each baseline direction read rightwards; unknown directions stay as they are. */
const TURNS: Record<number, Word['turn']> = { [-1]: undefined, 0: undefined, 1: 90, 2: 180, 3: 270 };

/** 0: reads rightwards, 1: upwards, 2: leftwards, 3: downwards on the displayed page; -1 unknown. */
function baselineDirection(lib: WrappedPdfiumModule, textPage: number, index: number, t: Transform, scratch: Scratch): number {
  if (!native(lib).FPDFText_GetMatrix(textPage, index, scratch.ptr + 16)) return -1;
  const a = scratch.f32(4);
  const b = scratch.f32(5);
  // The baseline vector through the linear part of the display transform (y grows downwards).
  const dx = t.a * a + t.c * b;
  const dy = t.b * a + t.d * b;
  if (Math.hypot(dx, dy) < 1e-6) return -1;
  if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? 0 : 2;
  return dy < 0 ? 1 : 3;
}

/** The display transform followed by a clockwise turn of the page, and the turned page's size. */
function turned(t: Transform, rotation: RawPage['rotation'], width: number, height: number): { transform: Transform; width: number; height: number } {
  // Clockwise turns on a y-down page: 90 maps (x, y) to (H - y, x); 180 to (W - x, H - y); 270 to (y, W - x).
  const then = (p: [number, number, number, number, number, number]): Transform => ({
    a: p[0] * t.a + p[1] * t.b,
    b: p[2] * t.a + p[3] * t.b,
    c: p[0] * t.c + p[1] * t.d,
    d: p[2] * t.c + p[3] * t.d,
    e: p[0] * t.e + p[1] * t.f + p[4],
    f: p[2] * t.e + p[3] * t.f + p[5],
  });
  switch (rotation) {
    case 90:
      return { transform: then([0, -1, 1, 0, height, 0]), width: height, height: width };
    case 180:
      return { transform: then([-1, 0, 0, -1, width, height]), width, height };
    case 270:
      return { transform: then([0, 1, -1, 0, 0, width]), width: height, height: width };
    default:
      return { transform: t, width, height };
  }
}

const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;

function readWords(lib: WrappedPdfiumModule, textPage: number, t: Transform, scratch: Scratch, nameBuffer: Scratch, fonts: Map<number, FontInfo>): Word[] {
  const words: Word[] = [];
  let current: Word | null = null;
  let last: Box | null = null;
  let lastSize = 0;
  let lastFont = '';
  let lastObject = -1;
  let font: FontInfo = { name: '', bold: false, italic: false, codeNames: null };
  let scale = 1;
  /** The letter spacing of the text object being read, and of the one the last glyph came from. */
  let tracking = 0;
  let lastTracking = 0;
  /** The quarter turns that make the text object being read run left to right; its glyphs are read in that turned frame. */
  let turn: Word['turn'] = undefined;
  /** Characters of one glyph (a ligature) share its box; where it started in the word. */
  let glyphStart = -1;
  /** The word holds combining marks, so it is composed (NFC) when done. */
  let combined = false;
  /** An accent drawn before the glyph it sits on, waiting for that glyph. */
  let pendingAccent: { char: string; mark: string; box: Box; size: number } | null = null;
  /** PDFium made up a space after the current word; the next glyph's position decides whether it is one. */
  let generatedSpace = false;
  const flush = () => {
    generatedSpace = false;
    if (current && current.text.length > 0) {
      // An unreadable symbol alone marks an item; inside other text it is dropped.
      const alone = /^\u0000+$/.test(current.text);
      current.text = alone ? '•' : expandLigatures(current.text.replace(/\u0000/g, ''));
      if (combined) current.text = current.text.normalize('NFC');
      if (current.turn) current.box = turnBox(current.box, 360 - current.turn);
      if (current.text.length > 0) words.push(current);
    }
    current = null;
    last = null;
    glyphStart = -1;
    combined = false;
  };
  const addGlyph = (char: string, box: Box, size: number, index: number) => {
    // Two glyphs of one tracked-out run (or of two runs tracked alike) stand apart by its letter spacing.
    const spacing = Math.min(tracking, lastTracking);
    if (current && current.turn !== turn) flush();
    if (current && last && startsNewWord(last, lastSize, box, size, { fontChanged: font.name !== lastFont, afterGeneratedSpace: generatedSpace, tracking: spacing })) flush();
    generatedSpace = false;
    if (!current) {
      current = {
        text: char,
        box: { ...box },
        fontName: font.name,
        fontSize: round2(size),
        bold: font.bold || native(lib).FPDFText_GetFontWeight(textPage, index) >= 600,
        italic: font.italic,
        confidence: 100,
        hyphenated: false,
      };
      if (tracking > 0) current.letterSpacing = round2(tracking);
      if (turn) current.turn = turn;
      glyphStart = 0;
    } else {
      const w = current as Word;
      const sameGlyph = last !== null && sameBox(last, box);
      if (sameGlyph && RTL.test(char) && glyphStart >= 0) {
        // A right-to-left ligature (lam-alef) is stored in visual order: put its letters back in
        // logical order by placing each further letter before the glyph's first one.
        w.text = w.text.slice(0, glyphStart) + char + w.text.slice(glyphStart);
      } else {
        if (!sameGlyph) glyphStart = w.text.length;
        w.text += char;
      }
      growBox(w.box, box);
    }
    last = box;
    lastSize = size;
    lastFont = font.name;
    lastTracking = tracking;
  };
  /** A pending accent that found no glyph under it stays the spacing character it is. */
  const settleAccent = (index: number) => {
    if (!pendingAccent) return;
    const accent = pendingAccent;
    pendingAccent = null;
    addGlyph(SPACING_FORM[accent.char] ?? accent.char, accent.box, accent.size, index);
  };
  const count = native(lib).FPDFText_CountChars(textPage);
  /** A control code that is really a glyph's raw code, in a font that names that glyph (cmex's big parentheses sit at 0x00-0x1F). */
  const controlCodeIsGlyph = (index: number, code: number): boolean => {
    // A tab or line break PDFium made up is one; drawn from a font that names a glyph there (cmex's
    // double bar, the piece of a tall norm, sits at 0x0D), it is that glyph.
    if ((code === 0x09 || code === 0x0a || code === 0x0d) && native(lib).FPDFText_IsGenerated(textPage, index) === 1) return false;
    const object = native(lib).FPDFText_GetTextObject(textPage, index);
    return object !== 0 && glyphText(code, fontOf(lib, object, nameBuffer, fonts)) !== undefined;
  };
  for (let i = 0; i < count; i++) {
    const code = native(lib).FPDFText_GetUnicode(textPage, i);
    if (code === PDFIUM_SOFT_HYPHEN) {
      settleAccent(i);
      if (current) (current as Word).hyphenated = true;
      flush();
      continue;
    }
    if (isBreakingSpace(code) && !(code < 0x20 && controlCodeIsGlyph(i, code))) {
      // PDFium breaks the line it thinks it sees before a raised or lowered glyph (R², x₁); where
      // a word really ends the glyphs' positions tell, so its generated line breaks are ignored.
      if ((code === 0x0a || code === 0x0d) && native(lib).FPDFText_IsGenerated(textPage, i) === 1) continue;
      // PDFium often makes up a space between an accent and the raised glyph it sits on; the
      // accent waits for the next glyph all the same.
      const generated = native(lib).FPDFText_IsGenerated(textPage, i) === 1;
      if (!pendingAccent || !generated) settleAccent(i);
      // A space PDFium made up (the file has none; TeX writes none) ends the word only where the
      // next glyph stands at least a thin space away: a kern, an italic correction or the seam
      // between two text objects is no space ("V(f)", "Y.", "PR" under an overline).
      if (generated && code === 0x20 && current) generatedSpace = true;
      else flush();
      continue;
    }
    if (!native(lib).FPDFText_GetLooseCharBox(textPage, i, scratch.ptr)) continue;
    // FS_RECTF: left, top, right, bottom in user space.
    const [xa, ya] = apply(t, scratch.f32(0), scratch.f32(1));
    const [xb, yb] = apply(t, scratch.f32(2), scratch.f32(3));
    const object = native(lib).FPDFText_GetTextObject(textPage, i);
    if (object !== lastObject) {
      font = fontOf(lib, object, nameBuffer, fonts);
      scale = textScale(lib, textPage, i, scratch);
      turn = TURNS[baselineDirection(lib, textPage, i, t, scratch)];
      tracking = letterSpacing(lib, textPage, i, object, t, turn, scratch);
      lastObject = object;
    }
    // Text set in another direction (a vertical axis label, a sideways table header) is read in
    // the frame where it runs left to right, so its glyphs make words and its words lines.
    const box = turnBox({ x0: Math.min(xa, xb), y0: Math.min(ya, yb), x1: Math.max(xa, xb), y1: Math.max(ya, yb) }, turn ?? 0);
    // Many producers set a 1-point font and scale it with the text matrix; the size that means
    // something for layout is the one on the page.
    const size = native(lib).FPDFText_GetFontSize(textPage, i) * scale;
    const named = glyphText(code, font);
    if (named === '') continue;
    const char = named ?? symbolGlyph(code, font.name) ?? String.fromCodePoint(code);

    // An accent over a glyph (TeX's \tilde, \hat, \not, a text accent) becomes the combining mark
    // after that glyph, whichever of the two the file draws first.
    const mark = combiningAccent(char);
    if (mark) {
      settleAccent(i);
      if (current && last && overlapsAcross(last, box)) {
        (current as Word).text += mark;
        combined = true;
        continue;
      }
      pendingAccent = { char, mark, box, size };
      continue;
    }
    const accent = pendingAccent as { char: string; mark: string; box: Box; size: number } | null;
    if (accent && overlapsAcross(accent.box, box)) {
      pendingAccent = null;
      addGlyph(char, box, size, i);
      (current as unknown as Word).text += accent.mark;
      growBox((current as unknown as Word).box, accent.box);
      combined = true;
      continue;
    }
    settleAccent(i);
    addGlyph(char, box, size, i);
  }
  settleAccent(count);
  flush();
  const joined = joinSpacedEllipses(words);
  for (const word of joined) roundBox(word.box);
  return joined;
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

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function roundBox(box: Box): Box {
  box.x0 = round2(box.x0);
  box.y0 = round2(box.y0);
  box.x1 = round2(box.x1);
  box.y1 = round2(box.y1);
  return box;
}

export interface RenderedBitmap {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, rows without padding. */
  rgba: Buffer;
}

const RENDER_ANNOTATIONS = 0x01;
const RENDER_RGBA_ORDER = 0x10;

export interface RenderRequest {
  page: number;
  /** Region in page units of the turned page; null for the whole page. */
  region: Box | null;
  /** Clockwise turn of the page model's frame (RawPage.rotation), rendered the same way. */
  rotation: RawPage['rotation'];
  /** Straightening turn of a scanned page (RawPage.skew), applied after rendering. */
  skew: number;
  /** Most pixels per point. */
  maxScale: number;
}

/**
 * Renders pages or regions of them, one at a time with the document kept open, so that the long
 * side is at most `maxSide` pixels. The caller consumes each bitmap before the next is made.
 */
export async function* renderPdfRegions(bytes: Uint8Array, requests: RenderRequest[], maxSide: number): AsyncGenerator<RenderedBitmap> {
  const doc = await PdfDocument.open(bytes);
  const { lib } = doc;
  // Consecutive requests for one page (its figures) share the loaded page.
  let openNumber = -1;
  let openHandle = 0;
  try {
    for (const request of requests) {
      if (openNumber !== request.page) {
        if (openHandle) lib.FPDF_ClosePage(openHandle);
        openHandle = lib.FPDF_LoadPage(doc.handle, request.page - 1);
        openNumber = request.page;
        if (!openHandle) throw new Error(`page ${request.page} could not be loaded`);
      }
      yield request.skew === 0 ? renderOne(lib, openHandle, request, maxSide) : await renderStraightened(lib, openHandle, request, maxSide);
    }
  } finally {
    if (openHandle) lib.FPDF_ClosePage(openHandle);
    doc.close();
  }
}

/**
 * A scanned page straightened after OCR: rendered whole and turned by its skew with sharp, then
 * the region cut from the straightened frame (whose size is the turned page's bounding box).
 */
async function renderStraightened(lib: WrappedPdfiumModule, page: number, request: RenderRequest, maxSide: number): Promise<RenderedBitmap> {
  const sideways = request.rotation === 90 || request.rotation === 270;
  const width = sideways ? lib.FPDF_GetPageHeightF(page) : lib.FPDF_GetPageWidthF(page);
  const height = sideways ? lib.FPDF_GetPageWidthF(page) : lib.FPDF_GetPageHeightF(page);
  const angle = (Math.abs(request.skew) * Math.PI) / 180;
  const frame = { x0: 0, y0: 0, x1: width * Math.cos(angle) + height * Math.sin(angle), y1: width * Math.sin(angle) + height * Math.cos(angle) };
  const region = request.region ?? frame;
  const scale = Math.min(request.maxScale, maxSide / Math.max(region.x1 - region.x0, region.y1 - region.y0));
  const whole = renderOne(lib, page, { ...request, region: null, skew: 0, maxScale: scale }, Number.MAX_SAFE_INTEGER);
  const turned = await sharp(whole.rgba, { raw: { width: whole.width, height: whole.height, channels: 4 } })
    .rotate(request.skew, { background: { r: 255, g: 255, b: 255, alpha: 1 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const left = Math.max(0, Math.min(turned.info.width - 1, Math.round(region.x0 * scale)));
  const top = Math.max(0, Math.min(turned.info.height - 1, Math.round(region.y0 * scale)));
  const cut = await sharp(turned.data, { raw: { width: turned.info.width, height: turned.info.height, channels: 4 } })
    .extract({
      left,
      top,
      width: Math.max(1, Math.min(turned.info.width - left, Math.round((region.x1 - region.x0) * scale))),
      height: Math.max(1, Math.min(turned.info.height - top, Math.round((region.y1 - region.y0) * scale))),
    })
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: cut.info.width, height: cut.info.height, rgba: cut.data };
}

/** The highest resolution at which pages are rendered for OCR, and the pixel budget of one page. */
export const SCAN_DPI = 300;
const SCAN_MAX_PIXELS = 40_000_000;

/** A page rendered in grey levels for OCR, turned as the page model is, and its resolution. */
export function scanPdfPage(bytes: Uint8Array, pageNumber: number, rotation: RawPage['rotation']): Promise<{ image: { width: number; height: number; data: Uint8Array }; dpi: number }> {
  return PdfDocument.open(bytes).then((doc) => {
    const { lib } = doc;
    try {
      const page = lib.FPDF_LoadPage(doc.handle, pageNumber - 1);
      if (!page) throw new Error(`page ${pageNumber} could not be loaded`);
      try {
        const area = lib.FPDF_GetPageWidthF(page) * lib.FPDF_GetPageHeightF(page);
        const dpi = Math.min(SCAN_DPI, Math.floor(72 * Math.sqrt(SCAN_MAX_PIXELS / Math.max(1, area))));
        const bitmap = renderOne(lib, page, { page: pageNumber, region: null, rotation, skew: 0, maxScale: dpi / 72 }, Number.MAX_SAFE_INTEGER);
        const data = new Uint8Array(bitmap.width * bitmap.height);
        for (let i = 0, j = 0; j < data.length; i += 4, j++) {
          // Rec. 601 luma from RGBA.
          data[j] = (bitmap.rgba[i] * 299 + bitmap.rgba[i + 1] * 587 + bitmap.rgba[i + 2] * 114) / 1000;
        }
        return { image: { width: bitmap.width, height: bitmap.height, data }, dpi };
      } finally {
        lib.FPDF_ClosePage(page);
      }
    } finally {
      doc.close();
    }
  });
}

function renderOne(lib: WrappedPdfiumModule, page: number, request: RenderRequest, maxSide: number): RenderedBitmap {
  const sideways = request.rotation === 90 || request.rotation === 270;
  const width = sideways ? lib.FPDF_GetPageHeightF(page) : lib.FPDF_GetPageWidthF(page);
  const height = sideways ? lib.FPDF_GetPageWidthF(page) : lib.FPDF_GetPageHeightF(page);
  const region = request.region ?? { x0: 0, y0: 0, x1: width, y1: height };
  const regionWidth = region.x1 - region.x0;
  const regionHeight = region.y1 - region.y0;
  const scale = Math.min(request.maxScale, maxSide / Math.max(regionWidth, regionHeight));
  const bw = Math.max(1, Math.min(maxSide, Math.round(regionWidth * scale)));
  const bh = Math.max(1, Math.min(maxSide, Math.round(regionHeight * scale)));
  const bitmap = lib.FPDFBitmap_Create(bw, bh, 0);
  if (!bitmap) throw new Error('out of memory rendering a page');
  try {
    lib.FPDFBitmap_FillRect(bitmap, 0, 0, bw, bh, 0xffffffff);
    lib.FPDF_RenderPageBitmap(
      bitmap,
      page,
      -Math.round(region.x0 * scale),
      -Math.round(region.y0 * scale),
      Math.round(width * scale),
      Math.round(height * scale),
      request.rotation / 90,
      RENDER_ANNOTATIONS | RENDER_RGBA_ORDER,
    );
    const stride = lib.FPDFBitmap_GetStride(bitmap);
    const base = lib.FPDFBitmap_GetBuffer(bitmap);
    const heap = heaps(lib).HEAPU8;
    const rgba = Buffer.allocUnsafe(bw * bh * 4);
    for (let y = 0; y < bh; y++) {
      rgba.set(heap.subarray(base + y * stride, base + y * stride + bw * 4), y * bw * 4);
    }
    return { width: bw, height: bh, rgba };
  } finally {
    lib.FPDFBitmap_Destroy(bitmap);
  }
}
