// Sharing workers between workspaces (issue 37): when each workspace was last given a worker slot
// and a webhook delivery, so workspaces with equal work running take turns instead of the oldest
// queue going first; and how many deliveries in a row each webhook has failed, so receivers that
// keep failing get a share of the delivery slots of their own instead of everyone's.
import type { Kysely } from 'kysely';

export const name = 'fair-sharing';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('workspaces').addColumn('last_claimed_at', 'bigint').execute();
  await db.schema.alterTable('workspaces').addColumn('last_delivery_at', 'bigint').execute();
  await db.schema.alterTable('webhooks').addColumn('failures_in_row', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
