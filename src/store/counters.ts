// Request counters behind one interface. The per-second rate counter lives in memory for the
// embedded (SQLite) setup, which runs one API process, and in PostgreSQL when several API
// processes share it; the monthly quota is always in the database, counted with one atomic
// increment-if-below-limit statement.
import { sql } from 'kysely';
import type { Store } from './index.js';

export interface RequestCounters {
  /** Counts a request in the key's window and returns the count including it. */
  hitRate(keyId: string, window: number): Promise<number>;
  /** Counts a request against the quota unless it is spent; `allowed` false leaves it unchanged. */
  hitQuota(workspaceId: string, period: string, limit: number): Promise<{ allowed: boolean; used: number }>;
}

export function requestCounters(store: Store): RequestCounters {
  // One entry per key, overwritten when its window moves on.
  const memory = new Map<string, { window: number; count: number }>();
  const hitQuota = async (workspaceId: string, period: string, limit: number) => {
    const result = await sql<{ count: number }>`
      INSERT INTO request_quota (workspace_id, period, count) VALUES (${workspaceId}, ${period}, 1)
      ON CONFLICT (workspace_id, period) DO UPDATE SET count = request_quota.count + 1
      WHERE request_quota.count < ${limit}
      RETURNING count`.execute(store.db);
    if (result.rows[0]) return { allowed: true, used: Number(result.rows[0].count) };
    const row = await store.db
      .selectFrom('request_quota')
      .select('count')
      .where('workspace_id', '=', workspaceId)
      .where('period', '=', period)
      .executeTakeFirst();
    return { allowed: false, used: row?.count ?? limit };
  };

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
  };
}
