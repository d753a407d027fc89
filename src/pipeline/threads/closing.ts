// Closing a pool of threads safely. A thread stopped while it still loads its module crashes the
// whole process on Node 20 (V8's "IsGraphAsync must be used on an instantiated module", seen when
// SIGTERM came just after start, while a second reader thread was still starting), so a pool is
// destroyed only once every thread it has has said it loaded (`announceLoaded`, the last line its
// module runs); a thread that does not within SETTLE_MS is not waited for longer. Two seconds
// were too few: on a busy 2-core machine (CI, two test files at once) a reader thread took longer
// to load, was stopped while loading, and the process died with SIGABRT in Node 20's loader.
import { parentPort, threadId } from 'node:worker_threads';
import type { Piscina } from 'piscina';

const SETTLE_MS = 10_000;

/** What a thread posts once its module has loaded. */
interface LoadedMessage {
  folioThreadLoaded: number;
}

/** Called at the end of a thread module: the thread may now be stopped safely. */
export function announceLoaded(): void {
  parentPort?.postMessage({ folioThreadLoaded: threadId } satisfies LoadedMessage);
}

/** Keeps count of the threads of `pool` that have loaded, and destroys it once all it has have. */
export class ThreadCloser {
  private readonly loaded = new Set<number>();

  constructor(private readonly pool: Piscina) {
    pool.on('message', (message: unknown) => {
      if (typeof message === 'object' && message !== null && 'folioThreadLoaded' in message) this.loaded.add((message as LoadedMessage).folioThreadLoaded);
    });
  }

  private get allLoaded(): boolean {
    return this.pool.threads.every((thread) => this.loaded.has(thread.threadId));
  }

  async destroy(): Promise<void> {
    await new Promise<void>((resolve) => {
      // Heard after the constructor's listener, so the set already counts the message.
      const check = () => this.allLoaded && done();
      const done = () => {
        clearTimeout(timer);
        this.pool.off('message', check);
        resolve();
      };
      const timer = setTimeout(done, SETTLE_MS);
      timer.unref();
      this.pool.on('message', check);
      check();
    });
    await this.pool.destroy();
  }
}
