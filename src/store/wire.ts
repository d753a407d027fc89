// Document and query rows as their wire objects. Beside the rows rather than in the API because
// a worker builds the same objects for webhook events, in the transaction that records a terminal
// status (store/webhooks.ts); the API's answers and the events must never disagree on a field.
// Times become ISO 8601 in UTC; fields docs/api.md shows only sometimes are left out when they do
// not apply.
import * as clock from '../domain/clock.js';
import { isExpired } from '../domain/retention.js';
import type { DocumentStatus, Stage } from '../domain/states.js';
import type { DocumentListItem, Query } from '../domain/resource-shapes.js';
import type { DocumentRow } from './documents.js';
import type { QueryRow } from './queries.js';

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
