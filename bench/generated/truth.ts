// What a generated document holds, recorded by its producer as it placed each element: the truth
// every score is measured against. Boxes are fractions of the page (0 to 1, from the top left), as
// Folio's own `bbox` is.

export type Box = [left: number, top: number, right: number, bottom: number];

export type BlockKind = 'title' | 'heading' | 'paragraph' | 'list-item' | 'quote' | 'code' | 'equation' | 'caption' | 'footnote' | 'figure-label' | 'table-note' | 'contents-entry';

export interface TruthBlock {
  kind: BlockKind;
  /** Headings: 1 for a top-level section (the title is a level of its own). */
  level?: number;
  text: string;
  /** From 1; 0 where the producer does not know the page (somewhere in the document). */
  page: number;
  box: Box | null;
  /** The place of the block in reading order, over the whole document, from 0. */
  order: number;
}

export interface TruthCell {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  text: string;
  header: boolean;
  box: Box | null;
}

export interface TruthTable {
  page: number;
  rows: number;
  columns: number;
  headerRows: number;
  cells: TruthCell[];
  box: Box | null;
  /** The part of a table that runs on from the previous page (its header repeated). */
  continued: boolean;
  /** Its block in the reading order (tables are blocks too). */
  order: number;
  /** The generator's variations drawn in this table (`table:rules-grid`, `table:spanning-header`…). */
  features: string[];
}

export type FurnitureKind = 'running-head' | 'running-foot' | 'page-number' | 'stamp' | 'line-number' | 'margin-note' | 'side-tab';

export interface TruthFurniture {
  kind: FurnitureKind;
  text: string;
  page: number;
}

export interface Truth {
  id: string;
  seed: number;
  index: number;
  producer: string;
  /** `digital`, or the scan's container (`scan-pdf`, `scan-tiff`...). */
  variant: string;
  kind: string;
  script: string;
  pages: number;
  /** The file sent to Folio. */
  file: string;
  mediaType: string;
  blocks: TruthBlock[];
  tables: TruthTable[];
  furniture: TruthFurniture[];
  features: string[];
}

/** The table as a grid of cell texts, a merged cell's text at its top-left position (as Folio's Table `rows` has it). */
export function tableGrid(table: Pick<TruthTable, 'rows' | 'columns' | 'cells'>): string[][] {
  const grid = Array.from({ length: table.rows }, () => Array.from({ length: table.columns }, () => ''));
  for (const cell of table.cells) if (cell.row < table.rows && cell.col < table.columns) grid[cell.row][cell.col] = cell.text;
  return grid;
}

/** The document's text in reading order, as its blocks say it (tables as rows of cells). */
export function truthText(truth: Pick<Truth, 'blocks' | 'tables'>): string {
  const items: { order: number; text: string }[] = [
    ...truth.blocks.map((b) => ({ order: b.order, text: b.text })),
    ...truth.tables.map((t) => ({ order: t.order, text: tableGrid(t).map((row) => row.filter(Boolean).join(' ')).join('\n') })),
  ];
  return items
    .sort((a, b) => a.order - b.order)
    .map((i) => i.text)
    .join('\n\n');
}
