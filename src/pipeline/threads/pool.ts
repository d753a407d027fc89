// A pool of reader threads (Piscina). Each thread keeps its own PDFium instance warm. The threads
// are taken in turns by the documents being read (fair-turns.ts): a document queues all its spans
// at once, and in one queue a one-page document read beside a thousand-page one waited for every
// span queued before its own; in turns it waits for at most one task of each document ahead.
import { Piscina } from 'piscina';
import { threadModuleOptions } from './thread-module.js';
import { FairTurns } from './fair-turns.js';
import type { SupportedMediaType } from '../../domain/media-types.js';
import type { Scan } from '../formats/index.js';
import type { PageSpan, RawPage } from '../page-model.js';
import type { PictureRequest } from '../outputs/pictures.js';
import type { BatchOptions, PageBatch } from '../outputs/page-batch.js';
import type { DocumentStats } from '../analysis/document-stats.js';
import type { Analysis, PreviewRequest, ReaderOutcome, ReaderTask, RenderedPicture } from './reader-thread.js';
import type { SpooledPage } from './page-spool.js';

/**
 * The young generation of a reader thread's heap, in MB. V8's default lets each thread keep up to
 * about 48 MB of short-lived objects (a span's raw pages and outputs die young) before collecting
 * them; 16 MB held a worker reading GeoTopo joined 9 times about 50 MB lower (698 and 689 MB
 * against 727 and 758) for 1-2% more time.
 */
const YOUNG_GENERATION_MB = 16;

export class ReaderPool {
  private readonly pool: Piscina<ReaderTask, ReaderOutcome<unknown>>;
  private readonly turns: FairTurns;
  /** Whose turn this pool's tasks take: a document's id (forDocument), or one line for the rest. */
  private turn = 'unnamed';

  /** `nice`: added to the threads' scheduling niceness on Linux (Piscina through @napi-rs/nice). */
  constructor(threads: number, options: { idleTimeoutMs?: number; minThreads?: number; nice?: number } = {}) {
    this.pool = new Piscina({
      ...threadModuleOptions(new URL('./reader-thread.js', import.meta.url)),
      maxThreads: threads,
      minThreads: Math.min(threads, options.minThreads ?? 0),
      idleTimeout: options.idleTimeoutMs ?? 60_000,
      niceIncrement: options.nice ?? 0,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.turns = new FairTurns(threads, threads);
  }

  /** The same threads, this document's tasks taking their turns together. */
  forDocument(documentId: string): ReaderPool {
    const view = Object.create(this) as ReaderPool;
    view.turn = documentId;
    return view;
  }

  private run<T>(task: ReaderTask, signal?: AbortSignal): Promise<ReaderOutcome<T>> {
    return this.turns.run(this.turn, () => this.pool.run(task, { signal }) as Promise<ReaderOutcome<T>>, signal);
  }

  /**
   * The raw pages of a span of the file (formats read page by page: PDF, pictures), written to the
   * file `spool` (page-spool.ts). `key` (here, in `scan` and in `render`) names the file, which a
   * thread may keep open for the next task on it.
   */
  readRange(mediaType: SupportedMediaType, bytes: Uint8Array, range: PageSpan, spool: string, key?: string, signal?: AbortSignal): Promise<ReaderOutcome<SpooledPage[]>> {
    return this.run<SpooledPage[]>({ kind: 'readRange', mediaType, bytes, range, spool, key }, signal);
  }

  /**
   * Layout analysis of spooled raw pages whose words are all known, down to their outputs. The
   * thread is told only where each page lies: the pages' tallies have done their work in `stats`.
   */
  analyze(pages: SpooledPage[], stats: DocumentStats, analysis: Analysis, batch: BatchOptions, signal?: AbortSignal): Promise<ReaderOutcome<PageBatch>> {
    const places = pages.map(({ number, file, offset, length }) => ({ number, file, offset, length }));
    return this.run<PageBatch>({ kind: 'analyze', pages: places, stats, analysis, batch }, signal);
  }

  /** A file that knows its own structure (Office), read and analysed whole, down to its outputs. */
  readStructured(mediaType: SupportedMediaType, bytes: Uint8Array, analysis: Analysis, batch: BatchOptions, signal?: AbortSignal): Promise<ReaderOutcome<PageBatch>> {
    return this.run<PageBatch>({ kind: 'readStructured', mediaType, bytes, analysis, batch }, signal);
  }

  /** A page as a grey picture for OCR, with its sketch at `sketchSide` when given (formats/page-sketch.ts). */
  scan(mediaType: SupportedMediaType, bytes: Uint8Array, page: RawPage, options: { key?: string; sketchSide?: number; signal?: AbortSignal } = {}): Promise<ReaderOutcome<Scan>> {
    const { key, sketchSide, signal } = options;
    return this.run<Scan>({ kind: 'scan', mediaType, bytes, page, key, sketchSide }, signal);
  }

  render(mediaType: SupportedMediaType, bytes: Uint8Array, requests: PictureRequest[], key?: string, signal?: AbortSignal): Promise<ReaderOutcome<RenderedPicture[]>> {
    return this.run<RenderedPicture[]>({ kind: 'render', mediaType, bytes, requests, key }, signal);
  }

  /** The file's page count (a worker's, for a URL document with a page selection; the API counts with its own thread). */
  count(mediaType: SupportedMediaType, bytes: Uint8Array, signal?: AbortSignal): Promise<ReaderOutcome<number>> {
    return this.run<number>({ kind: 'count', mediaType, bytes }, signal);
  }

  /** A JPEG of one whole page, of a type with a drawing of its own (not Office). */
  preview(mediaType: SupportedMediaType, bytes: Uint8Array, page: PreviewRequest, signal?: AbortSignal): Promise<ReaderOutcome<Uint8Array>> {
    return this.run<Uint8Array>({ kind: 'preview', mediaType, bytes, page }, signal);
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
