// Counting an upload's pages while its request waits. Counting runs in threads of its own, apart
// from the reader threads: a count takes about a millisecond, but behind a book's reading in the
// same queue an upload waited seconds (bench/load.ts). The threads start with the API and stay.
//
// One tenant must never make another's upload wait, so the design is three bounds together:
// - turns (fair-turns.ts): the threads are shared in rotation between the workspaces that wait,
//   and one workspace holds at most all but one of them, so another's count waits for at most
//   one count of each workspace ahead of it, never for a queue one workspace filled;
// - a time limit on each count, measured from its start: a file that takes longer stops its
//   thread (Piscina ends a thread whose task is aborted, and starts a fresh one), and the upload
//   is refused; a count is linear in the file (TIFF frames in one walk, tiff-directories.ts)
//   and stops once past the page limit, so only a hostile file gets near the limit;
// - the client: a request whose client has gone is taken out of the line, or stopped mid-count.
// Counting in the worker instead would have made every upload's estimate and page-limit refusal
// arrive only after it had been queued, which the interface does not allow (docs/api.md, POST
// /documents: more pages than the plan allows is a 422 at upload).
import { Piscina } from 'piscina';
import type { SupportedMediaType } from '../../domain/media-types.js';
import { threadModuleOptions } from './thread-module.js';
import type { CountTask } from './count-thread.js';
import { FairTurns } from './fair-turns.js';

export interface CountRequest {
  mediaType: SupportedMediaType;
  /** The upload's temporary file; the counting thread reads it. */
  path: string;
  /** Past this many pages the count stops and answers stopAfter + 1 ("more"). */
  stopAfter: number;
  /** Whose turn it is: the workspace. */
  tenant: string;
  /** Aborted when the client has gone. */
  signal?: AbortSignal;
}

/** A count that ran out of time: the upload is refused with this, in Folio's words. */
export class CountTimeout extends Error {
  constructor(readonly limitMs: number) {
    super(`counting took longer than ${limitMs} ms`);
  }
}

export interface PageCounterSettings {
  threads: number;
  timeoutMs: number;
}

export class PageCounter {
  private readonly pool: Piscina<CountTask, number | null>;
  private readonly turns: FairTurns;
  /** Tasks handed to the threads and not yet settled: close() lets them end first (see there). */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly settings: PageCounterSettings) {
    this.pool = new Piscina({
      ...threadModuleOptions(new URL('./count-thread.js', import.meta.url)),
      minThreads: settings.threads,
      maxThreads: settings.threads,
    });
    this.turns = new FairTurns(settings.threads, Math.max(1, settings.threads - 1));
    for (let i = 0; i < settings.threads; i++) this.track(this.pool.run({ kind: 'warm' })).catch(() => undefined);
  }

  private track<T>(task: Promise<T>): Promise<T> {
    this.inFlight.add(task);
    const settled = () => this.inFlight.delete(task);
    task.then(settled, settled);
    return task;
  }

  /** The file's page count, or null when it cannot be opened; CountTimeout past the time limit. */
  count(request: CountRequest): Promise<number | null> {
    const { mediaType, path, stopAfter, tenant, signal } = request;
    return this.turns.run(
      tenant,
      async () => {
        const deadline = AbortSignal.timeout(this.settings.timeoutMs);
        try {
          return await this.track(this.pool.run({ kind: 'count', mediaType, path, stopAfter }, { signal: signal ? AbortSignal.any([signal, deadline]) : deadline }));
        } catch (error) {
          if (deadline.aborted && !signal?.aborted) throw new CountTimeout(this.settings.timeoutMs);
          throw error;
        }
      },
      signal,
    );
  }

  /** Counts running and waiting. */
  get load(): { running: number; waiting: number } {
    return this.turns.load;
  }

  /**
   * Stops the threads once the tasks they hold have settled. On Node 22 a thread stopped while it
   * sets up PDFium's WebAssembly (its warm-up, or a first count on a thread that replaced one
   * stopped mid-count) can fail to end, and the pool's destroy() then waits for it forever: seen
   * twice in CI's Node 22 pass, and within five rounds of opening a counter and closing it 0 to
   * 800 ms later (never on Node 20).
   * Waiting is bounded: a warm-up takes well under a second, and every count has its time limit.
   */
  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    await this.pool.destroy();
  }
}
