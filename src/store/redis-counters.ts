// The request counters in Redis (FOLIO_REDIS_URL), so that answering a request writes nothing to
// the database: polling is most of what an API process answers, and a database write per request
// (one row per key, locked by every request of that key) is what held PostgreSQL to a fifth of
// SQLite's speed. Redis' atomic increments keep both limits exact across API processes:
// - the rate: one counter per key and one-second window, expiring after two seconds;
// - the quota: one counter per workspace and month, raised only below the limit by a script.
//   Redis here may keep nothing on disk, so the database stays the record: each process writes
//   the counts it touched to `request_quota` every second (never lowering them), and a month's
//   counter missing from Redis starts from the database's count. If Redis loses its data, the
//   requests of at most the last second are counted again (docs/decisions.md#rate-limits).
// While Redis cannot be reached, requests are counted in the database as without Redis, and a
// month counted there is raised in Redis once it is back.
import { Redis } from 'ioredis';
import { raiseStoredQuota, storedQuota, type CounterLog, type RequestCounters } from './counters.js';
import type { Store } from './index.js';

/** How often the quota counts a process touched are written to the database. */
const QUOTA_FLUSH_MS = 1_000;
/** A month's counter outlives its month, so a late flush still finds it. */
const QUOTA_TTL_S = 40 * 24 * 3600;
const RATE_TTL_MS = 2_000;
/** How long a starting API waits for Redis before it counts in the database. */
const CONNECT_WAIT_MS = 3_000;

const RATE_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

// {1, count} counted; {0, count} refused, the quota spent; {-1, 0} no counter for the month yet.
const QUOTA_SCRIPT = `
local n = redis.call('GET', KEYS[1])
if not n then return {-1, 0} end
n = tonumber(n)
if n >= tonumber(ARGV[1]) then return {0, n} end
return {1, redis.call('INCR', KEYS[1])}`;

// Sets a counter to at least ARGV[1], creating it with a lifetime of ARGV[2] seconds.
const RAISE_SCRIPT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '-1')
if n < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end
return 1`;

type CountingRedis = Redis & {
  folioRate(key: string, ttlMs: number): Promise<number>;
  folioQuota(key: string, limit: number): Promise<[number, number]>;
  folioRaise(key: string, count: number, ttlS: number): Promise<number>;
};

const rateKey = (keyId: string, window: number) => `folio:rate:${keyId}:${window}`;
const quotaKey = (workspaceId: string, period: string) => `folio:quota:${workspaceId}:${period}`;

export function redisCounters(url: string, store: Store, database: RequestCounters, log: CounterLog): RequestCounters {
  const redis = new Redis(url, {
    // A command while Redis is away fails at once and the database counts the request instead;
    // queued commands would hold requests for as long as Redis is gone.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  }) as CountingRedis;
  redis.defineCommand('folioRate', { numberOfKeys: 1, lua: RATE_SCRIPT });
  redis.defineCommand('folioQuota', { numberOfKeys: 1, lua: QUOTA_SCRIPT });
  redis.defineCommand('folioRaise', { numberOfKeys: 1, lua: RAISE_SCRIPT });

  /** Months whose Redis counter moved since the last flush, as workspace and period. */
  const touched = new Map<string, { workspaceId: string; period: string }>();
  /** Months counted in the database while Redis was away, to raise in Redis when it is back. */
  const countedAside = new Map<string, { workspaceId: string; period: string }>();
  let away = false;

  const fellBack = (error: unknown) => {
    if (!away) log.warn({ err: error }, 'Redis cannot be reached; request counters use the database until it is back');
    away = true;
  };
  redis.on('error', (error) => {
    if (redis.status !== 'ready') fellBack(error);
  });
  redis.on('ready', () => {
    if (away) log.info({}, 'Redis is back; request counters use it again');
    away = false;
    void raiseCountedAside();
  });

  async function raiseCountedAside(): Promise<void> {
    for (const [id, month] of [...countedAside]) {
      countedAside.delete(id);
      const count = await storedQuota(store, month.workspaceId, month.period);
      if (count !== null) await redis.folioRaise(id, count, QUOTA_TTL_S).catch(fellBack);
    }
  }

  async function flush(): Promise<void> {
    const months = [...touched.entries()];
    touched.clear();
    for (const [id, month] of months) {
      const count = await redis.get(id).catch(() => null);
      if (count !== null) await raiseStoredQuota(store, month.workspaceId, month.period, Number(count));
    }
  }
  let flushing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    flushing = flushing.then(flush).catch((error: unknown) => log.warn({ err: error }, 'could not write request quota counts to the database'));
  }, QUOTA_FLUSH_MS);
  timer.unref();

  const ready = () => redis.status === 'ready';
  // An API starts answering once Redis answers, or once it has failed to connect in time, so a
  // process started beside a working Redis counts its first request there.
  const connected = new Promise<void>((resolve) => {
    if (ready()) return resolve();
    const done = () => {
      clearTimeout(timeout);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timeout = setTimeout(done, CONNECT_WAIT_MS);
    redis.once('ready', done);
    redis.once('error', done);
  });

  return {
    async hitRate(keyId, window) {
      if (ready()) {
        try {
          return await redis.folioRate(rateKey(keyId, window), RATE_TTL_MS);
        } catch (error) {
          fellBack(error);
        }
      }
      return database.hitRate(keyId, window);
    },

    async hitQuota(workspaceId, period, limit) {
      const id = quotaKey(workspaceId, period);
      if (ready()) {
        try {
          let [state, count] = await redis.folioQuota(id, limit);
          if (state === -1) {
            // The month's first request since Redis started: the database's count is the floor.
            await redis.folioRaise(id, (await storedQuota(store, workspaceId, period)) ?? 0, QUOTA_TTL_S);
            [state, count] = await redis.folioQuota(id, limit);
          }
          if (state !== -1) {
            if (state === 1) touched.set(id, { workspaceId, period });
            return { allowed: state === 1, used: count };
          }
        } catch (error) {
          fellBack(error);
        }
      }
      countedAside.set(id, { workspaceId, period });
      return database.hitQuota(workspaceId, period, limit);
    },

    started: () => connected,

    async close() {
      clearInterval(timer);
      await flushing.catch(() => undefined);
      await flush().catch((error: unknown) => log.warn({ err: error }, 'could not write request quota counts to the database'));
      redis.disconnect();
    },
  };
}
