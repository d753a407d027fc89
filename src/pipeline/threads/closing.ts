// Closing a pool of threads safely. A thread stopped while it still loads its module crashes the
// whole process on Node 20 (V8's "IsGraphAsync must be used on an instantiated module", seen when
// SIGTERM came just after start), so a pool is destroyed only once a task shows its threads have
// loaded; a thread busy with a long file is not waited for beyond SETTLE_MS.
import type { Piscina } from 'piscina';

const SETTLE_MS = 2_000;

/** Destroys `pool` once `loaded` (a task the pool answers once loaded) settles, or after SETTLE_MS. */
export async function destroyWhenLoaded(pool: Piscina, loaded: Promise<unknown>): Promise<void> {
  await Promise.race([loaded.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, SETTLE_MS).unref())]);
  await pool.destroy();
}
