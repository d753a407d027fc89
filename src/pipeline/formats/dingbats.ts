// Glyphs of symbol fonts (Wingdings, ZapfDingbats) that a PDF gives no Unicode for: PDFium then
// reports the font's own code, as a control character or in the private use area, which no
// reader can use. Checkboxes and bullets are what forms and lists draw with these fonts; they are
// mapped to their Unicode symbols so that lists and checkbox key/values can be read. Other such
// glyphs are dropped, except one standing alone as a word, which marks an item (a bullet).

const WINGDINGS: Record<number, string> = {
  0x6c: '●', 0x6e: '■', 0x6f: '☐', 0x71: '☐', 0x72: '☐', 0x77: '•', 0x76: '•', 0x9f: '•', 0xa1: '○', 0xa7: '▪',
  0xa8: '☐', 0xd8: '•', 0xfb: '☒', 0xfc: '✓', 0xfd: '☒', 0xfe: '☑', 0x78: '☒',
};

const ZAPF_DINGBATS: Record<number, string> = {
  0x33: '✓', 0x34: '✓', 0x35: '☒', 0x36: '☒', 0x37: '☒', 0x38: '☒', 0x6c: '●', 0x6e: '■', 0x6f: '☐', 0x71: '☐', 0x72: '☐', 0x75: '•', 0x76: '•',
};

/** Marks a glyph that stands for an item but whose symbol is unknown. */
export const UNKNOWN_SYMBOL = '\u0000';

export function isSymbolFont(fontName: string): boolean {
  return /wingding|dingbat|webding|symbolmt|^symbol$/i.test(fontName);
}

/**
 * The character to use for `code` drawn in a symbol font: a mapped symbol, UNKNOWN_SYMBOL for an
 * unreadable glyph, or null to keep the character as it is.
 */
export function symbolGlyph(code: number, fontName: string): string | null {
  // DEL too: XY-pic draws its arrow tips at 0x7F (GeoTopo page 14).
  const unreadable = (code >= 0x7f && code <= 0x9f) || (code >= 0xe000 && code <= 0xf8ff) || code < 0x20;
  if (!unreadable && !isSymbolFont(fontName)) return null;
  const raw = code >= 0xf000 && code <= 0xf0ff ? code - 0xf000 : code;
  const table = /dingbat/i.test(fontName) ? ZAPF_DINGBATS : /wingding/i.test(fontName) ? WINGDINGS : null;
  const mapped = table?.[raw];
  if (mapped) return mapped;
  return unreadable ? UNKNOWN_SYMBOL : null;
}
