// What every stage gets, and the two ways a stage ends a run early.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { ResolvedOptions } from '../domain/option-shapes.js';
import type { SupportedMediaType } from '../domain/media-types.js';
import type { Plan } from '../domain/plans.js';
import type { DocumentErrorType } from '../domain/states.js';
import type { DocumentRow } from '../store/documents.js';
import type { Store } from '../store/index.js';
import type { DocumentHold } from './hold.js';
import type { PageSummary } from './outputs/page-batch.js';
import type { PictureRequest } from './outputs/pictures.js';
import type { ReaderPool } from './threads/pool.js';
import type { OcrEngine } from '../models/ocr/engine.js';
import type { EmbeddingRun } from '../domain/embedding.js';
import type { ModelRun } from './extraction/result.js';

export interface RunContext {
  store: Store;
  pool: ReaderPool;
  /** The process's OCR engine, started on first use. */
  ocr: () => Promise<OcrEngine>;
  config: Config;
  log: FastifyBaseLogger;
  /** The worker's hold on the document row: every write of a stage goes through it. */
  hold: DocumentHold;
  plan: Plan;
  signal: AbortSignal;
  /** The row as claimed; stages update it as they learn more. */
  doc: DocumentRow;
  options: ResolvedOptions;
  /** Filled as the stages run. */
  mediaType: SupportedMediaType | null;
  bytes: Uint8Array | null;
  /**
   * What later stages need of each page, once `analyzing` ran (the page models are gone by then,
   * and the pages' outputs are in the store: page-rows.ts).
   */
  pages: PageSummary[] | null;
  /** The pictures docs/api.md's rules ask for, being rendered as their pages are analysed; null until `analyzing` plans them. */
  pictureWork: PictureWork | null;
  /** Pictures rendered and already in the blob store, once `rendering` ran. */
  pictures: StoredPicture[];
  /** Pages read so far, which a failure still charges (docs/api.md: the work done before it). */
  pagesRead: number;
  /** What the model read and wrote, once `extracting` ran; a later failure still charges it. */
  model: ModelRun | null;
  /** Each page's vector and the charge for them, once `embedding` ran. */
  embeddings: EmbeddingRun | null;
}

/** A rendered picture, written to the blob store under `blobKey`; its row is written at `finalizing`. */
export interface StoredPicture {
  id: string;
  blobKey: string;
  request: PictureRequest;
  mediaType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  byteSize: number;
}

/** Pictures rendered while the pages are still being analysed (stages/rendering.ts). */
export interface PictureWork {
  /** Pictures planned so far. */
  readonly count: number;
  /** Waits for every planned picture; the stored pictures in page order, or the first failure. */
  finish(): Promise<StoredPicture[]>;
  /** Removes whatever was stored, once nothing is rendering or being written. */
  discard(): Promise<void>;
}

/** The document fails with a type from docs/api.md; the stage it happened at is recorded. */
/** `message` is the client's, in Folio's words; an engine's own error goes in `cause`, for the log. */
export class DocumentFailure extends Error {
  constructor(
    readonly type: DocumentErrorType,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** This worker no longer holds the document; whatever it did is thrown away. */
export class HoldLost extends Error {
  constructor() {
    super('hold lost');
  }
}
