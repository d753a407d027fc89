// Rows of remembered POST answers. A key is claimed by inserting a pending row with a token (the
// primary key settles races between concurrent requests). The answer is written by the claim that
// still holds the key, in the same transaction as the documents it accepted, so a process that
// dies part-way leaves either documents with their remembered answer or neither. A claim left
// pending longer than the stale limit belonged to a process that died, and is taken over. Only
// accepted (2xx) answers are kept, so a refused request can be retried with the same key.
import { randomUUID } from 'node:crypto';
import type { Scope } from './documents.js';
import type { Db, Tx } from './database.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export type Claim =
  | { kind: 'fresh'; token: string }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

function byKey(scope: Scope, key: string) {
  return <Q extends { where: (...args: any[]) => Q }>(query: Q): Q =>
    query.where('workspace_id', '=', scope.workspace_id).where('mode', '=', scope.mode).where('key', '=', key);
}

/** `staleMs`: how long a pending claim may go unfinished before it is taken to be abandoned. */
export async function claimKey(db: Db, scope: Scope, key: string, hash: string, at: number, staleMs: number): Promise<Claim> {
  const match = byKey(scope, key);
  const token = randomUUID();
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ ...scope, key, request_hash: hash, state: 'pending', status_code: null, response: null, created_at: at, claim_token: token })
    .onConflict((oc) => oc.columns(['workspace_id', 'mode', 'key']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'fresh', token };
  const row = await match(db.selectFrom('idempotency_keys').selectAll()).executeTakeFirst();
  if (!row) return claimKey(db, scope, key, hash, at, staleMs);
  // A key older than the window is forgotten: this request claims it afresh, whatever it held.
  const forgotten = row.created_at <= at - IDEMPOTENCY_WINDOW_MS;
  if (!forgotten) {
    if (row.request_hash !== hash) return { kind: 'mismatch' };
    if (row.state === 'done') return { kind: 'replay', status: row.status_code!, body: JSON.parse(row.response!) };
    if (row.created_at > at - staleMs) return { kind: 'in_progress' };
  }
  // Forgotten or abandoned: take it over, unless another request just did (the row as read is
  // the condition).
  const taken = await match(
    db.updateTable('idempotency_keys').set({ claim_token: token, created_at: at, state: 'pending', request_hash: hash, status_code: null, response: null }),
  )
    .where('created_at', '=', row.created_at)
    .where((eb) => (row.claim_token === null ? eb('claim_token', 'is', null) : eb('claim_token', '=', row.claim_token)))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? { kind: 'fresh', token } : { kind: 'in_progress' };
}

/**
 * Remembers the answer inside the transaction that accepted the request; false when this claim
 * no longer holds the key (it was taken over), and the transaction must then be rolled back.
 */
export async function rememberAnswer(tx: Tx, scope: Scope, key: string, token: string, status: number, body: unknown): Promise<boolean> {
  const updated = await byKey(scope, key)(tx.updateTable('idempotency_keys').set({ state: 'done', status_code: status, response: JSON.stringify(body) }))
    .where('state', '=', 'pending')
    .where('claim_token', '=', token)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function releaseKey(db: Db, scope: Scope, key: string, token: string): Promise<void> {
  await byKey(scope, key)(db.deleteFrom('idempotency_keys')).where('state', '=', 'pending').where('claim_token', '=', token).execute();
}

export async function forgetExpiredKeys(db: Db, at: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<=', at - IDEMPOTENCY_WINDOW_MS).execute();
}
