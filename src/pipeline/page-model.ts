// The one page model. Every format reader produces pages of it and every output (text, markdown,
// layout, pictures, and later tables, key/values and citations) is computed from it; nothing
// downstream re-reads the input file.
//
// Coordinates are in the page's own units (points for PDF, pixels for images) with the origin at
// the top-left corner and y growing downwards, after the page's rotation is applied.

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Word {
  text: string;
  box: Box;
  fontName: string;
  fontSize: number;
  bold: boolean;
  italic: boolean;
  /** 0-100: 100 for a text layer, the engine's confidence for OCR. */
  confidence: number;
  /** The word ends in a hyphen that only breaks it across a line end. */
  hyphenated: boolean;
}

export interface Line {
  /** Indices into the page's words, left to right. */
  words: number[];
  box: Box;
}

export const BLOCK_TYPES = [
  'title',
  'heading',
  'paragraph',
  'list_item',
  'table',
  'figure',
  'caption',
  'page_header',
  'page_footer',
  'footnote',
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export interface Block {
  type: BlockType;
  /** Indices into the page's lines, top to bottom. */
  lines: number[];
  box: Box;
  /** Heading level, 1 for the largest; only on headings. */
  level?: number;
  /** Index into the page's figures; only on figure blocks. */
  figure?: number;
}

export interface Figure {
  box: Box;
  /** Position among the page's figure markers from 0, or null when too small to be shown. */
  index: number | null;
  caption: string | null;
}

/** A fillable form field (PDF AcroForm widget) as the file stores it. */
export interface FormField {
  /** The field's fully qualified name, e.g. "applicant.name". */
  name: string;
  /** The field's tooltip (/TU), often a human label; null when absent. */
  alternateName: string | null;
  kind: 'text' | 'checkbox' | 'radio' | 'choice' | 'signature';
  /** The text or chosen option; for a checkbox or radio widget, its export value. */
  value: string;
  /** Whether a checkbox or radio widget is on; null for other kinds. */
  selected: boolean | null;
  box: Box;
}

/** A key/value pair found on a page, with how sure the reading is (0-100). */
export interface KeyValue {
  key: string;
  value: string;
  keyConfidence: number;
  valueConfidence: number;
  selectionStatus: 'SELECTED' | 'NOT_SELECTED' | null;
  box: Box;
}

/** What a format reader gives: the page and its words, before any analysis. */
export interface RawPage {
  number: number;
  width: number;
  height: number;
  unit: 'pt' | 'px';
  words: Word[];
  /** Regions holding pictures (embedded images), in page units. */
  pictures: Box[];
  /** Fillable form fields on the page. */
  formFields: FormField[];
  textSource: 'text_layer' | 'ocr' | 'native';
}

/** A page after analysis: lines, blocks in reading order, figures, key/values. */
export interface Page extends Omit<RawPage, 'pictures' | 'formFields'> {
  lines: Line[];
  /** Blocks in reading order. */
  blocks: Block[];
  figures: Figure[];
  keyValues: KeyValue[];
}

export function boxArea(box: Box): number {
  return Math.max(0, box.x1 - box.x0) * Math.max(0, box.y1 - box.y0);
}

export function unionBox(boxes: Iterable<Box>): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of boxes) {
    x0 = Math.min(x0, b.x0);
    y0 = Math.min(y0, b.y0);
    x1 = Math.max(x1, b.x1);
    y1 = Math.max(y1, b.y1);
  }
  return { x0, y0, x1, y1 };
}

export function intersectionArea(a: Box, b: Box): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return w > 0 && h > 0 ? w * h : 0;
}
