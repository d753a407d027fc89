// Request limits (docs/decisions.md#rate-limits, docs/api.md 429 and 402 quota_exceeded; issue 3 scopes 6 and 7).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, STORE, type Server } from '../helpers/folio.js';

let install: Installation;
let server: Server;

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  await install.admin('plan', 'create', '--id', 'slow', '--name', 'Slow', '--rate-limit-per-second', '3');
  await install.admin('plan', 'create', '--id', 'metered', '--name', 'Metered', '--monthly-request-quota', '5', '--max-retention-seconds', '604800');
});

afterAll(async () => {
  await server?.stop();
  await install?.destroy();
});

/**
 * Fires `count` requests at once, starting just after a second begins (client and server share
 * this machine's clock), and counts the one-second windows the burst spanned.
 */
async function burst(clients: Client[], count: number) {
  while (Date.now() % 1000 > 50) await new Promise((r) => setTimeout(r, 5));
  const started = Date.now();
  const responses = await Promise.all(Array.from({ length: count }, (_, i) => clients[i % clients.length].get('/api/v1/account')));
  const windows = Math.floor(Date.now() / 1000) - Math.floor(started / 1000) + 1;
  return { ok: responses.filter((r) => r.status === 200), limited: responses.filter((r) => r.status === 429), windows };
}

describe('rate limit per key', () => {
  it('carries X-RateLimit-* headers on every authenticated answer, errors included', async () => {
    const ws = await install.workspace();
    const client = new Client(server.url, ws.live);
    for (const response of [await client.get('/api/v1/account'), await client.get('/api/v1/documents/doc_01aaaaaaaaaaaaaaaaaaaaaaaa')]) {
      expect(response.headers.get('x-ratelimit-limit')).toBe('50');
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeLessThan(50);
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('answers 429 rate_limited with Retry-After, limit and retry_after beyond the plan rate', async () => {
    const ws = await install.workspace({ plan: 'slow' });
    const { ok, limited, windows } = await burst([new Client(server.url, ws.test)], 12);
    expect(limited.length).toBeGreaterThan(0);
    expect(ok.length).toBeLessThanOrEqual(3 * windows);
    const refused = limited[0];
    expect(refused.json.error).toMatchObject({ type: 'rate_limited', limit: 3, retry_after: expect.any(Number) });
    expect(refused.headers.get('retry-after')).toBe(String(refused.json.error.retry_after));
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    // The limit is per key: the workspace's other key still gets through.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await new Client(server.url, ws.live).get('/api/v1/account')).status).toBe(200);
  });

  it.skipIf(STORE !== 'postgres')('holds across two API processes sharing PostgreSQL', async () => {
    const second = await install.start(['--no-workers']);
    try {
      const ws = await install.workspace({ plan: 'slow' });
      const clients = [new Client(server.url, ws.test), new Client(second.url, ws.test)];
      const { ok, limited, windows } = await burst(clients, 30);
      expect(limited.length).toBeGreaterThan(0);
      // At most 3 a second in all, not 3 a second per process.
      expect(ok.length).toBeLessThanOrEqual(3 * windows);
    } finally {
      await second.stop();
    }
  });
});

describe('monthly request quota', () => {
  it('answers 402 quota_exceeded with limit, used, resets_at and upgrade_url once spent, and resets next month', async () => {
    const ws = await install.workspace({ plan: 'metered' });
    const client = new Client(server.url, ws.test);
    for (let i = 0; i < 5; i++) expect((await client.get('/api/v1/account')).status).toBe(200);
    const refused = await client.get('/api/v1/documents');
    expect(refused.status).toBe(402);
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    expect(refused.json.error).toEqual({
      type: 'quota_exceeded',
      message: expect.any(String),
      limit: 5,
      used: 5,
      resets_at: nextMonth,
      upgrade_url: expect.stringMatching(/^https?:\/\//),
    });
    // Every key of the workspace shares the quota.
    expect((await new Client(server.url, ws.live).get('/api/v1/account')).status).toBe(402);
    // A pay-as-you-go workspace is never capped.
    const payg = new Client(server.url, (await install.workspace()).test);
    for (let i = 0; i < 8; i++) expect((await payg.get('/api/v1/account')).status).toBe(200);

    const later = await install.start(['--no-workers'], { FOLIO_CLOCK_OFFSET_MS: String(Date.parse(nextMonth) - Date.now() + 3600_000) });
    try {
      expect((await new Client(later.url, ws.test).get('/api/v1/account')).status).toBe(200);
    } finally {
      await later.stop();
    }
  });
});
