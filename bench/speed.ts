// End-to-end speed of Folio next to peer tools on the same input.
//
//   npm run bench:speed          (builds, then runs this file with tsx)
//
// Measures, on a fresh SQLite installation with the API (`folio serve --no-workers`) and one
// worker (`folio worker`) as separate processes:
//   1. born-digital PDF pages per second, from the start of the HTTP upload until the moment the
//      document records as its completion (the upload's time plus its `created_at` to
//      `completed_at`, so the time does not depend on how often the bench polls), on the 117-page GeoTopo book of the shared corpus, on the book
//      joined JOIN_TIMES times (1,053 pages) and on a generated 1,000-page PDF (median of RUNS
//      each), with the worker's peak RSS; the book joined LARGE_JOIN_TIMES times (3,159 pages)
//      once, to show how that peak follows a document's length; GeoTopo is also the worker's first document after start,
//      and what that first run costs beyond the later ones is its warm-up;
//   2. a leak check: LEAK_DOCS joined books in a row, the worker's RSS after each;
//   3. OCR pages per second on A4 scans at 300 dpi and at 150 dpi: the three pages of the corpus'
//      multicolumn.pdf rendered to pictures and put back into a PDF without text layer, and how many of those
//      pages the worker read more than one way (its log says so for each); beside it the
//      `tesseract` CLI on the same pictures with the same languages, as many processes at once as
//      Folio's OCR workers;
//   4. Office documents per second: the corpus' DOCX, XLSX and PPTX files, OFFICE_BATCH at once;
//   5. requests per second and p99 latency of `GET /api/v1/documents/{id}` (autocannon, as in
//      bench/api.ts);
//   6. poppler's `pdftotext` and the `tesseract` CLI on the same files (median of RUNS), with Folio's
//      time as a multiple of theirs. They are optional (apt-get install poppler-utils tesseract-ocr).
//
// Prints a table and a one-line `speed:` summary and writes bench/results/speed-<ISO date>.json.
// Client, API, worker and peers share the machine, so the figures compare changes on the same
// machine; they are not absolute capacity. Nothing here asserts on time.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import { loadFigures, type LoadFigures } from './load-figures.js';
import { Client, CORPUS, Installation, STORE, type Server } from '../test/helpers/folio.js';
import { longPdf, textPdf } from '../test/helpers/pdfs.js';
import { PDFDocument } from 'pdf-lib';
import { findTool, notInstalled, tesseractBatch, timePeer, type PeerFigures, type PeerTool } from './speed/peers.js';
import { loadConfig } from '../src/config.js';
import { RssSampler, type PhasePeak } from './speed/rss.js';
import { a4Scans, POLL_MS, processOnce, rereadPages, sleep, type DocumentRun } from './speed/documents.js';
import { megabytes, median, rate, ratio, secs, table } from './speed/stats.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Office documents submitted together for the documents-per-second figure. */
const OFFICE_BATCH = 60;

/**
 * Submits every file `copies` times at once and waits for all; documents per second end to end,
 * until the last document's own completion (processOnce), not until a poll saw it.
 */
async function officeThroughput(client: Client, files: { name: string; bytes: Uint8Array }[], total: number): Promise<{ documents: number; seconds: number; per_s: number; failed: number }> {
  const started = performance.now();
  const runs = await Promise.all(
    Array.from({ length: total }, async (_, i) => {
      const submitted = performance.now() - started;
      const run = await processOnce(client, files[i % files.length].name, files[i % files.length].bytes);
      return { run, ended: submitted / 1000 + run.seconds };
    }),
  );
  const seconds = Math.max(...runs.map((r) => r.ended));
  return { documents: total, seconds, per_s: total / seconds, failed: runs.filter((r) => r.run.status !== 'completed').length };
}

/** A book joined to itself `times` times: a long born-digital document with real text and figures. */
async function joinedPdf(bytes: Uint8Array, times: number): Promise<Uint8Array> {
  const source = await PDFDocument.load(bytes);
  const joined = await PDFDocument.create();
  for (let i = 0; i < times; i++) {
    for (const page of await joined.copyPages(source, source.getPageIndices())) joined.addPage(page);
  }
  return joined.save();
}

