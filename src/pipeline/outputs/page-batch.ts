// What a reader thread hands back for a run of analysed pages, so that no page model crosses to
// the worker's main thread or outlives its batch: each page's outputs, the little the later stages
// still need of the page (its size and turn), the pictures planned on it, and the tables at the
// edges of its body, which join tables running across page breaks once every batch is back.
import type { PageOutputs } from '../../page-outputs/shapes.js';
import { continuedTables, tableEdges, type TableEdges } from '../analysis/analyze-page.js';
import type { Page, RawPage } from '../page-model.js';
import { pageOutputs } from './page-outputs.js';
import { planPictures, type PictureRequest } from './pictures.js';

/** What stages after `analyzing` need of a page besides its outputs. */
export interface PageSummary {
  number: number;
  width: number;
  height: number;
  rotation: RawPage['rotation'];
  skew: number;
  ocrRecovered?: string;
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
  /** Per page, when `joinsTables`. */
  edges: TableEdges[] | null;
}

export function pageBatch(pages: Page[], options: BatchOptions): PageBatch {
  return {
    outputs: pages.map((page) => pageOutputs(page, options.markdown)),
    summaries: pages.map((page) => ({
      number: page.number,
      width: page.width,
      height: page.height,
      rotation: page.rotation,
      skew: page.skew,
      ...(page.ocrRecovered ? { ocrRecovered: page.ocrRecovered } : {}),
    })),
    pictures: planPictures(pages, options.mediaType, options.images, options.uploadBytes),
    edges: options.joinsTables ? pages.map(tableEdges) : null,
  };
}

/** The batches of one document, in page order, as one: tables that run across any page break, batch borders included, are marked on both sides. */
export function joinBatches(batches: PageBatch[]): Omit<PageBatch, 'edges'> {
  const outputs = batches.flatMap((b) => b.outputs);
  if (batches.every((b) => b.edges)) {
    for (const mark of continuedTables(batches.flatMap((b) => b.edges!))) {
      const table = outputs[mark.page].tables[mark.table];
      if (mark.continues) table.continues_on_next_page = true;
      else table.continued_from_previous_page = true;
    }
  }
  return { outputs, summaries: batches.flatMap((b) => b.summaries), pictures: batches.flatMap((b) => b.pictures) };
}
