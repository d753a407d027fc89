// Table types for the query builder. Times are integers (milliseconds since the epoch, UTC) in
// both databases; JSON is stored as text in both, so the two dialects read back the same values.
export interface PlansTable {
  id: string;
  name: string;
  rate_limit_per_second: number;
  max_concurrent_jobs: number;
  max_pages_per_document: number;
  max_retention_seconds: number;
  max_upload_bytes: number;
  monthly_request_quota: number;
  features: string | null;
  created_at: number;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  created_at: number;
}

export interface WorkspacesTable {
  id: string;
  organization_id: string;
  plan_id: string;
  name: string;
  /** Credit owned, including what is held. Available credit is balance minus held. */
  balance_micro: number;
  held_micro: number;
  suspended_at: number | null;
  created_at: number;
  /** When a worker last claimed a document or question of it: workspaces with equal work running take turns (queue/leases.ts). */
  last_claimed_at: number | null;
  /** When a webhook delivery of it was last claimed, for the same turns (queue/webhook-deliveries.ts). */
  last_delivery_at: number | null;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  mode: 'live' | 'test';
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}

export interface DocumentsTable {
  id: string;
  workspace_id: string;
  mode: 'live' | 'test';
  status: string;
  stage: string;
  analysis: string;
  byte_size: number;
  content_type: string;
  filename: string;
  source_url: string | null;
  page_count: number;
  model_requested: string;
  model_used: string;
  estimated_micro: number;
  settled_micro: number | null;
  /** Credit currently held for this document (part of the workspace's held_micro). */
  hold_micro: number;
  retention_seconds: number;
  options: string;
  timings: string;
  error_type: string | null;
  error_message: string | null;
  error_stage: string | null;
  /** ExtractionResult as JSON, once completed with extraction or queries. */
  result: string | null;
  upload_key: string | null;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  expires_at: number | null;
  purged_at: number | null;
  retrieved_at: number | null;
  // The work queue lives on the document row: a claim is a lease held by one worker.
  run_at: number;
  attempts: number;
  locked_by: string | null;
  lease_token: string | null;
  lease_expires_at: number | null;
}

export interface DocumentPagesTable {
  document_id: string;
  page_number: number;
  text: string;
  word_count: number;
  tables: string;
  key_values: string;
  layout: string;
  markdown: string | null;
  /** With extraction.per_page: this page's `{data, citations}` as JSON. */
  result: string | null;
  /** With embeddings: `{model, dimensions, vector_f32le}` (base64 float32) as JSON. */
  embedding: string | null;
  /** Quarter turns (0, 90, 180, 270) and skew in degrees the page model applied (RawPage). */
  rotation: number;
  skew: number;
}

export interface ImagesTable {
  id: string;
  document_id: string;
  page_number: number;
  kind: 'figure' | 'page';
  figure_index: number | null;
  caption: string | null;
  media_type: string;
  width: number;
  height: number;
  byte_size: number;
  bbox: string | null;
  blob_key: string;
  created_at: number;
}

/** A blob stored in the database: chunk `seq` of the bytes under `key`. */
export interface BlobChunksTable {
  key: string;
  seq: number;
  data: Buffer;
}

export interface QueriesTable {
  id: string;
  document_id: string;
  workspace_id: string;
  mode: 'live' | 'test';
  question: string;
  instructions: string | null;
  /** JSON Schema as JSON. */
  schema: string | null;
  status: string;
  model_requested: string;
  model_used: string;
  estimated_micro: number;
  settled_micro: number | null;
  /** Credit currently held for this query (part of the workspace's held_micro). */
  hold_micro: number;
  /** QueryAnswer as JSON. */
  answer: string | null;
  error_type: string | null;
  error_message: string | null;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  run_at: number;
  attempts: number;
  locked_by: string | null;
  lease_token: string | null;
  lease_expires_at: number | null;
}

export interface UsageRecordsTable {
  id: string;
  workspace_id: string;
  mode: 'live' | 'test';
  document_id: string;
  query_id: string | null;
  stage: string;
  sku: string;
  model: string;
  quantity: number;
  unit_price_micro: number;
  unit_divisor: number;
  amount_micro: number;
  created_at: number;
}

export interface RateCountersTable {
  key_id: string;
  window: number;
  count: number;
}

export interface RequestQuotaTable {
  workspace_id: string;
  period: string;
  count: number;
}

export interface IdempotencyKeysTable {
  workspace_id: string;
  mode: 'live' | 'test';
  key: string;
  request_hash: string;
  state: 'pending' | 'done';
  status_code: number | null;
  response: string | null;
  created_at: number;
  /** Which request holds a pending key; a stale claim is taken over under a new token. */
  claim_token: string | null;
}

/** A chunk's vector (migration 010): `embedding` as document_pages keeps it; `text_digest` the chunk text's SHA-256. */
export interface ChunkEmbeddingsTable {
  document_id: string;
  chunk_index: number;
  text_digest: string;
  embedding: string;
}

export interface MigrationsTable {
  id: number;
  name: string;
  applied_at: number;
}

/** An upload whose blob is written and whose document row is not yet committed (migration 009). */
export interface PendingUploadsTable {
  blob_key: string;
  created_at: number;
}

/** A workspace's webhook in one mode (migration 011): where its events go and the key that signs them. */
export interface WebhooksTable {
  id: string;
  workspace_id: string;
  mode: 'live' | 'test';
  url: string;
  /** The event types it receives, as a JSON array. */
  events: string;
  /** The HMAC key; kept readable because every delivery is signed with it. */
  secret: string;
  created_at: number;
  /** Attempts failed since the last one delivered: above 0, its deliveries take the failing receivers' share. */
  failures_in_row: number;
}

/** An event, recorded in the transaction that gave its object a terminal status; `body` is sent as is on every attempt. */
export interface WebhookEventsTable {
  id: string;
  workspace_id: string;
  mode: 'live' | 'test';
  type: string;
  body: string;
  created_at: number;
}

/** One event for one webhook: a queue row, claimed with a lease like a document, until delivered or given up. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  /** `pending` (waiting or in flight), `delivered`, or `failed` (the retry window passed). */
  status: 'pending' | 'delivered' | 'failed';
  /** Attempts claimed so far. */
  attempts: number;
  /** When it may next be claimed. */
  run_at: number;
  locked_by: string | null;
  lease_token: string | null;
  lease_expires_at: number | null;
  created_at: number;
  finished_at: number | null;
}

/** One attempt to deliver, as GET /webhooks/{id}/deliveries lists it. */
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  type: string;
  attempt: number;
  /** The receiver's HTTP status; null when no answer came (network error, time-out, refused address). */
  status_code: number | null;
  /** Folio's words for what went wrong; null on a 2xx. */
  error: string | null;
  /** The first characters of the receiver's answer, nothing more. */
  response_excerpt: string | null;
  duration_ms: number;
  attempted_at: number;
  /** When the next attempt is due; null once delivered or given up. */
  next_attempt_at: number | null;
}

export interface Database {
  plans: PlansTable;
  organizations: OrganizationsTable;
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  documents: DocumentsTable;
  document_pages: DocumentPagesTable;
  chunk_embeddings: ChunkEmbeddingsTable;
  images: ImagesTable;
  queries: QueriesTable;
  blob_chunks: BlobChunksTable;
  usage_records: UsageRecordsTable;
  folio_migrations: MigrationsTable;
  rate_counters: RateCountersTable;
  request_quota: RequestQuotaTable;
  idempotency_keys: IdempotencyKeysTable;
  pending_uploads: PendingUploadsTable;
  webhooks: WebhooksTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
