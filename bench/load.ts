// Load on a small cluster (issue 10 scope 5), on PostgreSQL.
//
//   npm run bench:load          (builds, then runs this file with tsx; needs PostgreSQL at
//                                FOLIO_TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
//
// Part 1, load: 2 API processes (`serve --no-workers`) and 2 worker processes; LOAD_CLIENTS (200)
// clients for LOAD_SECONDS (60) s, each in a loop: submit a corpus PDF, poll
// `GET /documents/{id}` every POLL_MS until it is done, read its pages, start again. Clients are
// spread over both APIs and over 20 workspaces (10 clients a key), on a plan allowing 20 requests
// a second per key, so the rate limit is reached on purpose: a 429 is waited out for its
// Retry-After and counted apart. Anything else that is not a success is an error.
// Prints latency percentiles per request kind (p99 of GET /documents/{id} is the headline), the
// status codes, and the documents completed per minute during the run.
//
// Part 2, scaling: the same backlog (the tables corpus, six times: 78 documents) drained by 1, 2
// and 4 worker processes in turn, with the default worker settings and with one slot per
// process; documents per minute from the backlog's first claim to its last completion, read from
// the database.
//
// Part 3, uploads during a book: one `serve` process (API and worker together, as the README's
// first command runs it) reads GeoTopo joined 3 times (351 pages) while BURST_UPLOADS small
// uploads arrive, 4 at a time; the POST latencies, next to the same uploads with nothing being
// read. Each upload's pages are counted before it is answered, so this shows whether counting
// waits behind a document's reading. LOAD_SKIP_LOAD, LOAD_SKIP_SCALING and LOAD_SKIP_BURST leave
// a part out.
//
// Writes bench/results/load-<ISO date>.json. Client and servers share this machine (2 cores),
// so the figures compare configurations here, not absolute capacity. Nothing asserts on time.
import { readFile, readdir, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

// The test helpers read the store when they load, so they are loaded after it is set.
process.env.FOLIO_TEST_STORE = 'postgres';
const { Installation, CORPUS } = await import('../test/helpers/folio.js');
type Server = import('../test/helpers/folio.js').Server;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 200);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const LOAD_WORKERS = Number(process.env.LOAD_WORKERS ?? 2);
const CLIENTS_PER_KEY = 10;
const RATE_PER_KEY = 20;
const POLL_MS = Number(process.env.LOAD_POLL_MS ?? 1000);
const WORKER_COUNTS = [1, 2, 4];
const BACKLOG_ROUNDS = 6;
const BURST_UPLOADS = 24;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    count: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p90_ms: round(percentile(sorted, 90)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted[sorted.length - 1] ?? 0),
  };
}

async function corpusPdfs(category: string): Promise<{ name: string; bytes: Uint8Array }[]> {
  const dir = path.join(CORPUS, category);
  const out: { name: string; bytes: Uint8Array }[] = [];
  for (const entry of (await readdir(dir)).sort()) {
    for (const file of await readdir(path.join(dir, entry))) {
      if (file.endsWith('.pdf')) out.push({ name: file, bytes: new Uint8Array(await readFile(path.join(dir, entry, file))) });
    }
  }
  return out;
}

/** What the clients saw, by request kind. */
class Tally {
  latencies = new Map<string, number[]>();
  statuses = new Map<string, Record<string, number>>();
  networkErrors = 0;
  unexpected: string[] = [];

  record(kind: string, status: number, ms: number): void {
    if (!this.latencies.has(kind)) this.latencies.set(kind, []);
    this.latencies.get(kind)!.push(ms);
    const counts = this.statuses.get(kind) ?? {};
    counts[status] = (counts[status] ?? 0) + 1;
    this.statuses.set(kind, counts);
  }
}

async function timed(tally: Tally, kind: string, url: string, init: RequestInit): Promise<{ status: number; json: any; retryAfter: number } | null> {
  const started = performance.now();
  try {
    const response = await fetch(url, init);
    const text = await response.text();
    tally.record(kind, response.status, performance.now() - started);
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON; kept as null
    }
    if (response.status >= 400 && response.status !== 429 && tally.unexpected.length < 20) tally.unexpected.push(`${kind} ${response.status} ${text.slice(0, 200)}`);
    return { status: response.status, json, retryAfter: Number(response.headers.get('retry-after') ?? 1) };
  } catch (error) {
    tally.networkErrors++;
    if (tally.unexpected.length < 20) tally.unexpected.push(`${kind} network: ${(error as Error).message}`);
    return null;
  }
}

