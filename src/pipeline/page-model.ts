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

/** Font names of monospaced faces, as PDF files, Office files and OCR engines name them. */
const MONOSPACED = /mono|courier|consol|menlo|inconsolata|typewriter|fixed|\bcode\b|lucida ?console|andale/i;

/** Whether a font's name is a monospaced face's (text set in one is code where the body is not). */
export function isMonospacedFont(fontName: string): boolean {
  return MONOSPACED.test(fontName);
}

/** An OCR word read with this confidence or more is read surely; clean print reads almost all so. */
export const SURE_CONFIDENCE = 80;

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
  /** For OCR words: the text line the engine put the word in (its page segmentation). */
  ocrLine?: number;
  /** The letter spacing its run was set with (tracked-out text), in page units; absent when none. */
  letterSpacing?: number;
  /**
   * Clockwise quarter turns that make the word read left to right, for a word set in another
   * direction than the page's text (a vertical axis label reading upwards: 90); absent when upright.
   */
  turn?: 90 | 180 | 270;
  /** For OCR words: the paragraph the engine put the word in. */
  ocrParagraph?: number;
  /** Drawn invisibly (text render mode 3 or 7): a layer of text over a picture, as scanners' OCR writes. */
  invisible?: boolean;
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
  'marginal_note',
  'code',
  'formula',
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export interface Block {
  type: BlockType;
  /** Indices into the page's lines, top to bottom. */
  lines: number[];
  box: Box;
  /** Heading level, 1 for the largest; only on headings. */
  level?: number;
  /** Nesting of a list item, 0 for the outermost list. */
  depth?: number;
  /** Index into the page's figures; only on figure blocks. */
  figure?: number;
  /** Index into the page's tables; only on table blocks. */
  table?: number;
  /** Each line stands on its own (the rows of a table read as text with `analysis: read`). */
  keepLines?: boolean;
  /** The block's words read in the order the file drew them (drawing-order.ts); its lines are in that order too. */
  drawingOrder?: boolean;
}

export interface Figure {
  box: Box;
  /** Position among the page's figure markers from 0, or null when too small to be shown. */
  index: number | null;
  caption: string | null;
  /** Words drawn inside a vector drawing (labels, legends), line by line; empty for images. */
  text: string;
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

/** A straight horizontal (y0 === y1) or vertical (x0 === x1) line drawn on the page. */
export interface Segment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** An axis-aligned rectangle drawn on the page: a cell border, a box, a coloured background. */
export interface Rect {
  box: Box;
  filled: boolean;
  stroked: boolean;
  /** 0xRRGGBB of the fill; null when not filled. */
  fill: number | null;
}

/** What is drawn on the page besides text. */
export interface PageGraphics {
  /** Horizontal and vertical rulings. */
  segments: Segment[];
  rects: Rect[];
  /** Outlines of other vector shapes (curves, diagonals, filled polygons): charts and diagrams. */
  shapes: Box[];
  /** Regions holding embedded raster images, merged where they touch. */
  images: Box[];
  /** The rulings were found in the page's picture (a scan), not drawn by the file. */
  rulingsFromPicture?: boolean;
}

export const NO_GRAPHICS: PageGraphics = Object.freeze({ segments: [], rects: [], shapes: [], images: [] }) as PageGraphics;

/** What a format reader gives: the page and its words, before any analysis. */
/** Pages `first` to `last` of a document, numbered from 1, both included. */
export interface PageSpan {
  first: number;
  last: number;
}

export interface RawPage {
  number: number;
  width: number;
  height: number;
  unit: 'pt' | 'px';
  /** Pixels per inch, for pages measured in pixels (scans and photos). */
  dpi?: number;
  /**
   * Clockwise quarter turns applied to the page as displayed so that its text reads upright
   * (0, 90, 180 or 270); boxes are in the turned frame, and pictures are rendered turned.
   */
  rotation: 0 | 90 | 180 | 270;
  /**
   * Degrees a scanned page was turned after `rotation` to straighten its text lines (positive
   * clockwise, as sharp turns); boxes and pictures are in the straightened frame. 0 for pages
   * with a text layer.
   */
  skew: number;
  words: Word[];
  graphics: PageGraphics;
  /** Fillable form fields on the page. */
  formFields: FormField[];
  textSource: 'text_layer' | 'ocr' | 'native';
  /** An OCR page whose first reading found almost no text: the way of reading that found it. */
  ocrRecovered?: string;
  /** An OCR page that holds ink no way of reading read surely (handwriting, scribbles, a photograph): only its sure words are kept. */
  ocrIllegible?: boolean;
}

/** One cell of a table; a merged cell spans several grid positions and is listed once. */
export interface TableCell {
  row: number;
  column: number;
  rowSpan: number;
  columnSpan: number;
  text: string;
  /** Null for cells a reader knows without positions (Office tables). */
  box: Box | null;
}

export interface Table {
  box: Box;
  rowCount: number;
  columnCount: number;
  /** Cells in row-major order of their top-left position. */
  cells: TableCell[];
  /** Leading rows that are column headers. */
  headerRows: number;
  /** How it was found: drawn cell borders, text alignment, or the file's own table structure. */
  source: 'ruled' | 'aligned' | 'native';
  /** The table goes on from the previous page / on the next page. */
  continuedFromPrevious: boolean;
  continuesOnNext: boolean;
  /** On a continuation: the index of the table it continues on the page before. */
  continuesTable?: number;
}

/** A page after analysis: lines, blocks in reading order, figures, tables, key/values. */
export interface Page extends Omit<RawPage, 'graphics' | 'formFields'> {
  lines: Line[];
  /** Blocks in reading order. */
  blocks: Block[];
  figures: Figure[];
  tables: Table[];
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

/** How much two boxes overlap up and down, as a share of the shorter one's height (0 when either is flat). */
export function verticalOverlap(a: Box, b: Box): number {
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  const minHeight = Math.min(a.y1 - a.y0, b.y1 - b.y0);
  return minHeight > 0 ? overlap / minHeight : 0;
}

export function intersectionArea(a: Box, b: Box): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * A box turned clockwise by quarter turns about the page origin (y grows downwards), so that text
 * set in that direction reads left to right in the turned frame; turning by 360 - turn undoes it.
 */
export function turnBox(box: Box, turn: number): Box {
  switch (((turn % 360) + 360) % 360) {
    case 90:
      return { x0: -box.y1, y0: box.x0, x1: -box.y0, y1: box.x1 };
    case 180:
      return { x0: -box.x1, y0: -box.y1, x1: -box.x0, y1: -box.y0 };
    case 270:
      return { x0: box.y0, y0: -box.x1, x1: box.y1, y1: -box.x0 };
    default:
      return box;
  }
}
