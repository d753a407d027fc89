// How long cutting a document into chunks takes, per page.
//
//   npm run bench:chunks          (builds, then runs this file with tsx)
//
// Two figures for each document (median of RUNS):
//   1. the chunker alone (page-outputs/chunks.ts) over the page outputs Folio stored, in this
//      process: the cost of the cut itself;
//   2. `GET /api/v1/documents/{id}/chunks` against a fresh SQLite installation (API and worker in
//      one process), as a client sees it: the stored pages read 64 at a time, cut, and sent as JSON.
// Documents: the 117-page GeoTopo book, the book joined 9 times (1,053 pages), and the corpus'
// laid-out reports with tables. Writes bench/results/chunks-<ISO date>.json. Asserts nothing.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { Client, CORPUS, Installation } from '../test/helpers/folio.js';
import { chunkPages, type ChunkablePage } from '../src/page-outputs/chunks.js';
import { median, table } from './speed/stats.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RUNS = 5;
const DOCUMENTS = [
  { name: 'GeoTopo (117 p)', file: 'text_pdf/pypdfbench-geotopo-book/GeoTopo-komprimiert.pdf', join: 1 },
  { name: 'GeoTopo x9 (1,053 p)', file: 'text_pdf/pypdfbench-geotopo-book/GeoTopo-komprimiert.pdf', join: 9 },
  { name: 'redp5110 (tables, headings)', file: 'layout_markdown/docling-redp5110_sampled/redp5110_sampled.pdf', join: 1 },
  { name: 'normal_4pages', file: 'layout_markdown/docling-normal_4pages/normal_4pages.pdf', join: 1 },
];

async function joined(bytes: Uint8Array, times: number): Promise<Uint8Array> {
  if (times === 1) return bytes;
  const source = await PDFDocument.load(bytes);
  const out = await PDFDocument.create();
  for (let i = 0; i < times; i++) for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page);
  return out.save();
}

const install = await Installation.create();
await install.admin('plan', 'create', '--id', 'bench', '--name', 'Bench', '--rate-limit-per-second', '1000000', '--max-pages-per-document', '5000');
const server = await install.start();
const client = new Client(server.url, (await install.workspace({ plan: 'bench' })).test);
const results: Record<string, unknown>[] = [];
try {
  for (const spec of DOCUMENTS) {
    const bytes = await joined(new Uint8Array(await readFile(path.join(CORPUS, spec.file))), spec.join);
    const upload = await client.upload([['file', path.basename(spec.file), bytes]]);
    const doc = await client.waitFor(upload.json.id, 600_000);
    if (doc.status !== 'completed') throw new Error(`${spec.name} ended ${doc.status}`);
    const pages: ChunkablePage[] = (await client.get(`/api/v1/documents/${doc.id}/pages?include=layout,tables`)).json.data.map((p: any) => ({ page: p.page, layout: p.layout, tables: p.tables }));
    const alone: number[] = [];
    let count = 0;
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      count = chunkPages(pages, { maxTokens: 512, analysis: 'layout' }).length;
      alone.push(performance.now() - started);
    }
    const http: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const response = await client.get(`/api/v1/documents/${doc.id}/chunks`);
      if (response.status !== 200) throw new Error(`chunks of ${spec.name} answered ${response.status}`);
      http.push(performance.now() - started);
    }
    results.push({ document: spec.name, pages: doc.page_count, chunks: count, chunker_ms: median(alone), chunker_ms_per_page: median(alone) / doc.page_count, http_ms: median(http), http_ms_per_page: median(http) / doc.page_count });
  }
} finally {
  await server.stop();
  await install.destroy();
}

const fixed = (value: unknown, digits: number) => (typeof value === 'number' ? value.toFixed(digits) : String(value));
console.log(
  table(
    ['document', 'pages', 'chunks', 'chunker, ms', 'ms/page', 'GET /chunks, ms', 'ms/page'],
    results.map((r) => [String(r.document), String(r.pages), String(r.chunks), fixed(r.chunker_ms, 1), fixed(r.chunker_ms_per_page, 3), fixed(r.http_ms, 1), fixed(r.http_ms_per_page, 3)]),
  ),
);
await mkdir(path.join(HERE, 'results'), { recursive: true });
const file = path.join(HERE, 'results', `chunks-${new Date().toISOString().replace(/:/g, '-')}.json`);
await writeFile(file, `${JSON.stringify({ at: new Date().toISOString(), runs: RUNS, results }, null, 2)}\n`);
console.log(`written ${path.relative(process.cwd(), file)}`);
