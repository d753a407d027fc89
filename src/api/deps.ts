// What the API's routes are given, and the address the links they answer with are built on.
import type { Config } from '../config.js';
import type { PageCounter } from '../pipeline/threads/page-counter.js';
import type { ReaderPool } from '../pipeline/threads/pool.js';
import type { Wakeup } from '../queue/wakeup.js';
import type { Store } from '../store/index.js';

export interface AppDeps {
  store: Store;
  config: Config;
  /** Reader threads, for page pictures drawn on request. */
  pool: ReaderPool;
  /** Counts pages at submission. */
  counter: PageCounter;
  wakeup: Wakeup;
}

/** What the operations endpoints (health, metrics) need: a worker-only process serves them too. */
export type OperationsDeps = Omit<AppDeps, 'counter'>;

/** The address clients should use for links: FOLIO_PUBLIC_URL, else the request's own host. */
export function baseUrlOf(config: Config, request: { protocol: string; host: string }): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}
