// A page's turn and straightening, kept with its outputs so a picture of the page rendered later
// (GET /documents/{id}/pages/{page}/preview) lines up with the layout boxes (issue 11).
import type { Kysely } from 'kysely';

export const name = 'page-geometry';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('document_pages').addColumn('rotation', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('document_pages').addColumn('skew', 'real', (c) => c.notNull().defaultTo(0)).execute();
}
