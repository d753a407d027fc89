// Document rows and what hangs off them: pages, images, usage records and credit holds.
import type { ExpressionBuilder, Insertable, Selectable } from 'kysely';
import * as clock from '../domain/clock.js';
import { UNFETCHED_MINIMUM_MS } from '../domain/retention.js';
import type { Mode } from '../domain/states.js';
import { preparedQuery, type Db, type Tx } from './database.js';
import type { ChunkEmbeddingsTable, Database, DocumentPagesTable, DocumentsTable, ImagesTable, UsageRecordsTable } from './schema.js';

export type DocumentRow = Selectable<DocumentsTable>;
export type PageRow = Selectable<DocumentPagesTable>;
export type ImageRow = Selectable<ImagesTable>;
export type UsageRow = Selectable<UsageRecordsTable>;

export interface Scope {
  workspace_id: string;
  mode: Mode;
}

export async function insertDocument(tx: Tx, row: Insertable<DocumentsTable>): Promise<void> {
  await tx.insertInto('documents').values(row).execute();
}

const documentQuery = preparedQuery((db: Tx, id: string, workspaceId: string, mode: Mode) =>
  db.selectFrom('documents').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).where('mode', '=', mode),
);

export async function findDocument(db: Tx, id: string, scope: Scope): Promise<DocumentRow | undefined> {
  return (await documentQuery(db, id, scope.workspace_id, scope.mode))[0];
}

export async function listDocuments(
  db: Db,
  scope: Scope,
  query: { limit: number; starting_after?: string; status?: string },
): Promise<{ rows: DocumentRow[]; has_more: boolean }> {
  let q = db
    .selectFrom('documents')
    .selectAll()
    .where('workspace_id', '=', scope.workspace_id)
    .where('mode', '=', scope.mode);
  if (query.starting_after) q = q.where('id', '<', query.starting_after);
  if (query.status === 'expired' || query.status === 'completed') {
    const expired = expiredCondition(clock.now());
    q = query.status === 'expired' ? q.where(expired) : q.where('status', '=', 'completed').where((eb) => eb.not(expired(eb)));
  } else if (query.status) {
    q = q.where('status', '=', query.status);
  }
  const rows = await q.orderBy('id', 'desc').limit(query.limit + 1).execute();
  return { rows: rows.slice(0, query.limit), has_more: rows.length > query.limit };
}

/** Sets `retrieved_at` on the first fetch of a completed document; later fetches change nothing. */
/** SQL for domain/retention.ts's isExpired: purged already, or completed and past its expiry. */
export function expiredCondition(at: number) {
  return (eb: ExpressionBuilder<Database, 'documents'>) =>
    eb.or([
      eb('status', '=', 'expired'),
      eb.and([
        eb('status', '=', 'completed'),
        eb('expires_at', 'is not', null),
        eb('expires_at', '<=', at),
        eb.or([eb('retrieved_at', 'is not', null), eb('completed_at', '<=', at - UNFETCHED_MINIMUM_MS)]),
      ]),
    ]);
}

