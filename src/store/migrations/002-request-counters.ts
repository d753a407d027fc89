// Counters for request limits: per-key requests per one-second window (used when several API
// processes share PostgreSQL) and per-workspace requests per calendar month (quotas).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

export const name = 'request-counters';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // Per-second counters are worthless after a crash, so PostgreSQL keeps them out of the WAL:
  // every API request increments one, and a logged table would make each wait for a flush.
  await db.schema
    .createTable('rate_counters')
    .$call((t) => (dialect === 'postgres' ? t.modifyFront(sql`unlogged`) : t))
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('window', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_counters_pk', ['key_id', 'window'])
    .execute();
  await db.schema
    .createTable('request_quota')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('request_quota_pk', ['workspace_id', 'period'])
    .execute();
}
