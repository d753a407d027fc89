// Delivering webhook events: every worker process (`folio worker`, `folio serve` with workers)
// runs one loop that claims due deliveries from webhook_deliveries and POSTs them, up to
// DELIVERY_SLOTS at once, shared between workspaces and kept mostly for receivers that answer. A
// claim is one statement that takes the due row the sharing rules put first and stamps it with a lease, under PostgreSQL's
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

/**
 * Deliveries one process sends at once, so one slow receiver does not hold up the others; of them,
 * at most half to one workspace's receivers, and at most half to receivers whose last attempt
 * failed (one at a time to each), so dead receivers keep at least half the slots free for every
 * other workspace's healthy ones.
 */
export const DELIVERY_SLOTS = { total: 8, perWorkspace: 4, failing: 4 } as const;

/** What this process is sending now, which decides what it may claim next. */
export interface DeliveriesInHand {
  /** Workspaces at their share of this process's slots. */
  fullWorkspaces: string[];
  /** Failing receivers with an attempt under way here. */
  busyFailingWebhooks: string[];
  /** Whether the failing receivers' share has room. */
  failingAllowed: boolean;
}

export interface ClaimedDelivery {
  id: string;
  token: string;
  attempt: number;
  webhookId: string;
  workspaceId: string;
  /** Its receiver's last attempt failed. */
  failing: boolean;
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

/**
 * Claims the due delivery that the sharing rules put first: a healthy receiver's before a failing
 * one's, then the workspace with the fewest deliveries under way (in every process), then the
 * workspace served longest ago, then the oldest. What this process already sends (`inHand`) takes
 * out workspaces at their share and failing receivers it is already trying.
 */
export async function claimDelivery(store: Store, workerId: string, leaseMs: number, inHand: DeliveriesInHand = { fullWorkspaces: [], busyFailingWebhooks: [], failingAllowed: true }): Promise<ClaimedDelivery | null> {
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
  const notFull = inHand.fullWorkspaces.length ? sql`AND (h.workspace_id IS NULL OR h.workspace_id NOT IN (${sql.join(inHand.fullWorkspaces)}))` : sql``;
  const failingOk = !inHand.failingAllowed
    ? sql`AND COALESCE(h.failures_in_row, 0) = 0`
    : inHand.busyFailingWebhooks.length
      ? sql`AND (COALESCE(h.failures_in_row, 0) = 0 OR h.id NOT IN (${sql.join(inHand.busyFailingWebhooks)}))`
      : sql``;
  return store.writeTransaction(async (tx) => {
    const skipLocked = store.dialect === 'postgres' ? sql`FOR UPDATE OF d SKIP LOCKED` : sql``;
    // A delivery whose webhook is gone (deleted as the event was recorded) has no workspace: it is
    // claimed like a healthy one and dropped below.
    const result = await sql<DeliveryRow>`
      UPDATE webhook_deliveries
         SET locked_by = ${workerId},
             lease_token = ${token},
             lease_expires_at = ${now + leaseMs},
             attempts = attempts + 1
       WHERE id = (
         SELECT d.id
           FROM webhook_deliveries d
           LEFT JOIN webhooks h ON h.id = d.webhook_id
           LEFT JOIN workspaces w ON w.id = h.workspace_id
           LEFT JOIN (
             SELECT sh.workspace_id, COUNT(*) AS n
               FROM webhook_deliveries sd
               JOIN webhooks sh ON sh.id = sd.webhook_id
              WHERE sd.status = 'pending' AND sd.lease_expires_at >= ${now}
              GROUP BY sh.workspace_id) sending ON sending.workspace_id = h.workspace_id
          WHERE d.status = 'pending'
            AND d.run_at <= ${now}
            AND (d.lease_expires_at IS NULL OR d.lease_expires_at < ${now})
            ${notFull}
            ${failingOk}
          ORDER BY CASE WHEN COALESCE(h.failures_in_row, 0) > 0 THEN 1 ELSE 0 END,
                   COALESCE(sending.n, 0), COALESCE(w.last_delivery_at, 0), d.run_at, d.id
          LIMIT 1
          ${skipLocked})
      RETURNING *`.execute(tx);
    const row = result.rows[0];
    if (!row) return null;
    const info = await tx
      .selectFrom('webhooks')
      .innerJoin('webhook_events', (join) => join.on('webhook_events.id', '=', row.event_id))
      .select(['webhooks.url', 'webhooks.secret', 'webhooks.workspace_id', 'webhooks.failures_in_row', 'webhook_events.type', 'webhook_events.body', 'webhook_events.created_at'])
      .where('webhooks.id', '=', row.webhook_id)
      .executeTakeFirst();
    if (!info) {
      // Its webhook was deleted as the event was recorded (store/webhooks.ts): nobody to send it to.
      await tx.deleteFrom('webhook_deliveries').where('id', '=', row.id).execute();
      return null;
    }
    await tx.updateTable('workspaces').set({ last_delivery_at: now }).where('id', '=', info.workspace_id).execute();
    return {
      id: row.id,
      token,
      attempt: row.attempts,
      webhookId: row.webhook_id,
      workspaceId: info.workspace_id,
      failing: info.failures_in_row > 0,
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
      .updateTable('webhooks')
      .set((eb) => ({ failures_in_row: delivered ? 0 : eb('failures_in_row', '+', 1) }))
      .where('id', '=', claimed.webhookId)
      .execute();
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
  /** What each delivery under way is for: the sharing rules' view of this process. */
  private readonly sending = new Map<Promise<void>, { workspaceId: string; webhookId: string; failing: boolean }>();
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
      if (this.inFlight.size >= DELIVERY_SLOTS.total) {
        await Promise.race([...this.inFlight, this.stopped]);
        continue;
      }
      // Read before looking, so a wake-up that lands during the claim is not slept through.
      const seen = wakeup.seen;
      let claimed: ClaimedDelivery | null = null;
      try {
        claimed = await claimDelivery(store, this.workerId, leaseMs, this.inHand());
      } catch (error) {
        log.error({ err: error }, 'claiming a webhook delivery failed; retrying');
      }
      if (claimed) {
        this.send(claimed);
        continue;
      }
      // Workers wake this loop when they finish a document or question (the event is committed
      // by then); retries and the sweeper's events are found by the poll; a delivery that ends
      // may free the share another one waits for.
      await Promise.race([wakeup.wait(config.queue.pollMs, seen), this.stopped, ...this.inFlight]);
    }
  }

  /** The sharing rules (DELIVERY_SLOTS) applied to what this process sends now. */
  private inHand(): DeliveriesInHand {
    const perWorkspace = new Map<string, number>();
    const busyFailingWebhooks: string[] = [];
    for (const { workspaceId, webhookId, failing } of this.sending.values()) {
      perWorkspace.set(workspaceId, (perWorkspace.get(workspaceId) ?? 0) + 1);
      if (failing) busyFailingWebhooks.push(webhookId);
    }
    return {
      fullWorkspaces: [...perWorkspace].filter(([, n]) => n >= DELIVERY_SLOTS.perWorkspace).map(([id]) => id),
      busyFailingWebhooks,
      failingAllowed: busyFailingWebhooks.length < DELIVERY_SLOTS.failing,
    };
  }

  private send(claimed: ClaimedDelivery): void {
    const done: Promise<void> = this.deliver(claimed)
      .catch((error) => this.deps.log.error({ err: error, delivery_id: claimed.id, event_id: claimed.eventId }, 'webhook delivery crashed'))
      .finally(() => {
        this.inFlight.delete(done);
        this.sending.delete(done);
      });
    this.inFlight.add(done);
    this.sending.set(done, { workspaceId: claimed.workspaceId, webhookId: claimed.webhookId, failing: claimed.failing });
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
