// GET /documents/{id}/chunks (additive): a completed document cut into chunks for retrieval, each
// with the headings it stands under and the boxes it was read from (page-outputs/chunks.ts). The
// chunks are cut from the stored pages on each request, a batch of pages at a time, so any
// `max_tokens` can be asked for and no page is read again. The vectors of the default cut were
// made at `embedding` and are kept with their chunk text's digest.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { invalidRequest } from '../../domain/errors.js';
import { readStoredOptions } from '../../domain/options.js';
import { unpackEmbedding } from '../../domain/embedding.js';
import { chunkablePages, chunkDigest, chunksOf } from '../../page-outputs/chunks.js';
import { DEFAULT_CHUNK_TOKENS, MAX_CHUNK_TOKENS, MIN_CHUNK_TOKENS } from '../../domain/chunk-limits.js';
import { chunkEmbeddings, pageContentBatches } from '../../store/documents.js';
import type { AppDeps } from '../deps.js';
import { completedDocument } from '../completed-document.js';
import { parseIncludes } from '../includes.js';
import { errorResponses } from '../schemas/common.js';
import type { Chunk } from '../schemas/resources.js';

const CHUNK_INCLUDES = ['embeddings'] as const;
const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });
const Query = Type.Object(
  {
    max_tokens: Type.Optional(
      Type.Integer({ minimum: MIN_CHUNK_TOKENS, maximum: MAX_CHUNK_TOKENS, description: `Most tokens in a chunk (${MIN_CHUNK_TOKENS} to ${MAX_CHUNK_TOKENS}, default ${DEFAULT_CHUNK_TOKENS}).` }),
    ),
    include: Type.Optional(Type.String({ description: `Comma-separated: ${CHUNK_INCLUDES.join(', ')} (each chunk's vector; documents sent with embeddings, default max_tokens only).` })),
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
            'The document cut along its structure: a heading starts a chunk, paragraphs and list items stay whole where they fit, a table is cut only between rows (each part with its header row) and a table continued on the next page is one. No chunk is longer than `max_tokens`. Each chunk has the headings it stands under and a box for each line and table row it holds. With `include=embeddings`, each chunk of the default cut has the vector made at `embedding`.',
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
        const query = request.query as Static<typeof Query>;
        const includes = parseIncludes(query.include, CHUNK_INCLUDES);
        const maxTokens = query.max_tokens ?? DEFAULT_CHUNK_TOKENS;
        const row = await completedDocument(deps.store.db, id, request.principal);
        const withVectors = includes.has('embeddings');
        if (withVectors && readStoredOptions(row.options).embeddings === false) {
          throw invalidRequest({ include: ['embeddings exist only for documents sent with options.embeddings'] });
        }
        if (withVectors && maxTokens !== DEFAULT_CHUNK_TOKENS) {
          throw invalidRequest({ include: [`chunk vectors are made for the default cut (max_tokens ${DEFAULT_CHUNK_TOKENS}); leave max_tokens out to have them`] });
        }
        const analysis = row.analysis === 'read' ? 'read' : 'layout';
        const data: Chunk[] = [];
        for await (const chunks of chunksOf(chunkablePages(pageContentBatches(deps.store.db, row.id, row.page_count)), { maxTokens, analysis })) data.push(...chunks);
        if (withVectors) {
          // A vector stands beside the chunk it was made from, or none does (a document embedded before chunk vectors were kept).
          const vectors = new Map((await chunkEmbeddings(deps.store.db, row.id)).map((v) => [v.chunk_index, v]));
          for (const chunk of data) {
            const stored = vectors.get(chunk.index);
            chunk.embedding = stored && stored.text_digest === chunkDigest(chunk.text) ? unpackEmbedding(stored.embedding) : null;
          }
        }
        return { object: 'list', document_id: row.id, data };
      },
    );
  };
