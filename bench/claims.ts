// How long a worker's claim takes with a deep queue (issue 37): the claim picks the fairest runnable
// document across workspaces, which reads every runnable row, where a first-come claim read them in
// order; on SQLite a claim holds the write lock the API's uploads wait for, so its time matters.
//
//   npm run bench:claims [-- --before /path/to/older/checkout] [-- --queued 10000]
//
// For each store (SQLite in a temporary folder; PostgreSQL in a fresh schema of
// FOLIO_TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test), it writes 20
// workspaces on the default plan and `--queued` queued documents, nine tenths of them one
// workspace's backlog and the rest spread over the others, then makes 300 claims, each followed by
// the claimed document's completion (so the running counts stay small, as in a steady flow).
// Prints the median and p95 of a claim, and with --before the same for the older build's claim.
// Writes bench/results/claims-<ISO date>.json. Nothing here asserts on time.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PG_URL = process.env.FOLIO_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CLAIMS = 300;
const WORKSPACES = 20;

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

interface Figures {
  build: string;
  store: string;
  queued: number;
  median_ms: number;
  p95_ms: number;
}

async function measure(build: string, checkout: string, store: 'sqlite' | 'postgres', queued: number): Promise<Figures> {
  const load = (file: string) => import(pathToFileURL(path.join(checkout, 'dist', file)).href);
  const { openStore } = await load('store/index.js');
  const { claimNext } = await load('queue/leases.js');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'folio-claims-'));
  let schema: string | null = null;
  let databaseUrl: string | null = null;
  if (store === 'postgres') {
    schema = `bench_${Math.random().toString(36).slice(2, 10)}`;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.end();
    databaseUrl = `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }
  const folio = await openStore({ dataDir, databaseUrl, blobStore: 'local', s3: null });
  try {
    const now = Date.now();
    await folio.db.insertInto('organizations').values({ id: 'org_bench', name: 'Bench', slug: 'bench', created_at: now }).execute();
    const workspaces = Array.from({ length: WORKSPACES }, (_, i) => `ws_bench${String(i).padStart(2, '0')}`);
    for (const id of workspaces) {
      await folio.db.insertInto('workspaces').values({ id, organization_id: 'org_bench', plan_id: 'payg', name: id, balance_micro: 0, held_micro: 0, suspended_at: null, created_at: now }).execute();
    }
    const rows = Array.from({ length: queued }, (_, i) => ({
      id: `doc_bench${String(i).padStart(8, '0')}`,
      workspace_id: i < queued * 0.9 ? workspaces[0] : workspaces[1 + (i % (WORKSPACES - 1))],
      mode: 'test',
      status: 'queued',
      stage: 'received',
      analysis: 'layout',
      model_requested: 'auto',
      model_used: 'swift',
      settled_micro: null,
      retention_seconds: 86_400,
      options: '{}',
      timings: '{}',
      error_type: null,
      error_message: null,
      error_stage: null,
      created_at: now + i,
      started_at: null,
      completed_at: null,
      failed_at: null,
      expires_at: null,
      purged_at: null,
      retrieved_at: null,
      run_at: now + i - queued,
      attempts: 0,
      locked_by: null,
      lease_token: null,
      lease_expires_at: null,
      byte_size: 1000,
      content_type: 'application/pdf',
      filename: 'bench.pdf',
      source_url: null,
      page_count: 1,
      estimated_micro: 0,
      hold_micro: 0,
      upload_key: null,
    }));
    for (let at = 0; at < rows.length; at += 500) await folio.db.insertInto('documents').values(rows.slice(at, at + 500)).execute();
    const times: number[] = [];
    for (let i = 0; i < CLAIMS; i++) {
      const started = performance.now();
      const claimed = await claimNext(folio, 'wrk_bench', 60_000);
      times.push(performance.now() - started);
      const id = claimed?.doc?.id;
      if (!id) throw new Error('nothing to claim');
      await folio.db.updateTable('documents').set({ status: 'completed', lease_token: null, locked_by: null, lease_expires_at: null }).where('id', '=', id).execute();
    }
    times.sort((a, b) => a - b);
    const round = (v: number) => Math.round(v * 100) / 100;
    return { build, store, queued, median_ms: round(times[Math.floor(times.length / 2)]), p95_ms: round(times[Math.ceil(times.length * 0.95) - 1]) };
  } finally {
    await folio.close();
    await rm(dataDir, { recursive: true, force: true });
    if (schema) {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    }
  }
}

const queued = Number(argument('queued') ?? 10_000);
const before = argument('before');
const builds: [string, string][] = [...(before ? [[`before (${path.basename(path.resolve(before))})`, path.resolve(before)] as [string, string]] : []), ['this build', ROOT]];
const results: Figures[] = [];
for (const store of ['sqlite', 'postgres'] as const) {
  for (const [build, checkout] of builds) results.push(await measure(build, checkout, store, queued));
}
console.log(`a claim with ${queued} documents queued (90% of them one workspace's), ${CLAIMS} claims`);
console.log('| store | build | median | p95 |');
console.log('|---|---|---|---|');
for (const r of results) console.log(`| ${r.store} | ${r.build} | ${r.median_ms} ms | ${r.p95_ms} ms |`);
const file = path.join(ROOT, 'bench/results', `claims-${new Date().toISOString().replace(/:/g, '-')}.json`);
await mkdir(path.dirname(file), { recursive: true });
await writeFile(file, `${JSON.stringify({ queued, claims: CLAIMS, results }, null, 1)}\n`);
console.log(`wrote ${path.relative(ROOT, file)}`);
