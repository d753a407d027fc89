// Query rows (docs/decisions.md#queries): questions asked of a completed document after submission. They carry
// their own credit hold and lease columns and are claimed by workers like documents.
import type { Insertable, Selectable } from 'kysely';
import type { Db, Tx } from './database.js';
import type { Scope } from './documents.js';
import type { QueriesTable } from './schema.js';

export type QueryRow = Selectable<QueriesTable>;

export async function insertQuery(tx: Tx, row: Insertable<QueriesTable>): Promise<void> {
  await tx.insertInto('queries').values(row).execute();
}

export async function findQuery(db: Tx, documentId: string, id: string, scope: Scope): Promise<QueryRow | undefined> {
  return db
    .selectFrom('queries')
    .selectAll()
    .where('id', '=', id)
    .where('document_id', '=', documentId)
    .where('workspace_id', '=', scope.workspace_id)
    .where('mode', '=', scope.mode)
    .executeTakeFirst();
}

export async function listQueries(db: Db, documentId: string, scope: Scope, query: { limit: number; starting_after?: string }): Promise<{ rows: QueryRow[]; has_more: boolean }> {
  let q = db.selectFrom('queries').selectAll().where('document_id', '=', documentId).where('workspace_id', '=', scope.workspace_id).where('mode', '=', scope.mode);
  if (query.starting_after) q = q.where('id', '<', query.starting_after);
  const rows = await q.orderBy('id', 'desc').limit(query.limit + 1).execute();
  return { rows: rows.slice(0, query.limit), has_more: rows.length > query.limit };
}

/** Queries on the document that are waiting or running (docs/api.md: DELETE answers 409 meanwhile). */
export async function unfinishedQueries(tx: Tx, documentId: string): Promise<number> {
  const row = await tx
    .selectFrom('queries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('document_id', '=', documentId)
    .where('status', 'in', ['queued', 'processing'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
