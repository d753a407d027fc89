// The first schema: accounts, documents with their queue columns, pages, images, usage.
import type { Kysely } from 'kysely';
import { BUILTIN_PLANS } from '../../domain/plans.js';
import * as clock from '../../domain/clock.js';

export const name = 'initial';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('rate_limit_per_second', 'integer', (c) => c.notNull())
    .addColumn('max_concurrent_jobs', 'integer', (c) => c.notNull())
    .addColumn('max_pages_per_document', 'integer', (c) => c.notNull())
    .addColumn('max_retention_seconds', 'bigint', (c) => c.notNull())
    .addColumn('max_upload_bytes', 'bigint', (c) => c.notNull())
    .addColumn('monthly_request_quota', 'integer', (c) => c.notNull())
    .addColumn('features', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('balance_micro', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('held_micro', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('suspended_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();

  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('analysis', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('page_count', 'integer', (c) => c.notNull())
    .addColumn('model_requested', 'text', (c) => c.notNull())
    .addColumn('model_used', 'text', (c) => c.notNull())
    .addColumn('estimated_micro', 'bigint', (c) => c.notNull())
    .addColumn('settled_micro', 'bigint')
    .addColumn('hold_micro', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('retention_seconds', 'bigint', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('timings', 'text', (c) => c.notNull())
    .addColumn('error_type', 'text')
    .addColumn('error_message', 'text')
    .addColumn('error_stage', 'text')
    .addColumn('upload_key', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .addColumn('failed_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .addColumn('purged_at', 'bigint')
    .addColumn('retrieved_at', 'bigint')
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_by', 'text')
    .addColumn('lease_token', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .execute();
  await db.schema.createIndex('documents_by_workspace').on('documents').columns(['workspace_id', 'mode', 'id']).execute();
  await db.schema.createIndex('documents_by_status').on('documents').columns(['status', 'run_at']).execute();
  await db.schema
    .createIndex('documents_running')
    .on('documents')
    .columns(['workspace_id', 'status', 'lease_expires_at'])
    .execute();

  await db.schema
    .createTable('document_pages')
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('page_number', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('word_count', 'integer', (c) => c.notNull())
    .addColumn('tables', 'text', (c) => c.notNull())
    .addColumn('key_values', 'text', (c) => c.notNull())
    .addColumn('layout', 'text', (c) => c.notNull())
    .addColumn('markdown', 'text')
    .addPrimaryKeyConstraint('document_pages_pk', ['document_id', 'page_number'])
    .execute();

  await db.schema
    .createTable('images')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('page_number', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('figure_index', 'integer')
    .addColumn('caption', 'text')
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('bbox', 'text')
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('images_by_document').on('images').columns(['document_id', 'page_number']).execute();

  // Usage records have no foreign key to documents: they outlive the documents they bill.
  await db.schema
    .createTable('usage_records')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('query_id', 'text')
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('unit_price_micro', 'bigint', (c) => c.notNull())
    .addColumn('unit_divisor', 'bigint', (c) => c.notNull())
    .addColumn('amount_micro', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('usage_by_workspace').on('usage_records').columns(['workspace_id', 'mode', 'id']).execute();
  await db.schema.createIndex('usage_by_document').on('usage_records').columns(['document_id', 'id']).execute();

  const now = clock.now();
  await db
    .insertInto('plans')
    .values(
      BUILTIN_PLANS.map((plan) => ({
        ...plan,
        features: plan.features === null ? null : JSON.stringify(plan.features),
        created_at: now,
      })),
    )
    .execute();
}
