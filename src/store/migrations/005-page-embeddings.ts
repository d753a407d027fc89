// Page embeddings: each page's vector, stored with the page (issue 9).
import type { Kysely } from 'kysely';

export const name = 'page-embeddings';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('document_pages').addColumn('embedding', 'text').execute();
}
