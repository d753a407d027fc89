// GET /documents/{id}/images and GET /documents/{id}/images/{image_id}.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { notFound } from '../../domain/errors.js';
import { parsePageRange } from '../../domain/page-range.js';
import { findImage } from '../../store/documents.js';
import { baseUrlOf, type AppDeps } from '../deps.js';
import { errorResponses } from '../schemas/common.js';
import { parseIncludes } from '../includes.js';
import { completedDocument, picturesOf } from '../completed-document.js';
import { PictureBytes, sendWithPictures, type PictureAnswers } from '../picture-answers.js';

const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });
const ImageParams = Type.Object({ id: Type.String({ maxLength: 64 }), image_id: Type.String({ maxLength: 64 }) });
const Query = Type.Object({
  include: Type.Optional(Type.String({ description: '"data" adds the base64 bytes (at most 25 MB per response).' })),
  page: Type.Optional(Type.String({ description: 'One page ("3") or an inclusive range ("1-3").' })),
});

export const imageRoutes =
  (deps: AppDeps, answers: PictureAnswers): FastifyPluginAsync =>
  async (app) => {
    app.get(
      '/documents/:id/images',
      {
        schema: {
          summary: "A document's pictures, in page order",
          params: Params,
          querystring: Query,
          response: {
            200: Type.Object({ object: Type.Literal('list'), document_id: Type.String(), data: Type.Array(Type.Ref('Image')) }),
            ...errorResponses(401, 402, 404, 409, 410, 422, 429),
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params as Static<typeof Params>;
        const query = request.query as Static<typeof Query>;
        const includes = parseIncludes(query.include, ['data'] as const);
        const row = await completedDocument(deps.store.db, id, request.principal);
        const range = parsePageRange(query.page, row.page_count);
        const bytes = includes.has('data') ? new PictureBytes() : undefined;
        const data = await picturesOf(deps.store, row.id, range, baseUrlOf(deps.config, request), bytes);
        const body = { object: 'list', document_id: row.id, data };
        if (!bytes) return body;
        answers.begin(request.principal.workspaceId, reply);
        return sendWithPictures(reply, body, bytes, deps.store.blobs);
      },
    );

    app.get(
      '/documents/:id/images/:image_id',
      {
        schema: {
          summary: 'The bytes of one picture (PNG for a figure, JPEG for a page)',
          params: ImageParams,
          response: { ...errorResponses(401, 402, 404, 409, 410, 429) },
        },
      },
      async (request, reply) => {
        const params = request.params as Static<typeof ImageParams>;
        const row = await completedDocument(deps.store.db, params.id, request.principal);
        const image = await findImage(deps.store.db, row.id, params.image_id);
        if (!image) throw notFound('image');
        const stream = await deps.store.blobs.stream(image.blob_key);
        return reply
          .header('content-type', image.media_type)
          .header('content-length', image.byte_size)
          .header('cache-control', 'private, max-age=3600')
          .send(stream);
      },
    );
  };
