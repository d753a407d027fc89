// The model layer: the document's extraction result, each page's per-page result, and queries
// (docs/decisions.md#queries) with their own queue columns, claimed like documents.
import type { Kysely } from 'kysely';

export const name = 'model-layer';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('result', 'text').execute();
  await db.schema.alterTable('document_pages').addColumn('result', 'text').execute();

  await db.schema
    .createTable('queries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('instructions', 'text')
    .addColumn('schema', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('model_requested', 'text', (c) => c.notNull())
    .addColumn('model_used', 'text', (c) => c.notNull())
    .addColumn('estimated_micro', 'bigint', (c) => c.notNull())
    .addColumn('settled_micro', 'bigint')
    .addColumn('hold_micro', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('answer', 'text')
    .addColumn('error_type', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .addColumn('failed_at', 'bigint')
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_by', 'text')
    .addColumn('lease_token', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .execute();
  await db.schema.createIndex('queries_by_document').on('queries').columns(['document_id', 'id']).execute();
  await db.schema.createIndex('queries_by_status').on('queries').columns(['status', 'run_at']).execute();
  await db.schema.createIndex('queries_running').on('queries').columns(['workspace_id', 'status', 'lease_expires_at']).execute();
}
