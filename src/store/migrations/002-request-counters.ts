// Counters for request limits: per-key requests per one-second window (used when several API
// processes share PostgreSQL) and per-workspace requests per calendar month (quotas).
import type { Kysely } from 'kysely';

export const name = 'request-counters';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_counters')
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
