// Rows to wire objects. Times become ISO 8601 in UTC; fields docs/api.md shows only sometimes are
// left out when they do not apply.
import type { DocumentRow, ImageRow, PageRow, UsageRow } from '../store/documents.js';
import type { DocumentStatus, Stage } from '../domain/states.js';
import * as clock from '../domain/clock.js';
import { unpackEmbedding } from '../domain/embedding.js';
import { isExpired } from '../domain/retention.js';
import type { Accepted, Document, DocumentListItem, Image, Page, Query, UsageRecord } from './schemas/resources.js';
import type { QueryRow } from '../store/queries.js';

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** `at`: the instant the row is judged at, so a route that already judged it answers alike. */
export function documentToWire(row: DocumentRow, at: number = clock.now()): DocumentListItem {
  const doc: DocumentListItem = {
    id: row.id,
    object: 'document',
    // A result past its expiry reads as expired at once, before the sweeper purges it.
    status: (isExpired(row, at) ? 'expired' : row.status) as DocumentStatus,
    stage: row.stage as Stage,
    analysis: row.analysis as 'layout' | 'read',
    byte_size: row.byte_size,
    content_type: row.content_type,
    filename: row.filename,
    source_url: row.source_url,
    page_count: row.page_count,
    mode: row.mode,
    model: { requested: row.model_requested, used: row.model_used },
    cost: { estimated_micro: row.estimated_micro, settled_micro: row.settled_micro },
    created_at: isoTime(row.created_at),
    expires_at: row.expires_at === null ? null : isoTime(row.expires_at),
    retrieved_at: row.retrieved_at === null ? null : isoTime(row.retrieved_at),
    retention_seconds: row.retention_seconds,
    timings: JSON.parse(row.timings) as Record<string, number>,
  };
  if (row.started_at !== null) doc.started_at = isoTime(row.started_at);
  if (row.completed_at !== null) doc.completed_at = isoTime(row.completed_at);
  if (row.failed_at !== null) doc.failed_at = isoTime(row.failed_at);
  if (row.purged_at !== null) doc.purged_at = isoTime(row.purged_at);
  if (row.status === 'failed' && row.error_type) {
    doc.error = { type: row.error_type, message: row.error_message ?? '', stage: row.error_stage ?? row.stage };
  }
  return doc;
}

export function fullDocumentToWire(row: DocumentRow, at: number = clock.now()): Document {
  const doc: Document = documentToWire(row, at);
  // docs/api.md: `result` once completed, null unless extraction or queries were sent.
  if (row.status === 'completed') doc.result = row.result === null ? null : (JSON.parse(row.result) as Document['result']);
  return doc;
}

export function acceptedToWire(id: string, estimated: number | null, baseUrl: string): Accepted {
  return { id, object: 'document', status: 'queued', estimated_cost_micro: estimated, poll_url: `${baseUrl}/api/v1/documents/${id}` };
}

export function imageToWire(row: ImageRow, baseUrl: string, data?: Buffer): Image {
  const image: Image = {
    id: row.id,
    object: 'image',
    page: row.page_number,
    kind: row.kind,
    figure_index: row.figure_index,
    caption: row.caption,
    media_type: row.media_type,
    width: row.width,
    height: row.height,
    byte_size: row.byte_size,
    bbox: row.bbox === null ? null : JSON.parse(row.bbox),
    url: `${baseUrl}/api/v1/documents/${row.document_id}/images/${row.id}`,
  };
  if (data) image.data = data.toString('base64');
  return image;
}

export interface PageIncludes {
  tables?: boolean;
  key_values?: boolean;
  layout?: boolean;
  embeddings?: boolean;
}

export function pageToWire(row: PageRow, includes: PageIncludes): Page {
  const page: Page = { page: row.page_number, text: row.text, word_count: row.word_count, result: row.result === null ? null : JSON.parse(row.result) };
  if (includes.tables) page.tables = JSON.parse(row.tables);
  if (includes.key_values) page.key_values = JSON.parse(row.key_values);
  if (includes.layout) page.layout = JSON.parse(row.layout);
  if (includes.embeddings && row.embedding !== null) page.embedding = unpackEmbedding(row.embedding);
  return page;
}

export function usageToWire(row: UsageRow): UsageRecord {
  const record: UsageRecord = {
    id: row.id,
    document_id: row.document_id,
    stage: row.stage as UsageRecord['stage'],
    sku: row.sku,
    model: row.model,
    quantity: row.quantity,
    unit_price_micro: row.unit_price_micro,
    unit_divisor: row.unit_divisor,
    amount_micro: row.amount_micro,
    created_at: isoTime(row.created_at),
  };
  if (row.query_id !== null) record.query_id = row.query_id;
  return record;
}

export function documentUsage(rows: UsageRow[]) {
  const bySku: Record<string, { quantity: number; amount_micro: number }> = {};
  let total = 0;
  for (const row of rows) {
    const entry = (bySku[row.sku] ??= { quantity: 0, amount_micro: 0 });
    entry.quantity += row.quantity;
    entry.amount_micro += row.amount_micro;
    total += row.amount_micro;
  }
  return { amount_micro: total, by_sku: bySku, records: rows.map(usageToWire) };
}

export function queryToWire(row: QueryRow): Query {
  const query: Query = {
    id: row.id,
    object: 'query',
    document_id: row.document_id,
    question: row.question,
    status: row.status as Query['status'],
    model: { requested: row.model_requested, used: row.model_used },
    cost: { estimated_micro: row.estimated_micro, settled_micro: row.settled_micro },
    created_at: isoTime(row.created_at),
  };
  if (row.instructions !== null) query.instructions = row.instructions;
  if (row.schema !== null) query.schema = JSON.parse(row.schema);
  if (row.status === 'completed' && row.answer !== null) query.answer = JSON.parse(row.answer);
  if (row.status === 'failed' && row.error_type) query.error = { type: row.error_type as NonNullable<Query['error']>['type'], message: row.error_message ?? '' };
  if (row.completed_at !== null) query.completed_at = isoTime(row.completed_at);
  return query;
}
