// GET /documents/{id}/pages: the only endpoint with everything per page; and, additive, a page's
// preview rendered on demand from the upload (the playground draws its layout boxes over it).
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { FolioError, invalidRequest } from '../../domain/errors.js';
import { isOffice, type SupportedMediaType } from '../../domain/media-types.js';
import { parsePageRange } from '../../domain/page-range.js';
import { getPages, pageGeometry } from '../../store/documents.js';
import { baseUrlOf, type AppDeps } from '../deps.js';
import { errorResponses } from '../schemas/common.js';
import { readStoredOptions } from '../../domain/options.js';
import type { Image } from '../schemas/resources.js';
import { pageToWire } from '../serialize.js';
import { parseIncludes } from '../includes.js';
import { completedDocument, picturesOf } from '../completed-document.js';
import { PictureBytes, sendWithPictures, type PictureAnswers } from '../picture-answers.js';

const PAGE_INCLUDES = ['embeddings', 'tables', 'key_values', 'layout', 'images', 'image_data'] as const;
const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });
const Query = Type.Object({
  include: Type.Optional(Type.String({ description: `Comma-separated: ${PAGE_INCLUDES.join(', ')}.` })),
  page: Type.Optional(Type.String({ description: 'One page ("3") or an inclusive range ("1-3").' })),
});

const PreviewParams = Type.Object({ id: Type.String({ maxLength: 64 }), page: Type.Integer({ minimum: 1 }) });
const PreviewQuery = Type.Object(
  { size: Type.Optional(Type.Integer({ minimum: 64, maximum: 1568, default: 1024, description: 'Long side in pixels (64 to 1568, default 1024).' })) },
  { additionalProperties: false },
);
/** A preview that takes longer than this is given up (a pathological page must not hold a reader thread). */
const PREVIEW_TIMEOUT_MS = 30_000;

export const pageRoutes =
  (deps: AppDeps, answers: PictureAnswers): FastifyPluginAsync =>
  async (app) => {
    app.get(
      '/documents/:id/pages',
      {
        schema: {
          summary: "A document's pages",
          params: Params,
          querystring: Query,
          response: {
            200: Type.Object({ object: Type.Literal('list'), document_id: Type.String(), data: Type.Array(Type.Ref('Page')) }),
            ...errorResponses(401, 402, 404, 409, 410, 422, 429),
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params as Static<typeof Params>;
        const query = request.query as Static<typeof Query>;
        const includes = parseIncludes(query.include, PAGE_INCLUDES);
        const row = await completedDocument(deps.store.db, id, request.principal);
        if (includes.has('embeddings') && readStoredOptions(row.options).embeddings === false) {
          throw invalidRequest({ include: ['embeddings exist only for documents sent with options.embeddings'] });
        }
        const range = parsePageRange(query.page, row.page_count);
        const pages = await getPages(deps.store.db, row.id, range.first, range.last);
        const wantImages = includes.has('images') || includes.has('image_data');
        const bytes = includes.has('image_data') ? new PictureBytes() : undefined;
        const imagesByPage = new Map<number, Image[]>();
        if (wantImages) {
          for (const image of await picturesOf(deps.store, row.id, range, baseUrlOf(deps.config, request), bytes)) {
            imagesByPage.set(image.page, [...(imagesByPage.get(image.page) ?? []), image]);
          }
        }
        const body = {
          object: 'list',
          document_id: row.id,
          data: pages.map((p) => {
            const page = pageToWire(p, {
              tables: includes.has('tables'),
              key_values: includes.has('key_values'),
              layout: includes.has('layout'),
              embeddings: includes.has('embeddings'),
            });
            if (wantImages) page.images = imagesByPage.get(p.page_number) ?? [];
            return page;
          }),
        };
        if (!bytes) return body;
        answers.begin(request.principal.workspaceId, reply);
        return sendWithPictures(reply, body, bytes, deps.store.blobs);
      },
    );

    app.get(
      '/documents/:id/pages/:page/preview',
      {
        schema: {
          summary: 'A JPEG of one page, rendered on demand (additive)',
          description:
            'The whole page drawn from the upload, turned and straightened as its layout was read, so `bbox` fractions from `include=layout`, tables and citations land on it. Free; counts toward the rate limit. Office files have no drawing of their own: 404.',
          params: PreviewParams,
          querystring: PreviewQuery,
          response: { ...errorResponses(401, 402, 404, 409, 410, 422, 429) },
        },
      },
      async (request, reply) => {
        const { id, page } = request.params as Static<typeof PreviewParams>;
        const { size = 1024 } = request.query as Static<typeof PreviewQuery>;
        const row = await completedDocument(deps.store.db, id, request.principal);
        if (page > row.page_count) throw new FolioError('not_found', `The document has ${row.page_count} page${row.page_count === 1 ? '' : 's'}; there is no page ${page}.`);
        if (isOffice(row.content_type)) {
          throw new FolioError('not_found', 'This type of file has no drawing of its own to preview; its layout (include=layout) has the positions of its text.');
        }
        const geometry = await pageGeometry(deps.store.db, row.id, page);
        if (!geometry) throw new FolioError('not_found', `Page ${page} was not read: the document's page selection (options.pages) leaves it out.`);
        if (!row.upload_key) throw new FolioError('not_found', 'The upload of this document is no longer stored.');
        const bytes = await deps.store.blobs.get(row.upload_key);
        const outcome = await deps.pool.forDocument(row.id).preview(row.content_type as SupportedMediaType, bytes, { page, ...geometry, size }, AbortSignal.timeout(PREVIEW_TIMEOUT_MS));
        if (!outcome.ok) {
          request.log.error({ document_id: row.id, page, detail: outcome.detail }, 'page preview failed');
          throw new FolioError('internal_error', 'The page could not be drawn. Quote the request id when you report it.', { request_id: request.id });
        }
        return reply
          .header('content-type', 'image/jpeg')
          .header('cache-control', 'private, max-age=3600')
          .send(Buffer.from(outcome.value.buffer, outcome.value.byteOffset, outcome.value.byteLength));
      },
    );
  };
