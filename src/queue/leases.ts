// Claims and leases on document rows. A claim is one statement that picks the oldest runnable
// document whose workspace is under its plan's max_concurrent_jobs and marks it processing with
// a lease (owner, token, expiry). Claims are serialized — PostgreSQL with a transaction-scoped
// advisory lock, SQLite by its write lock — so two workers can never both take the last free slot
// of a workspace. Every later write names the lease token: a worker that lost its lease (it was
// too slow, or presumed dead) changes nothing. The write that ends a run (completed or failed) also
// records the webhook event, in the same transaction, so an event exists exactly when its status does.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Store } from '../store/index.js';
import type { DocumentRow } from '../store/documents.js';
import type { Tx } from '../store/database.js';
import type { DocumentsTable, QueriesTable } from '../store/schema.js';
import type { QueryRow } from '../store/queries.js';
import type { Updateable } from 'kysely';
import * as clock from '../domain/clock.js';
import type { DocumentHold, QueryHold } from '../pipeline/hold.js';
import { recordDocumentEvent, recordQueryEvent } from '../store/webhooks.js';
import type { WebhookEventType } from '../domain/webhooks.js';

const CLAIM_LOCK = 4_242_002;

export interface Lease {
  documentId: string;
  token: string;
  workerId: string;
}

