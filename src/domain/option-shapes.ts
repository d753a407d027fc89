// DocumentOptions as sent by clients, and the same options with defaults filled in, as stored
// with the document and shown with `include=options` (docs/api.md, DocumentOptions). Cross-field
// rules (markdown with read, duplicate queries, retention against the plan) live in options.ts;
// this file is the shape only, and the one reader of options stored as JSON.
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
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
  },
  { $id: 'ResolvedOptions', description: 'DocumentOptions with defaults filled in.' },
);
export type ResolvedOptions = Static<typeof ResolvedOptions>;

/** What a stored options object lacks takes these: the defaults of options added after it was written. */
const STORED_DEFAULTS: ResolvedOptions = {
  analysis: 'layout',
  embeddings: false,
  extraction: null,
  images: true,
  markdown: false,
  model: 'auto',
  queries: [],
  retention_seconds: 86_400,
};

const resolvedShape = Compile(ResolvedOptions);

/**
 * The options stored with a document (the JSON written at submission), read back and checked
 * against their shape, so a damaged row fails where it is read rather than deep in a stage; with
 * a TypeError, as any value of the wrong type, which the queue treats as a fault that another
 * attempt would meet again.
 */
export function readStoredOptions(json: string): ResolvedOptions {
  const stored: unknown = JSON.parse(json);
  const options = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? { ...STORED_DEFAULTS, ...stored } : stored;
  if (!resolvedShape.Check(options)) throw new TypeError('The options stored with the document are not options Folio wrote.');
  return options;
}
