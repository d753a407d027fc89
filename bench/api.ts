// Throughput and latency of `GET /api/v1/documents/{id}` against the real `folio serve`, once on
// SQLite and once on PostgreSQL.
//
//   npm run bench:api          (builds, then runs this file with tsx)
//
// The test helpers pick their store from FOLIO_TEST_STORE when they are loaded, so this file
// runs itself once per store as a child process (`--store sqlite|postgres` with the matching
// environment); each child starts its own server on a fresh installation, uploads one small PDF
// with the live key, waits until it is completed, warms up, measures with autocannon and hands
// its figures back through a JSON file. The parent prints one table and writes
// bench/results/api-<ISO date>.json.
//
// Client and server share the machine, so the figures are for comparing stores and changes on
// the same machine, not absolute capacity.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { loadFigures, type LoadFigures } from './load-figures.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const STORES = ['sqlite', 'postgres'] as const;
type StoreName = (typeof STORES)[number];

const CONNECTIONS = [10, 50];
const WARMUP_SECONDS = 2;
const DURATION_SECONDS = 10;
/** A child that takes longer than this is stopped (its own cleanup then runs on SIGTERM). */
const CHILD_TIMEOUT_MS = 90_000;

type RunFigures = LoadFigures;

interface StoreFigures {
  store: StoreName;
  /** What the server itself reported in its `listening` line. */
  server_store: string;
  document_id: string;
  response_bytes: number;
  warmup: { connections: number; duration_s: number; requests_total: number; non_2xx: number; errors: number };
  runs: RunFigures[];
}

const log = (message: string) => process.stderr.write(`[bench:api] ${message}\n`);

// ---------------------------------------------------------------------------------------------
// Child: one store.

async function benchStore(store: StoreName, outFile: string): Promise<void> {
  // Loaded here, after FOLIO_TEST_STORE is set for this process by the parent.
  const { Installation, Client, STORE } = await import('../test/helpers/folio.js');
  const { textPdf } = await import('../test/helpers/pdfs.js');
  if (STORE !== store) throw new Error(`--store ${store} but FOLIO_TEST_STORE makes the helpers use ${STORE}`);

  type Install = Awaited<ReturnType<typeof Installation.create>>;
  type Srv = Awaited<ReturnType<Install['start']>>;
  let install: Install | null = null;
  let server: Srv | null = null;
  let running: { stop(): void } | null = null;

  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      running?.stop();
      if (server) {
        // SIGTERM lets folio shut down gracefully; should it not be gone after 15 s, SIGKILL.
        const child = server.process;
        const gone = () => child.exitCode !== null || child.signalCode !== null;
        if (!gone()) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000).unref())]);
          if (!gone()) child.kill('SIGKILL');
        }
      }
      if (install) await install.destroy();
    })());
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    log(`${store}: ${signal}, cleaning up`);
    cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    install = await Installation.create();
    server = await install.start();
    const listening = server.logs
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => {
        try {
          return JSON.parse(line) as { msg?: string; store?: string };
        } catch {
          return {};
        }
      })
      .find((entry) => entry.msg === 'listening');
    const serverStore = listening?.store ?? 'unknown';
    if (serverStore !== store) throw new Error(`expected the server on ${store}, it says ${serverStore}`);
    log(`${store}: server at ${server.url}`);

    // A plan whose rate limit is far above what one machine can send, so the figures measure
    // the server rather than the limiter (every request still goes through the rate counter).
    await install.admin('plan', 'create', '--id', 'bench', '--name', 'Bench', '--rate-limit-per-second', '1000000');
    const { live } = await install.workspace({ plan: 'bench' });
    const client = new Client(server.url, live);
    const upload = await client.upload([['file', 'bench.pdf', await textPdf([['Benchmark document', 'A few words on one page.']])]]);
    if (upload.status !== 202) throw new Error(`upload answered ${upload.status}: ${upload.text}`);
    const id = upload.json.id as string;
    const done = await client.waitFor(id);
    if (done.status !== 'completed') throw new Error(`document ${id} ended ${done.status}: ${JSON.stringify(done.error)}`);
    const probe = await client.get(`/api/v1/documents/${id}`);
    if (probe.status !== 200) throw new Error(`GET document answered ${probe.status}`);
    log(`${store}: document ${id} completed, GET answers ${Buffer.byteLength(probe.text)} bytes`);

    const target = {
      url: `${server.url}/api/v1/documents/${id}`,
      method: 'GET',
      headers: client.headers(),
      timeout: 10,
    };
    const measure = async (connections: number, duration: number) => {
      const instance = autocannon({ ...target, connections, duration });
      running = instance;
      try {
        return await instance;
      } finally {
        running = null;
      }
    };

    log(`${store}: warm-up ${WARMUP_SECONDS} s with ${CONNECTIONS[0]} connections`);
    const warm = await measure(CONNECTIONS[0], WARMUP_SECONDS);
    const runs: RunFigures[] = [];
    for (const connections of CONNECTIONS) {
      log(`${store}: ${DURATION_SECONDS} s with ${connections} connections`);
      runs.push(loadFigures(await measure(connections, DURATION_SECONDS)));
    }

    const out: StoreFigures = {
      store,
      server_store: serverStore,
      document_id: id,
      response_bytes: Buffer.byteLength(probe.text),
      warmup: { connections: warm.connections, duration_s: warm.duration, requests_total: warm.requests.total, non_2xx: warm.non2xx, errors: warm.errors },
      runs,
    };
    await writeFile(outFile, JSON.stringify(out));
  } finally {
    await cleanup();
  }
}

