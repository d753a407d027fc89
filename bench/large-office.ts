// Huge Office files through the HTTP API (issue 22): how long the POST takes to answer, how long
// the worker reads, and the worker's peak memory.
//
//   npm run bench:office          (builds, then runs this file with tsx)
//
// Three files are generated in code (test/helpers/office.ts): a workbook of one sheet of 20,000
// rows x 50 columns (1,000,000 cells), a Word document of 100,000 paragraphs with no page breaks
// (so one page, as a document written by a program and never laid out by Word is), and a deck of
// 1,000 slides. Each goes, one after the other, to a fresh SQLite installation run as an API
// (`folio serve --no-workers`) and one worker (`folio worker`); for each the bench prints the
// POST latency (upload, type sniffing and page count until the 202), the `analyzing` stage's time
// (the read), the time until the document is completed or failed, the worker's peak RSS while it
// worked on that file (the kernel's VmHWM, reset per file) and the API's, and then reads the
// document's text back and checks that the last thing written in the file is in it.
//
// Prints a table and writes bench/results/large-office-<ISO date>.json. Nothing asserts on time.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Installation, STORE, type Server } from '../test/helpers/folio.js';
import { docxPackage, pptxPackage, xlsxPackage } from '../test/helpers/office.js';
import { RssSampler, type PhasePeak } from './speed/rss.js';
import { megabytes, secs, table } from './speed/stats.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROWS = 20_000;
const COLUMNS = 50;
const PARAGRAPHS = 100_000;
const SLIDES = 1_000;
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

async function measure(client: Client, worker: RssSampler, api: RssSampler, input: Input): Promise<Figures> {
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

  const inputs = [
    generate(`XLSX ${ROWS} x ${COLUMNS} (${(ROWS * COLUMNS).toLocaleString('en')} cells)`, 'ledger.xlsx', `Item ${ROWS - 1}`, () => xlsxPackage([{ name: 'Ledger', rows: ROWS, columns: COLUMNS }])),
    generate(`DOCX ${PARAGRAPHS.toLocaleString('en')} paragraphs`, 'report.docx', `${PARAGRAPHS - 1}. The committee`, () => docxPackage({ paragraphs: PARAGRAPHS })),
    generate(`PPTX ${SLIDES.toLocaleString('en')} slides`, 'deck.pptx', `Slide ${SLIDES}: quarterly review`, () => pptxPackage({ slides: SLIDES })),
  ];

  const install = (state.install = await Installation.create());
  const api = await install.start(['--no-workers']);
  state.servers.push(api);
  const worker = await install.start(['worker']);
  state.servers.push(worker);
  if (worker.process.pid === undefined || api.process.pid === undefined) throw new Error('a Folio process has no pid');
  const workerRss = new RssSampler(worker.process.pid);
  const apiRss = new RssSampler(api.process.pid);
  state.samplers.push(workerRss, apiRss);
  const client = new Client(api.url, (await install.workspace({ credits: 1_000_000_000 })).test);
  const idle = { worker_kb: await workerRss.current(), api_kb: await apiRss.current() };
  log(`API at ${api.url} (store ${STORE}), worker pid ${worker.process.pid}; idle RSS worker ${megabytes(idle.worker_kb)}, API ${megabytes(idle.api_kb)}`);

  const results: Figures[] = [];
  for (const input of inputs) results.push(await measure(client, workerRss, apiRss, input));
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
  console.log(`idle RSS before the files: worker ${megabytes(idle.worker_kb)}, API ${megabytes(idle.api_kb)}`);

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
    setup: { processes: 'folio serve --no-workers + folio worker', rss: 'VmHWM of each process, reset before each file (polled peak where it cannot be reset)' },
    inputs: inputs.map(({ name, filename, bytes, generate_s }) => ({ name, filename, bytes: bytes.byteLength, generate_s })),
    idle,
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
