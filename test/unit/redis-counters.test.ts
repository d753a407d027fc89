// The request counters in Redis (src/store/redis-counters.ts) against a real Redis
// (FOLIO_TEST_REDIS_URL, default redis://127.0.0.1:6379): exact across processes, the database
// kept as the quota's record and used while Redis cannot be reached.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { openStore, type Store } from '../../src/store/index.js';
import { databaseCounters, raiseStoredQuota, storedQuota, type RequestCounters } from '../../src/store/counters.js';
import { requestCounters } from '../../src/store/open-counters.js';

const REDIS_URL = process.env.FOLIO_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const UNREACHABLE = 'redis://127.0.0.1:1';
const log = { warned: [] as string[], warn(_: object, message: string) { this.warned.push(message); }, info() {} };

/** A client of the test's own, to see what the counters wrote. */
const redis = new Redis(REDIS_URL, { lazyConnect: true });
let dir: string;
let store: Store;
const opened: RequestCounters[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'folio-counters-'));
  store = await openStore({ databaseUrl: null, dataDir: dir, blobStore: 'local' });
});

afterAll(async () => {
  for (const counters of opened) await counters.close();
  redis.disconnect();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const unique = (prefix: string) => `${prefix}_${Math.random().toString(36).slice(2, 12)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Counters as an API process opens them, once Redis answers. */
async function redisCounting(url = REDIS_URL): Promise<RequestCounters> {
  const counters = requestCounters(store, { redisUrl: url }, log);
  opened.push(counters);
  await counters.started();
  const probe = unique('probe');
  await counters.hitRate(probe, 1);
  if ((await redis.exists(`folio:rate:${probe}:1`)) !== 1) throw new Error(`Redis at ${url} does not count`);
  return counters;
}

describe('request counters in Redis', () => {
  it('count each key per one-second window, exactly, across processes sharing Redis', async () => {
    const [a, b] = [await redisCounting(), await redisCounting()];
    const key = unique('key');
    const counts = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).hitRate(key, 7)));
    expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await a.hitRate(key, 8)).toBe(1);
    // Nothing was written to the database for it.
    expect(await store.db.selectFrom('rate_counters').selectAll().where('key_id', '=', key).execute()).toEqual([]);
  });

  it('let exactly the quota through across processes, and keep the count in the database', async () => {
    const [a, b] = [await redisCounting(), await redisCounting()];
    const ws = unique('ws');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).hitQuota(ws, '2026-11', 12)));
    expect(answers.filter((x) => x.allowed)).toHaveLength(12);
    expect(answers.filter((x) => !x.allowed).every((x) => x.used === 12)).toBe(true);
    expect(answers.filter((x) => x.allowed).map((x) => x.used).sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    // Written within a flush interval, without a request, and never lowered.
    for (let i = 0; i < 50 && (await storedQuota(store, ws, '2026-11')) !== 12; i++) await sleep(100);
    expect(await storedQuota(store, ws, '2026-11')).toBe(12);
  });

  it("start a month missing from Redis at the database's count", async () => {
    const counters = await redisCounting();
    const ws = unique('ws');
    await raiseStoredQuota(store, ws, '2026-10', 9);
    expect(await counters.hitQuota(ws, '2026-10', 11)).toEqual({ allowed: true, used: 10 });
    expect(await counters.hitQuota(ws, '2026-10', 11)).toEqual({ allowed: true, used: 11 });
    expect(await counters.hitQuota(ws, '2026-10', 11)).toEqual({ allowed: false, used: 11 });
    await counters.close();
    expect(await storedQuota(store, ws, '2026-10')).toBe(11);
  });

  it('count in the database while Redis cannot be reached, and say so in the log', async () => {
    const counters = requestCounters(store, { redisUrl: UNREACHABLE }, log);
    opened.push(counters);
    const key = unique('key');
    const ws = unique('ws');
    expect(await counters.hitRate(key, 3)).toBe(1);
    expect(await counters.hitRate(key, 3)).toBe(2);
    expect(await counters.hitQuota(ws, '2026-11', 2)).toEqual({ allowed: true, used: 1 });
    expect(await counters.hitQuota(ws, '2026-11', 2)).toEqual({ allowed: true, used: 2 });
    expect(await counters.hitQuota(ws, '2026-11', 2)).toEqual({ allowed: false, used: 2 });
    expect(await storedQuota(store, ws, '2026-11')).toBe(2);
    for (let i = 0; i < 50 && log.warned.length === 0; i++) await sleep(50);
    expect(log.warned.some((m) => m.includes('Redis cannot be reached'))).toBe(true);
  });

  it('agree with the database counters on the same sequence of requests', async () => {
    const redis = await redisCounting();
    const database = databaseCounters(store);
    const [wsRedis, wsDatabase] = [unique('ws'), unique('ws')];
    const viaRedis = [];
    const viaDatabase = [];
    for (let i = 0; i < 8; i++) {
      viaRedis.push(await redis.hitQuota(wsRedis, '2026-12', 5));
      viaDatabase.push(await database.hitQuota(wsDatabase, '2026-12', 5));
    }
    expect(viaRedis).toEqual(viaDatabase);
  });
});
