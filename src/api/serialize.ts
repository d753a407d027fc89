// Rows to wire objects. Times become ISO 8601 in UTC; fields docs/api.md shows only sometimes are
// left out when they do not apply. The listed document and the query are built in store/wire.ts,
// where the worker builds them too for webhook events.
import type { DocumentRow, ImageRow, PageRow, UsageRow } from '../store/documents.js';
import * as clock from '../domain/clock.js';
import { unpackEmbedding } from '../domain/embedding.js';
import { documentToWire, isoTime } from '../store/wire.js';
import type { Accepted, Document, Image, Page, UsageRecord } from './schemas/resources.js';


export function fullDocumentToWire(row: DocumentRow, at: number = clock.now()): Document {
  const doc: Document = documentToWire(row, at);
  // docs/api.md: `result` once completed, null unless extraction or queries were sent.
  if (row.status === 'completed') doc.result = row.result === null ? null : (JSON.parse(row.result) as Document['result']);
  return doc;
}

export function acceptedToWire(id: string, estimated: number | null, baseUrl: string): Accepted {
  return { id, object: 'document', status: 'queued', estimated_cost_micro: estimated, poll_url: `${baseUrl}/api/v1/documents/${id}` };
}

export function imageToWire(row: ImageRow, baseUrl: string): Image {
  return {
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
