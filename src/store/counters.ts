// Request counters behind one interface. Without Redis: the per-second rate counter lives in
// memory for the embedded (SQLite) setup, which runs one API process, and in PostgreSQL when
// several API processes share it; the monthly quota is in the database, counted with one atomic
// increment-if-below-limit statement. Every request then writes the database once or twice,
// which is what limits how fast PostgreSQL answers polling; with FOLIO_REDIS_URL both counters
// live in Redis instead (store/redis-counters.ts; store/open-counters.ts chooses).
import { sql } from 'kysely';
import type { Store } from './index.js';

export interface RequestCounters {
  /** Counts a request in the key's window and returns the count including it. */
  hitRate(keyId: string, window: number): Promise<number>;
  /** Counts a request against the quota unless it is spent; `allowed` false leaves it unchanged. */
  hitQuota(workspaceId: string, period: string, limit: number): Promise<{ allowed: boolean; used: number }>;
  /** Resolves once the counters can count where they are meant to (Redis connected, or given up on). */
  started(): Promise<void>;
  /** Writes what is only in memory and lets go of connections. */
  close(): Promise<void>;
}

/** Warnings the counters log (Redis going away and coming back), so an operator can see them. */
export interface CounterLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/** The counters in the database (and the rate in memory on SQLite); exact across processes. */
export function databaseCounters(store: Store): RequestCounters {
  // One entry per key, overwritten when its window moves on.
  const memory = new Map<string, { window: number; count: number }>();
  const hitQuota = async (workspaceId: string, period: string, limit: number) => {
    const result = await sql<{ count: number }>`
      INSERT INTO request_quota (workspace_id, period, count) VALUES (${workspaceId}, ${period}, 1)
      ON CONFLICT (workspace_id, period) DO UPDATE SET count = request_quota.count + 1
      WHERE request_quota.count < ${limit}
      RETURNING count`.execute(store.db);
    if (result.rows[0]) return { allowed: true, used: Number(result.rows[0].count) };
    return { allowed: false, used: (await storedQuota(store, workspaceId, period)) ?? limit };
  };
  const close = async () => undefined;
  const started = async () => undefined;

  if (store.dialect === 'postgres') {
    return {
      async hitRate(keyId, window) {
        const result = await sql<{ count: number }>`
          INSERT INTO rate_counters (key_id, "window", count) VALUES (${keyId}, ${window}, 1)
          ON CONFLICT (key_id, "window") DO UPDATE SET count = rate_counters.count + 1
          RETURNING count`.execute(store.db);
        return Number(result.rows[0].count);
      },
      hitQuota,
      started,
      close,
    };
  }
  return {
    async hitRate(keyId, window) {
      const entry = memory.get(keyId);
      if (!entry || entry.window !== window) {
        memory.set(keyId, { window, count: 1 });
        return 1;
      }
      entry.count++;
      return entry.count;
    },
    hitQuota,
    started,
    close,
  };
}

/** A workspace's requests counted in the database for a month, or null when it has none yet. */
export async function storedQuota(store: Store, workspaceId: string, period: string): Promise<number | null> {
  const row = await store.db
    .selectFrom('request_quota')
    .select('count')
    .where('workspace_id', '=', workspaceId)
    .where('period', '=', period)
    .executeTakeFirst();
  return row ? Number(row.count) : null;
}

/** Raises a month's stored count to `count` (never lowers it): how Redis' counts are kept. */
export async function raiseStoredQuota(store: Store, workspaceId: string, period: string, count: number): Promise<void> {
  await sql`
    INSERT INTO request_quota (workspace_id, period, count) VALUES (${workspaceId}, ${period}, ${count})
    ON CONFLICT (workspace_id, period) DO UPDATE SET count = ${store.dialect === 'postgres' ? sql`GREATEST` : sql`MAX`}(request_quota.count, excluded.count)`.execute(store.db);
}