const RUNS = 3;
const LONG_PAGES = 1000;
/** GeoTopo joined this many times: 1,053 pages. */
const JOIN_TIMES = 9;
/** And this many times, read once, to show how the worker's memory follows a document's length: 3,159 pages. */
const LARGE_JOIN_TIMES = 27;
/** Joined books processed in a row for the leak check (FOLIO_BENCH_LEAK_DOCS; 0 leaves it out). */
const LEAK_DOCS = Number(process.env.FOLIO_BENCH_LEAK_DOCS ?? 20);
const GEOTOPO = path.join(CORPUS, 'text_pdf/pypdfbench-geotopo-book/GeoTopo-komprimiert.pdf');
const SCAN_SOURCE = path.join(CORPUS, 'text_pdf/samplefiles-multicolumn/multicolumn.pdf');
const GET_CONNECTIONS = 10;
const GET_WARMUP_S = 2;
const GET_DURATION_S = 10;
/** The whole run is stopped (and cleaned up) after this long. */
const WATCHDOG_MS = 25 * 60_000;

const log = (message: string) => process.stderr.write(`[bench:speed] ${message}\n`);

// ---------------------------------------------------------------------------------------------
// Folio documents

interface DocumentFigures {
  name: string;
  file: string;
  bytes: number;
  pages: number | null;
  runs: DocumentRun[];
  completed_runs: number;
  median_s: number | null;
  pages_per_s: number | null;
  median_timings_ms: Record<string, number>;
  worker_rss: PhasePeak | null;
  /** The first failure, when a run did not complete. */
  error: DocumentRun['error'] | { type: 'upload_rejected'; message: string } | null;
}

async function measureDocument(
  client: Client,
  rss: RssSampler,
  name: string,
  file: string,
  bytes: Uint8Array,
  runs: number,
): Promise<DocumentFigures> {
  const filename = path.basename(file);
  const figures: DocumentFigures = {
    name,
    file,
    bytes: bytes.byteLength,
    pages: null,
    runs: [],
    completed_runs: 0,
    median_s: null,
    pages_per_s: null,
    median_timings_ms: {},
    worker_rss: null,
    error: null,
  };
  await rss.begin();
  try {
    for (let i = 0; i < runs; i++) {
      let run: DocumentRun;
      try {
        run = await processOnce(client, filename, bytes);
      } catch (error) {
        const upload = (error as { upload?: { status: number; json: any; text: string } }).upload;
        if (!upload) throw error;
        figures.error = { type: 'upload_rejected', message: upload.json?.error?.message ?? `HTTP ${upload.status}: ${upload.text}` };
        log(`${name}: upload rejected (${upload.status}): ${figures.error.message}`);
        break;
      }
      figures.runs.push(run);
      const stages = Object.entries(run.timings)
        .map(([stage, ms]) => `${stage.replace(/_ms$/, '')} ${ms} ms`)
        .join(', ');
      log(`${name}: run ${i + 1}/${runs} ${run.status} in ${secs(run.seconds)} s, ${run.page_count} p (upload ${run.upload_ms} ms, queue ${run.queue_wait_ms} ms; ${stages})`);
      if (run.status !== 'completed') {
        figures.error = run.error;
        break;
      }
    }
  } finally {
    figures.worker_rss = await rss.end();
  }
  const done = figures.runs.filter((run) => run.status === 'completed');
  figures.completed_runs = done.length;
  if (done.length > 0) {
    figures.pages = done[0].page_count;
    figures.median_s = median(done.map((run) => run.seconds));
    figures.pages_per_s = figures.pages / figures.median_s;
    const stages = new Set(done.flatMap((run) => Object.keys(run.timings)));
    for (const stage of stages) figures.median_timings_ms[stage] = median(done.map((run) => run.timings[stage] ?? 0));
  }
  return figures;
}

// ---------------------------------------------------------------------------------------------
// GET /api/v1/documents/{id}

interface GetFigures extends LoadFigures {
  url_path: string;
  warmup_s: number;
  response_bytes: number;
}

