// Response shapes of docs/api.md's resources. Optional properties are the fields docs/api.md says are
// present only sometimes ("Only with include=...", "Present when..."); nullable ones are those it
// types "or null".
import { Type, type Static } from 'typebox';
import { MODES } from '../../domain/states.js';
import { DateTime, Nullable, StringEnum } from '../../domain/wire.js';
import { DocumentOptions, ResolvedOptions } from '../../domain/option-shapes.js';
// The listed Document and the Query are also sent by workers as webhook events, so their shapes
// live below the API; they are registered here with the rest.
import { BBox, documentFields, DocumentListItem, Query } from '../../domain/resource-shapes.js';

export { DocumentListItem, Query, QUERY_STATUSES } from '../../domain/resource-shapes.js';

export const UsageRecord = Type.Object(
  {
    id: Type.String(),
    document_id: Type.String(),
    query_id: Type.Optional(Type.String()),
    stage: StringEnum(['analysis', 'extraction', 'query', 'embedding'] as const),
    sku: Type.String(),
    model: Type.String(),
    quantity: Type.Integer(),
    unit_price_micro: Type.Integer(),
    unit_divisor: Type.Integer(),
    amount_micro: Type.Integer(),
    created_at: DateTime,
  },
  { $id: 'UsageRecord' },
);
export type UsageRecord = Static<typeof UsageRecord>;

const Citation = Type.Object({
  path: Type.String(),
  page: Type.Integer(),
  quote: Type.String(),
  confidence: Type.Number(),
  bbox: Type.Optional(BBox),
});

const Answer = Type.Object({
  question: Type.String(),
  answer: Type.String(),
  page: Nullable(Type.Integer()),
  quote: Type.String(),
  not_found: Type.Boolean(),
  bbox: Type.Optional(BBox),
});

export const ExtractionResult = Type.Object(
  {
    data: Type.Optional(Type.Object({}, { additionalProperties: true })),
    citations: Type.Optional(Type.Array(Citation)),
    answers: Type.Optional(Type.Array(Answer)),
    per_page: Type.Optional(Type.Boolean()),
    pages: Type.Optional(
      Type.Array(
        Type.Object({
          page: Type.Integer(),
          data: Type.Object({}, { additionalProperties: true }),
          citations: Type.Array(Citation),
        }),
      ),
    ),
    warnings: Type.Optional(Type.Array(Type.String())),
  },
  { $id: 'ExtractionResult' },
);

export const Image = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('image'),
    page: Type.Integer(),
    kind: StringEnum(['figure', 'page'] as const),
    figure_index: Nullable(Type.Integer()),
    caption: Nullable(Type.String()),
    media_type: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    byte_size: Type.Integer(),
    bbox: Nullable(BBox),
    url: Type.String(),
    data: Type.Optional(Type.String({ description: 'Base64 file; only with include=image_data or include=data.' })),
  },
  { $id: 'Image' },
);
export type Image = Static<typeof Image>;

const LayoutElement = Type.Object({
  type: Type.String(),
  text: Type.String(),
  bbox: BBox,
  reading_order: Type.Integer(),
  level: Type.Optional(Type.Integer()),
  figure_index: Type.Optional(Nullable(Type.Integer())),
  lines: Type.Optional(
    Type.Array(Type.Object({ text: Type.String(), bbox: BBox }), { description: "The element's lines with their boxes (additive; absent for tables and figures)." }),
  ),
});

const Table = Type.Object({
  rows: Type.Array(Type.Array(Type.String()), { description: 'Cell texts row by row; a merged cell\'s text sits at its top-left position.' }),
  columns: Type.Integer({ description: 'Number of columns.' }),
  markdown: Type.String(),
  header_rows: Type.Integer({ description: 'Leading rows that are column headers (additive).' }),
  cells: Type.Array(
    Type.Object({ row: Type.Integer(), column: Type.Integer(), row_span: Type.Integer(), column_span: Type.Integer(), text: Type.String(), bbox: Type.Optional(Nullable(BBox)) }),
    { description: 'Every cell once, with its span and box; the box is null where the reader knows no positions, as in Office tables (additive).' },
  ),
  bbox: BBox,
  continued_from_previous_page: Type.Boolean({ description: 'The table goes on from the previous page (additive).' }),
  continues_on_next_page: Type.Boolean({ description: 'The table goes on on the next page (additive).' }),
  continues_table: Type.Optional(
    Nullable(Type.Integer({ minimum: 0, description: 'On a continuation (continued_from_previous_page): the index of the table it continues among the previous page\'s tables; null otherwise (additive; absent on documents read before it was kept).' })),
  ),
});