export async function markRetrieved(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('documents')
    .set({ retrieved_at: now })
    .where('id', '=', id)
    .where('status', '=', 'completed')
    .where('retrieved_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function getPages(db: Db, documentId: string, first: number, last: number): Promise<PageRow[]> {
  return db
    .selectFrom('document_pages')
    .selectAll()
    .where('document_id', '=', documentId)
    .where('page_number', '>=', first)
    .where('page_number', '<=', last)
    .orderBy('page_number')
    .execute();
}

/** What embedding and chunking read of a stored page: its text, layout elements and tables. */
export type PageContentRow = Pick<PageRow, 'page_number' | 'text' | 'layout' | 'tables'>;

/**
 * A document's stored pages, `size` at a time, in page order, with only the columns embedding and
 * chunking read (not a page's vector, markdown or model result), so a long document is never read
 * whole and a read takes no more than it needs.
 */
export async function* pageContentBatches(db: Db, documentId: string, pageCount: number, size = 64): AsyncGenerator<PageContentRow[]> {
  for (let first = 1; first <= pageCount; first += size) {
    const rows = await db
      .selectFrom('document_pages')
      .select(['page_number', 'text', 'layout', 'tables'])
      .where('document_id', '=', documentId)
      .where('page_number', '>=', first)
      .where('page_number', '<=', Math.min(pageCount, first + size - 1))
      .orderBy('page_number')
      .execute();
    if (rows.length > 0) yield rows;
  }
}

/** How a stored page was turned and straightened (for rendering it as its layout was read); null when there is no such page. */
export async function pageGeometry(db: Db, documentId: string, page: number): Promise<{ rotation: 0 | 90 | 180 | 270; skew: number } | null> {
  const row = await db
    .selectFrom('document_pages')
    .select(['rotation', 'skew'])
    .where('document_id', '=', documentId)
    .where('page_number', '=', page)
    .executeTakeFirst();
  return row ? { rotation: row.rotation as 0 | 90 | 180 | 270, skew: row.skew } : null;
}

export async function listImages(db: Db, documentId: string, first: number, last: number): Promise<ImageRow[]> {
  return db
    .selectFrom('images')
    .selectAll()
    .where('document_id', '=', documentId)
    .where('page_number', '>=', first)
    .where('page_number', '<=', last)
    .orderBy('page_number')
    .orderBy('kind')
    .orderBy('figure_index')
    .orderBy('id')
    .execute();
}

export async function findImage(db: Db, documentId: string, imageId: string): Promise<ImageRow | undefined> {
  return db
    .selectFrom('images')
    .selectAll()
    .where('document_id', '=', documentId)
    .where('id', '=', imageId)
    .executeTakeFirst();
}

export async function usageForDocument(db: Db, documentId: string): Promise<UsageRow[]> {
  return db.selectFrom('usage_records').selectAll().where('document_id', '=', documentId).orderBy('id').execute();
}

export async function listUsage(
  db: Db,
  scope: Scope,
  query: { limit: number; starting_after?: string; document_id?: string; since?: number; until?: number },
): Promise<{ rows: UsageRow[]; has_more: boolean }> {
  let q = db
    .selectFrom('usage_records')
    .selectAll()
    .where('workspace_id', '=', scope.workspace_id)
    .where('mode', '=', scope.mode);
  if (query.starting_after) q = q.where('id', '<', query.starting_after);
  if (query.document_id) q = q.where('document_id', '=', query.document_id);
  if (query.since !== undefined) q = q.where('created_at', '>=', query.since);
  if (query.until !== undefined) q = q.where('created_at', '<', query.until);
  const rows = await q.orderBy('id', 'desc').limit(query.limit + 1).execute();
  return { rows: rows.slice(0, query.limit), has_more: rows.length > query.limit };
}

/**
 * Removes a document with its pages and images and releases its credit hold; usage records stay
 * (docs/api.md: usage history survives deletion). Returns the blob keys to delete after commit.
 */
export async function deleteDocument(tx: Tx, doc: DocumentRow): Promise<string[]> {
  const images = await tx.selectFrom('images').select('blob_key').where('document_id', '=', doc.id).execute();
  await tx.deleteFrom('images').where('document_id', '=', doc.id).execute();
  await deletePages(tx, doc.id);
  await tx.deleteFrom('queries').where('document_id', '=', doc.id).execute();
  const removed = await tx.deleteFrom('documents').where('id', '=', doc.id).returning('hold_micro').executeTakeFirst();
  if (removed && removed.hold_micro > 0) await releaseHeld(tx, doc.workspace_id, removed.hold_micro);
  return [...images.map((image) => image.blob_key), ...(doc.upload_key ? [doc.upload_key] : [])];
}

/**
 * Holds `amount` of the workspace's available credit in one conditional statement, so concurrent
 * holds can never together exceed the balance. Returns false when the credit cannot cover it.
 */
export async function holdCredit(tx: Tx, workspaceId: string, amount: number): Promise<boolean> {
  if (amount <= 0) return true;
  const result = await tx
    .updateTable('workspaces')
    .set((eb) => ({ held_micro: eb('held_micro', '+', amount) }))
    .where('id', '=', workspaceId)
    .where((eb) => eb(eb('balance_micro', '-', eb.ref('held_micro')), '>=', amount))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Releases `amount` of the workspace's holds and returns its balance and holds after. On
 * PostgreSQL the update locks the workspace row until commit, so whoever reads the balance here
 * may spend it without another transaction spending it too.
 */
export async function releaseHeld(tx: Tx, workspaceId: string, amount: number): Promise<{ balance_micro: number; held_micro: number }> {
  return tx
    .updateTable('workspaces')
    .set((eb) => ({ held_micro: eb('held_micro', '-', amount) }))
    .where('id', '=', workspaceId)
    .returning(['balance_micro', 'held_micro'])
    .executeTakeFirstOrThrow();
}

/** Moves `amount` from the balance to charges (the usage records written beside it). */
export async function debitBalance(tx: Tx, workspaceId: string, amount: number): Promise<void> {
  if (amount === 0) return;
  await tx
    .updateTable('workspaces')
    .set((eb) => ({ balance_micro: eb('balance_micro', '-', amount) }))
    .where('id', '=', workspaceId)
    .execute();
}

export async function availableCredit(db: Tx, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('workspaces')
    .select(['balance_micro', 'held_micro'])
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return row.balance_micro - row.held_micro;
}

export async function insertUsage(tx: Tx, rows: Insertable<UsageRecordsTable>[]): Promise<void> {
  if (rows.length) await tx.insertInto('usage_records').values(rows).execute();
}

export async function insertPages(tx: Tx, rows: Insertable<DocumentPagesTable>[]): Promise<void> {
  // Batches keep each statement under SQLite's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 100) {
    await tx.insertInto('document_pages').values(rows.slice(i, i + 100)).execute();
  }
}

/** Records an upload's blob before it is written, so that it is found again if its document is never committed (migration 009). */
export async function recordPendingUpload(db: Tx, blobKey: string, at: number): Promise<void> {
  await db.insertInto('pending_uploads').values({ blob_key: blobKey, created_at: at }).execute();
}

/** The upload's document is committed in `tx`, or its blob is deleted: nothing is pending for it. */
export async function clearPendingUpload(db: Tx, blobKey: string): Promise<void> {
  await db.deleteFrom('pending_uploads').where('blob_key', '=', blobKey).execute();
}

/** Uploads pending since before `before`: their process stopped before committing the document, or before deleting a refused file. */
export async function stalePendingUploads(db: Tx, before: number, limit: number): Promise<{ blob_key: string; referenced: boolean }[]> {
  const rows = await db
    .selectFrom('pending_uploads')
    .select(['blob_key'])
    .select((eb) => eb.exists(eb.selectFrom('documents').select('id').whereRef('documents.upload_key', '=', 'pending_uploads.blob_key')).as('referenced'))
    .where('created_at', '<', before)
    .limit(limit)
    .execute();
  return rows.map((row) => ({ blob_key: row.blob_key, referenced: Boolean(row.referenced) }));
}

/** Removes a document's page rows and chunk vectors (a run that starts again, or that failed, keeps none; nor does a purged document). */
export async function deletePages(tx: Tx, documentId: string): Promise<void> {
  await tx.deleteFrom('document_pages').where('document_id', '=', documentId).execute();
  await tx.deleteFrom('chunk_embeddings').where('document_id', '=', documentId).execute();
}

export async function insertChunkEmbeddings(tx: Tx, rows: Insertable<ChunkEmbeddingsTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) await tx.insertInto('chunk_embeddings').values(rows.slice(i, i + 100)).execute();
}

/** A document's chunk vectors, by chunk index. */
export async function chunkEmbeddings(db: Db, documentId: string): Promise<Selectable<ChunkEmbeddingsTable>[]> {
  return db.selectFrom('chunk_embeddings').selectAll().where('document_id', '=', documentId).orderBy('chunk_index').execute();
}

/** Sets columns of one stored page (written while the document is read, before it completes). */
export async function updatePage(tx: Tx, documentId: string, pageNumber: number, changes: Pick<Partial<DocumentPagesTable>, 'tables' | 'result' | 'embedding'>): Promise<void> {
  await tx.updateTable('document_pages').set(changes).where('document_id', '=', documentId).where('page_number', '=', pageNumber).execute();
}

/** The stored tables of one page, as JSON. */
export async function pageTables(db: Tx, documentId: string, pageNumber: number): Promise<string | undefined> {
  const row = await db.selectFrom('document_pages').select('tables').where('document_id', '=', documentId).where('page_number', '=', pageNumber).executeTakeFirst();
  return row?.tables;
}

export async function insertImages(tx: Tx, rows: Insertable<ImagesTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 50) {
    await tx.insertInto('images').values(rows.slice(i, i + 50)).execute();
  }
}
