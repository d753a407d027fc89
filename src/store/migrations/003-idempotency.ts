// Idempotency keys (docs/decisions.md#beyond-the-spec): the first answer to a POST, remembered for 24 hours.
import type { Kysely } from 'kysely';

export const name = 'idempotency';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['workspace_id', 'mode', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_by_age').on('idempotency_keys').column('created_at').execute();
}
