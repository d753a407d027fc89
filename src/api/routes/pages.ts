// GET /documents/{id}/pages: the only endpoint with everything per page.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { invalidRequest } from '../../domain/errors.js';
import { parsePageRange } from '../../domain/page-range.js';
import { getPages } from '../../store/documents.js';
import { baseUrlOf, type AppDeps } from '../app.js';
import { errorResponses } from '../schemas/common.js';
import type { ResolvedOptions } from '../schemas/options.js';
import type { Image } from '../schemas/resources.js';
import { pageToWire } from '../serialize.js';
import { parseIncludes } from './documents.js';
import { completedDocument, picturesOf } from './ready.js';

const PAGE_INCLUDES = ['embeddings', 'tables', 'key_values', 'layout', 'images', 'image_data'] as const;
const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });
const Query = Type.Object({
  include: Type.Optional(Type.String({ description: `Comma-separated: ${PAGE_INCLUDES.join(', ')}.` })),
  page: Type.Optional(Type.String({ description: 'One page ("3") or an inclusive range ("1-3").' })),
});

export const pageRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
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
      async (request) => {
        const { id } = request.params as Static<typeof Params>;
        const query = request.query as Static<typeof Query>;
        const includes = parseIncludes(query.include, PAGE_INCLUDES);
        const row = await completedDocument(deps.store.db, id, request.principal);
        const options = JSON.parse(row.options) as ResolvedOptions;
        if (includes.has('embeddings') && options.embeddings === false) {
          throw invalidRequest({ include: ['embeddings exist only for documents sent with options.embeddings'] });
        }
        const range = parsePageRange(query.page, row.page_count);
        const pages = await getPages(deps.store.db, row.id, range.first, range.last);
        const wantImages = includes.has('images') || includes.has('image_data');
        const imagesByPage = new Map<number, Image[]>();
        if (wantImages) {
          for (const image of await picturesOf(deps.store, row.id, range, includes.has('image_data'), baseUrlOf(deps.config, request))) {
            imagesByPage.set(image.page, [...(imagesByPage.get(image.page) ?? []), image]);
          }
        }
        return {
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
      },
    );
  };
