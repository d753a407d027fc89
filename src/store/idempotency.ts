// Rows of remembered POST answers. A key is claimed by inserting a pending row (the primary key
// settles races between concurrent requests); only accepted (2xx) answers are kept, so a request
// that was refused can be retried with the same key once the cause is fixed.
import type { Scope } from './documents.js';
import type { Db } from './database.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export type Claim =
  | { kind: 'fresh' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

export async function claimKey(db: Db, scope: Scope, key: string, hash: string, at: number): Promise<Claim> {
  // A key older than the window is forgotten and may be used afresh.
  await db
    .deleteFrom('idempotency_keys')
    .where('workspace_id', '=', scope.workspace_id)
    .where('mode', '=', scope.mode)
    .where('key', '=', key)
    .where('created_at', '<=', at - IDEMPOTENCY_WINDOW_MS)
    .execute();
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ ...scope, key, request_hash: hash, state: 'pending', status_code: null, response: null, created_at: at })
    .onConflict((oc) => oc.columns(['workspace_id', 'mode', 'key']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'fresh' };
  const row = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('workspace_id', '=', scope.workspace_id)
    .where('mode', '=', scope.mode)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return claimKey(db, scope, key, hash, at);
  if (row.request_hash !== hash) return { kind: 'mismatch' };
  if (row.state === 'done') return { kind: 'replay', status: row.status_code!, body: JSON.parse(row.response!) };
  return { kind: 'in_progress' };
}

export async function rememberAnswer(db: Db, scope: Scope, key: string, status: number, body: unknown): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', status_code: status, response: JSON.stringify(body) })
    .where('workspace_id', '=', scope.workspace_id)
    .where('mode', '=', scope.mode)
    .where('key', '=', key)
    .execute();
}

export async function releaseKey(db: Db, scope: Scope, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('workspace_id', '=', scope.workspace_id)
    .where('mode', '=', scope.mode)
    .where('key', '=', key)
    .where('state', '=', 'pending')
    .execute();
}

export async function forgetExpiredKeys(db: Db, at: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<=', at - IDEMPOTENCY_WINDOW_MS).execute();
}
