// Huge Office files through the HTTP API (issue 22): how long the POST takes to answer, how long
// the worker reads, and the worker's peak memory.
//
//   npm run bench:office          (builds, then runs this file with tsx)
//   npx tsx bench/large-office.ts --only DOCX      (the files whose name holds the word; no build)
//
// Files generated in code (test/helpers/office.ts): a workbook of one sheet of 20,000 rows x 50
// columns (1,000,000 cells), a Word document of 100,000 paragraphs with no page breaks (so one
// page, as a document written by a program and never laid out by Word is), and a deck of 1,000
// slides; then the largest files the limits let through (src/pipeline/formats/office/limits.ts):
// a workbook of MAX_OFFICE_CELLS cells, a document of just under MAX_OFFICE_WORDS words, and a
// document at both limits (a table of MAX_OFFICE_CELLS one-word cells after the paragraphs), the
// costliest file a worker accepts.
// Each goes to a fresh API (`folio serve --no-workers`) and a fresh worker (`folio worker`) on one
// SQLite installation, so each process's peak belongs to that file alone. For each the bench
// prints the POST latency (upload, type sniffing and page count until the 202), the `analyzing`
// stage's time (the read), the time until the document is completed or failed, the worker's and
// the API's peak RSS (the kernel's VmHWM), and then reads the document's text back and checks
// that the last thing written in the file is in it.
//
// Prints a table and writes bench/results/large-office-<ISO date>.json. Nothing asserts on time.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Installation, STORE, type Server } from '../test/helpers/folio.js';
import { docxPackage, pptxPackage, xlsxPackage } from '../test/helpers/office.js';
import { MAX_OFFICE_CELLS, MAX_OFFICE_WORDS } from '../src/pipeline/formats/office/limits.js';
import { RssSampler, type PhasePeak } from './speed/rss.js';
import { megabytes, secs, table } from './speed/stats.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROWS = 20_000;
const COLUMNS = 50;
const PARAGRAPHS = 100_000;
const SLIDES = 1_000;
/** Words of a generated paragraph (test/helpers/office.ts): 23, and 2 for the heading every 50. */
const WORDS_PER_PARAGRAPH = (49 * 23 + 2) / 50;
const ALLOWED_PARAGRAPHS = Math.floor(MAX_OFFICE_WORDS / WORDS_PER_PARAGRAPH / 100) * 100;
const ALLOWED_ROWS = Math.floor(MAX_OFFICE_CELLS / COLUMNS);
const TABLE_COLUMNS = 10;
const TABLE_ROWS = Math.floor(MAX_OFFICE_CELLS / TABLE_COLUMNS);
const PARAGRAPHS_WITH_TABLE = Math.floor((MAX_OFFICE_WORDS - MAX_OFFICE_CELLS) / WORDS_PER_PARAGRAPH / 100) * 100;
/** How long one document may take before the bench gives up on it. */
const DOCUMENT_TIMEOUT_MS = 10 * 60_000;
const POLL_MS = 100;
const WATCHDOG_MS = 40 * 60_000;

