// Which request counters a process uses: Redis when FOLIO_REDIS_URL is set, else the database.
import { databaseCounters, type CounterLog, type RequestCounters } from './counters.js';
import type { Store } from './index.js';
import { redisCounters } from './redis-counters.js';

export interface CounterSettings {
  /** Redis for the counters when set (`redis://host:port/db`). */
  redisUrl: string | null;
}

export function requestCounters(store: Store, settings: CounterSettings, log: CounterLog): RequestCounters {
  const database = databaseCounters(store);
  return settings.redisUrl ? redisCounters(settings.redisUrl, store, database, log) : database;
}
