// POST /documents/{id}/queries, GET /documents/{id}/queries, GET /documents/{id}/queries/{query_id}
// (docs/decisions.md#queries): questions asked of a completed document, answered by a worker.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { modelUsed } from '../../domain/billing.js';
import { FolioError, invalidRequest, notFound } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { TOKENS_PER_PAGE_GUESS } from '../../domain/model.js';
import { planAllows } from '../../domain/plans.js';
import { estimateQueryMicro } from '../../pipeline/query.js';
import { findDocument, holdCredit } from '../../store/documents.js';
import { findQuery, insertQuery, listQueries, type QueryRow } from '../../store/queries.js';
import * as clock from '../../domain/clock.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../auth.js';
import { hashJson, idempotencyKeyOf, idempotent } from '../idempotency.js';
import { StringEnum } from '../../domain/wire.js';
import { errorResponses, ListQuery } from '../schemas/common.js';
import { queryToWire } from '../../store/wire.js';
import { assertSomeCredit, clientSchemaIssues } from '../submit.js';
import { completedDocument } from '../completed-document.js';

export const CreateQuery = Type.Object(
  {
    question: Type.String({ minLength: 1, maxLength: 2000 }),
    instructions: Type.Optional(Type.String({ maxLength: 4000 })),
    schema: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'JSON Schema the answer must follow.' })),
    model: Type.Optional(StringEnum(['auto', 'swift', 'summit'] as const)),
  },
  { additionalProperties: false },
);

const DocumentParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const QueryParams = Type.Object({ id: Type.String({ maxLength: 64 }), query_id: Type.String({ maxLength: 64 }) });
const ListQueriesQuery = Type.Object({ limit: Type.Optional(ListQuery.limit), starting_after: Type.Optional(ListQuery.starting_after) }, { additionalProperties: false });

export const queryRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (app) => {
    app.post(
      '/documents/:id/queries',
      {
        schema: {
          summary: 'Ask a question of a completed document',
          params: DocumentParams,
          body: CreateQuery,
          response: { 202: Type.Ref('Query'), ...errorResponses(401, 402, 403, 404, 409, 410, 422, 429) },
        },
      },
      async (request, reply) => {
        const { id } = request.params as Static<typeof DocumentParams>;
        const body = request.body as Static<typeof CreateQuery>;
        const { principal } = request;
        if (!planAllows(principal.plan, 'queries')) {
          throw new FolioError('not_entitled', 'Your plan does not include the "queries" option.', { feature: 'queries' });
        }
        if (body.schema !== undefined) {
          const issues = clientSchemaIssues(body.schema as Record<string, unknown>);
          if (issues.length) throw invalidRequest({ schema: issues });
        }
        const doc = await completedDocument(deps.store.db, id, principal);
        await assertSomeCredit(principal, deps);
        const mode = principal.key.mode;
        const query = {
          question: body.question,
          instructions: body.instructions ?? null,
          schema: body.schema === undefined ? null : JSON.stringify(body.schema),
          model_requested: body.model ?? 'auto',
        };
        // Held now from a guess at the document's length; the worker makes the hold whole, and
        // a question the credit cannot cover is accepted and then fails (docs/api.md, docs/decisions.md#money).
        const guessedTokens = doc.page_count * TOKENS_PER_PAGE_GUESS;
        const estimate = mode === 'test' ? 0 : estimateQueryMicro(query, guessedTokens, deps.config);
        // Idempotency-Key (docs/decisions.md): the same question asked again with the key is one query,
        // held and charged once. The document is part of the request, so the key cannot be
        // replayed onto another document's question.
        const hash = hashJson({ document: doc.id, ...body });
        return idempotent(deps.store.db, request, reply, idempotencyKeyOf(request), hash, deps.config.idempotencyStaleMs, async (remember) => {
          const now = clock.now();
          const row: QueryRow = {
            id: newId('qry'),
            document_id: doc.id,
            workspace_id: principal.workspaceId,
            mode,
            ...query,
            status: 'queued',
            model_used: modelUsed(query.model_requested, guessedTokens),
            estimated_micro: estimate,
            settled_micro: null,
            hold_micro: 0,
            answer: null,
            error_type: null,
            error_message: null,
            created_at: now,
            started_at: null,
            completed_at: null,
            failed_at: null,
            run_at: now,
            attempts: 0,
            locked_by: null,
            lease_token: null,
            lease_expires_at: null,
          };
          const answer = await deps.store.writeTransaction(async (tx) => {
            if (await holdCredit(tx, principal.workspaceId, estimate)) row.hold_micro = estimate;
            await insertQuery(tx, row);
            const accepted = { status: 202, body: queryToWire(row) };
            await remember(tx, accepted);
            return accepted;
          });
          await deps.wakeup.notify();
          return answer;
        });
      },
    );

    app.get(
      '/documents/:id/queries',
      {
        schema: {
          summary: "List a document's queries, newest first",
          params: DocumentParams,
          querystring: ListQueriesQuery,
          response: {
            200: Type.Object({ object: Type.Literal('list'), data: Type.Array(Type.Ref('Query')), has_more: Type.Boolean() }),
            ...errorResponses(401, 402, 404, 422, 429),
          },
        },
      },
      async (request) => {
        const { id } = request.params as Static<typeof DocumentParams>;
        const query = request.query as Static<typeof ListQueriesQuery>;
        const scope = scopeOf(request.principal);
        if (!(await findDocument(deps.store.db, id, scope))) throw notFound();
        const { rows, has_more } = await listQueries(deps.store.db, id, scope, { limit: query.limit ?? 20, starting_after: query.starting_after });
        return { object: 'list', data: rows.map(queryToWire), has_more };
      },
    );

    app.get(
      '/documents/:id/queries/:query_id',
      {
        schema: {
          summary: 'Get a query',
          params: QueryParams,
          response: { 200: Type.Ref('Query'), ...errorResponses(401, 402, 404, 429) },
        },
      },
      async (request) => {
        const { id, query_id } = request.params as Static<typeof QueryParams>;
        const row = await findQuery(deps.store.db, id, query_id, scopeOf(request.principal));
        if (!row) throw notFound('query');
        return queryToWire(row);
      },
    );
  };
