// A document's pages go to the store as each batch of them is analysed, under the run's hold, so
// the worker never holds every page's outputs at once: what stays in memory is each page's
// summary (size, turn, text length) and the tables at the ends of each batch. The rows are
// written before the document completes and nobody reads them until it has (the page endpoints
// answer only for completed documents). A run that fails removes them in the transaction that
// records the failure; a run that starts again (its worker died, or lost the document) removes
// those of the run before it first. Outputs that span pages (the model's text, embeddings) are
// read back from the store when a later stage needs them.
import { deletePages, getPages, insertChunkEmbeddings, insertPages, pageContentBatches, pageTables, updatePage, type PageContentRow } from '../store/documents.js';
import { chunkablePages, chunkDigest, chunksOf, type Chunk } from '../page-outputs/chunks.js';
import { DEFAULT_CHUNK_TOKENS } from '../domain/chunk-limits.js';
import type { Tx } from '../store/index.js';
import { outputsFromRow, type PageOutputs, type WireTable } from '../page-outputs/shapes.js';
import { HoldLost, type RunContext } from './context.js';
import { markContinued, marksAcrossBatches, type PageBatch, type PageSummary } from './outputs/page-batch.js';
import type { TableMark } from './analysis/analyze-page.js';

type Stored = Pick<PageBatch, 'summaries' | 'ends'>;

/** Runs `write` in a write transaction while the run still holds the document; HoldLost when it does not. */
async function writeHeld(ctx: RunContext, write: (tx: Tx) => Promise<void>): Promise<void> {
  await ctx.store.writeTransaction(async (tx) => {
    if (!(await ctx.hold.check(tx))) throw new HoldLost();
    await write(tx);
  });
}

export class PageRows {
  /** Each stored batch by its first page number. */
  private readonly batches = new Map<number, Stored>();

  constructor(private readonly ctx: RunContext) {}

  /** Removes the rows an earlier run of the document left. */
  async clear(): Promise<void> {
    await writeHeld(this.ctx, (tx) => deletePages(tx, this.ctx.doc.id));
  }

  /** Stores a batch's pages; their outputs are not kept. */
  async add(batch: PageBatch): Promise<void> {
    const { ctx } = this;
    const rows = batch.outputs.map((outputs, i) => ({
      document_id: ctx.doc.id,
      page_number: outputs.page,
      text: outputs.text,
      word_count: outputs.wordCount,
      tables: JSON.stringify(outputs.tables),
      key_values: JSON.stringify(outputs.keyValues),
      layout: JSON.stringify(outputs.layout),
      markdown: outputs.markdown,
      result: null,
      embedding: null,
      rotation: batch.summaries[i].rotation,
      skew: batch.summaries[i].skew,
    }));
    if (rows.length === 0) return;
    await writeHeld(ctx, (tx) => insertPages(tx, rows));
    this.batches.set(rows[0].page_number, { summaries: batch.summaries, ends: batch.ends });
  }

  /**
   * Once every batch is stored: marks the tables that run across the break between two batches
   * (those inside a batch were marked in its thread), and gives the pages' summaries in page order.
   */
  async finish(): Promise<PageSummary[]> {
    const batches = [...this.batches.entries()].sort((a, b) => a[0] - b[0]).map(([, batch]) => batch);
    for (const mark of marksAcrossBatches(batches)) await this.markTable(mark);
    return batches.flatMap((b) => b.summaries);
  }

  private async markTable({ page, table, ...mark }: TableMark): Promise<void> {
    const { ctx } = this;
    await writeHeld(ctx, async (tx) => {
      const tables = JSON.parse((await pageTables(tx, ctx.doc.id, page)) ?? '[]') as WireTable[];
      markContinued(tables[table], mark);
      await updatePage(tx, ctx.doc.id, page, { tables: JSON.stringify(tables) });
    });
  }
}

/** Every stored page's outputs, for the model (which reads the whole text anyway). */
export async function storedOutputs(ctx: RunContext): Promise<PageOutputs[]> {
  return (await getPages(ctx.store.db, ctx.doc.id, 1, ctx.doc.page_count)).map(outputsFromRow);
}

/** The stored pages' texts, layouts and tables, a run of pages at a time, in page order. */
export function storedContent(ctx: RunContext): AsyncGenerator<PageContentRow[]> {
  return pageContentBatches(ctx.store.db, ctx.doc.id, ctx.doc.page_count);
}

/** The options of the default cut (GET /documents/{id}/chunks without `max_tokens`), the one chunk vectors are made for. */
export function defaultCut(ctx: RunContext): { maxTokens: number; analysis: 'layout' | 'read' } {
  return { maxTokens: DEFAULT_CHUNK_TOKENS, analysis: ctx.options.analysis === 'read' ? 'read' : 'layout' };
}

/** The chunks of the default cut, from the stored pages. */
export function storedChunks(ctx: RunContext): AsyncGenerator<Chunk[]> {
  return chunksOf(chunkablePages(storedContent(ctx)), defaultCut(ctx));
}

/** Keeps chunks' vectors under the hold, each with its chunk text's digest. */
export async function storeChunkEmbeddings(ctx: RunContext, rows: { chunk: Chunk; embedding: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await writeHeld(ctx, (tx) =>
    insertChunkEmbeddings(
      tx,
      rows.map(({ chunk, embedding }) => ({ document_id: ctx.doc.id, chunk_index: chunk.index, text_digest: chunkDigest(chunk.text), embedding })),
    ),
  );
}

/** Sets the embedding of stored pages under the hold (per-page results are written at `finalizing`, with the charges). */
export async function storeEmbeddings(ctx: RunContext, embeddings: { page: number; embedding: string }[]): Promise<void> {
  if (embeddings.length === 0) return;
  await writeHeld(ctx, async (tx) => {
    for (const { page, embedding } of embeddings) await updatePage(tx, ctx.doc.id, page, { embedding });
  });
}
