// Delivering webhook events: every worker process (`folio worker`, `folio serve` with workers)
// runs one loop that claims due deliveries from webhook_deliveries and POSTs them. A claim is one
// statement that takes the oldest due row and stamps it with a lease, under PostgreSQL's
// `FOR UPDATE SKIP LOCKED` (workers never wait on each other's rows) or SQLite's write lock; a
// process killed mid-delivery leaves a lease that runs out, and another worker (or the same one
// restarted) sends the event again. Delivery is therefore at least once: receivers drop repeats
// by the event's id. Anything but a 2xx is tried again on the schedule of domain/webhooks.ts.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Selectable } from 'kysely';
import type { Config } from '../config.js';
import * as clock from '../domain/clock.js';
import { newId } from '../domain/ids.js';
import { nextAttemptAt, signatureHeader } from '../domain/webhooks.js';
import type { Store } from '../store/index.js';
import type { WebhookDeliveriesTable } from '../store/schema.js';
import { postWebhook, type PostOutcome } from './webhook-post.js';
import type { Wakeup } from './wakeup.js';

type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** Deliveries one process sends at once, so one slow receiver does not hold up the others. */
const AT_ONCE = 8;

export interface ClaimedDelivery {
  id: string;
  token: string;
  attempt: number;
  webhookId: string;
  eventId: string;
  type: string;
  /** When the event happened: the retry window runs from here. */
  eventAt: number;
  url: string;
  secret: string;
  body: string;
}

/**
 * How long a claim lasts: one attempt takes at most its time limit, so twice that and a second
 * more means its worker is gone, and the delivery can be taken over.
 */
export function deliveryLeaseMs(timeoutMs: number): number {
  return 2 * timeoutMs + 1000;
}

export async function claimDelivery(store: Store, workerId: string, leaseMs: number): Promise<ClaimedDelivery | null> {
  const token = randomUUID();
  const now = clock.now();
  // Mostly nothing is due: a plain read says so without taking SQLite's write lock, which every
  // idle worker would otherwise take on each poll.
  const due = await store.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('run_at', '<=', now)
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
    .limit(1)
    .executeTakeFirst();
  if (!due) return null;
  return store.writeTransaction(async (tx) => {
    const skipLocked = store.dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
    const result = await sql<DeliveryRow>`
      UPDATE webhook_deliveries
         SET locked_by = ${workerId},
             lease_token = ${token},
             lease_expires_at = ${now + leaseMs},
             attempts = attempts + 1
       WHERE id = (
         SELECT id FROM webhook_deliveries
          WHERE status = 'pending'
            AND run_at <= ${now}
            AND (lease_expires_at IS NULL OR lease_expires_at < ${now})
          ORDER BY run_at, id
          LIMIT 1
          ${skipLocked})
      RETURNING *`.execute(tx);
    const row = result.rows[0];
    if (!row) return null;
    const info = await tx
      .selectFrom('webhooks')
      .innerJoin('webhook_events', (join) => join.on('webhook_events.id', '=', row.event_id))
      .select(['webhooks.url', 'webhooks.secret', 'webhook_events.type', 'webhook_events.body', 'webhook_events.created_at'])
      .where('webhooks.id', '=', row.webhook_id)
      .executeTakeFirst();
    if (!info) {
      // Its webhook was deleted as the event was recorded (store/webhooks.ts): nobody to send it to.
      await tx.deleteFrom('webhook_deliveries').where('id', '=', row.id).execute();
      return null;
    }
    return {
      id: row.id,
      token,
      attempt: row.attempts,
      webhookId: row.webhook_id,
      eventId: row.event_id,
      type: info.type,
      eventAt: Number(info.created_at),
      url: info.url,
      secret: info.secret,
      body: info.body,
    };
  });
}

const LEASE_CLEARED = { locked_by: null, lease_token: null, lease_expires_at: null } as const;

/**
 * Writes the attempt to the log and moves the delivery on: delivered, due again later, or given
 * up once the retry window has passed. Only while the lease is held; false when it is not (the
 * delivery was taken over, or its webhook deleted), and then nothing is written.
 */
export async function recordAttempt(
  store: Store,
  claimed: ClaimedDelivery,
  outcome: PostOutcome,
  attemptedAt: number,
  retryBaseMs: number,
): Promise<{ held: boolean; delivered: boolean; next: number | null }> {
  return store.writeTransaction(async (tx) => {
    const now = clock.now();
    const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const next = delivered ? null : nextAttemptAt(claimed.eventAt, claimed.attempt, now, retryBaseMs);
    const changes = delivered
      ? { status: 'delivered' as const, finished_at: now, ...LEASE_CLEARED }
      : next === null
        ? { status: 'failed' as const, finished_at: now, ...LEASE_CLEARED }
        : { run_at: next, ...LEASE_CLEARED };
    const result = await tx.updateTable('webhook_deliveries').set(changes).where('id', '=', claimed.id).where('lease_token', '=', claimed.token).executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return { held: false, delivered, next };
    await tx
      .insertInto('webhook_attempts')
      .values({
        id: newId('att'),
        delivery_id: claimed.id,
        webhook_id: claimed.webhookId,
        event_id: claimed.eventId,
        type: claimed.type,
        attempt: claimed.attempt,
        status_code: outcome.statusCode,
        error: outcome.error,
        response_excerpt: outcome.excerpt,
        duration_ms: outcome.durationMs,
        attempted_at: attemptedAt,
        next_attempt_at: next,
      })
      .execute();
    return { held: true, delivered, next };
  });
}

