// Uploads whose file is stored but whose document row is not yet committed. The blob is written
// first (the row must never point at a missing file); a process stopped between the two would
// otherwise leave the blob behind with nothing referring to it. The document's transaction
// removes its entry; the sweeper removes the blobs of entries left long enough (issue 25's note).
import type { Kysely } from 'kysely';

export const name = 'pending-uploads';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pending_uploads')
    .addColumn('blob_key', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
