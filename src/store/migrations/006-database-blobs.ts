// Blobs in the database (with PostgreSQL by default, issue 10): each blob a run of chunks.
import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

export const name = 'database-blobs';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('blob_chunks')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('blob_chunks_pk', ['key', 'seq'])
    .execute();
}
