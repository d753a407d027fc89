// What Folio gives back for each page, as stored and as the API and the model read it: the page
// outputs and their parts (tables, key/values, layout). The pipeline computes them from the page
// model (src/pipeline/outputs); the model layer, queries and the API only read them, so the shapes
// sit below all of them, as Docling keeps its document model apart from its readers and exporters.

/** A box on a page as fractions of the page's width and height, from its top-left corner. */
export interface FractionBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A box in a page's own units (x0, y0 top-left to x1, y1) as fractions of the page, to four decimals. */
export function fractionBox(box: { x0: number; y0: number; x1: number; y1: number }, width: number, height: number): FractionBox {
  const f = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;
  return {
    left: f(box.x0 / width),
    top: f(box.y0 / height),
    width: f((box.x1 - box.x0) / width),
    height: f((box.y1 - box.y0) / height),
  };
}

export interface WireTable {
  /** Cell texts row by row; a merged cell's text sits at its top-left position. */
  rows: string[][];
  columns: number;
  markdown: string;
  // Additive beyond docs/api.md's {rows, columns, markdown}:
  header_rows: number;
  /** Every cell once; `bbox` is null where the reader knows no positions (Office tables). */
  cells: { row: number; column: number; row_span: number; column_span: number; text: string; bbox: FractionBox | null }[];
  bbox: FractionBox;
  continued_from_previous_page: boolean;
  continues_on_next_page: boolean;
  /** On a continuation: the index of the table it continues among the previous page's tables (absent on tables stored before it was kept). */
  continues_table?: number | null;
}

export interface WireKeyValue {
  value: string;
  key_confidence: number;
  value_confidence: number;
  selection_status: 'SELECTED' | 'NOT_SELECTED' | null;
  bbox: FractionBox;
}

/**
 * Layout element types of page furniture (running heads and feet, page numbers, marginal notes):
 * kept in the layout, left out of text, markdown and chunks (docs/api.md, LayoutElement).
 */
export function isFurniture(type: string): boolean {
  return type === 'page_header' || type === 'page_footer' || type === 'marginal_note';
}

export interface LayoutElement {
  type: string;
  text: string;
  bbox: FractionBox;
  reading_order: number;
  level?: number;
  figure_index?: number | null;
  /** Additive: the element's lines with their boxes, so a quote can be shown where it stands. */
  lines?: { text: string; bbox: FractionBox }[];
}

export interface PageOutputs {
  page: number;
  text: string;
  wordCount: number;
  tables: WireTable[];
  keyValues: Record<string, WireKeyValue>;
  layout: LayoutElement[];
  markdown: string | null;
}

/** The outputs as stored (JSON columns), read back. */
export function outputsFromRow(row: { page_number: number; text: string; word_count: number; tables: string; key_values: string; layout: string; markdown: string | null }): PageOutputs {
  return {
    page: row.page_number,
    text: row.text,
    wordCount: row.word_count,
    tables: JSON.parse(row.tables) as WireTable[],
    keyValues: JSON.parse(row.key_values) as Record<string, WireKeyValue>,
    layout: JSON.parse(row.layout) as LayoutElement[],
    markdown: row.markdown,
  };
}