const KeyValue = Type.Object(
  {
    value: Type.String(),
    key_confidence: Type.Number(),
    value_confidence: Type.Number(),
    selection_status: Nullable(StringEnum(['SELECTED', 'NOT_SELECTED'] as const)),
    bbox: Type.Optional(BBox),
  },
  { description: 'A key/value pair; `bbox` is where it stands on its page, label and value together (additive; absent on pages read before it was kept).' },
);

export const Page = Type.Object(
  {
    page: Type.Integer(),
    text: Type.String(),
    word_count: Type.Integer(),
    result: Nullable(Type.Object({}, { additionalProperties: true })),
    embedding: Type.Optional(Type.Object({ model: Type.String(), dimensions: Type.Integer(), vector: Type.Array(Type.Number()) })),
    tables: Type.Optional(Type.Array(Table)),
    key_values: Type.Optional(Type.Record(Type.String(), KeyValue)),
    layout: Type.Optional(Type.Array(LayoutElement)),
    images: Type.Optional(Type.Array(Type.Ref('Image'))),
  },
  { $id: 'Page' },
);
export type Page = Static<typeof Page>;

export const Chunk = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: 'Place in reading order, from 0.' }),
    text: Type.String({ description: 'Paragraphs, list items and headings a blank line apart; tables as pipe tables.' }),
    headings: Type.Array(Type.String(), { description: 'The section headings the chunk stands under, outermost first (empty for `read` documents).' }),
    pages: Type.Array(Type.Integer({ minimum: 1 }), { description: 'The pages it spans, in order.' }),
    boxes: Type.Array(
      Type.Object({ page: Type.Integer({ minimum: 1 }), left: Type.Number(), top: Type.Number(), width: Type.Number(), height: Type.Number() }),
      { description: 'Where its text stands: one box per line of text and per table row, as fractions 0 to 1 of its page.' },
    ),
    tokens: Type.Integer({ minimum: 0, description: "Folio's token count of `text` (a quarter of its length, rounded up)." }),
    embedding: Type.Optional(
      Nullable(Type.Object({ model: Type.String(), dimensions: Type.Integer(), vector: Type.Array(Type.Number()) }), {
        description: 'Only with include=embeddings: the vector made at `embedding`; null where the document was embedded before chunk vectors were kept.',
      }),
    ),
  },
  { $id: 'Chunk', description: 'A piece of a document for retrieval, cut along its structure (additive).' },
);
export type Chunk = Static<typeof Chunk>;

export const DocumentUsage = Type.Object({
  amount_micro: Type.Integer(),
  by_sku: Type.Record(Type.String(), Type.Object({ quantity: Type.Integer(), amount_micro: Type.Integer() })),
  records: Type.Array(Type.Ref('UsageRecord')),
});

export const Document = Type.Object(
  {
    ...documentFields,
    result: Type.Optional(Nullable(Type.Ref('ExtractionResult'))),
    text: Type.Optional(Type.String()),
    markdown: Type.Optional(Type.String()),
    pages: Type.Optional(Type.Array(Type.Ref('Page'))),
    options: Type.Optional(Type.Ref('ResolvedOptions')),
    usage: Type.Optional(DocumentUsage),
  },
  { $id: 'Document' },
);
export type Document = Static<typeof Document>;

export const Accepted = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('document'),
    status: Type.Literal('queued'),
    estimated_cost_micro: Nullable(Type.Integer()),
    poll_url: Type.String(),
  },
  { $id: 'Accepted' },
);
export type Accepted = Static<typeof Accepted>;

export const BatchAccepted = Type.Object({
  documents: Type.Array(
    Type.Union([
      Type.Ref('Accepted'),
      Type.Object({ error: Type.Object({ type: Type.String(), message: Type.String() }, { additionalProperties: true }) }),
    ]),
  ),
});

export const Account = Type.Object({
  credits: Type.Object({ available_micro: Type.Integer() }),
  key: Type.Object({ id: Type.String(), name: Type.String(), prefix: Type.String(), mode: StringEnum(MODES) }),
  organization: Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String() }),
  plan: Type.Object({ id: Type.String(), name: Type.String() }),
  rate_limit_per_second: Type.Integer(),
  limits: Type.Object({
    max_concurrent_jobs: Type.Integer(),
    max_pages_per_document: Type.Integer(),
    max_retention_seconds: Type.Integer(),
    max_upload_bytes: Type.Integer(),
  }),
});

/** Schemas referenced by `$ref`, registered once with the server. */
export const SHARED_SCHEMAS = [DocumentOptions, ResolvedOptions, UsageRecord, ExtractionResult, Image, Page, Chunk, Accepted, DocumentListItem, Document, Query];