// ---------------------------------------------------------------------------------------------
// Cleanup: servers, installation, temporary files; also on SIGINT/SIGTERM and on the watchdog.

const state: {
  install: Installation | null;
  servers: Server[];
  running: { stop(): void } | null;
  tmp: string | null;
  rss: RssSampler | null;
} = { install: null, servers: [], running: null, tmp: null, rss: null };

async function stopServer(server: Server): Promise<void> {
  const child = server.process;
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  if (gone()) return;
  // SIGTERM lets folio shut down gracefully; should it not be gone after 15 s, SIGKILL.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (!gone()) {
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(5_000)]);
  }
}

let cleaning: Promise<void> | null = null;
function cleanup(): Promise<void> {
  return (cleaning ??= (async () => {
    state.running?.stop();
    state.rss?.stop();
    // The worker first, so it does not outlive the API it was started with.
    await Promise.all([...state.servers].reverse().map((server) => stopServer(server).catch(() => undefined)));
    if (state.install) await state.install.destroy().catch((error) => log(`could not remove the installation: ${error}`));
    if (state.tmp) await rm(state.tmp, { recursive: true, force: true });
  })());
}

let signalled = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    log(`${signal}, cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const startedAt = new Date();
  const clockStart = performance.now();
  const watchdog = setTimeout(() => {
    log(`still running after ${WATCHDOG_MS / 60_000} min, stopping`);
    void cleanup().finally(() => process.exit(1));
  }, WATCHDOG_MS);
  watchdog.unref();

  state.tmp = await mkdtemp(path.join(os.tmpdir(), 'folio-speed-'));

  // Inputs.
  const geotopoBytes = new Uint8Array(await readFile(GEOTOPO));
  const scans = await a4Scans(SCAN_SOURCE, state.tmp);
  // The same pages at 150 dpi: ordinary office scans, whose 10-point print is small for the engine.
  const scans150 = await a4Scans(SCAN_SOURCE, state.tmp, 150);
  log(`made a ${scans.pages}-page scanned PDF (A4, 300 dpi pictures, ${(scans.bytes.byteLength / 1e6).toFixed(1)} MB)`);
  const generateStart = performance.now();
  const longBytes = await longPdf(LONG_PAGES);
  const generateSeconds = (performance.now() - generateStart) / 1000;
  const longFile = path.join(state.tmp, `long-${LONG_PAGES}.pdf`);
  await writeFile(longFile, longBytes);
  log(`generated a ${LONG_PAGES}-page PDF (${(longBytes.byteLength / 1e6).toFixed(1)} MB) in ${secs(generateSeconds)} s`);
  const joinBytes = await joinedPdf(geotopoBytes, JOIN_TIMES);
  const joinFile = path.join(state.tmp, `geotopo-x${JOIN_TIMES}.pdf`);
  await writeFile(joinFile, joinBytes);
  const largeBytes = await joinedPdf(geotopoBytes, LARGE_JOIN_TIMES);
  const largeFile = path.join(state.tmp, `geotopo-x${LARGE_JOIN_TIMES}.pdf`);
  await writeFile(largeFile, largeBytes);

  // Peers, while no Folio process is running.
  const pdftotext = findTool('pdftotext');
  const tesseract = findTool('tesseract');
  const peer = async (tool: PeerTool, args: string[], what: string): Promise<PeerFigures | null> => {
    if (!tool.version) return null;
    const figures = await timePeer(tool, args, RUNS);
    log(`${tool.name} ${what}: ${figures.runs.map(secs).join(', ')} s${figures.error ? ` (${figures.error})` : ''}`);
    return figures;
  };
  const peers = {
    geotopo: await peer(pdftotext, [GEOTOPO, '-'], 'GeoTopo'),
    long: await peer(pdftotext, [longFile, '-'], `${LONG_PAGES} p`),
    join: await peer(pdftotext, [joinFile, '-'], `GeoTopo x${JOIN_TIMES}`),
    large: await peer(pdftotext, [largeFile, '-'], `GeoTopo x${LARGE_JOIN_TIMES}`),
    ocr: await peer(tesseract, [scans.firstPage, '-'], 'one A4 page at 300 dpi'),
  };
  for (const tool of [pdftotext, tesseract]) if (!tool.version) log(notInstalled(tool));

  // Folio: API and worker as separate processes.
  const install = (state.install = await Installation.create());
  await install.admin(
    'plan', 'create', '--id', 'bench', '--name', 'Bench',
    '--rate-limit-per-second', '1000000',
    '--max-pages-per-document', '5000',
  );
  const { test } = await install.workspace({ plan: 'bench' });
  const api = await install.start(['--no-workers']);
  state.servers.push(api);
  const worker = await install.start(['worker']);
  state.servers.push(worker);
  const workerPid = worker.process.pid;
  if (workerPid === undefined) throw new Error('the worker process has no pid');
  const rss = (state.rss = new RssSampler(workerPid));
  const workerStarted = worker.logs
    .split('\n')
    .map((line) => {
      try {
        return JSON.parse(line) as { msg?: string; concurrency?: number };
      } catch {
        return {};
      }
    })
    .find((entry) => entry.msg === 'worker started');
  log(`API at ${api.url} (store ${STORE}), worker pid ${workerPid} (concurrency ${workerStarted?.concurrency ?? '?'})`);
  const client = new Client(api.url, test);

  // The worker's first document after start, GeoTopo: what it costs beyond the later runs of the
  // same book is the warm-up a first user pays.
  const workerIdleKb = await rss.current();
  const firstRun = await processOnce(client, 'GeoTopo.pdf', geotopoBytes);
  log(`first document after start (geotopo): ${firstRun.status} in ${secs(firstRun.seconds)} s`);
  // A small document; its id serves the GET bench.
  const warm = await processOnce(client, 'warm-up.pdf', await textPdf([['Benchmark warm-up', 'A few words on one page.']]));
  if (warm.status !== 'completed') throw new Error(`warm-up document ended ${warm.status}: ${JSON.stringify(warm.error)}`);
  log(`warm-up document ${warm.id} completed in ${secs(warm.seconds)} s`);

  const geotopo = await measureDocument(client, rss, 'geotopo', GEOTOPO, geotopoBytes, RUNS);
  // What the built-in model adds: GeoTopo with every built-in field and a question, the
  // `extracting` stage's milliseconds per page (issue 8: at most 50).
  const extractionRuns: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await processOnce(client, 'GeoTopo.pdf', geotopoBytes, {
      extraction: { fields: ['title', 'document_type', 'summary', 'dates', 'parties', 'amounts', 'key_facts'] },
      queries: ['What is a topological manifold?'],
    });
    if (run.status === 'completed') extractionRuns.push((run.timings.extracting_ms ?? 0) / run.page_count);
  }
  const extractionMsPerPage = extractionRuns.length ? median(extractionRuns) : null;
  log(`extraction (built-in, all fields and a question) on geotopo: ${extractionMsPerPage === null ? 'failed' : `${extractionMsPerPage.toFixed(2)} ms per page`}`);
  const join = await measureDocument(client, rss, `geotopo x${JOIN_TIMES}`, joinFile, joinBytes, RUNS);
  const large = await measureDocument(client, rss, `geotopo x${LARGE_JOIN_TIMES}`, largeFile, largeBytes, 1);
  const long = await measureDocument(client, rss, `generated ${LONG_PAGES} p`, longFile, longBytes, RUNS);
  // Leak check: the worker's RSS after each of LEAK_DOCS joined books in a row.
  const leakRssMb: number[] = [];
  for (let i = 0; i < LEAK_DOCS; i++) {
    const run = await processOnce(client, 'joined.pdf', joinBytes);
    if (run.status !== 'completed') throw new Error(`leak check: document ${i + 1} ended ${run.status}`);
    leakRssMb.push(((await rss.current()) ?? NaN) / 1024);
  }
  if (LEAK_DOCS > 0) log(`leak check: worker RSS after each of ${LEAK_DOCS} joined books: ${leakRssMb.map((mb) => Math.round(mb)).join(', ')} MB`);
  const workerLifetimePeakKb = await rss.kernelPeak();
  const ocrLogStart = worker.logs.length;
  const ocr = await measureDocument(client, rss, 'A4 scans OCR', scans.file, scans.bytes, RUNS);
  const ocrRereads = rereadPages(worker.logs.slice(ocrLogStart));
  log(`OCR: ${ocrRereads.pages} of ${(ocr.pages ?? 0) * ocr.completed_runs} pages read more than one way${ocrRereads.pages ? ` (${ocrRereads.readings} readings beyond the first)` : ''}`);
  // The engine alone on the same pictures: the languages Folio reads, its models, as many
  // processes at once as it runs (FOLIO_OCR_WORKERS).
  const ocrConfig = loadConfig(install.env).ocr;
  const ocrBatch = tesseract.version ? await tesseractBatch(scans.pageFiles, ocrConfig.languages, ocrConfig.modelDir, ocrConfig.workers, RUNS) : null;
  if (ocrBatch) log(`tesseract on the ${scans.pages} pictures, ${ocrConfig.workers} at once (${ocrConfig.languages.join('+')}): ${ocrBatch.runs.map(secs).join(', ')} s`);
  const ocr150LogStart = worker.logs.length;
  const ocr150 = await measureDocument(client, rss, 'A4 scans OCR at 150 dpi', scans150.file, scans150.bytes, RUNS);
  const ocr150Rereads = rereadPages(worker.logs.slice(ocr150LogStart));
  const ocr150Batch = tesseract.version ? await tesseractBatch(scans150.pageFiles, ocrConfig.languages, ocrConfig.modelDir, ocrConfig.workers, RUNS) : null;
  if (ocr150Batch) log(`tesseract on the ${scans150.pages} pictures at 150 dpi: ${ocr150Batch.runs.map(secs).join(', ')} s`);

  // Office documents.
  const officeFiles: { name: string; bytes: Uint8Array }[] = [];
  for (const dir of await readdir(path.join(CORPUS, 'office'))) {
    for (const name of await readdir(path.join(CORPUS, 'office', dir))) {
      if (/\.(docx|xlsx|pptx)$/.test(name)) officeFiles.push({ name, bytes: new Uint8Array(await readFile(path.join(CORPUS, 'office', dir, name))) });
    }
  }
  const office = await officeThroughput(client, officeFiles, OFFICE_BATCH);
  log(`office: ${office.documents} documents in ${secs(office.seconds)} s (${office.failed} failed)`);

  // GET /api/v1/documents/{id}.
  const getPath = `/api/v1/documents/${warm.id}`;
  const probe = await client.get(getPath);
  if (probe.status !== 200) throw new Error(`GET ${getPath} answered ${probe.status}`);
  const cannon = async (duration: number): Promise<Result> => {
    const instance = autocannon({ url: `${api.url}${getPath}`, method: 'GET', headers: client.headers(), connections: GET_CONNECTIONS, duration, timeout: 10 });
    state.running = instance;
    try {
      return await instance;
    } finally {
      state.running = null;
    }
  };
  log(`GET ${getPath}: warm-up ${GET_WARMUP_S} s, then ${GET_DURATION_S} s with ${GET_CONNECTIONS} connections`);
  await cannon(GET_WARMUP_S);
  const result = await cannon(GET_DURATION_S);
  const get: GetFigures = {
    ...loadFigures(result),
    url_path: '/api/v1/documents/{id}',
    warmup_s: GET_WARMUP_S,
    response_bytes: Buffer.byteLength(probe.text),
  };

  await cleanup();
  clearTimeout(watchdog);
  const elapsedSeconds = (performance.now() - clockStart) / 1000;

  // ---- Report.
  const folioCell = (f: DocumentFigures) =>
    f.median_s !== null && f.pages_per_s !== null
      ? `${secs(f.median_s)} s, ${rate(f.pages_per_s)} p/s`
      : `failed (${f.error?.type ?? 'unknown'}: ${f.error?.message ?? ''})`;
  const peerCell = (figures: PeerFigures | null, tool: PeerTool, pages: number | null) => {
    if (!tool.version) return notInstalled(tool);
    if (!figures) return '-';
    if (figures.error) return `${tool.name} failed (${figures.error})`;
    return `${tool.name} ${secs(figures.median_s)} s${pages ? `, ${rate(pages / figures.median_s)} p/s` : ''}`;
  };
  const ratioCell = (f: DocumentFigures, figures: PeerFigures | null) =>
    f.median_s !== null && figures && !figures.error ? ratio(f.median_s, figures.median_s) : '-';

  const ocrPages = ocr.pages ?? 1;
  const ocrNa = ocr.median_s === null ? `n/a (failed: ${ocr.error?.type ?? 'unknown'}: ${ocr.error?.message ?? ''})` : null;

  const rows: string[][] = [
    [`geotopo ${geotopo.pages ?? 117} p, end to end (median of ${RUNS})`, folioCell(geotopo), peerCell(peers.geotopo, pdftotext, geotopo.pages), ratioCell(geotopo, peers.geotopo)],
    [
      `geotopo, first document after start`,
      firstRun.status === 'completed' ? `${secs(firstRun.seconds)} s (warm-up ${geotopo.median_s !== null ? secs(firstRun.seconds - geotopo.median_s) : '?'} s)` : `failed`,
      peerCell(peers.geotopo, pdftotext, geotopo.pages),
      firstRun.status === 'completed' && peers.geotopo && !peers.geotopo.error ? ratio(firstRun.seconds, peers.geotopo.median_s) : '-',
    ],
    [`geotopo x${JOIN_TIMES} ${join.pages ?? ''} p, end to end (median of ${RUNS})`, folioCell(join), peerCell(peers.join, pdftotext, join.pages), ratioCell(join, peers.join)],
    [`geotopo x${LARGE_JOIN_TIMES} ${large.pages ?? ''} p, end to end (once)`, folioCell(large), peerCell(peers.large, pdftotext, large.pages), ratioCell(large, peers.large)],
    [`generated ${LONG_PAGES} p, end to end (median of ${RUNS})`, folioCell(long), peerCell(peers.long, pdftotext, long.pages), ratioCell(long, peers.long)],
    [
      `worker peak RSS, geotopo / x${JOIN_TIMES} / x${LARGE_JOIN_TIMES} / ${LONG_PAGES} p`,
      `${megabytes(geotopo.worker_rss?.peakKb ?? null)} / ${megabytes(join.worker_rss?.peakKb ?? null)} / ${megabytes(large.worker_rss?.peakKb ?? null)} / ${megabytes(long.worker_rss?.peakKb ?? null)} (idle ${megabytes(workerIdleKb)})`,
      '-',
      '-',
    ],
    [
      `worker RSS after each of ${LEAK_DOCS} x${JOIN_TIMES} books in a row`,
      leakRssMb.length ? `first ${Math.round(leakRssMb[0])} MB, last ${Math.round(leakRssMb.at(-1)!)} MB, highest ${Math.round(Math.max(...leakRssMb))} MB` : 'left out',
      '-',
      '-',
    ],
    [
      `OCR ${ocrPages} A4 pages at 300 dpi (median of ${RUNS})`,
      ocrNa ? 'n/a (failed)' : folioCell(ocr),
      peerCell(peers.ocr, tesseract, 1),
      // Per page: Folio's seconds per page over the tesseract CLI's for one page.
      ocrNa || !peers.ocr || peers.ocr.error ? '-' : ratio(ocr.median_s! / ocrPages, peers.ocr.median_s),
    ],
    [
      `OCR ${ocrPages} A4 pages, the same languages and processes`,
      ocrNa ? 'n/a (failed)' : folioCell(ocr),
      !tesseract.version ? notInstalled(tesseract) : !ocrBatch || ocrBatch.error ? `tesseract failed (${ocrBatch?.error})` : `tesseract ${secs(ocrBatch.median_s)} s, ${ocrConfig.workers} at once (${ocrConfig.languages.join('+')})`,
      ocrNa || !ocrBatch || ocrBatch.error ? '-' : ratio(ocr.median_s!, ocrBatch.median_s),
    ],
    [
      `OCR the same pages at 150 dpi, the same languages and processes (${ocr150Rereads.pages}/${(ocr150.pages ?? 0) * ocr150.completed_runs} read again)`,
      ocr150.median_s === null ? 'n/a (failed)' : folioCell(ocr150),
      !ocr150Batch || ocr150Batch.error ? '-' : `tesseract ${secs(ocr150Batch.median_s)} s, ${ocrConfig.workers} at once`,
      ocr150.median_s === null || !ocr150Batch || ocr150Batch.error ? '-' : ratio(ocr150.median_s, ocr150Batch.median_s),
    ],
    [`${office.documents} Office documents at once (${officeFiles.length} corpus files)`, `${secs(office.seconds)} s, ${rate(office.per_s)} documents/s${office.failed ? ` (${office.failed} failed)` : ''}`, '-', '-'],
    [
      `GET /api/v1/documents/{id} (${GET_CONNECTIONS} conns, ${GET_DURATION_S} s)`,
      `${get.requests_per_s.average.toFixed(0)} req/s, p99 ${get.latency_ms.p99} ms${get.non_2xx || get.errors ? ` (${get.non_2xx} non-2xx, ${get.errors} errors)` : ''}`,
      '-',
      '-',
    ],
  ];

  const stageLine = (f: DocumentFigures) =>
    `${f.name}: ${Object.entries(f.median_timings_ms)
      .map(([stage, ms]) => `${stage} ${Math.round(ms)}`)
      .join(', ')} (median ms per stage); upload+count ${Math.round(median(f.runs.map((r) => r.upload_ms)))} ms, queue wait ${Math.round(median(f.runs.map((r) => r.queue_wait_ms ?? NaN)))} ms`;

  const cpus = os.cpus();
  console.log(
    `\nFolio speed — node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, store ${STORE}, ` +
      `API and worker as separate processes (client, API, worker and peers on the same machine)\n`,
  );
  console.log(table(['measurement', 'Folio', 'peer', 'ratio (Folio / peer)'], rows));
  console.log('');
  if (ocrNa) console.log(`OCR A4 scans: ${ocrNa}`);
  for (const tool of [pdftotext, tesseract]) if (!tool.version) console.log(notInstalled(tool));
  for (const f of [geotopo, join, large, long]) if (f.completed_runs) console.log(stageLine(f));

  const summaryPdf = (f: DocumentFigures, label: string, withRss: boolean, figures: PeerFigures | null) => {
    if (f.median_s === null || f.pages_per_s === null) return `${label} failed`;
    const extras = [`${rate(f.pages_per_s)} p/s`];
    if (withRss) extras.push(`worker peak RSS ${megabytes(f.worker_rss?.peakKb ?? null)}`);
    const r = ratioCell(f, figures);
    if (r !== '-') extras.push(`${r} pdftotext`);
    return `${label} in ${secs(f.median_s)} s (${extras.join(', ')})`;
  };
  const summary = [
    summaryPdf(geotopo, `geotopo ${geotopo.pages ?? 117} p`, false, peers.geotopo),
    `first document ${secs(firstRun.seconds)} s`,
    summaryPdf(join, `geotopo x${JOIN_TIMES}`, true, peers.join),
    summaryPdf(large, `geotopo x${LARGE_JOIN_TIMES}`, true, peers.large),
    ...(leakRssMb.length ? [`RSS after ${LEAK_DOCS} books ${Math.round(leakRssMb[0])}→${Math.round(leakRssMb.at(-1)!)} MB`] : []),
    summaryPdf(long, `${LONG_PAGES} p`, true, peers.long),
    ocrNa ? 'OCR n/a' : `OCR ${ocrPages} A4 p in ${secs(ocr.median_s!)} s (${rate(ocr.pages_per_s!)} p/s, ${ocrRereads.pages}/${ocrPages * ocr.completed_runs} pages read again${ocrBatch && !ocrBatch.error ? `, ${ratio(ocr.median_s!, ocrBatch.median_s)} tesseract` : ''})${ocr150.median_s !== null && ocr150Batch && !ocr150Batch.error ? ` | OCR at 150 dpi ${ratio(ocr150.median_s, ocr150Batch.median_s)} tesseract (${ocr150Rereads.pages}/${(ocr150.pages ?? 0) * ocr150.completed_runs} read again)` : ''}`,
    `Office ${rate(office.per_s)} docs/s`,
    extractionMsPerPage === null ? 'extraction n/a' : `built-in extraction ${extractionMsPerPage.toFixed(1)} ms/page`,
    `GET ${get.requests_per_s.average.toFixed(0)} req/s p99 ${get.latency_ms.p99} ms`,
  ].join(' | ');
  console.log(`\nspeed: ${summary}`);

  const dir = path.join(HERE, 'results');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `speed-${startedAt.toISOString().replace(/:/g, '-')}.json`);
  const report = {
    benchmark: 'speed',
    date: startedAt.toISOString(),
    elapsed_s: Math.round(elapsedSeconds),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: cpus.length,
    cpu_model: cpus[0]?.model.trim() ?? null,
    memory_mb: Math.round(os.totalmem() / 2 ** 20),
    store: STORE,
    setup: {
      processes: 'folio serve --no-workers + folio worker',
      worker_concurrency: workerStarted?.concurrency ?? null,
      runs: RUNS,
      poll_ms: POLL_MS,
      worker_poll_ms: Number(install.env.FOLIO_POLL_MS ?? NaN),
      timing: 'the multipart upload, then the document from created_at to completed_at (its own timestamps), polled every poll_ms',
    },
    inputs: {
      generated_pdf: { pages: LONG_PAGES, bytes: longBytes.byteLength, generate_s: generateSeconds },
      joined_pdf: { times: JOIN_TIMES, bytes: joinBytes.byteLength },
    },
    summary: `speed: ${summary}`,
    folio: {
      first_document_after_start: firstRun,
      warm_up: warm,
      leak_check_rss_mb: leakRssMb,
      worker_rss_idle_kb: workerIdleKb,
      worker_rss_lifetime_peak_kb: workerLifetimePeakKb,
      documents: { geotopo, join, large, long, ocr: { ...ocr, result: ocrNa ?? 'measured', pages_read_again: ocrRereads.pages, extra_readings: ocrRereads.readings }, ocr_150dpi: { ...ocr150, pages_read_again: ocr150Rereads.pages, extra_readings: ocr150Rereads.readings }, office },
      builtin_extraction_ms_per_page: extractionMsPerPage,
      get,
    },
    peers: {
      pdftotext: pdftotext.version ? { version: pdftotext.version, geotopo: peers.geotopo, join: peers.join, large: peers.large, long: peers.long } : { installed: false, hint: notInstalled(pdftotext) },
      tesseract: tesseract.version ? { version: tesseract.version, ocr: peers.ocr, ocr_batch: ocrBatch, ocr_150dpi_batch: ocr150Batch } : { installed: false, hint: notInstalled(tesseract) },
    },
    ratios: {
      geotopo_vs_pdftotext: geotopo.median_s !== null && peers.geotopo && !peers.geotopo.error ? geotopo.median_s / peers.geotopo.median_s : null,
      first_document_vs_pdftotext: firstRun.status === 'completed' && peers.geotopo && !peers.geotopo.error ? firstRun.seconds / peers.geotopo.median_s : null,
      join_vs_pdftotext: join.median_s !== null && peers.join && !peers.join.error ? join.median_s / peers.join.median_s : null,
      long_vs_pdftotext: long.median_s !== null && peers.long && !peers.long.error ? long.median_s / peers.long.median_s : null,
      ocr_vs_tesseract_same_processes: ocr.median_s !== null && ocrBatch && !ocrBatch.error ? ocr.median_s / ocrBatch.median_s : null,
      ocr_150dpi_vs_tesseract_same_processes: ocr150.median_s !== null && ocr150Batch && !ocr150Batch.error ? ocr150.median_s / ocr150Batch.median_s : null,
      ocr_vs_tesseract: ocr.median_s !== null && peers.ocr && !peers.ocr.error ? ocr.median_s / peers.ocr.median_s : null,
    },
  };
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwritten to ${path.relative(process.cwd(), file)} (run took ${secs(elapsedSeconds)} s)`);

  if (geotopo.median_s === null || long.median_s === null || get.non_2xx > 0 || get.errors > 0) process.exitCode = 1;
}

main()
  .catch((error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  })
  .finally(() => cleanup());
