// GET /usage (docs/decisions.md#usage-history): usage records, newest first; they outlive their documents.
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { invalidRequest } from '../../domain/errors.js';
import { listUsage } from '../../store/documents.js';
import { scopeOf } from '../auth.js';
import type { AppDeps } from '../deps.js';
import { DateTime } from '../../domain/wire.js';
import { errorResponses, ListQuery } from '../schemas/common.js';
import { usageToWire } from '../serialize.js';

const Query = Type.Object(
  {
    limit: Type.Optional(ListQuery.limit),
    starting_after: Type.Optional(ListQuery.starting_after),
    document_id: Type.Optional(Type.String({ maxLength: 64 })),
    since: Type.Optional(DateTime),
    until: Type.Optional(DateTime),
  },
  { additionalProperties: false },
);

export const usageRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (app) => {
    app.get(
      '/usage',
      {
        schema: {
          summary: 'Usage records, newest first',
          querystring: Query,
          response: {
            200: Type.Object({ object: Type.Literal('list'), data: Type.Array(Type.Ref('UsageRecord')), has_more: Type.Boolean() }),
            ...errorResponses(401, 402, 422, 429),
          },
        },
      },
      async (request) => {
        const query = request.query as Static<typeof Query>;
        const since = query.since ? Date.parse(query.since) : undefined;
        const until = query.until ? Date.parse(query.until) : undefined;
        if (since !== undefined && until !== undefined && until < since) throw invalidRequest({ until: ['must not be before since'] });
        const { rows, has_more } = await listUsage(deps.store.db, scopeOf(request.principal), {
          limit: query.limit ?? 20,
          starting_after: query.starting_after,
          document_id: query.document_id,
          since,
          until,
        });
        return { object: 'list', data: rows.map(usageToWire), has_more };
      },
    );
  };