/** One client: submit, poll until done, read the pages, again, until the deadline. */
async function client(base: string, key: string, files: { name: string; bytes: Uint8Array }[], index: number, deadline: number, tally: Tally): Promise<void> {
  const auth = { authorization: `Bearer ${key}` };
  // Requests refused by the rate limit are asked again after Retry-After.
  const ask = async (kind: string, url: string, init: () => RequestInit) => {
    for (;;) {
      if (Date.now() > deadline) return null;
      const answer = await timed(tally, kind, url, init());
      if (!answer) return null;
      if (answer.status !== 429) return answer;
      await sleep(answer.retryAfter * 1000);
    }
  };
  let round = 0;
  while (Date.now() < deadline) {
    const file = files[(index + round++) % files.length];
    const submitted = await ask('POST /documents', `${base}/api/v1/documents`, () => {
      const form = new FormData();
      form.append('file', new Blob([file.bytes]), file.name);
      return { method: 'POST', headers: auth, body: form };
    });
    if (!submitted || submitted.status !== 202) {
      await sleep(POLL_MS);
      continue;
    }
    const id = submitted.json.id as string;
    for (;;) {
      await sleep(POLL_MS);
      const polled = await ask('GET /documents/{id}', `${base}/api/v1/documents/${id}`, () => ({ headers: auth }));
      if (!polled) return;
      if (polled.json?.status === 'completed' || polled.json?.status === 'failed') break;
    }
    await ask('GET /documents/{id}/pages', `${base}/api/v1/documents/${id}/pages`, () => ({ headers: auth }));
  }
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query<T>(text, values)).rows;
  } finally {
    await db.end();
  }
}

async function loadPart(): Promise<Record<string, unknown>> {
  const install = await Installation.create();
  const servers: Server[] = [];
  try {
    const apis = await Promise.all([0, 1].map(() => install.start(['--no-workers'])));
    const workers = await Promise.all(Array.from({ length: LOAD_WORKERS }, () => install.start(['worker'])));
    servers.push(...apis, ...workers);
    await install.admin('plan', 'create', '--id', 'load', '--name', 'Load', '--rate-limit-per-second', String(RATE_PER_KEY));
    const workspaceCount = Math.ceil(CLIENTS / CLIENTS_PER_KEY);
    const workspaces = await Promise.all(Array.from({ length: workspaceCount }, () => install.workspace({ plan: 'load' })));
    const files = [...(await corpusPdfs('tables')), ...(await corpusPdfs('text_pdf')).filter((f) => f.bytes.byteLength < 200_000)];

    const tally = new Tally();
    const started = Date.now();
    const deadline = started + SECONDS * 1000;
    console.log(`load: ${CLIENTS} clients, ${apis.length} APIs, ${workers.length} workers, ${workspaceCount} keys at ${RATE_PER_KEY}/s, ${SECONDS} s ...`);
    await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => client(apis[i % apis.length].url, workspaces[Math.floor(i / CLIENTS_PER_KEY)].test, files, i, deadline, tally)),
    );
    const elapsed = (Date.now() - started) / 1000;
    const ids = workspaces.map((w) => w.id);
    const [done] = await query<{ completed: number; failed: number; pages: number }>(
      install.env.DATABASE_URL!,
      `SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed, count(*) FILTER (WHERE status = 'failed')::int AS failed,
              COALESCE(sum(page_count) FILTER (WHERE status = 'completed'), 0)::int AS pages
         FROM documents WHERE workspace_id = ANY($1) AND completed_at IS NOT NULL AND completed_at <= $2`,
      [ids, deadline],
    );
    const byKind = Object.fromEntries([...tally.latencies].map(([kind, latencies]) => [kind, { ...summary(latencies), statuses: tally.statuses.get(kind) }]));
    const unexpected = [...tally.statuses.values()].reduce((sum, counts) => sum + Object.entries(counts).filter(([s]) => Number(s) >= 400 && s !== '429').reduce((a, [, n]) => a + n, 0), 0);
    const figures = {
      clients: CLIENTS,
      seconds: Math.round(elapsed),
      apis: apis.length,
      workers: workers.length,
      requests: byKind,
      rate_limited_429: [...tally.statuses.values()].reduce((sum, counts) => sum + (counts['429'] ?? 0), 0),
      errors: unexpected + tally.networkErrors,
      network_errors: tally.networkErrors,
      examples_of_errors: tally.unexpected,
      documents_completed: done.completed,
      documents_failed: done.failed,
      pages_completed: done.pages,
      documents_per_minute: Math.round((done.completed / SECONDS) * 60),
    };
    const get = byKind['GET /documents/{id}'];
    console.log(
      `load: GET /documents/{id} p50 ${get?.p50_ms} ms, p99 ${get?.p99_ms} ms over ${get?.count}; ${figures.documents_completed} documents (${figures.pages_completed} pages) completed = ${figures.documents_per_minute}/min; 429s ${figures.rate_limited_429}; errors ${figures.errors}`,
    );
    for (const [kind, s] of Object.entries(byKind)) console.log(`  ${kind.padEnd(28)} n=${s.count} p50=${s.p50_ms} p90=${s.p90_ms} p99=${s.p99_ms} max=${s.max_ms} ${JSON.stringify(s.statuses)}`);
    for (const line of tally.unexpected) console.log(`  error: ${line}`);
    return figures;
  } finally {
    for (const s of servers) await s.stop();
    await install.destroy();
  }
}

