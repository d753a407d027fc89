// POST /documents, GET /documents, GET /documents/{id}, DELETE /documents/{id}.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { FolioError, invalidRequest, notFound } from '../../domain/errors.js';
import { DOCUMENT_STATUSES } from '../../domain/states.js';
import { isExpired } from '../../domain/retention.js';
import { deleteDocument, findDocument, getPages, listDocuments, markRetrieved, usageForDocument } from '../../store/documents.js';
import { documentMarkdown, documentText } from '../../page-outputs/document-text.js';
import type { WireTable } from '../../page-outputs/shapes.js';
import { baseUrlOf, type AppDeps } from '../deps.js';
import { parseIncludes } from '../includes.js';
import { expiredError } from '../completed-document.js';
import { scopeOf } from '../auth.js';
import { sendError } from '../errors.js';
import { readStoredOptions } from '../../domain/options.js';
import { StringEnum } from '../../domain/wire.js';
import { errorResponses, ListQuery } from '../schemas/common.js';
import { BatchAccepted, type Document } from '../schemas/resources.js';
import { documentUsage, fullDocumentToWire, pageToWire } from '../serialize.js';
import { documentToWire, isoTime } from '../../store/wire.js';
import { acceptUpload, clientGone, discardUpload, receiveUpload, submitUrl } from '../submit.js';
import { unfinishedQueries } from '../../store/queries.js';
import { hashJson, idempotencyKeyOf, idempotent } from '../idempotency.js';
import * as clock from '../../domain/clock.js';

const SubmitUrl = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 8192, description: 'http or https, reachable without credentials.' }),
    options: Type.Optional(Type.Ref('DocumentOptions')),
  },
  { additionalProperties: false },
);

const UploadForm = Type.Object({
  file: Type.Optional(Type.String({ format: 'binary' })),
  'files[]': Type.Optional(Type.Array(Type.String({ format: 'binary' }), { maxItems: 10 })),
  options: Type.Optional(Type.String({ description: 'DocumentOptions as a JSON string.' })),
});

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const DOCUMENT_INCLUDES = ['text', 'markdown', 'pages', 'tables', 'key_values', 'usage', 'options'] as const;

