// Chunk vectors (issue 26): with `embeddings`, each chunk of the default cut (GET
// /documents/{id}/chunks) gets a vector at `embedding`, kept with the digest of the text it was
// made from, so a vector is served only beside the very chunk it belongs to.
import type { Kysely } from 'kysely';

export const name = 'chunk-embeddings';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('chunk_embeddings')
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('chunk_index', 'integer', (c) => c.notNull())
    .addColumn('text_digest', 'text', (c) => c.notNull())
    .addColumn('embedding', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('chunk_embeddings_pk', ['document_id', 'chunk_index'])
    .execute();
}
