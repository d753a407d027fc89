// Idempotency claims carry a token, so a claim left pending by a process that died can be taken
// over, and the answer is remembered only by the claim that still holds the key (issue 10).
import type { Kysely } from 'kysely';

export const name = 'idempotency-claims';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('claim_token', 'text').execute();
}
