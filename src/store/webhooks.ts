// Webhook rows, and the recording of an event. An event is written by whoever gives a document or
// question its terminal status, inside that same transaction (queue/leases.ts, queue/sweeper.ts):
// if the status commits, so does the event and one delivery per webhook that wants it; if it
// rolls back, neither exists. Workers then deliver from webhook_deliveries
// (queue/webhook-deliveries.ts).
import type { Insertable, Selectable } from 'kysely';
import * as clock from '../domain/clock.js';
import { newId } from '../domain/ids.js';
import type { WebhookEvent } from '../domain/resource-shapes.js';
import type { WebhookEventType } from '../domain/webhooks.js';
import type { Db, Tx } from './database.js';
import type { Scope } from './documents.js';
import type { WebhookAttemptsTable, WebhooksTable } from './schema.js';
import { documentToWire, isoTime, queryToWire } from './wire.js';

export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

export async function insertWebhook(tx: Tx, row: Insertable<WebhooksTable>): Promise<void> {
  await tx.insertInto('webhooks').values(row).execute();
}

export async function countWebhooks(tx: Tx, scope: Scope): Promise<number> {
  const row = await tx
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', scope.workspace_id)
    .where('mode', '=', scope.mode)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Newest first; a workspace has at most MAX_WEBHOOKS in a mode, so one page holds them all. */
export function listWebhooks(db: Db, scope: Scope): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where('workspace_id', '=', scope.workspace_id).where('mode', '=', scope.mode).orderBy('id', 'desc').execute();
}

export function findWebhook(db: Tx, id: string, scope: Scope): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).where('workspace_id', '=', scope.workspace_id).where('mode', '=', scope.mode).executeTakeFirst();
}

/** The webhook with its deliveries and their log: nothing more is sent to it, even a retry already due. */
export async function deleteWebhook(tx: Tx, id: string): Promise<void> {
  await tx.deleteFrom('webhook_attempts').where('webhook_id', '=', id).execute();
  await tx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  await tx.deleteFrom('webhooks').where('id', '=', id).execute();
}

export async function listAttempts(db: Db, webhookId: string, query: { limit: number; starting_after?: string }): Promise<{ rows: WebhookAttemptRow[]; has_more: boolean }> {
  let q = db.selectFrom('webhook_attempts').selectAll().where('webhook_id', '=', webhookId);
  if (query.starting_after) q = q.where('id', '<', query.starting_after);
  const rows = await q.orderBy('id', 'desc').limit(query.limit + 1).execute();
  return { rows: rows.slice(0, query.limit), has_more: rows.length > query.limit };
}

/** The webhooks of a workspace and mode that want `type`. */
function subscribed(rows: { id: string; events: string }[], type: WebhookEventType): string[] {
  return rows.filter((row) => (JSON.parse(row.events) as string[]).includes(type)).map((row) => row.id);
}

async function recordEvent(tx: Tx, scope: Scope, type: WebhookEventType, object: WebhookEvent['data']['object'], webhookIds: string[]): Promise<string> {
  const now = clock.now();
  const event: WebhookEvent = { id: newId('evt'), type, created_at: isoTime(now), data: { object } };
  await tx
    .insertInto('webhook_events')
    .values({ id: event.id, workspace_id: scope.workspace_id, mode: scope.mode, type, body: JSON.stringify(event), created_at: now })
    .execute();
  await tx
    .insertInto('webhook_deliveries')
    .values(
      webhookIds.map((webhookId) => ({
        id: newId('dlv'),
        webhook_id: webhookId,
        event_id: event.id,
        status: 'pending' as const,
        attempts: 0,
        run_at: now,
        locked_by: null,
        lease_token: null,
        lease_expires_at: null,
        created_at: now,
        finished_at: null,
      })),
    )
    .execute();
  return event.id;
}

/**
 * Records `type` for the document as it now stands in `tx` (call it after the write that gave the
 * status), for every webhook of its workspace and mode that wants it. Without such a webhook
 * nothing is written: the one query is all a workspace without webhooks pays.
 */
export async function recordDocumentEvent(tx: Tx, documentId: string, type: WebhookEventType): Promise<string | null> {
  const hooks = await tx
    .selectFrom('webhooks')
    .innerJoin('documents', (join) => join.onRef('documents.workspace_id', '=', 'webhooks.workspace_id').onRef('documents.mode', '=', 'webhooks.mode'))
    .select(['webhooks.id', 'webhooks.events'])
    .where('documents.id', '=', documentId)
    .execute();
  const ids = subscribed(hooks, type);
  if (ids.length === 0) return null;
  const row = await tx.selectFrom('documents').selectAll().where('id', '=', documentId).executeTakeFirstOrThrow();
  // docs/api.md: the Document without `result`, as a list shows it.
  return recordEvent(tx, row, type, documentToWire(row), ids);
}

/** As recordDocumentEvent, for a question. */
export async function recordQueryEvent(tx: Tx, queryId: string, type: WebhookEventType): Promise<string | null> {
  const hooks = await tx
    .selectFrom('webhooks')
    .innerJoin('queries', (join) => join.onRef('queries.workspace_id', '=', 'webhooks.workspace_id').onRef('queries.mode', '=', 'webhooks.mode'))
    .select(['webhooks.id', 'webhooks.events'])
    .where('queries.id', '=', queryId)
    .execute();
  const ids = subscribed(hooks, type);
  if (ids.length === 0) return null;
  const row = await tx.selectFrom('queries').selectAll().where('id', '=', queryId).executeTakeFirstOrThrow();
  return recordEvent(tx, row, type, queryToWire(row), ids);
}

/**
 * Forgets the log of deliveries finished before `before`, and events no delivery needs any more.
 * A pending delivery is never touched: its retry window is far shorter than how long logs are kept.
 */
export async function forgetOldDeliveries(db: Db, before: number): Promise<void> {
  // Every attempt and delivery is younger than its event, so without an old event there is
  // nothing to forget; the sweeper asks every few seconds, and a read takes no write lock.
  const old = await db.selectFrom('webhook_events').select('id').where('created_at', '<', before).limit(1).executeTakeFirst();
  if (!old) return;
  await db.deleteFrom('webhook_attempts').where('attempted_at', '<', before).execute();
  await db.deleteFrom('webhook_deliveries').where('status', '<>', 'pending').where('finished_at', '<', before).execute();
  await db
    .deleteFrom('webhook_events')
    .where('created_at', '<', before)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries').select('webhook_deliveries.id').whereRef('webhook_deliveries.event_id', '=', 'webhook_events.id'))))
    .execute();
}
