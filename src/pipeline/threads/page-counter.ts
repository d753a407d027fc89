// The thread that counts a file's pages while its upload is answered. It is its own pool of one
// thread, apart from the reader threads: a count takes about a millisecond, but behind a book's
// reading in the same queue, or behind a reader thread's start, an upload waited seconds
// (bench/load.ts). It starts with the API and stays, so no upload pays for its start.
import { Piscina } from 'piscina';
import type { SupportedMediaType } from '../../domain/media-types.js';
import { ThreadCloser } from './closing.js';
import type { CountTask } from './count-thread.js';

export class PageCounter {
  private readonly pool: Piscina<CountTask, number | null>;
  private readonly closer: ThreadCloser;

  constructor() {
    this.pool = new Piscina({
      filename: new URL('./count-thread.js', import.meta.url).href,
      minThreads: 1,
      maxThreads: 1,
    });
    this.closer = new ThreadCloser(this.pool);
    this.pool.run({ kind: 'warm' }).catch(() => undefined);
  }

  /** The file's page count, or null when it cannot be opened. */
  count(mediaType: SupportedMediaType, bytes: Uint8Array): Promise<number | null> {
    return this.pool.run({ kind: 'count', mediaType, bytes });
  }

  async close(): Promise<void> {
    await this.closer.destroy();
  }
}
