// Claims and leases on document and question rows. A claim picks the runnable document or question
// whose workspace has the least work running (fairestRunnable: slots shared between workspaces; a
// document only while its workspace is under its plan's max_concurrent_jobs) and marks it
// processing with a lease (owner, token, expiry). Claims are serialized (PostgreSQL with a
// transaction-scoped advisory lock, SQLite by its write lock), so two workers can never both take
// the last free slot of a workspace. Every later write names the lease token: a worker that lost
// its lease (it was too slow, or presumed dead) changes nothing. The write that ends a run
// (completed or failed) also records the webhook event, in the same transaction, so an event
// exists exactly when its status does.
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

/** Runnable: queued, or processing under a lease that ran out (its worker is presumed dead), and due. */
const runnable = (alias: string, now: number) =>
  sql`(${sql.ref(`${alias}.status`)} = 'queued' OR (${sql.ref(`${alias}.status`)} = 'processing' AND ${sql.ref(`${alias}.lease_expires_at`)} < ${now})) AND ${sql.ref(`${alias}.run_at`)} <= ${now}`;

/**
 * The work to claim next, shared fairly between workspaces: of the runnable documents (of
 * workspaces under their plan's max_concurrent_jobs) and questions, the one whose workspace has
 * the least work running now (documents and questions, under live leases, whatever process holds
 * them); among equals, the workspace served longest ago, then the oldest work. So a slot that
 * frees goes to a workspace with nothing running before one with a backlog, however long that
 * backlog is, and workspaces with work waiting take the slots in turn, even when their work is so
 * quick that none of it is running when the next claim is made.
 */
async function fairestRunnable(tx: Tx, now: number, onlyIdle: boolean): Promise<{ kind: 'document' | 'query'; id: string; workspace_id: string } | null> {
  const idle = onlyIdle ? sql`WHERE COALESCE(rd.n, 0) + COALESCE(rq.n, 0) = 0` : sql``;
  const result = await sql<{ kind: 'document' | 'query'; id: string; workspace_id: string }>`
    WITH running_documents AS (
      SELECT workspace_id, COUNT(*) AS n FROM documents
       WHERE status = 'processing' AND lease_expires_at >= ${now}
       GROUP BY workspace_id),
    running_queries AS (
      SELECT workspace_id, COUNT(*) AS n FROM queries
       WHERE status = 'processing' AND lease_expires_at >= ${now}
       GROUP BY workspace_id),
    candidates AS (
      SELECT 'document' AS kind, d.id, d.workspace_id, d.run_at
        FROM documents d
        JOIN workspaces w ON w.id = d.workspace_id
        JOIN plans p ON p.id = w.plan_id
        LEFT JOIN running_documents rd ON rd.workspace_id = d.workspace_id
       WHERE ${runnable('d', now)} AND COALESCE(rd.n, 0) < p.max_concurrent_jobs
      UNION ALL
      SELECT 'query' AS kind, q.id, q.workspace_id, q.run_at
        FROM queries q
       WHERE ${runnable('q', now)})
    SELECT c.kind, c.id, c.workspace_id
      FROM candidates c
      JOIN workspaces w ON w.id = c.workspace_id
      LEFT JOIN running_documents rd ON rd.workspace_id = c.workspace_id
      LEFT JOIN running_queries rq ON rq.workspace_id = c.workspace_id
     ${idle}
     ORDER BY COALESCE(rd.n, 0) + COALESCE(rq.n, 0), COALESCE(w.last_claimed_at, 0), c.run_at, c.id
     LIMIT 1`.execute(tx);
  return result.rows[0] ?? null;
}

export type Claimed = { kind: 'document'; doc: DocumentRow; lease: Lease } | { kind: 'query'; query: QueryRow; lease: QueryLease };

/**
 * Claims the fairest runnable work (fairestRunnable) with a lease; with `onlyIdle`, only work of a
 * workspace with nothing running (a worker's spare slot, runner.ts). Claims are serialized, so the
 * pick and the claim see the same rows: two workers never take the same row, nor both the last
 * free slot of a workspace.
 */
export async function claimNext(store: Store, workerId: string, leaseMs: number, onlyIdle = false): Promise<Claimed | null> {
  const token = randomUUID();
  // Mostly there is nothing to claim when a worker looks: a plain read says so without the write
  // lock (SQLite's is the API's too) that the claim itself takes.
  if (!(await fairestRunnable(store.db, clock.now(), onlyIdle))) return null;
  return store.writeTransaction(async (tx): Promise<Claimed | null> => {
    if (store.dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(tx);
    // Read once the lock is held: claims are stamped in the order they are made.
    const now = clock.now();
    const pick = await fairestRunnable(tx, now, onlyIdle);
    if (!pick) return null;
    const table = pick.kind === 'document' ? 'documents' : 'queries';
    const result = await sql<DocumentRow & QueryRow>`
      UPDATE ${sql.table(table)}
         SET status = 'processing',
             locked_by = ${workerId},
             lease_token = ${token},
             lease_expires_at = ${now + leaseMs},
             attempts = attempts + 1,
             started_at = COALESCE(started_at, ${now})
       WHERE id = ${pick.id}
      RETURNING *`.execute(tx);
    const row = result.rows[0];
    if (!row) return null;
    await tx.updateTable('workspaces').set({ last_claimed_at: now }).where('id', '=', pick.workspace_id).execute();
    return pick.kind === 'document'
      ? { kind: 'document', doc: row, lease: { documentId: row.id, token, workerId } }
      : { kind: 'query', query: row, lease: { queryId: row.id, token, workerId } };
  });
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
// Queries (docs/decisions.md#queries) are claimed with documents (claimNext), from their own table.
// They read a finished document's stored outputs, so they do not count against the workspace's
// max_concurrent_jobs, which limits documents being read; they do count as its work running when
// slots are shared between workspaces.

export interface QueryLease {
  queryId: string;
  token: string;
  workerId: string;
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
