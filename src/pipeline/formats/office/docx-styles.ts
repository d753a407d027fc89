// The styles of a Word file (word/styles.xml) as the DOCX reader uses them: each style's name, the
// style it is based on, its outline level and numbering, and the font it names; and the font a run
// of text is set in, named by the run itself, its character style, its paragraph's style chain or
// the document's defaults (which tells code, set in a monospaced face, from prose).
import { child, children, type XmlNode } from './package.js';

export interface Style {
  id: string;
  name: string;
  basedOn: string | null;
  outline: number | null;
  /** Numbering the style applies to its paragraphs (list styles). */
  numPr: XmlNode | undefined;
  /** The font the style names for Latin text, if it names one. */
  font: string | null;
  /** The paragraph style of paragraphs that name none. */
  defaultParagraph: boolean;
}

/** The first font named along a style's basedOn chain. */
export function styleFont(style: Style | undefined, styles: Map<string, Style>): string | null {
  for (let s = style, hops = 0; s && hops < 10; s = s.basedOn ? styles.get(s.basedOn) : undefined, hops++) if (s.font) return s.font;
  return null;
}

/** The Latin font an rPr names directly. */
function namedFont(rPr: XmlNode | undefined): string | null {
  const fonts = child(rPr, 'w:rFonts');
  return fonts?.attrs['w:ascii'] ?? fonts?.attrs['w:hAnsi'] ?? null;
}

/** The font a run names, itself or through its character style. */
export function runFont(run: XmlNode, styles: Map<string, Style>): string | null {
  const rPr = child(run, 'w:rPr');
  const charStyle = child(rPr, 'w:rStyle')?.attrs['w:val'];
  return namedFont(rPr) ?? (charStyle ? styleFont(styles.get(charStyle), styles) : null);
}

/** The font of text nothing else names: the default paragraph style's chain, else the document defaults (docDefaults). */
export function defaultFont(stylesXml: XmlNode | null, styles: Map<string, Style>): string {
  const chain = styleFont([...styles.values()].find((s) => s.defaultParagraph), styles);
  return chain ?? namedFont(child(child(child(stylesXml ?? undefined, 'w:docDefaults'), 'w:rPrDefault'), 'w:rPr')) ?? '';
}

export function readStyles(styles: XmlNode | null): Map<string, Style> {
  const out = new Map<string, Style>();
  for (const s of children(styles ?? undefined, 'w:style')) {
    const id = s.attrs['w:styleId'];
    if (!id) continue;
    const outline = child(child(s, 'w:pPr'), 'w:outlineLvl')?.attrs['w:val'];
    out.set(id, {
      id,
      name: child(s, 'w:name')?.attrs['w:val'] ?? id,
      basedOn: child(s, 'w:basedOn')?.attrs['w:val'] ?? null,
      outline: outline === undefined ? null : Number(outline),
      numPr: child(child(s, 'w:pPr'), 'w:numPr'),
      font: namedFont(child(s, 'w:rPr')),
      defaultParagraph: s.attrs['w:type'] === 'paragraph' && (s.attrs['w:default'] === '1' || s.attrs['w:default'] === 'true'),
    });
  }
  return out;
}
