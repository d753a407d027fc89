// The Document (as listed, without `result`) and Query wire shapes, and the webhook event that
// carries them. They live here, below the API, because they leave Folio from two places: the API's
// answers and the webhook events a worker records in the same transaction as a terminal status
// (store/webhooks.ts); both build them one way (store/wire.ts). The API registers them for
// validation, serialization and its OpenAPI document (api/schemas/resources.ts).
import { Type, type Static } from 'typebox';
import { DOCUMENT_STATUSES, MODES, STAGES } from './states.js';
import { DateTime, Nullable, StringEnum } from './wire.js';
import { WEBHOOK_EVENT_TYPES } from './webhooks.js';

export const BBox = Type.Object(
  { left: Type.Number(), top: Type.Number(), width: Type.Number(), height: Type.Number() },
  { description: 'Fractions 0 to 1 of the page.' },
);

export const documentFields = {
  id: Type.String(),
  object: Type.Literal('document'),
  status: StringEnum(DOCUMENT_STATUSES),
  stage: StringEnum(STAGES),
  analysis: StringEnum(['layout', 'read'] as const),
  byte_size: Type.Integer(),
  content_type: Type.String(),
  filename: Type.String(),
  source_url: Nullable(Type.String()),
  page_count: Type.Integer(),
  mode: StringEnum(MODES),
  model: Type.Object({ requested: Type.String(), used: Type.String() }),
  cost: Type.Object({ estimated_micro: Type.Integer(), settled_micro: Nullable(Type.Integer()) }),
  created_at: DateTime,
  started_at: Type.Optional(DateTime),
  completed_at: Type.Optional(DateTime),
  failed_at: Type.Optional(DateTime),
  expires_at: Nullable(DateTime),
  purged_at: Type.Optional(DateTime),
  retrieved_at: Nullable(DateTime),
  retention_seconds: Type.Integer(),
  timings: Type.Record(Type.String(), Type.Integer()),
  error: Type.Optional(Type.Object({ type: Type.String(), message: Type.String(), stage: Type.String() })),
};

export const DocumentListItem = Type.Object(documentFields, { $id: 'DocumentListItem' });
export type DocumentListItem = Static<typeof DocumentListItem>;

export const QUERY_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;

export const Query = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('query'),
    document_id: Type.String(),
    question: Type.String(),
    instructions: Type.Optional(Type.String()),
    schema: Type.Optional(Type.Object({}, { additionalProperties: true })),
    status: StringEnum(QUERY_STATUSES),
    model: Type.Object({ requested: Type.String(), used: Type.String() }),
    cost: Type.Object({ estimated_micro: Type.Integer(), settled_micro: Nullable(Type.Integer()) }),
    answer: Type.Optional(
      Type.Object({
        answer: Type.Union([Type.String(), Type.Object({}, { additionalProperties: true })]),
        citations: Type.Array(Type.Object({ page: Type.Integer(), quote: Type.String(), bbox: Type.Optional(BBox) })),
        confidence: Type.Number(),
        not_found: Type.Boolean(),
      }),
    ),
    error: Type.Optional(
      Type.Object({
        type: StringEnum(['insufficient_credits', 'document_too_large', 'document_expired', 'schema_mismatch', 'query_failed'] as const),
        message: Type.String(),
      }),
    ),
    created_at: DateTime,
    completed_at: Type.Optional(DateTime),
  },
  { $id: 'Query' },
);
export type Query = Static<typeof Query>;

/** The body POSTed to a webhook's URL: what happened, when, and the object as it stood then. */
export const WebhookEvent = Type.Object(
  {
    id: Type.String({ description: 'evt_...; the same on every attempt, so a receiver can drop repeats.' }),
    type: StringEnum(WEBHOOK_EVENT_TYPES),
    created_at: DateTime,
    data: Type.Object({
      object: Type.Union([Type.Ref('DocumentListItem'), Type.Ref('Query')], {
        description: 'The Document (without `result`) for document.* events, the Query for query.* events, as they stood when the event happened.',
      }),
    }),
  },
  { $id: 'WebhookEvent' },
);
// `$ref`s are typed `unknown` by the schema library; the referenced shapes are put back here.
export type WebhookEvent = Omit<Static<typeof WebhookEvent>, 'data'> & { data: { object: DocumentListItem | Query } };
