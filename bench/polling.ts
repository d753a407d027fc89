// How fast one API process answers polling, `GET /api/v1/documents/{id}`, on each store.
//
//   npm run bench:polling        (builds, then runs this file with tsx; PostgreSQL at
//                                 FOLIO_TEST_DATABASE_URL and Redis at FOLIO_TEST_REDIS_URL,
//                                 default redis://127.0.0.1:6379, for those rows)
//
// One API process (`folio serve --no-workers`) per configuration: SQLite; PostgreSQL; PostgreSQL
// with Redis keeping the request counters (FOLIO_REDIS_URL). A workspace on a plan with a rate
// limit no client reaches and a monthly quota, so every request passes through both counters, as
// a capped plan's would. One document is uploaded (no worker runs: a queued document is what a
// client polls), then autocannon sends GETs for it over POLLING_CONNECTIONS (50) connections:
// POLLING_WARMUP_S (3) s of warm-up, then POLLING_SECONDS (10) s measured. Every answer must be
// 200. Each configuration runs in a child process of its own (the test helpers fix the store
// when they load), one after the other, so they do not share the machine's cores.
//
// Prints a row per configuration and writes bench/results/polling-<ISO date>.json. Client and
// API share the machine: compare configurations and builds on the same machine, not absolute
// figures. Nothing here asserts on time.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadFigures } from './load-figures.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CONFIGURATIONS = ['sqlite', 'postgres', 'postgres+redis'] as const;
type Configuration = (typeof CONFIGURATIONS)[number];
const REDIS_URL = process.env.FOLIO_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONNECTIONS = Number(process.env.POLLING_CONNECTIONS ?? 50);
const WARMUP_S = Number(process.env.POLLING_WARMUP_S ?? 3);
const SECONDS = Number(process.env.POLLING_SECONDS ?? 10);

interface Row {
  configuration: Configuration;
  figures: LoadFigures | null;
  api_peak_rss_mb: number | null;
  error: string | null;
}

/** In a child: one configuration, measured; prints its row as the last line of stdout. */
async function measureOne(configuration: Configuration): Promise<Row> {
  const { Client, Installation } = await import('../test/helpers/folio.js');
  const { textPdf } = await import('../test/helpers/pdfs.js');
  const { loadFigures } = await import('./load-figures.js');
  const autocannon = (await import('autocannon')).default;
  const install = await Installation.create(configuration === 'postgres+redis' ? { FOLIO_REDIS_URL: REDIS_URL } : {});
  let api: Awaited<ReturnType<typeof install.start>> | null = null;
  try {
    await install.admin('plan', 'create', '--id', 'polling', '--name', 'Polling bench', '--rate-limit-per-second', '1000000', '--monthly-request-quota', '1000000000');
    const ws = await install.workspace({ plan: 'polling' });
    api = await install.start(['--no-workers']);
    const client = new Client(api.url, ws.test);
    const form = new FormData();
    form.append('file', new Blob([await textPdf([['Polled while it waits in the queue.']])]), 'polled.pdf');
    const submitted = await client.request('POST', '/api/v1/documents', { body: form });
    if (submitted.status !== 202) throw new Error(`upload answered ${submitted.status}: ${submitted.text}`);
    const url = `${api.url}/api/v1/documents/${submitted.json.id}`;
    const cannon = (duration: number) => autocannon({ url, method: 'GET', headers: client.headers(), connections: CONNECTIONS, duration, timeout: 10 });
    await cannon(WARMUP_S);
    const figures = loadFigures(await cannon(SECONDS));
    const status = await readFileSafe(`/proc/${api.process.pid}/status`);
    const peak = /VmHWM:\s+(\d+)/.exec(status)?.[1];
    return { configuration, figures, api_peak_rss_mb: peak ? Math.round(Number(peak) / 1024) : null, error: null };
  } finally {
    await api?.stop();
    await install.destroy();
  }
}

async function readFileSafe(file: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return readFile(file, 'utf8').catch(() => '');
}

function runChild(configuration: Configuration): Promise<Row> {
  const store = configuration === 'sqlite' ? 'sqlite' : 'postgres';
  return new Promise((resolve) => {
    // A child of its own through tsx's own command (tsx's loader flags alone leave it waiting for tsx's parent).
    const child = spawn(path.join(HERE, '../node_modules/.bin/tsx'), [fileURLToPath(import.meta.url), '--one', configuration], {
      env: { ...process.env, FOLIO_TEST_STORE: store },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    // 'exit', not 'close': the API the child started may still hold a copy of its stdout.
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(last) as Row);
      } catch {
        resolve({ configuration, figures: null, api_peak_rss_mb: null, error: `the child exited ${code}: ${last.slice(0, 300)}` });
      }
    });
  });
}

const oneAt = process.argv.indexOf('--one');
if (oneAt >= 0) {
  const configuration = process.argv[oneAt + 1] as Configuration;
  const row = await measureOne(configuration).catch((error: unknown): Row => ({ configuration, figures: null, api_peak_rss_mb: null, error: String(error) }));
  process.stdout.write(`${JSON.stringify(row)}\n`);
  process.exit(0);
}

const only = process.env.POLLING_ONLY?.split(',') as Configuration[] | undefined;
const rows: Row[] = [];
for (const configuration of CONFIGURATIONS) {
  if (only && !only.includes(configuration)) continue;
  process.stderr.write(`[bench:polling] ${configuration}: ${WARMUP_S} s warm-up, ${SECONDS} s measured, ${CONNECTIONS} connections\n`);
  rows.push(await runChild(configuration));
}

const commit = await new Promise<string>((resolve) => {
  const git = spawn('git', ['rev-parse', '--short', 'HEAD'], { cwd: path.join(HERE, '..') });
  let out = '';
  git.stdout.on('data', (d) => (out += d));
  git.on('close', () => resolve(out.trim()));
});
console.log(`\nGET /api/v1/documents/{id}, one API process, ${CONNECTIONS} connections, ${SECONDS} s (node ${process.version}, ${os.cpus().length} cores, commit ${commit})\n`);
console.log('configuration     req/s    p50 ms  p99 ms  max ms  non-2xx  API peak RSS');
for (const row of rows) {
  const f = row.figures;
  if (!f) {
    console.log(`${row.configuration.padEnd(16)}  failed: ${row.error}`);
    continue;
  }
  console.log(
    `${row.configuration.padEnd(16)}  ${f.requests_per_s.average.toFixed(0).padStart(6)}  ${String(f.latency_ms.p50).padStart(6)}  ${String(f.latency_ms.p99).padStart(6)}  ${String(f.latency_ms.max).padStart(6)}  ${String(f.non_2xx).padStart(7)}  ${row.api_peak_rss_mb} MB`,
  );
}
const summary = `polling: ${rows.map((r) => (r.figures ? `${r.configuration} ${r.figures.requests_per_s.average.toFixed(0)} req/s p99 ${r.figures.latency_ms.p99} ms` : `${r.configuration} failed`)).join(' | ')}`;
console.log(`\n${summary}`);
const dir = path.join(HERE, 'results');
await mkdir(dir, { recursive: true });
const file = path.join(dir, `polling-${new Date().toISOString().replace(/:/g, '-')}.json`);
await writeFile(file, `${JSON.stringify({ benchmark: 'polling', date: new Date().toISOString(), commit, node: process.version, cpus: os.cpus().length, connections: CONNECTIONS, seconds: SECONDS, rows, summary }, null, 1)}\n`);
console.log(`written to ${path.relative(path.join(HERE, '..'), file)}`);