const log = (message: string) => process.stderr.write(`[bench:office] ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Input {
  name: string;
  filename: string;
  bytes: Uint8Array;
  generate_s: number;
  /** Text the file ends with, looked for in the document's text once read. */
  last: string;
}

interface Figures {
  name: string;
  bytes: number;
  post_ms: number;
  post_status: number;
  status: string | null;
  page_count_at_post: number | null;
  page_count: number | null;
  analyzing_ms: number | null;
  total_s: number | null;
  timings: Record<string, number>;
  error: { type: string; message: string } | null;
  worker_rss: PhasePeak;
  api_rss: PhasePeak;
  /** RSS of the fresh processes before the file, kB. */
  idle: { worker_kb: number | null; api_kb: number | null };
  text_chars: number | null;
  text_has_last: boolean | null;
}

function generate(name: string, filename: string, last: string, make: () => Uint8Array): Input {
  const started = performance.now();
  const bytes = make();
  const generate_s = (performance.now() - started) / 1000;
  log(`generated ${name}: ${(bytes.byteLength / 1e6).toFixed(1)} MB in ${secs(generate_s)} s`);
  return { name, filename, bytes, generate_s, last };
}

async function measure(install: Installation, key: string, input: Input): Promise<Figures> {
  const api = await install.start(['--no-workers']);
  state.servers.push(api);
  const workerServer = await install.start(['worker']);
  state.servers.push(workerServer);
  if (workerServer.process.pid === undefined || api.process.pid === undefined) throw new Error('a Folio process has no pid');
  const worker = new RssSampler(workerServer.process.pid);
  const apiRss = new RssSampler(api.process.pid);
  state.samplers.push(worker, apiRss);
  const client = new Client(api.url, key);
  try {
    return await measureWith(client, worker, apiRss, input);
  } finally {
    worker.stop();
    apiRss.stop();
    for (const server of [workerServer, api]) {
      await server.stop();
      state.servers.splice(state.servers.indexOf(server), 1);
    }
  }
}

async function measureWith(client: Client, worker: RssSampler, api: RssSampler, input: Input): Promise<Figures> {
  const idle = { worker_kb: await worker.current(), api_kb: await api.current() };
  await Promise.all([worker.begin(), api.begin()]);
  const started = performance.now();
  const upload = await client.upload([['file', input.filename, input.bytes]]);
  const post_ms = Math.round(performance.now() - started);
  const figures: Figures = {
    name: input.name,
    bytes: input.bytes.byteLength,
    post_ms,
    post_status: upload.status,
    status: null,
    page_count_at_post: null,
    page_count: null,
    analyzing_ms: null,
    total_s: null,
    timings: {},
    error: null,
    worker_rss: { polledPeakKb: null, kernelPeakKb: null, peakKb: null, samples: 0 },
    api_rss: { polledPeakKb: null, kernelPeakKb: null, peakKb: null, samples: 0 },
    idle,
    text_chars: null,
    text_has_last: null,
  };
  log(`${input.name}: POST answered ${upload.status} in ${post_ms} ms`);
  try {
    if (upload.status !== 202) {
      figures.error = upload.json?.error ?? { type: `http_${upload.status}`, message: upload.text.slice(0, 200) };
      return figures;
    }
    const id = upload.json.id as string;
    const first = await client.get(`/api/v1/documents/${id}`);
    figures.page_count_at_post = first.json?.page_count ?? null;
    const deadline = Date.now() + DOCUMENT_TIMEOUT_MS;
    for (;;) {
      const { json } = await client.get(`/api/v1/documents/${id}`);
      if (json.status === 'completed' || json.status === 'failed') {
        figures.total_s = (performance.now() - started) / 1000;
        figures.status = json.status;
        figures.page_count = json.page_count;
        figures.timings = json.timings ?? {};
        figures.analyzing_ms = json.timings?.analyzing_ms ?? null;
        figures.error = json.error ?? null;
        break;
      }
      if (Date.now() > deadline) {
        figures.status = `${json.status}/${json.stage} after ${DOCUMENT_TIMEOUT_MS / 1000} s`;
        break;
      }
      await sleep(POLL_MS);
    }
    log(`${input.name}: ${figures.status} after ${secs(figures.total_s ?? NaN)} s (${JSON.stringify(figures.timings)})${figures.error ? `: ${figures.error.type}: ${figures.error.message}` : ''}`);
  } finally {
    [figures.worker_rss, figures.api_rss] = await Promise.all([worker.end(), api.end()]);
  }
  if (figures.status === 'completed') {
    const text = await client.get(`/api/v1/documents/${upload.json.id}?include=text`);
    const body: string = text.json?.text ?? '';
    figures.text_chars = body.length;
    figures.text_has_last = body.includes(input.last);
  }
  return figures;
}

const state: { install: Installation | null; servers: Server[]; samplers: RssSampler[] } = { install: null, servers: [], samplers: [] };

let cleaning: Promise<void> | null = null;
function cleanup(): Promise<void> {
  return (cleaning ??= (async () => {
    for (const sampler of state.samplers) sampler.stop();
    for (const server of [...state.servers].reverse()) await server.stop().catch(() => undefined);
    if (state.install) await state.install.destroy().catch((error) => log(`could not remove the installation: ${error}`));
  })());
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    log(`${signal}, cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const watchdog = setTimeout(() => {
    log(`still running after ${WATCHDOG_MS / 60_000} min, stopping`);
    void cleanup().finally(() => process.exit(1));
  }, WATCHDOG_MS);
  watchdog.unref();

  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
  const specs: [name: string, filename: string, last: string, make: () => Uint8Array][] = [
    [`XLSX ${ROWS} x ${COLUMNS} (${(ROWS * COLUMNS).toLocaleString('en')} cells)`, 'ledger.xlsx', `Item ${ROWS - 1}`, () => xlsxPackage([{ name: 'Ledger', rows: ROWS, columns: COLUMNS }])],
    [`DOCX ${PARAGRAPHS.toLocaleString('en')} paragraphs`, 'report.docx', `${PARAGRAPHS - 1}. The committee`, () => docxPackage({ paragraphs: PARAGRAPHS })],
    [`PPTX ${SLIDES.toLocaleString('en')} slides`, 'deck.pptx', `Slide ${SLIDES}: quarterly review`, () => pptxPackage({ slides: SLIDES })],
    [`XLSX ${ALLOWED_ROWS} x ${COLUMNS} (at the cell limit)`, 'allowed.xlsx', `Item ${ALLOWED_ROWS - 1}`, () => xlsxPackage([{ name: 'Ledger', rows: ALLOWED_ROWS, columns: COLUMNS }])],
    [`DOCX ${ALLOWED_PARAGRAPHS.toLocaleString('en')} paragraphs (under the word limit)`, 'allowed.docx', `${ALLOWED_PARAGRAPHS - 1}. The committee`, () => docxPackage({ paragraphs: ALLOWED_PARAGRAPHS })],
    [
      `DOCX ${PARAGRAPHS_WITH_TABLE.toLocaleString('en')} paragraphs + ${TABLE_ROWS} x ${TABLE_COLUMNS} table (both limits)`,
      'both.docx',
      `R${TABLE_ROWS}C${TABLE_COLUMNS}`,
      () => docxPackage({ paragraphs: PARAGRAPHS_WITH_TABLE, table: { rows: TABLE_ROWS, columns: TABLE_COLUMNS } }),
    ],
  ];
  const inputs = specs.filter(([name]) => only === null || name.includes(only)).map((spec) => generate(...spec));

  const install = (state.install = await Installation.create());
  const key = (await install.workspace({ credits: 1_000_000_000 })).test;
  log(`store ${STORE}; a fresh API and worker for each file`);

  const results: Figures[] = [];
  for (const input of inputs) results.push(await measure(install, key, input));
  await cleanup();
  clearTimeout(watchdog);

  const cpus = os.cpus();
  console.log(`\nFolio large Office files — node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, store ${STORE}, API and worker as separate processes\n`);
  const outcome = (f: Figures) =>
    f.status === 'completed' ? `completed, ${f.page_count} p` : f.error ? `${f.status ?? 'refused'}: ${f.error.type}: ${f.error.message}` : (f.status ?? 'unknown');
  console.log(
    table(
      ['file', 'size', 'POST', 'read (analyzing)', 'done after', 'worker peak RSS', 'API peak RSS', 'outcome', 'text'],
      results.map((f) => [
        f.name,
        `${(f.bytes / 1e6).toFixed(1)} MB`,
        `${f.post_ms} ms (${f.post_status}, ${f.page_count_at_post ?? '-'} p)`,
        f.analyzing_ms === null ? '-' : `${secs(f.analyzing_ms / 1000)} s`,
        f.total_s === null ? '-' : `${secs(f.total_s)} s`,
        megabytes(f.worker_rss.peakKb),
        megabytes(f.api_rss.peakKb),
        outcome(f),
        f.text_chars === null ? '-' : `${f.text_chars.toLocaleString('en')} chars${f.text_has_last ? ', ends as written' : ', END MISSING'}`,
      ]),
    ),
  );
  for (const f of results) console.log(`${f.name}: stages ${Object.entries(f.timings).map(([k, v]) => `${k.replace(/_ms$/, '')} ${v} ms`).join(', ') || '-'}`);
  console.log(`RSS of the fresh processes before each file: ${results.map((f) => `worker ${megabytes(f.idle.worker_kb)} / API ${megabytes(f.idle.api_kb)}`).join('; ')}`);
  console.log(`limits: MAX_OFFICE_CELLS ${MAX_OFFICE_CELLS.toLocaleString('en')}, MAX_OFFICE_WORDS ${MAX_OFFICE_WORDS.toLocaleString('en')}`);

  const dir = path.join(HERE, 'results');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `large-office-${startedAt.toISOString().replace(/:/g, '-')}.json`);
  const report = {
    benchmark: 'large-office',
    date: startedAt.toISOString(),
    node: process.version,
    cpus: cpus.length,
    cpu_model: cpus[0]?.model.trim() ?? null,
    memory_mb: Math.round(os.totalmem() / 2 ** 20),
    store: STORE,
    setup: { processes: 'a fresh folio serve --no-workers + folio worker for each file', rss: 'VmHWM of each process while it handled the file' },
    limits: { MAX_OFFICE_CELLS, MAX_OFFICE_WORDS },
    inputs: inputs.map(({ name, filename, bytes, generate_s }) => ({ name, filename, bytes: bytes.byteLength, generate_s })),
    results,
  };
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten to ${path.relative(process.cwd(), file)}`);
}

main()
  .catch((error: unknown) => {
    log(`failed: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  })
  .finally(() => void cleanup());
