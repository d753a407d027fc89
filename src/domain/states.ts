// Document states and processing stages, in the order docs/api.md lists them.

export const DOCUMENT_STATUSES = ['queued', 'processing', 'completed', 'failed', 'expired'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const STAGES = [
  'received',
  'fetching',
  'analyzing',
  'rendering',
  'reserving',
  'extracting',
  'embedding',
  'finalizing',
  'done',
] as const;
export type Stage = (typeof STAGES)[number];

export const MODES = ['live', 'test'] as const;
export type Mode = (typeof MODES)[number];

/** Error types a document can fail with (docs/api.md, Document resource). */
export const DOCUMENT_ERROR_TYPES = [
  'analysis_failed',
  'fetch_failed',
  'unsupported_media_type',
  'payload_too_large',
  'document_too_large',
  'schema_mismatch',
  'insufficient_credits',
  'embedding_failed',
  'processing_failed',
] as const;
export type DocumentErrorType = (typeof DOCUMENT_ERROR_TYPES)[number];
