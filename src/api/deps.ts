// What the API's routes are given, and the address the links they answer with are built on.
import type { Config } from '../config.js';
import type { ReaderPool } from '../pipeline/threads/pool.js';
import type { Wakeup } from '../queue/wakeup.js';
import type { Store } from '../store/index.js';

export interface AppDeps {
  store: Store;
  config: Config;
  /** Reader threads for counting pages at submission. */
  pool: ReaderPool;
  wakeup: Wakeup;
}

/** The address clients should use for links: FOLIO_PUBLIC_URL, else the request's own host. */
export function baseUrlOf(config: Config, request: { protocol: string; host: string }): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}