export const documentRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (app) => {
    app.post(
      '/documents',
      {
        schema: {
          summary: 'Submit a document (upload or URL)',
          body: {
            content: {
              'application/json': { schema: SubmitUrl },
              'multipart/form-data': { schema: UploadForm },
            },
          },
          response: { 202: Type.Union([Type.Ref('Accepted'), BatchAccepted]), ...errorResponses(401, 402, 403, 413, 415, 422, 429) },
        },
      },
      async (request, reply) => {
        const baseUrl = baseUrlOf(deps.config, request);
        const key = idempotencyKeyOf(request);
        if (request.isMultipart()) {
          const gone = clientGone(reply);
          const upload = await receiveUpload(request, request.principal, deps.store.blobs.tempDir);
          try {
            return await idempotent(deps.store.db, request, reply, key, upload.hash, deps.config.idempotencyStaleMs, async (remember) => {
              const outcome = await acceptUpload(deps, request.principal, upload, baseUrl, remember, gone);
              const accepted = 'single' in outcome ? [outcome.single.id] : outcome.batch.flatMap((entry) => ('id' in entry ? [entry.id] : []));
              request.log.info({ workspace_id: request.principal.workspaceId, document_ids: accepted }, 'documents accepted');
              return { status: 202, body: 'single' in outcome ? outcome.single : { documents: outcome.batch } };
            });
          } finally {
            await discardUpload(upload);
          }
        }
        const body = request.body as Static<typeof SubmitUrl> | undefined;
        if (typeof body !== 'object' || body === null) {
          throw invalidRequest({ body: ['send application/json with a "url", or multipart/form-data with a "file"'] });
        }
        return idempotent(deps.store.db, request, reply, key, hashJson(body), deps.config.idempotencyStaleMs, async (remember) => {
          const accepted = await submitUrl(deps, request.principal, body, baseUrl, remember);
          request.log.info({ workspace_id: request.principal.workspaceId, document_ids: [accepted.id] }, 'documents accepted');
          return { status: 202, body: accepted };
        });
      },
    );

    const ListDocumentsQuery = Type.Object(
      { ...ListQuery, limit: Type.Optional(ListQuery.limit), starting_after: Type.Optional(ListQuery.starting_after), status: Type.Optional(StringEnum(DOCUMENT_STATUSES)) },
      { additionalProperties: false },
    );
    app.get(
      '/documents',
      {
        schema: {
          summary: 'List documents, newest first',
          querystring: ListDocumentsQuery,
          response: {
            200: Type.Object({ object: Type.Literal('list'), data: Type.Array(Type.Ref('DocumentListItem')), has_more: Type.Boolean() }),
            ...errorResponses(401, 402, 422, 429),
          },
        },
      },
      async (request) => {
        const query = request.query as Static<typeof ListDocumentsQuery>;
        const { rows, has_more } = await listDocuments(deps.store.db, scopeOf(request.principal), {
          limit: query.limit ?? 20,
          starting_after: query.starting_after,
          status: query.status,
        });
        const at = clock.now();
        return { object: 'list', data: rows.map((row) => documentToWire(row, at)), has_more };
      },
    );

    const GetQuery = Type.Object({ include: Type.Optional(Type.String({ description: `Comma-separated: ${DOCUMENT_INCLUDES.join(', ')}.` })) });
    app.get(
      '/documents/:id',
      {
        schema: {
          summary: 'Get a document',
          params: IdParams,
          querystring: GetQuery,
          response: { 200: Type.Ref('Document'), ...errorResponses(401, 402, 404, 410, 422, 429) },
        },
      },
      async (request, reply) => {
        const { id } = request.params as Static<typeof IdParams>;
        const includes = parseIncludes((request.query as Static<typeof GetQuery>).include, DOCUMENT_INCLUDES);
        const row = await findDocument(deps.store.db, id, scopeOf(request.principal));
        if (!row) throw notFound();
        const at = clock.now();
        if (isExpired(row, at)) return sendError(reply, expiredError());
        // Read only when asked for: a plain GET answers whatever the stored options hold.
        const options = includes.has('markdown') || includes.has('options') ? readStoredOptions(row.options) : null;
        if ((includes.has('tables') || includes.has('key_values')) && !includes.has('pages')) {
          throw invalidRequest({ include: ['tables and key_values attach to each page, so they need pages as well (include=pages,tables)'] });
        }
        if (includes.has('markdown') && !options?.markdown) {
          throw invalidRequest({ include: ['markdown exists only for documents sent with options.markdown: true'] });
        }
        // The document as it was before this fetch, judged at `at`: an unfetched result is kept 24
        // hours whatever its retention_seconds (docs/api.md Limits), so its first fetch answers it
        // completed and whole even past expires_at.
        const doc: Document = fullDocumentToWire(row, at);
        if (row.status === 'completed' && (includes.has('text') || includes.has('pages') || includes.has('markdown'))) {
          const pages = await getPages(deps.store.db, row.id, 1, row.page_count);
          if (includes.has('text')) doc.text = documentText(pages);
          if (includes.has('markdown')) doc.markdown = documentMarkdown(pages.map((p) => ({ markdown: p.markdown ?? '', tables: JSON.parse(p.tables) as WireTable[] })));
          if (includes.has('pages')) {
            doc.pages = pages.map((p) => pageToWire(p, { tables: includes.has('tables'), key_values: includes.has('key_values') }));
          }
        }
        if (options && includes.has('options')) doc.options = options;
        if (includes.has('usage')) doc.usage = documentUsage(await usageForDocument(deps.store.db, row.id));
        // Marked fetched only once the answer is read: from then on a result past expires_at is
        // expired and the sweeper may purge it, which must not empty the pages of this answer.
        if (row.status === 'completed' && row.retrieved_at === null) {
          if (await markRetrieved(deps.store.db, row.id, at)) {
            doc.retrieved_at = isoTime(at);
          } else {
            // Another fetch came first, so this one is a later read: it answers as one.
            const fetched = await findDocument(deps.store.db, id, scopeOf(request.principal));
            if (!fetched) throw notFound();
            if (isExpired(fetched, clock.now())) return sendError(reply, expiredError());
            doc.retrieved_at = fetched.retrieved_at === null ? null : isoTime(fetched.retrieved_at);
          }
        }
        return doc;
      },
    );

    app.delete(
      '/documents/:id',
      {
        schema: {
          summary: 'Delete a document and purge its payload (usage records are kept)',
          params: IdParams,
          response: { 204: Type.Null(), ...errorResponses(401, 402, 404, 409, 429) },
        },
      },
      async (request, reply) => {
        const { id } = request.params as Static<typeof IdParams>;
        const scope = scopeOf(request.principal);
        const blobKeys = await deps.store.writeTransaction(async (tx) => {
          const row = await findDocument(tx, id, scope);
          if (!row) throw notFound();
          if ((await unfinishedQueries(tx, row.id)) > 0) {
            throw new FolioError('conflict', 'A question about this document is still being answered; delete it once that is done.');
          }
          return deleteDocument(tx, row);
        });
        await Promise.all(blobKeys.map((key) => deps.store.blobs.delete(key).catch(() => undefined)));
        await deps.store.blobs.deletePrefix(`images/${id}`).catch(() => undefined);
        return reply.code(204).send();
      },
    );
  };
