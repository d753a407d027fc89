// Where the milliseconds of a born-digital page go (issue 25 scope 2): GeoTopo read and analysed
// in this process as a reader thread would (spans of pages, then the analysis down to outputs),
// under V8's sampling profiler (node:inspector, as --cpu-prof), after one warm-up pass. Prints the
// wall time per page of each step and the profiler's self time per page by source file, the
// files that take at least 1% first.
//
//   npm run bench:page-profile        (writes bench/results/page-profile-<ISO date>.json)
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzePage } from '../src/pipeline/analysis/analyze-page.js';
import { documentStats, pageTally } from '../src/pipeline/analysis/document-stats.js';
import { countPdfPages, readPdf } from '../src/pipeline/formats/pdf.js';
import { pageBatch } from '../src/pipeline/outputs/page-batch.js';
import { pageSpans } from '../src/pipeline/stages/analyzing.js';
import { CORPUS } from '../test/helpers/folio.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FILE = path.join(CORPUS, 'text_pdf/pypdfbench-geotopo-book/GeoTopo-komprimiert.pdf');
const BATCH = { markdown: true, mediaType: 'application/pdf', images: true, uploadBytes: 0, joinsTables: true };

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  hitCount?: number;
}

async function pass(bytes: Uint8Array): Promise<{ pages: number; readMs: number; analyzeMs: number; outputsMs: number }> {
  let readMs = 0;
  let analyzeMs = 0;
  let outputsMs = 0;
  const raw = [];
  for (const span of pageSpans(await countPdfPages(bytes), 2)) {
    const started = performance.now();
    raw.push(...(await readPdf(bytes, span, 'profile')));
    readMs += performance.now() - started;
  }
  const stats = documentStats(raw.map(pageTally));
  let started = performance.now();
  const pages = raw.map((page) => analyzePage(page, stats, 'layout'));
  analyzeMs += performance.now() - started;
  started = performance.now();
  pageBatch(pages, BATCH);
  outputsMs += performance.now() - started;
  return { pages: raw.length, readMs, analyzeMs, outputsMs };
}

async function main(): Promise<void> {
  const bytes = new Uint8Array(await readFile(FILE));
  await pass(bytes);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const timed = await pass(bytes);
  const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[] } };
  session.disconnect();

  const sampleMs = (profile.endTime - profile.startTime) / 1000 / profile.samples.length;
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const byFile = new Map<string, number>();
  for (const node of profile.nodes) {
    const count = hits.get(node.id) ?? 0;
    if (!count) continue;
    const url = node.callFrame.url;
    const name = node.callFrame.functionName;
    const file = name.startsWith('wasm-function') || (!url && /^\$/.test(name)) ? 'PDFium (WebAssembly)' : url.includes('/src/') ? url.slice(url.indexOf('/src/') + 1) : url.includes('node_modules/') ? url.slice(url.lastIndexOf('node_modules/') + 13).split('/').slice(0, 2).join('/') : `(${node.callFrame.functionName || 'native'})`;
    byFile.set(file, (byFile.get(file) ?? 0) + count * sampleMs);
  }
  const total = [...byFile.values()].reduce((a, b) => a + b, 0);
  const rows = [...byFile].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms >= total * 0.01);
  const perPage = (ms: number) => (ms / timed.pages).toFixed(2);
  console.log(`GeoTopo, ${timed.pages} pages, one thread, warm: ms per page`);
  console.log(`  read (PDFium: words, drawings, form fields)  ${perPage(timed.readMs)}`);
  console.log(`  layout analysis                              ${perPage(timed.analyzeMs)}`);
  console.log(`  outputs and picture plan                     ${perPage(timed.outputsMs)}`);
  console.log(`\nprofiler self time, ms per page, by file (at least 1% of ${perPage(total)}):`);
  for (const [file, ms] of rows) console.log(`  ${perPage(ms).padStart(6)}  ${file}`);
  const dir = path.join(HERE, 'results');
  await mkdir(dir, { recursive: true });
  const out = path.join(dir, `page-profile-${new Date().toISOString().replace(/:/g, '-')}.json`);
  await writeFile(out, `${JSON.stringify({ benchmark: 'page-profile', node: process.version, file: path.basename(FILE), ...timed, self_ms_by_file: Object.fromEntries(rows) }, null, 2)}\n`);
  console.log(`\nwritten to ${path.relative(process.cwd(), out)}`);
}

await main();
