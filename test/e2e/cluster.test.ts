// Coordination across processes (issue 10 scope 2): three API and three worker processes on one
// PostgreSQL database keep every shared promise exact. Each test compares what the clients saw
// with what the database counted, so a lost increment or a double claim shows as a mismatch:
// - the per-key rate limit (docs/decisions.md#rate-limits): per one-second window, exactly `limit` answers pass
//   and the rest are 429, and no hit is lost;
// - the monthly request quota: exactly `quota` requests pass, whichever API they reach;
// - Idempotency-Key (docs/decisions.md "Idempotency-Key"): one key sent to all three APIs at once makes
//   one document;
// - max_concurrent_jobs: never more documents processing than the plan allows, observed from
//   the database itself;
// - the expiry sweeper, run by all six processes: every expired document purged once, its
//   pictures and upload gone.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, STORE, type Server } from '../helpers/folio.js';
import { longPdf, textPdf } from '../helpers/pdfs.js';
import { Redis } from 'ioredis';

let install: Installation;
const servers: Server[] = [];

beforeAll(async () => {
  if (STORE !== 'postgres') return;
  install = await Installation.create({ FOLIO_POLL_MS: '100' });
});

afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

afterAll(async () => {
  await install?.destroy();
});

async function startCluster(env: NodeJS.ProcessEnv = {}): Promise<{ apis: Server[]; workers: Server[] }> {
  const apis = await Promise.all([0, 1, 2].map(() => install.start(['--no-workers'], env)));
  const workers = await Promise.all([0, 1, 2].map(() => install.start(['worker'], env)));
  servers.push(...apis, ...workers);
  return { apis, workers };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(STORE !== 'postgres')('three API and three worker processes on one PostgreSQL', () => {
  // The counters in the database, and in Redis (FOLIO_REDIS_URL), where answering writes nothing
  // to the database: both must be exact across the three APIs.
  const REDIS_URL = process.env.FOLIO_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  describe.each([
    { counters: 'the database', env: {} as NodeJS.ProcessEnv },
    { counters: 'Redis', env: { FOLIO_REDIS_URL: REDIS_URL } as NodeJS.ProcessEnv },
  ])('with the request counters in $counters', ({ env }) => {
    /** Each window's count of one workspace's keys, as the counters hold it. */
    async function windowCounts(workspaceId: string): Promise<number[]> {
      if (!env.FOLIO_REDIS_URL) {
        const rows = await install.database((db) =>
          db.query<{ count: number }>(`SELECT r.count::int AS count FROM rate_counters r JOIN api_keys k ON k.id = r.key_id WHERE k.workspace_id = $1`, [workspaceId]),
        );
        return rows.rows.map((r) => r.count);
      }
      const keys = await install.database((db) => db.query<{ id: string }>('SELECT id FROM api_keys WHERE workspace_id = $1', [workspaceId]));
      const redis = new Redis(REDIS_URL);
      try {
        const counts: number[] = [];
        for (const { id } of keys.rows) {
          for (const name of await redis.keys(`folio:rate:${id}:*`)) counts.push(Number(await redis.get(name)));
        }
        return counts;
      } finally {
        redis.disconnect();
      }
    }

    it('count every request against the rate limit once and let exactly the limit through per second', async () => {
      const { apis } = await startCluster(env);
      const plan = `rl5-${env.FOLIO_REDIS_URL ? 'redis' : 'database'}`;
      await install.admin('plan', 'create', '--id', plan, '--name', 'Five a second', '--rate-limit-per-second', '5');
      const ws = await install.workspace({ plan });
      const clients = apis.map((api) => new Client(api.url, ws.test));
      const answers = await Promise.all(Array.from({ length: 90 }, (_, i) => clients[i % 3].get('/api/v1/documents?limit=1')));
      const statuses = answers.map((a) => a.status);
      expect(new Set(statuses)).toEqual(new Set([200, 429]));

      const counts = await windowCounts(ws.id);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(90);
      expect(statuses.filter((s) => s === 200)).toHaveLength(counts.reduce((a, c) => a + Math.min(5, c), 0));
      expect(statuses.filter((s) => s === 429)).toHaveLength(counts.reduce((a, c) => a + Math.max(0, c - 5), 0));
    });

    it('let exactly the monthly quota through, whichever API the requests reach', async () => {
      const { apis } = await startCluster(env);
      const plan = `q40-${env.FOLIO_REDIS_URL ? 'redis' : 'database'}`;
      await install.admin('plan', 'create', '--id', plan, '--name', 'Forty a month', '--rate-limit-per-second', '1000', '--monthly-request-quota', '40');
      const ws = await install.workspace({ plan });
      const clients = apis.map((api) => new Client(api.url, ws.test));
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => clients[i % 3].get('/api/v1/documents?limit=1')));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(40);
      expect(statuses.filter((s) => s === 402)).toHaveLength(60);
      const refused = answers.find((a) => a.status === 402)!;
      expect(refused.json.error).toMatchObject({ type: 'quota_exceeded', limit: 40, used: 40 });
      // With Redis the database is written within a second of the requests, not by them.
      let used: unknown[] = [];
      for (let i = 0; i < 50; i++) {
        used = (await install.database((db) => db.query('SELECT count::int AS count FROM request_quota WHERE workspace_id = $1', [ws.id]))).rows;
        if (JSON.stringify(used) === JSON.stringify([{ count: 40 }])) break;
        await sleep(100);
      }
      expect(used).toEqual([{ count: 40 }]);
    });
  });

  it('make one document per Idempotency-Key when the same request reaches all three APIs at once', async () => {
    const { apis } = await startCluster();
    const ws = await install.workspace();
    const pdf = await textPdf([['One document per key, however many APIs are asked.']]);
    const keys = Array.from({ length: 15 }, (_, i) => `cluster-${i}-${Math.random().toString(36).slice(2)}`);

    const send = async (api: Server, key: string): Promise<string> => {
      const client = new Client(api.url, ws.live);
      for (;;) {
        const form = new FormData();
        form.append('file', new Blob([pdf]), 'same.pdf');
        const answer = await client.request('POST', '/api/v1/documents', { body: form, headers: { 'idempotency-key': key } });
        if (answer.status === 202) return answer.json.id;
        // 409 while another API holds the key: its answer is remembered, so asking again gets
        // it; 429 when the retries outrun the key's rate limit.
        expect([409, 429], answer.text).toContain(answer.status);
        await sleep(answer.status === 429 ? Number(answer.headers.get('retry-after')) * 1000 : 100);
      }
    };
    const perKey = await Promise.all(keys.map((key) => Promise.all(apis.map((api) => send(api, key)))));
    for (const ids of perKey) expect(new Set(ids).size).toBe(1);
    const distinct = new Set(perKey.map((ids) => ids[0]));
    expect(distinct.size).toBe(keys.length);
    const rows = await install.database((db) => db.query('SELECT count(*)::int AS n FROM documents WHERE workspace_id = $1', [ws.id]));
    expect(rows.rows[0].n).toBe(keys.length);
    const client = new Client(apis[0].url, ws.live);
    for (const id of distinct) expect((await client.waitFor(id, 60_000)).status).toBe('completed');
    // One hold and one charge per document, not per request.
    const records = await install.database((db) => db.query('SELECT count(*)::int AS n FROM usage_records WHERE workspace_id = $1', [ws.id]));
    expect(records.rows[0].n).toBe(keys.length);
  }, 120_000);

  it('never run more of a workspace’s documents at once than max_concurrent_jobs, and keep its slots busy', async () => {
    await install.admin('plan', 'create', '--id', 'duo', '--name', 'Duo', '--max-concurrent-jobs', '2');
    const ws = await install.workspace({ plan: 'duo' });
    // The documents wait in the queue before any worker runs, so all three workers compete.
    const api = await install.start(['--no-workers']);
    servers.push(api);
    const client = new Client(api.url, ws.test);
    const pdf = await longPdf(120);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await client.upload([['file', `d${i}.pdf`, pdf]])).json.id);

    // Sampled from the database, where a claim is visible the moment it commits.
    let maxProcessing = 0;
    let done = false;
    const sampler = install.database(async (db) => {
      while (!done) {
        const r = await db.query(`SELECT count(*)::int AS n FROM documents WHERE workspace_id = $1 AND status = 'processing'`, [ws.id]);
        maxProcessing = Math.max(maxProcessing, r.rows[0].n);
      }
    });
    const workers = await Promise.all([0, 1, 2].map(() => install.start(['worker'])));
    servers.push(...workers);
    try {
      for (const id of ids) expect((await client.waitFor(id, 120_000)).status).toBe('completed');
    } finally {
      done = true;
      await sampler;
    }
    expect(maxProcessing).toBe(2);
  }, 180_000);

  it('purge every expired document once while all six processes sweep', async () => {
    const { apis } = await startCluster();
    const ws = await install.workspace();
    const client = new Client(apis[0].url, ws.live);
    // Pictures and an upload blob for each, so there is something to reclaim.
    const pdf = await textPdf([['A short page: fewer than 25 words keeps the page picture.']]);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await client.upload([['file', `e${i}.pdf`, pdf]])).json.id);
    for (const id of ids) expect((await client.waitFor(id)).status).toBe('completed');
    const before = await install.database((db) => db.query(`SELECT count(DISTINCT key)::int AS n FROM blob_chunks WHERE key LIKE 'images/%' OR key LIKE 'uploads/%'`));
    expect(before.rows[0].n).toBeGreaterThanOrEqual(ids.length * 2);
    for (const s of servers.splice(0)) await s.stop();

    // Three days later, every process sweeping every 100 ms.
    const later = { FOLIO_CLOCK_OFFSET_MS: String(3 * 24 * 3600 * 1000), FOLIO_SWEEP_MS: '100' };
    const cluster = await startCluster(later);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const left = await install.database((db) => db.query(`SELECT count(*)::int AS n FROM documents WHERE workspace_id = $1 AND status <> 'expired'`, [ws.id]));
      if (left.rows[0].n === 0) break;
      if (Date.now() > deadline) throw new Error(`${left.rows[0].n} documents not purged`);
      await sleep(100);
    }
    // Let any sweep that was mid-batch finish before reading the logs.
    await sleep(500);
    const logs = [...cluster.apis, ...cluster.workers].map((s) => s.logs).join('\n');
    const purged = logs
      .split('\n')
      .filter((line) => line.includes('"expired results purged"'))
      .reduce((sum, line) => sum + JSON.parse(line).purged, 0);
    // Documents of the earlier tests expired too (they share the installation); each purge is
    // logged once by the process that did it.
    const expired = await install.database((db) => db.query(`SELECT count(*)::int AS n FROM documents WHERE status = 'expired'`));
    expect(expired.rows[0].n).toBeGreaterThanOrEqual(ids.length);
    expect(purged).toBe(expired.rows[0].n);
    expect(logs).not.toContain('expiry sweep failed');

    const after = await install.database((db) => db.query(`SELECT count(*)::int AS n FROM blob_chunks WHERE key LIKE 'images/%' OR key LIKE 'uploads/%'`));
    expect(after.rows[0].n).toBe(0);
    const pages = await install.database((db) => db.query('SELECT count(*)::int AS n FROM document_pages WHERE document_id = ANY($1)', [ids]));
    expect(pages.rows[0].n).toBe(0);
    const gone = await new Client(cluster.apis[1].url, ws.live).get(`/api/v1/documents/${ids[0]}`);
    expect(gone.status).toBe(410);
    expect(gone.json.error.type).toBe('document_expired');
  }, 120_000);
});
