// GET /documents/{id}/chunks (additive): a completed document cut into chunks for retrieval, each
// with the headings it stands under and the boxes it was read from (page-outputs/chunks.ts). The
// chunks are cut from the stored pages on each request, a batch of pages at a time, so any
// `max_tokens` can be asked for and no page is read again.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { Chunker, DEFAULT_CHUNK_TOKENS, MAX_CHUNK_TOKENS, MIN_CHUNK_TOKENS, type Chunk } from '../../page-outputs/chunks.js';
import { outputsFromRow } from '../../page-outputs/shapes.js';
import { getPages } from '../../store/documents.js';
import type { AppDeps } from '../deps.js';
import { completedDocument } from '../completed-document.js';
import { errorResponses } from '../schemas/common.js';

/** Pages read from the store at once while chunking. */
const PAGES_PER_READ = 64;

const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });
const Query = Type.Object(
  {
    max_tokens: Type.Optional(
      Type.Integer({ minimum: MIN_CHUNK_TOKENS, maximum: MAX_CHUNK_TOKENS, default: DEFAULT_CHUNK_TOKENS, description: `Most tokens in a chunk (${MIN_CHUNK_TOKENS} to ${MAX_CHUNK_TOKENS}, default ${DEFAULT_CHUNK_TOKENS}).` }),
    ),
  },
  { additionalProperties: false },
);

export const chunkRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (app) => {
    app.get(
      '/documents/:id/chunks',
      {
        schema: {
          summary: "A document's chunks for retrieval (additive)",
          description:
            'The document cut along its structure: a heading starts a chunk, paragraphs and list items stay whole where they fit, a table is cut only between rows (each part with its header row) and a table continued on the next page is one. No chunk is longer than `max_tokens`. Each chunk has the headings it stands under and a box for each line and table row it holds.',
          params: Params,
          querystring: Query,
          response: {
            200: Type.Object({ object: Type.Literal('list'), document_id: Type.String(), data: Type.Array(Type.Ref('Chunk')) }),
            ...errorResponses(401, 402, 404, 409, 410, 422, 429),
          },
        },
      },
      async (request) => {
        const { id } = request.params as Static<typeof Params>;
        const { max_tokens: maxTokens = DEFAULT_CHUNK_TOKENS } = request.query as Static<typeof Query>;
        const row = await completedDocument(deps.store.db, id, request.principal);
        const chunker = new Chunker({ maxTokens, analysis: row.analysis === 'read' ? 'read' : 'layout' });
        const data: Chunk[] = [];
        for (let first = 1; first <= row.page_count; first += PAGES_PER_READ) {
          for (const page of await getPages(deps.store.db, row.id, first, Math.min(row.page_count, first + PAGES_PER_READ - 1))) {
            const outputs = outputsFromRow(page);
            data.push(...chunker.add({ page: outputs.page, layout: outputs.layout, tables: outputs.tables }));
          }
        }
        data.push(...chunker.finish());
        return { object: 'list', document_id: row.id, data };
      },
    );
  };
