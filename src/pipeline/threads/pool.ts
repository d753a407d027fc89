// A pool of reader threads (Piscina). Each thread keeps its own PDFium instance warm.
import { Piscina } from 'piscina';
import type { SupportedMediaType } from '../../domain/media-types.js';
import type { Page } from '../page-model.js';
import type { PictureRequest } from '../pictures.js';
import type { ReaderOutcome, ReaderTask, RenderedPicture } from './reader-thread.js';

export class ReaderPool {
  private readonly pool: Piscina<ReaderTask, ReaderOutcome<unknown>>;

  constructor(threads: number, options: { idleTimeoutMs?: number; minThreads?: number } = {}) {
    this.pool = new Piscina({
      filename: new URL('./reader-thread.js', import.meta.url).href,
      maxThreads: threads,
      minThreads: Math.min(threads, options.minThreads ?? 0),
      idleTimeout: options.idleTimeoutMs ?? 60_000,
    });
  }

  countPages(mediaType: SupportedMediaType, bytes: Uint8Array, signal?: AbortSignal): Promise<ReaderOutcome<number>> {
    return this.pool.run({ kind: 'count', mediaType, bytes }, { signal }) as Promise<ReaderOutcome<number>>;
  }

  analyze(mediaType: SupportedMediaType, bytes: Uint8Array, analysis: 'layout' | 'read', signal?: AbortSignal): Promise<ReaderOutcome<Page[]>> {
    return this.pool.run({ kind: 'analyze', mediaType, bytes, analysis }, { signal }) as Promise<ReaderOutcome<Page[]>>;
  }

  render(mediaType: SupportedMediaType, bytes: Uint8Array, requests: PictureRequest[], signal?: AbortSignal): Promise<ReaderOutcome<RenderedPicture[]>> {
    return this.pool.run({ kind: 'render', mediaType, bytes, requests }, { signal }) as Promise<ReaderOutcome<RenderedPicture[]>>;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
