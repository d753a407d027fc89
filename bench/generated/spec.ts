// What a generated document is made of, before any producer lays it out: its page, columns, type,
// furniture and blocks in reading order. Producers turn a DocSpec into a file and record the Truth
// (truth.ts) as they place each element; nothing here is read back from a produced file.
import type { Script } from './words.js';

export type Producer = 'chromium' | 'pdf-lib' | 'libreoffice' | 'latex';

export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  /** Letters drawn with an accent as its own combining character (e + U+0301), not composed. */
  decomposed?: boolean;
}

export interface Cell {
  text: string;
  rowSpan?: number;
  colSpan?: number;
  align?: 'left' | 'right' | 'center';
  /** A cell shaded, for tables whose cells are told apart by shading instead of rules. */
  shaded?: boolean;
}

export interface TableStyle {
  rules: 'none' | 'horizontal' | 'grid' | 'header-only';
  zebra: boolean;
  headerShade: boolean;
  /** Rows in colours other than grey. */
  coloured: boolean;
  /** Cells separated by white gaps between shaded cells, with no rules at all. */
  shadedCells: boolean;
  /** Where a cell's text stands in a row taller than it: financial statements set figures level with a wrapped label's last line, word processors centre them. */
  cellAlign: 'top' | 'middle' | 'bottom';
  fontScale: number;
  /** Rules under a spanning header cell stop short of the columns' edges, as booktabs' `\\cmidrule(lr)` sets them in papers (LaTeX only). */
  trimmedRules?: boolean;
}

export interface TableSpec {
  /** Header rows; a spanning header cell covers several columns. */
  header: Cell[][];
  body: Cell[][];
  columns: number;
  style: TableStyle;
  width: 'narrow' | 'auto' | 'full';
  /** In a multi-column document, set in its page column (scaled down to it where wider), as papers float their tables into a column (LaTeX only). */
  inColumn?: boolean;
  caption: string | null;
  /** Where the caption stands. */
  captionBelow: boolean;
  note: string | null;
  /** The variations this table draws (`table:…` names, also in the document's features), to score tables by variation. */
  features: string[];
}

export type Block =
  | { kind: 'title'; text: string; subtitle: string | null; /** A masthead ornament (a few drawn shapes) of this size in points, set just above the title (Chromium only). */ ornament?: { width: number; height: number } | null; masthead?: Masthead | null }
  | { kind: 'heading'; level: 1 | 2 | 3 | 4; number: string | null; text: string }
  | { kind: 'paragraph'; runs: Run[]; footnote: { mark: string; text: string } | null; marginNote: string | null }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'quote'; text: string }
  /** A paragraph with its points beside it, as covers and brochures set them: short phrases in bold, one under another in a narrow column at the left, at the paragraph's pitch. */
  | { kind: 'aside'; points: string[]; text: string }
  | { kind: 'code'; lines: string[]; numbered: boolean }
  | { kind: 'equation'; text: string; number: string | null }
  | { kind: 'figure'; drawing: 'bars' | 'lines' | 'photo' | 'diagram'; labels: string[]; heightPt: number; caption: string | null }
  | { kind: 'table'; table: TableSpec }
  | { kind: 'contents'; entries: ContentsEntry[]; leaders: Leaders };

/**
 * A publication's masthead above the title (Chromium only): a rule across the page, a few short
 * facts at the left (date, publisher, address), and at the right the series' name and the issue's
 * number, each set on a drawn panel with rounded corners, beside a small emblem. The panels and the
 * rule make a drawing whose box takes in the facts: their words are the page's text all the same.
 */
export interface Masthead {
  facts: string[];
  series: string;
  issue: string;
}

/** A line of a table of contents: a heading's number and text, and the page it starts on. */
export interface ContentsEntry {
  level: 1 | 2 | 3;
  text: string;
  page: string;
}

/**
 * What leads the eye from an entry to its page number: dots set as text (the way TeX and Word's
 * tab leaders print), a dotted rule drawn as a shape, or nothing but the gap.
 */
export type Leaders = 'dots' | 'drawn' | 'none';

export interface Furniture {
  /** A running head on every page but the first, or null. */
  head: string | null;
  /** A running foot, or null. */
  foot: string | null;
  pageNumber: 'none' | 'bottom-center' | 'bottom-outer' | 'top-outer' | 'page-of' | 'dashed';
  /** Vertical text in the left margin of the first page, as a preprint identifier stands. */
  stamp: string | null;
  /** Line numbers in the left margin, as on a review copy. */
  lineNumbers: boolean;
  /** A coloured tab at the outer edge with the chapter's name turned up. */
  sideTab: string | null;
  /** Heads, feet and numbers drawn by Chromium's header and footer templates instead of the page. */
  templates: boolean;
  /**
   * A design bleeding off the sheet, as covers and brochures print: a rule across the whole sheet
   * above the body and another below it, and a coloured panel down the outer margin from the upper
   * rule off the foot of the sheet (Chromium only). It frames the body like a table's cell, but
   * draws nothing of the text.
   */
  bleed: string | null;
}

export interface Typeface {
  family: 'serif' | 'sans' | 'mono' | 'narrow';
  /** Body size in points. */
  size: number;
  /** Extra space between letters, in points (0 for none). */
  letterSpacing: number;
  ligatures: boolean;
  justified: boolean;
}

export interface ScanSpec {
  dpi: 150 | 200 | 300;
  /** Degrees, within ±3. */
  skew: number;
  blur: number;
  noise: number;
  jpegQuality: number | null;
  /** 1 for none; below 1 greys the page. */
  contrast: number;
  /** Light falling off towards one side, 0 for even. */
  unevenLight: number;
  /** What the file is: a PDF of page pictures, a multi-frame TIFF, or a picture of the first page. */
  container: 'pdf' | 'tiff' | 'png' | 'jpeg';
  /**
   * A PDF's text layer, as scanners' OCR writes one: none; the page's words drawn invisibly over
   * the picture (text render mode 3); or drawn in ink under the picture, which covers them.
   */
  textLayer: 'none' | 'invisible' | 'under-picture';
  /** The page picture drawn as this many horizontal strips (strip and mixed-raster scanners), 1 for whole. */
  strips: number;
  /** How dark the text printed on the back of the sheet shows through (mirrored), 0 for not at all. */
  showThrough: number;
  /** Lines of handwriting nobody can read (scribbles) over the page: a blank page written on by hand. */
  scribbles: boolean;
}

export type DocumentKind = 'report' | 'paper' | 'tables' | 'book' | 'letter' | 'blank';

export interface DocSpec {
  /** `g<seed>-<index>`: the seed and index regenerate it. */
  id: string;
  seed: number;
  index: number;
  kind: DocumentKind;
  producer: Producer;
  /** Points. */
  page: { width: number; height: number; margin: number };
  columns: 1 | 2 | 3;
  type: Typeface;
  script: Script;
  furniture: Furniture;
  blocks: Block[];
  /** Set for a scanned or photographed variant of the pages. */
  scan: ScanSpec | null;
  /** Every variation this document draws, by name: what the bench reports coverage of. */
  features: string[];
}