// ---------------------------------------------------------------------------------------------
// Parent: both stores, the table and the JSON file.

let interrupted = false;

function runChild(store: StoreName, outFile: string): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, SELF, '--store', store, '--out', outFile], {
    env: { ...process.env, FOLIO_TEST_STORE: store },
    stdio: 'inherit',
  });
  const forward = (signal: NodeJS.Signals) => {
    interrupted = true;
    child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const timer = setTimeout(() => {
    log(`${store}: still running after ${CHILD_TIMEOUT_MS / 1000} s, stopping it`);
    child.kill('SIGTERM');
  }, CHILD_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

function table(results: StoreFigures[]): string {
  const header = ['store', 'conns', 'req/s avg', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'];
  const rows = results.flatMap((r) =>
    r.runs.map((run) => [
      r.store,
      String(run.connections),
      run.requests_per_s.average.toFixed(1),
      String(run.latency_ms.p50),
      String(run.latency_ms.p99),
      String(run.non_2xx),
      String(run.errors),
    ]),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { store: { type: 'string' }, out: { type: 'string' } }, strict: true });

  if (values.store !== undefined) {
    if (!(STORES as readonly string[]).includes(values.store)) throw new Error(`--store must be one of ${STORES.join(', ')}`);
    if (!values.out) throw new Error('--out is required with --store');
    await benchStore(values.store as StoreName, values.out);
    return;
  }

  const startedAt = new Date();
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-'));
  const results: StoreFigures[] = [];
  const failed: StoreName[] = [];
  try {
    for (const store of STORES) {
      if (interrupted) break;
      const outFile = path.join(tmp, `${store}.json`);
      const code = await runChild(store, outFile);
      if (code !== 0) {
        log(`${store}: failed (exit ${code})`);
        failed.push(store);
        continue;
      }
      results.push(JSON.parse(await readFile(outFile, 'utf8')) as StoreFigures);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }

  const cpus = os.cpus();
  console.log(
    `\nGET /api/v1/documents/{id} — ${DURATION_SECONDS} s per row after a ${WARMUP_SECONDS} s warm-up; ` +
      `node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'} (client and server on the same machine)\n`,
  );
  if (results.length) console.log(table(results));
  if (failed.length) console.log(`\nfailed: ${failed.join(', ')}`);

  if (results.length) {
    const dir = path.join(HERE, 'results');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `api-${startedAt.toISOString().replace(/:/g, '-')}.json`);
    const report = {
      benchmark: 'GET /api/v1/documents/{id}',
      date: startedAt.toISOString(),
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
      cpus: cpus.length,
      cpu_model: cpus[0]?.model.trim() ?? null,
      warmup_s: WARMUP_SECONDS,
      duration_s: DURATION_SECONDS,
      failed,
      stores: results,
    };
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nwritten to ${path.relative(process.cwd(), file)}`);
  }
  if (failed.length || interrupted) process.exitCode = 1;
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