async function uploadAll(base: string, key: string, files: { name: string; bytes: Uint8Array }[]): Promise<string[]> {
  // Batches of 10 (the files[] limit), four requests at a time, so the backlog lands at once.
  const batches: { name: string; bytes: Uint8Array }[][] = [];
  for (let i = 0; i < files.length; i += 10) batches.push(files.slice(i, i + 10));
  const ids: string[] = [];
  for (let i = 0; i < batches.length; i += 4) {
    const answers = await Promise.all(
      batches.slice(i, i + 4).map(async (batch) => {
        const form = new FormData();
        for (const file of batch) form.append('files[]', new Blob([file.bytes]), file.name);
        const response = await fetch(`${base}/api/v1/documents`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
        const body = (await response.json()) as { documents: { id?: string; error?: unknown }[] };
        if (response.status !== 202) throw new Error(`upload answered ${response.status}: ${JSON.stringify(body)}`);
        return body.documents.map((d) => {
          if (!d.id) throw new Error(`a file was refused: ${JSON.stringify(d.error)}`);
          return d.id;
        });
      }),
    );
    ids.push(...answers.flat());
  }
  return ids;
}

async function waitDone(url: string, ids: string[]): Promise<void> {
  for (;;) {
    const [left] = await query<{ n: number }>(url, `SELECT count(*)::int AS n FROM documents WHERE id = ANY($1) AND status NOT IN ('completed', 'failed')`, [ids]);
    if (left.n === 0) return;
    await sleep(100);
  }
}

/**
 * The workers run and are warmed (each has read documents, so its reader threads are loaded)
 * before the backlog is sent; the figure spans the backlog's first claim to its last completion.
 */
async function scalingRun(workerCount: number, backlog: { name: string; bytes: Uint8Array }[], env: NodeJS.ProcessEnv): Promise<Record<string, number>> {
  const install = await Installation.create();
  const servers: Server[] = [];
  try {
    const api = await install.start(['--no-workers']);
    servers.push(api);
    // A plan that lets every worker slot run at once, so only the workers limit the pace.
    await install.admin('plan', 'create', '--id', 'wide', '--name', 'Wide', '--max-concurrent-jobs', '64', '--rate-limit-per-second', '1000');
    const ws = await install.workspace({ plan: 'wide' });
    servers.push(...(await Promise.all(Array.from({ length: workerCount }, () => install.start(['worker'], env)))));
    const url = install.env.DATABASE_URL!;
    await waitDone(url, await uploadAll(api.url, ws.test, backlog.slice(0, 8 * workerCount)));
    const ids = await uploadAll(api.url, ws.test, backlog);
    await waitDone(url, ids);
    const [span] = await query<{ first: string; last: string; completed: number; pages: number }>(
      url,
      `SELECT min(started_at) AS first, max(COALESCE(completed_at, failed_at)) AS last, count(*) FILTER (WHERE status = 'completed')::int AS completed,
              COALESCE(sum(page_count), 0)::int AS pages
         FROM documents WHERE id = ANY($1)`,
      [ids],
    );
    const seconds = (Number(span.last) - Number(span.first)) / 1000;
    return {
      workers: workerCount,
      documents: backlog.length,
      completed: span.completed,
      pages: span.pages,
      seconds: Math.round(seconds * 10) / 10,
      documents_per_minute: Math.round((span.completed / seconds) * 60),
      pages_per_second: Math.round((span.pages / seconds) * 10) / 10,
    };
  } finally {
    for (const s of servers) await s.stop();
    await install.destroy();
  }
}

const load = process.env.LOAD_SKIP_LOAD ? null : await loadPart();
const tables = await corpusPdfs('tables');
const backlog = Array.from({ length: BACKLOG_ROUNDS }, () => tables).flat();
// Default worker settings (each process uses every core), and one document and one reader
// thread per process, which shows how the queue spreads work when processes are the unit.
const SETTINGS: { name: string; env: NodeJS.ProcessEnv }[] = [
  { name: 'default', env: {} },
  { name: 'one slot per process', env: { FOLIO_WORKER_CONCURRENCY: '1', FOLIO_READER_THREADS: '1' } },
];
const scaling: Record<string, unknown>[] = [];
for (const setting of process.env.LOAD_SKIP_SCALING ? [] : SETTINGS) {
  for (const count of WORKER_COUNTS) {
    const run = await scalingRun(count, backlog, setting.env);
    console.log(
      `scaling (${setting.name}): ${count} worker(s): ${run.completed}/${run.documents} documents (${run.pages} pages) in ${run.seconds} s = ${run.documents_per_minute} documents/min, ${run.pages_per_second} pages/s`,
    );
    scaling.push({ setting: setting.name, ...run });
  }
}
/** POST latencies of `files` sent 4 at a time to `base`. */
async function uploadLatencies(base: string, key: string, files: { name: string; bytes: Uint8Array }[]): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < files.length) {
        const file = files[next++];
        const form = new FormData();
        form.append('file', new Blob([file.bytes]), file.name);
        const started = performance.now();
        const response = await fetch(`${base}/api/v1/documents`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
        await response.arrayBuffer();
        if (response.status !== 202) throw new Error(`upload answered ${response.status}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

async function burstPart(): Promise<Record<string, unknown>> {
  const install = await Installation.create();
  let server: Server | null = null;
  try {
    server = await install.start([]);
    await install.admin('plan', 'create', '--id', 'wide', '--name', 'Wide', '--max-concurrent-jobs', '64', '--rate-limit-per-second', '1000', '--max-pages-per-document', '5000');
    const ws = await install.workspace({ plan: 'wide', credits: 1e12 });
    const small = (await corpusPdfs('tables')).slice(0, BURST_UPLOADS);
    const geotopo = new Uint8Array(await readFile(path.join(CORPUS, 'text_pdf/pypdfbench-geotopo-book/GeoTopo-komprimiert.pdf')));
    const { PDFDocument } = await import('pdf-lib');
    const source = await PDFDocument.load(geotopo);
    const joined = await PDFDocument.create();
    for (let i = 0; i < 3; i++) for (const page of await joined.copyPages(source, source.getPageIndices())) joined.addPage(page);
    const book = { name: 'geotopo-x3.pdf', bytes: await joined.save() };
    // The first uploads start the process's threads; they are not counted.
    await uploadLatencies(server.url, ws.test, small.slice(0, 4));
    const idle = await uploadLatencies(server.url, ws.test, small);
    const [bookId] = await uploadAll(server.url, ws.test, [book]);
    for (;;) {
      const response = await fetch(`${server.url}/api/v1/documents/${bookId}`, { headers: { authorization: `Bearer ${ws.test}` } });
      const status = ((await response.json()) as { status: string }).status;
      if (status === 'processing') break;
      if (status === 'completed' || status === 'failed') throw new Error(`the book was ${status} before the burst`);
      await sleep(20);
    }
    const during = await uploadLatencies(server.url, ws.test, small);
    const figures = { uploads: small.length, idle: summary(idle), during_a_book: summary(during) };
    console.log(`burst: ${small.length} uploads, POST p50/p90/max idle ${figures.idle.p50_ms}/${figures.idle.p90_ms}/${figures.idle.max_ms} ms, while a 351-page book is read ${figures.during_a_book.p50_ms}/${figures.during_a_book.p90_ms}/${figures.during_a_book.max_ms} ms`);
    return figures;
  } finally {
    await server?.stop();
    await install.destroy();
  }
}

const burst = process.env.LOAD_SKIP_BURST ? null : await burstPart();
const out = path.join(ROOT, 'bench/results', `load-${new Date().toISOString().replace(/:/g, '-')}.json`);
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, `${JSON.stringify({ machine: { cpus: os.cpus().length, node: process.version }, load, scaling, burst }, null, 1)}\n`);
console.log(`wrote ${path.relative(ROOT, out)}`);
