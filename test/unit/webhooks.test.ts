// The webhook rules that need no server (domain/webhooks.ts): the retry schedule stays within a
// day of the event at the default base and scales with the base, and a signature made by the
// server verifies with the client's verifyWebhook (Web Crypto) and with nothing else. Also the
// sweeper's forgetting of old delivery logs, which must never touch a pending delivery.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextAttemptAt, retryWindowMs, signatureHeader, WEBHOOK_LOG_MS } from '../../src/domain/webhooks.js';
import { verifyWebhook } from '../../src/client/index.js';
import { openStore } from '../../src/store/index.js';
import { forgetOldDeliveries } from '../../src/store/webhooks.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe('the retry schedule', () => {
  it('waits 10 s, 1 min, 5 min, 30 min, 2 h, then 6 h, and gives up a day after the event', () => {
    const base = 10 * SECOND;
    const eventAt = 1_000_000;
    const waits: number[] = [];
    let now = eventAt;
    for (let attempt = 1; ; attempt++) {
      const next = nextAttemptAt(eventAt, attempt, now, base);
      if (next === null) break;
      waits.push(next - now);
      now = next;
    }
    expect(waits.slice(0, 8)).toEqual([10 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 6 * HOUR, 6 * HOUR]);
    // The last retry is moved to the end of the day rather than dropped.
    expect(now).toBe(eventAt + 24 * HOUR);
    expect(waits).toHaveLength(9);
    expect(retryWindowMs(base)).toBe(24 * HOUR);
  });

  it('scales with the base, so tests can run the whole schedule in moments', () => {
    expect(nextAttemptAt(0, 1, 0, 20)).toBe(20);
    expect(nextAttemptAt(0, 2, 100, 20)).toBe(220);
    expect(nextAttemptAt(0, 9, 8640 * 20, 20)).toBeNull();
  });
});

describe('signatures', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'document.completed', created_at: '2026-11-24T07:51:40.042Z', data: { object: { id: 'doc_1' } } });
  const t = 1_800_000_000;

  it('verifies what the server signed, and refuses another secret, another body, an old time or a malformed header', async () => {
    const header = signatureHeader('whsec_abc', body, t);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(await verifyWebhook(body, header, 'whsec_abc', { now: t })).toBe(true);
    expect(await verifyWebhook(Buffer.from(body), header, 'whsec_abc', { now: t + 299 })).toBe(true);
    expect(await verifyWebhook(body, header, 'whsec_abd', { now: t })).toBe(false);
    expect(await verifyWebhook(body.replace('doc_1', 'doc_2'), header, 'whsec_abc', { now: t })).toBe(false);
    expect(await verifyWebhook(body, header, 'whsec_abc', { now: t + 301 })).toBe(false);
    expect(await verifyWebhook(body, header, 'whsec_abc', { now: t - 301 })).toBe(false);
    expect(await verifyWebhook(body, header.replace(/^t=\d+/, `t=${t + 1}`), 'whsec_abc', { now: t })).toBe(false);
    for (const broken of ['', 'v1=', `t=${t}`, header.replace('v1=', 'v2='), header.slice(0, -2)]) {
      expect(await verifyWebhook(body, broken, 'whsec_abc', { now: t })).toBe(false);
    }
  });

  it('accepts any one of several v1 signatures (a secret being replaced)', async () => {
    const other = signatureHeader('whsec_old', body, t).split(',')[1];
    expect(await verifyWebhook(body, `${signatureHeader('whsec_abc', body, t)},${other}`, 'whsec_abc', { now: t })).toBe(true);
    expect(await verifyWebhook(body, `t=${t},${other}`, 'whsec_abc', { now: t })).toBe(false);
  });
});

describe('forgetting old delivery logs', () => {
  it('forgets finished deliveries, their attempts and events past the log period, and keeps the rest', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'folio-webhooks-'));
    const store = await openStore({ dataDir: dir, databaseUrl: null, blobStore: 'local' });
    try {
      const now = 100 * WEBHOOK_LOG_MS;
      const old = now - WEBHOOK_LOG_MS - 1000;
      const event = (id: string, at: number) => ({ id, workspace_id: 'ws_1', mode: 'test' as const, type: 'document.completed', body: '{}', created_at: at });
      const delivery = (id: string, eventId: string, status: 'pending' | 'delivered' | 'failed', at: number) => ({
        id, webhook_id: 'whk_1', event_id: eventId, status, attempts: 1, run_at: at, locked_by: null, lease_token: null, lease_expires_at: null, created_at: at, finished_at: status === 'pending' ? null : at,
      });
      const attempt = (id: string, deliveryId: string, eventId: string, at: number) => ({
        id, delivery_id: deliveryId, webhook_id: 'whk_1', event_id: eventId, type: 'document.completed', attempt: 1, status_code: 200, error: null, response_excerpt: null, duration_ms: 3, attempted_at: at, next_attempt_at: null,
      });
      await store.db.insertInto('webhook_events').values([event('evt_old', old), event('evt_stuck', old), event('evt_new', now)]).execute();
      await store.db.insertInto('webhook_deliveries').values([delivery('dlv_old', 'evt_old', 'delivered', old), delivery('dlv_stuck', 'evt_stuck', 'pending', old), delivery('dlv_new', 'evt_new', 'failed', now)]).execute();
      await store.db.insertInto('webhook_attempts').values([attempt('att_old', 'dlv_old', 'evt_old', old), attempt('att_new', 'dlv_new', 'evt_new', now)]).execute();

      await forgetOldDeliveries(store.db, now - WEBHOOK_LOG_MS);
      const ids = async (table: 'webhook_events' | 'webhook_deliveries' | 'webhook_attempts') => (await store.db.selectFrom(table).select('id').orderBy('id').execute()).map((r) => r.id);
      expect(await ids('webhook_events')).toEqual(['evt_new', 'evt_stuck']);
      expect(await ids('webhook_deliveries')).toEqual(['dlv_new', 'dlv_stuck']);
      expect(await ids('webhook_attempts')).toEqual(['att_new']);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
