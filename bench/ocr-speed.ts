// OCR speed alone: the speed bench's scans (bench/speed.ts, item 3) through a running Folio beside
// the `tesseract` CLI on the same pictures, run after run in turn, so a change to how scans are
// read is judged in a few minutes instead of the whole speed bench's twenty.
//
//   npm run bench:ocr-speed                 (builds, then runs this file with tsx)
//   FOLIO_BENCH_RUNS=7 npm run bench:ocr-speed
//
// For each resolution (300 and 150 dpi): the three pages of the corpus' multicolumn.pdf rendered
// to pictures and put back into a PDF without text layer, read by Folio (API and one worker as
// separate processes, timed by the document's own timestamps) and by the CLI (as many processes at
// once as Folio's OCR workers, the same languages and models), alternately RUNS times; the medians,
// Folio's as a multiple of the CLI's, where Folio's time went (upload, queue, stages), and how many
// pages the worker read more than one way. The machine is shared: compare ratios, not seconds.
// Prints a table; writes nothing. Nothing here asserts on time.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, CORPUS, Installation, type Server } from '../test/helpers/folio.js';
import { loadConfig } from '../src/config.js';
import { findTool, notInstalled, tesseractBatch } from './speed/peers.js';
import { a4Scans, processOnce, rereadPages, type DocumentRun } from './speed/documents.js';
import { median, secs, table } from './speed/stats.js';

const RUNS = Number(process.env.FOLIO_BENCH_RUNS ?? 5);
const SCAN_SOURCE = path.join(CORPUS, 'text_pdf/samplefiles-multicolumn/multicolumn.pdf');
const log = (message: string) => process.stderr.write(`[bench:ocr-speed] ${message}\n`);

async function main(): Promise<void> {
  const tesseract = findTool('tesseract');
  if (!tesseract.version) throw new Error(notInstalled(tesseract));
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'folio-ocr-speed-'));
  const install = await Installation.create();
  const servers: Server[] = [];
  try {
    await install.admin('plan', 'create', '--id', 'bench', '--name', 'Bench', '--rate-limit-per-second', '1000000');
    const { test } = await install.workspace({ plan: 'bench' });
    servers.push(await install.start(['--no-workers']));
    const worker = await install.start(['worker']);
    servers.push(worker);
    const client = new Client(servers[0].url, test);
    const ocr = loadConfig(install.env).ocr;
    const inputs = new Map<number, Awaited<ReturnType<typeof a4Scans>>>();
    for (const dpi of [300, 150]) inputs.set(dpi, await a4Scans(SCAN_SOURCE, tmp, dpi));
    // One document first: the worker's engine and models are loaded once, not in the first timed run.
    await processOnce(client, 'warm-up.pdf', inputs.get(150)!.bytes);
    const rows: string[][] = [];
    for (const [dpi, scans] of inputs) {
      const folio: DocumentRun[] = [];
      const cli: number[] = [];
      const logStart = worker.logs.length;
      for (let i = 0; i < RUNS; i++) {
        const run = await processOnce(client, `scans-${dpi}dpi.pdf`, scans.bytes);
        if (run.status !== 'completed') throw new Error(`the ${dpi} dpi scans ended ${run.status}: ${JSON.stringify(run.error)}`);
        folio.push(run);
        const batch = await tesseractBatch(scans.pageFiles, ocr.languages, ocr.modelDir, ocr.workers, 1);
        if (batch.error) throw new Error(`tesseract failed: ${batch.error}`);
        cli.push(batch.median_s);
        log(`${dpi} dpi run ${i + 1}: Folio ${secs(run.seconds)} s, tesseract ${secs(batch.median_s)} s`);
      }
      const again = rereadPages(worker.logs.slice(logStart));
      const folioS = median(folio.map((r) => r.seconds));
      const cliS = median(cli);
      const stages = (key: string) => `${Math.round(median(folio.map((r) => r.timings[key] ?? 0)))}`;
      rows.push([
        `${dpi} dpi`,
        secs(folioS),
        secs(cliS),
        `${(folioS / cliS).toFixed(2)}x`,
        `${Math.round(median(folio.map((r) => r.upload_ms)))} / ${Math.round(median(folio.map((r) => r.queue_wait_ms ?? 0)))} / ${stages('analyzing_ms')} / ${stages('rendering_ms')} / ${stages('finalizing_ms')}`,
        `${again.pages}/${scans.pages * RUNS} (${again.readings} readings)`,
      ]);
    }
    console.log(`\nOCR of ${path.basename(SCAN_SOURCE)}'s 3 pages as scans, median of ${RUNS}, ${ocr.workers} OCR workers, ${ocr.languages.join('+')}`);
    console.log(table(['scans', 'Folio s', `tesseract s (${ocr.workers} at once)`, 'Folio / tesseract', 'Folio ms: upload / queue / analyzing / rendering / finalizing', 'pages read again'], rows));
  } finally {
    for (const server of servers.reverse()) await server.stop().catch(() => undefined);
    await install.destroy().catch(() => undefined);
    await rm(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
