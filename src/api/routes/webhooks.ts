// POST /webhooks, GET /webhooks, DELETE /webhooks/{id}, GET /webhooks/{id}/deliveries
// (docs/api.md, Webhook; issue 26 scope 2). A webhook belongs to its workspace and mode, like a
// document: a test key sees, and its documents trigger, only test-mode webhooks. Events are
// recorded by workers and delivered by them (queue/webhook-deliveries.ts); the API only keeps the
// list of receivers and shows what was sent.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import * as clock from '../../domain/clock.js';
import { invalidRequest, notFound } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { generateWebhookSecret, MAX_WEBHOOKS, shownWebhookUrl, type WebhookEventType } from '../../domain/webhooks.js';
import { isPublicAddress } from '../../pipeline/intake/fetch-url.js';
import { countWebhooks, deleteWebhook, findWebhook, insertWebhook, listAttempts, listWebhooks, type WebhookAttemptRow, type WebhookRow } from '../../store/webhooks.js';
import { isoTime } from '../../store/wire.js';
import { scopeOf } from '../auth.js';
import type { AppDeps } from '../deps.js';
import { errorResponses, ListQuery } from '../schemas/common.js';
import { CreateWebhook, type Webhook, type WebhookAttempt } from '../schemas/webhooks.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const ListAttemptsQuery = Type.Object({ limit: Type.Optional(ListQuery.limit), starting_after: Type.Optional(ListQuery.starting_after) }, { additionalProperties: false });

const PRIVATE = 'must not point to a private or reserved network address';

/**
 * Why Folio would not call `url`, or null. The URL rules of URL documents (docs/decisions.md#url-uploads):
 * http or https, and, unless FOLIO_URL_ALLOW_PRIVATE=1, a host that is or resolves to a public
 * address. Checked again at every delivery, since DNS may change.
 */
async function refusal(url: string, allowPrivate: boolean): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http or https URL';
  if (allowPrivate) return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPublicAddress(host) ? null : PRIVATE;
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.some((a) => isPublicAddress(a.address)) ? null : PRIVATE;
  } catch (error) {
    // A name nobody knows is a mistake to say now; a lookup that merely failed this time is
    // left to the delivery, which checks the address anyway.
    return (error as NodeJS.ErrnoException).code === 'ENOTFOUND' ? 'has a host name that is not known' : null;
  }
}

function webhookToWire(row: WebhookRow, withSecret = false): Webhook {
  return {
    id: row.id,
    object: 'webhook',
    url: shownWebhookUrl(row.url),
    events: JSON.parse(row.events) as WebhookEventType[],
    ...(withSecret ? { secret: row.secret } : {}),
    created_at: isoTime(row.created_at),
  };
}

function attemptToWire(row: WebhookAttemptRow): WebhookAttempt {
  const delivered = row.status_code !== null && row.status_code >= 200 && row.status_code < 300;
  return {
    id: row.id,
    object: 'webhook_attempt',
    delivery_id: row.delivery_id,
    event_id: row.event_id,
    type: row.type as WebhookEventType,
    attempt: row.attempt,
    status_code: row.status_code,
    error: row.error,
    response_excerpt: row.response_excerpt,
    duration_ms: row.duration_ms,
    attempted_at: isoTime(row.attempted_at),
    delivered_at: delivered ? isoTime(row.attempted_at + row.duration_ms) : null,
    next_attempt_at: row.next_attempt_at === null ? null : isoTime(row.next_attempt_at),
  };
}

export const webhookRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (app) => {
    app.post(
      '/webhooks',
      {
        schema: {
          summary: 'Create a webhook: where the events of this key\'s workspace and mode are POSTed, signed',
          body: CreateWebhook,
          response: { 201: Type.Ref('Webhook'), ...errorResponses(401, 402, 422, 429) },
        },
      },
      async (request, reply) => {
        const body = request.body as Static<typeof CreateWebhook>;
        const refused = await refusal(body.url, deps.config.fetch.allowPrivate);
        if (refused) throw invalidRequest({ url: [refused] });
        const scope = scopeOf(request.principal);
        const row: WebhookRow = {
          id: newId('whk'),
          ...scope,
          url: body.url,
          events: JSON.stringify(body.events),
          secret: generateWebhookSecret(),
          created_at: clock.now(),
          failures_in_row: 0,
        };
        // Counted under the write lock, so two requests at once cannot both take the last place.
        await deps.store.writeTransaction(async (tx) => {
          if ((await countWebhooks(tx, scope)) >= MAX_WEBHOOKS) {
            throw invalidRequest({ body: [`a workspace has at most ${MAX_WEBHOOKS} webhooks in each mode; delete one first`] });
          }
          await insertWebhook(tx, row);
        });
        return reply.code(201).send(webhookToWire(row, true));
      },
    );

    app.get(
      '/webhooks',
      {
        schema: {
          summary: "List the webhooks of this key's workspace and mode, newest first (secrets are not shown)",
          response: {
            200: Type.Object({ object: Type.Literal('list'), data: Type.Array(Type.Ref('Webhook')), has_more: Type.Boolean() }),
            ...errorResponses(401, 402, 429),
          },
        },
      },
      async (request) => {
        const rows = await listWebhooks(deps.store.db, scopeOf(request.principal));
        return { object: 'list', data: rows.map((row) => webhookToWire(row)), has_more: false };
      },
    );

    app.delete(
      '/webhooks/:id',
      {
        schema: {
          summary: 'Delete a webhook; events not yet delivered to it are dropped',
          params: IdParams,
          response: { 204: Type.Null(), ...errorResponses(401, 402, 404, 422, 429) },
        },
      },
      async (request, reply) => {
        const { id } = request.params as Static<typeof IdParams>;
        const scope = scopeOf(request.principal);
        await deps.store.writeTransaction(async (tx) => {
          if (!(await findWebhook(tx, id, scope))) throw notFound('webhook');
          await deleteWebhook(tx, id);
        });
        return reply.code(204).send();
      },
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        schema: {
          summary: "A webhook's delivery attempts, newest first",
          params: IdParams,
          querystring: ListAttemptsQuery,
          response: {
            200: Type.Object({ object: Type.Literal('list'), data: Type.Array(Type.Ref('WebhookAttempt')), has_more: Type.Boolean() }),
            ...errorResponses(401, 402, 404, 422, 429),
          },
        },
      },
      async (request) => {
        const { id } = request.params as Static<typeof IdParams>;
        const query = request.query as Static<typeof ListAttemptsQuery>;
        if (!(await findWebhook(deps.store.db, id, scopeOf(request.principal)))) throw notFound('webhook');
        const { rows, has_more } = await listAttempts(deps.store.db, id, { limit: query.limit ?? 20, starting_after: query.starting_after });
        return { object: 'list', data: rows.map(attemptToWire), has_more };
      },
    );
  };
