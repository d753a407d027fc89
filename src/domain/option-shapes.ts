// DocumentOptions as sent by clients, and the same options with defaults filled in, as stored
// with the document and shown with `include=options` (docs/api.md, DocumentOptions). Cross-field
// rules (markdown with read, duplicate queries, retention against the plan) live in options.ts;
// this file is the shape only.
import { Type, type Static } from 'typebox';
import { StringEnum } from './wire.js';

export const EXTRACTION_FIELDS = [
  'title',
  'document_type',
  'summary',
  'dates',
  'parties',
  'amounts',
  'key_facts',
] as const;

export const EMBEDDING_DIMENSIONS = [1024, 512, 256] as const;

export const EmbeddingOptions = Type.Object(
  {
    dimensions: Type.Optional(
      Type.Union([Type.Literal(1024), Type.Literal(512), Type.Literal(256)], { description: '1024, 512 or 256.' }),
    ),
    granularity: Type.Optional(StringEnum(['page'] as const)),
  },
  { additionalProperties: false },
);

export const ExtractionOptions = Type.Object(
  {
    fields: Type.Optional(Type.Array(StringEnum(EXTRACTION_FIELDS), { uniqueItems: true })),
    schema: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'JSON Schema with `type: object`.' }),
    ),
    instructions: Type.Optional(Type.String({ maxLength: 4000 })),
    per_page: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const DocumentOptions = Type.Object(
  {
    analysis: Type.Optional(StringEnum(['layout', 'read'] as const)),
    embeddings: Type.Optional(Type.Union([Type.Boolean(), EmbeddingOptions])),
    extraction: Type.Optional(ExtractionOptions),
    images: Type.Optional(Type.Boolean()),
    markdown: Type.Optional(Type.Boolean()),
    model: Type.Optional(StringEnum(['auto', 'swift', 'summit'] as const)),
    queries: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 50 })),
    retention_seconds: Type.Optional(Type.Integer({ minimum: 0 })),
    pages: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: 'Only these pages are read, charged, drawn, embedded and given to the model: page numbers and inclusive ranges from 1, such as "1-3,7" (additive).',
      }),
    ),
  },
  { additionalProperties: false, $id: 'DocumentOptions' },
);
export type DocumentOptions = Static<typeof DocumentOptions>;

export const ResolvedOptions = Type.Object(
  {
    analysis: StringEnum(['layout', 'read'] as const),
    embeddings: Type.Union([
      Type.Literal(false),
      Type.Object({ dimensions: Type.Integer(), granularity: StringEnum(['page'] as const) }),
    ]),
    extraction: Type.Union([
      Type.Null(),
      Type.Object({
        fields: Type.Array(StringEnum(EXTRACTION_FIELDS)),
        schema: Type.Union([Type.Null(), Type.Object({}, { additionalProperties: true })]),
        instructions: Type.Union([Type.Null(), Type.String()]),
        per_page: Type.Boolean(),
      }),
    ]),
    images: Type.Boolean(),
    markdown: Type.Boolean(),
    model: StringEnum(['auto', 'swift', 'summit'] as const),
    queries: Type.Array(Type.String()),
    retention_seconds: Type.Integer(),
    pages: Type.Union([Type.Null(), Type.String()], { description: 'The page selection, normalized ("1-3,7"); null for every page.' }),
  },
  { $id: 'ResolvedOptions', description: 'DocumentOptions with defaults filled in.' },
);
export type ResolvedOptions = Static<typeof ResolvedOptions>;