/** Hands a delivery cut short by shutdown back at once; the attempt does not count. */
export async function releaseDelivery(store: Store, claimed: ClaimedDelivery): Promise<void> {
  await store.db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ ...LEASE_CLEARED, attempts: eb('attempts', '-', 1) }))
    .where('id', '=', claimed.id)
    .where('lease_token', '=', claimed.token)
    .execute();
}

export class WebhookDeliverer {
  readonly workerId = newId('wrk');
  private readonly inFlight = new Set<Promise<void>>();
  /** Cuts in-flight attempts short once the shutdown grace has passed. */
  private readonly cut = new AbortController();
  private stopping = false;
  private wakeStop: () => void = () => undefined;
  private readonly stopped = new Promise<void>((resolve) => (this.wakeStop = resolve));
  private loop: Promise<void> | null = null;

  constructor(private readonly deps: { store: Store; config: Config; wakeup: Wakeup; log: FastifyBaseLogger }) {}

  start(): void {
    this.loop ??= this.run();
  }

  private async run(): Promise<void> {
    const { store, config, wakeup, log } = this.deps;
    const leaseMs = deliveryLeaseMs(config.webhooks.timeoutMs);
    while (!this.stopping) {
      if (this.inFlight.size >= AT_ONCE) {
        await Promise.race([...this.inFlight, this.stopped]);
        continue;
      }
      // Read before looking, so a wake-up that lands during the claim is not slept through.
      const seen = wakeup.seen;
      let claimed: ClaimedDelivery | null = null;
      try {
        claimed = await claimDelivery(store, this.workerId, leaseMs);
      } catch (error) {
        log.error({ err: error }, 'claiming a webhook delivery failed; retrying');
      }
      if (claimed) {
        this.send(claimed);
        continue;
      }
      // Workers wake this loop when they finish a document or question (the event is committed
      // by then); retries and the sweeper's events are found by the poll.
      await Promise.race([wakeup.wait(config.queue.pollMs, seen), this.stopped]);
    }
  }

  private send(claimed: ClaimedDelivery): void {
    const done: Promise<void> = this.deliver(claimed)
      .catch((error) => this.deps.log.error({ err: error, delivery_id: claimed.id, event_id: claimed.eventId }, 'webhook delivery crashed'))
      .finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
  }

  private async deliver(claimed: ClaimedDelivery): Promise<void> {
    const { store, config, log } = this.deps;
    const attemptedAt = clock.now();
    // The receiver checks the time against its own clock, so it is the real one, not the service clock.
    const signature = signatureHeader(claimed.secret, claimed.body, Math.floor(Date.now() / 1000));
    const outcome = await postWebhook(
      claimed.url,
      claimed.body,
      { 'content-type': 'application/json', 'user-agent': 'Folio-Webhooks/0.1', 'folio-signature': signature },
      { timeoutMs: config.webhooks.timeoutMs, allowPrivate: config.fetch.allowPrivate, signal: this.cut.signal },
    );
    if (outcome.stopped) {
      await releaseDelivery(store, claimed);
      return;
    }
    const { held, delivered, next } = await recordAttempt(store, claimed, outcome, attemptedAt, config.webhooks.retryBaseMs);
    const ids = { delivery_id: claimed.id, event_id: claimed.eventId, webhook_id: claimed.webhookId, type: claimed.type, attempt: claimed.attempt };
    if (!held) log.warn(ids, 'webhook delivery taken over before its attempt was recorded');
    else if (delivered) log.info({ ...ids, status: outcome.statusCode, ms: outcome.durationMs }, 'webhook delivered');
    else {
      const cause = outcome.cause instanceof Error ? { err: outcome.cause } : {};
      const line = { ...ids, status: outcome.statusCode, error: outcome.error, ms: outcome.durationMs, ...cause };
      if (next === null) log.warn(line, 'webhook delivery given up');
      else log.warn({ ...line, next_attempt_at: new Date(next).toISOString() }, 'webhook attempt failed');
    }
  }

  /** Stops claiming; lets attempts in flight finish for up to `graceMs`, then cuts them short and hands them back. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.wakeStop();
    await this.loop;
    if (this.inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.all([...this.inFlight]), grace]);
      clearTimeout(timer);
      this.cut.abort();
      await Promise.all([...this.inFlight]);
    }
  }
}
