// What a reader thread hands back for a run of analysed pages, so that no page model crosses to
// the worker's main thread or outlives its batch: each page's outputs, the little the later stages
// still need of the page (its size, turn and text length), the pictures planned on it, and the
// tables at the batch's two ends. Tables running across a page break inside the batch are marked
// here; those across the break between two batches are marked once every batch is back
// (page-rows.ts), with `marksAcrossBatches`.
import type { PageOutputs, WireTable } from '../../page-outputs/shapes.js';
import { embeddingInput, embeddingTokens } from '../../domain/embedding.js';
import { continuedTables, tableEdges, type TableEdges, type TableMark } from '../analysis/analyze-page.js';
import type { Page, RawPage } from '../page-model.js';
import { pageOutputs } from './page-outputs.js';
import { planPictures, type PictureRequest } from './pictures.js';

/** What stages after `analyzing` need of a page besides its stored outputs. */
export interface PageSummary {
  number: number;
  width: number;
  height: number;
  rotation: RawPage['rotation'];
  skew: number;
  ocrRecovered?: string;
  ocrIllegible?: boolean;
  /** Length of the page's text (UTF-16 code units), for the model's token count before it reads it. */
  textLength: number;
  /** Tokens the page's embedding reads. */
  embeddingTokens: number;
}

/** How a batch's outputs and pictures are made: the same for every batch of a document. */
export interface BatchOptions {
  markdown: boolean;
  mediaType: string;
  images: boolean;
  uploadBytes: number;
  /** Whether tables run across page breaks (laid-out pages; Office readers mark their own). */
  joinsTables: boolean;
}

export interface PageBatch {
  outputs: PageOutputs[];
  summaries: PageSummary[];
  pictures: PictureRequest[];
  /** The table edges of the batch's first and last page, when `joinsTables`. */
  ends: { first: TableEdges; last: TableEdges } | null;
}

export function pageBatch(pages: Page[], options: BatchOptions): PageBatch {
  const outputs = pages.map((page) => pageOutputs(page, options.markdown));
  const edges = options.joinsTables ? pages.map(tableEdges) : null;
  if (edges) {
    for (const mark of continuedTables(edges)) markContinued(outputs[mark.page].tables[mark.table], mark);
  }
  return {
    outputs,
    summaries: pages.map((page, i) => ({
      number: page.number,
      width: page.width,
      height: page.height,
      rotation: page.rotation,
      skew: page.skew,
      ...(page.ocrRecovered ? { ocrRecovered: page.ocrRecovered } : {}),
      ...(page.ocrIllegible ? { ocrIllegible: true } : {}),
      textLength: outputs[i].text.length,
      embeddingTokens: embeddingTokens([embeddingInput(outputs[i].text)]),
    })),
    pictures: planPictures(pages, options.mediaType, options.images, options.uploadBytes),
    ends: edges && edges.length > 0 ? { first: edges[0], last: edges[edges.length - 1] } : null,
  };
}

/**
 * The tables to mark across the breaks between consecutive batches of a document (given in page
 * order): on the earlier batch's last page the table that continues, on the later batch's first
 * page the one continued, by page number.
 */
export function marksAcrossBatches(batches: readonly Pick<PageBatch, 'ends'>[]): TableMark[] {
  const marks: TableMark[] = [];
  for (let i = 0; i + 1 < batches.length; i++) {
    const [earlier, later] = [batches[i].ends, batches[i + 1].ends];
    if (!earlier || !later) continue;
    const edges = [earlier.last, later.first];
    for (const mark of continuedTables(edges)) marks.push({ ...mark, page: edges[mark.page].page });
  }
  return marks;
}

export function markContinued(table: WireTable, mark: Pick<TableMark, 'continues' | 'from'>): void {
  if (mark.continues) table.continues_on_next_page = true;
  else {
    table.continued_from_previous_page = true;
    table.continues_table = mark.from ?? null;
  }
}