export async function claimNext(store: Store, workerId: string, leaseMs: number): Promise<{ doc: DocumentRow; lease: Lease } | null> {
  const token = randomUUID();
  const now = clock.now();
  const row = await store.writeTransaction(async (tx) => {
    if (store.dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(tx);
    const result = await sql<DocumentRow>`
      UPDATE documents
         SET status = 'processing',
             locked_by = ${workerId},
             lease_token = ${token},
             lease_expires_at = ${now + leaseMs},
             attempts = attempts + 1,
             started_at = COALESCE(started_at, ${now})
       WHERE id = (
         SELECT d.id
           FROM documents d
           JOIN workspaces w ON w.id = d.workspace_id
           JOIN plans p ON p.id = w.plan_id
          WHERE (d.status = 'queued' OR (d.status = 'processing' AND d.lease_expires_at < ${now}))
            AND d.run_at <= ${now}
            AND (SELECT COUNT(*) FROM documents a
                  WHERE a.workspace_id = d.workspace_id
                    AND a.status = 'processing'
                    AND a.lease_expires_at >= ${now}) < p.max_concurrent_jobs
          ORDER BY d.run_at, d.id
          LIMIT 1)
      RETURNING *`.execute(tx);
    return result.rows[0];
  });
  if (!row) return null;
  return { doc: row, lease: { documentId: row.id, token, workerId } };
}

/** Applies `changes` only while the lease is held; false means the lease is gone. */
export async function updateHeld(db: Tx, lease: Lease, changes: Updateable<DocumentsTable>): Promise<boolean> {
  const result = await db
    .updateTable('documents')
    .set(changes)
    .where('id', '=', lease.documentId)
    .where('lease_token', '=', lease.token)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Checks (and on PostgreSQL row-locks) that the lease is still held, inside a transaction. */
function stillHeld(db: Tx, lease: Lease): Promise<boolean> {
  return updateHeld(db, lease, { lease_token: lease.token });
}

export function renewLease(store: Store, lease: Lease, leaseMs: number): Promise<boolean> {
  return updateHeld(store.db, lease, { lease_expires_at: clock.now() + leaseMs });
}

/** Hands a document back to the queue (graceful shutdown); the attempt does not count. */
export function releaseLease(store: Store, lease: Lease): Promise<boolean> {
  return store.db
    .updateTable('documents')
    .set((eb) => ({
      status: 'queued',
      stage: 'received',
      locked_by: null,
      lease_token: null,
      lease_expires_at: null,
      attempts: eb('attempts', '-', 1),
      run_at: clock.now(),
    }))
    .where('id', '=', lease.documentId)
    .where('lease_token', '=', lease.token)
    .where('status', '=', 'processing')
    .executeTakeFirst()
    .then((r) => Number(r.numUpdatedRows) === 1);
}

/** Fields that end a lease, with the finishing update of a completed or failed row. */
const LEASE_CLEARED = { locked_by: null, lease_token: null, lease_expires_at: null } as const;

/** The event a finishing status gives: `document.completed`, `query.failed`... */
function eventOf(kind: 'document' | 'query', status: unknown): WebhookEventType | null {
  return status === 'completed' || status === 'failed' ? `${kind}.${status}` : null;
}

/** The hold a document's run gets: its writes name the lease token, so a lost lease changes nothing. */
export function documentHold(lease: Lease): DocumentHold {
  return {
    update: (db, changes) => updateHeld(db, lease, changes),
    check: (db) => stillHeld(db, lease),
    finish: async (db, changes) => {
      if (!(await updateHeld(db, lease, { ...changes, ...LEASE_CLEARED }))) return false;
      // `db` is the transaction that writes the status (finalizing, a failure, giving up).
      const type = eventOf('document', changes.status);
      if (type) await recordDocumentEvent(db, lease.documentId, type);
      return true;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Queries (docs/decisions.md#queries) are claimed the same way from their own table. They read a finished
// document's stored outputs, so they do not count against the workspace's max_concurrent_jobs,
// which limits documents being read.

export interface QueryLease {
  queryId: string;
  token: string;
  workerId: string;
}

export async function claimNextQuery(store: Store, workerId: string, leaseMs: number): Promise<{ query: QueryRow; lease: QueryLease } | null> {
  const token = randomUUID();
  const now = clock.now();
  const row = await store.writeTransaction(async (tx) => {
    if (store.dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(tx);
    const result = await sql<QueryRow>`
      UPDATE queries
         SET status = 'processing',
             locked_by = ${workerId},
             lease_token = ${token},
             lease_expires_at = ${now + leaseMs},
             attempts = attempts + 1,
             started_at = COALESCE(started_at, ${now})
       WHERE id = (
         SELECT q.id FROM queries q
          WHERE (q.status = 'queued' OR (q.status = 'processing' AND q.lease_expires_at < ${now}))
            AND q.run_at <= ${now}
          ORDER BY q.run_at, q.id
          LIMIT 1)
      RETURNING *`.execute(tx);
    return result.rows[0];
  });
  if (!row) return null;
  return { query: row, lease: { queryId: row.id, token, workerId } };
}

/** Applies `changes` to the query only while the lease is held. */
export async function updateQueryHeld(db: Tx, lease: QueryLease, changes: Updateable<QueriesTable>): Promise<boolean> {
  const result = await db
    .updateTable('queries')
    .set(changes)
    .where('id', '=', lease.queryId)
    .where('lease_token', '=', lease.token)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The hold a question's run gets, as documentHold. */
export function queryHold(lease: QueryLease): QueryHold {
  return {
    update: (db, changes) => updateQueryHeld(db, lease, changes),
    check: (db) => updateQueryHeld(db, lease, { lease_token: lease.token }),
    finish: async (db, changes) => {
      if (!(await updateQueryHeld(db, lease, { ...changes, ...LEASE_CLEARED }))) return false;
      const type = eventOf('query', changes.status);
      if (type) await recordQueryEvent(db, lease.queryId, type);
      return true;
    },
  };
}

export function renewQueryLease(store: Store, lease: QueryLease, leaseMs: number): Promise<boolean> {
  return updateQueryHeld(store.db, lease, { lease_expires_at: clock.now() + leaseMs });
}

/** Hands a query back to the queue (graceful shutdown); the attempt does not count. */
export function releaseQueryLease(store: Store, lease: QueryLease): Promise<boolean> {
  return store.db
    .updateTable('queries')
    .set((eb) => ({ status: 'queued', locked_by: null, lease_token: null, lease_expires_at: null, attempts: eb('attempts', '-', 1), run_at: clock.now() }))
    .where('id', '=', lease.queryId)
    .where('lease_token', '=', lease.token)
    .where('status', '=', 'processing')
    .executeTakeFirst()
    .then((r) => Number(r.numUpdatedRows) === 1);
}
