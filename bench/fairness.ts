// One workspace floods, another sends one small document (issue 37): what the second one sees.
//
//   npm run bench:fairness [-- --before /path/to/older/checkout] [-- --store postgres]
//
// Folio runs as its README starts it (`folio serve`: the API and its workers in one process, on
// SQLite unless --store postgres). Workspace B has a webhook to a receiver that answers at once,
// and sends a one-page PDF; the figures are B's: the upload's answer time (POST to 202), its
// time to completed (created_at to completed_at) and its event's time (completed_at to the
// receiver having the request), first with nothing else running ("alone"), then while
// workspace A floods:
//   - A has 20 webhooks to a receiver that never answers, and 3 small documents whose 60
//     events hold deliveries for their whole time limit and then retry;
//   - a 400-page born-digital report, whose spans fill the reader threads' queue;
//   - before each of B's documents, a backlog of 4 more scanned PDFs of 3 pages, read by OCR;
//   - a TIFF of 3,000 frames of one pixel (380 KB), sent just before B's upload.
// Then the memory of the API process under 10 concurrent `include=image_data` reads of a document
// with 16 pages of 1.5 MB pictures: its resident size before, at its peak and 5 s after.
// With --before, the same runs on an older build (its bin/folio.js, built) and both are printed
// side by side. Writes bench/results/fairness-<ISO date>.json. Nothing here asserts on time.
//
// The test helpers read the store and the build they run against when they load, so each build
// is measured in a child process of this file.
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
/** B's document is sent this many times per scenario; the median is printed. */
const SAMPLES = 3;

interface BFigures {
  upload_ms: number;
  completed_ms: number;
  event_ms: number;
}

interface Run {
  build: string;
  store: 'sqlite' | 'postgres';
  alone: BFigures;
  flood: BFigures;
  /** What A's flood got: its refused TIFFs' answer times and statuses. */
  flood_tiffs: { status: number; ms: number }[];
  memory_mb: { before: number; peak: number; after: number };
  samples: { alone: BFigures[]; flood: BFigures[] };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resident memory of a process, in MB, from /proc. */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

/** The child's part: one build, one store. */
async function measure(build: string): Promise<Run> {
  const { Client, Installation, STORE } = await import('../test/helpers/folio.js');
  const { longPdf, textPdf } = await import('../test/helpers/pdfs.js');
  const { scannedPdf, textPicture } = await import('../test/helpers/images.js');
  const { manyFrames } = await import('../test/helpers/tiffs.js');
  const { PDFDocument } = await import('pdf-lib');
  const sharp = (await import('sharp')).default;

  // B's receiver answers at once; A's never does.
  const arrived = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url?.startsWith('/dead')) return;
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (!arrived.has(event.data.object.id)) arrived.set(event.data.object.id, Date.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = (p: string) => `http://127.0.0.1:${(receiver.address() as { port: number }).port}${p}`;

  const install = await Installation.create();
  const server = await install.start();
  try {
    const a = new Client(server.url, (await install.workspace()).test);
    const b = new Client(server.url, (await install.workspace()).test);
    await b.request('POST', '/api/v1/webhooks', { json: { url: hookUrl('/ok'), events: ['document.completed'] } });
    const small = await textPdf([['A one-page document for the fairness benchmark.', 'Total due: EUR 310.00']]);

    /** B sends its document; its three figures once its event has arrived. */
    const bOnce = async (): Promise<BFigures> => {
      const started = performance.now();
      const accepted = await b.upload([['file', 'b.pdf', small]]);
      const upload = performance.now() - started;
      if (accepted.status !== 202) throw new Error(`B's upload answered ${accepted.status}`);
      const doc = await b.waitFor(accepted.json.id, 900_000);
      for (const deadline = Date.now() + 300_000; !arrived.has(doc.id) && Date.now() < deadline; ) await sleep(10);
      return {
        upload_ms: Math.round(upload),
        completed_ms: Date.parse(doc.completed_at) - Date.parse(doc.created_at),
        event_ms: (arrived.get(doc.id) ?? Number.NaN) - Date.parse(doc.completed_at),
      };
    };
    const summary = (runs: BFigures[]): BFigures => ({
      upload_ms: median(runs.map((r) => r.upload_ms)),
      completed_ms: median(runs.map((r) => r.completed_ms)),
      event_ms: median(runs.map((r) => r.event_ms)),
    });

    const alone: BFigures[] = [];
    for (let i = 0; i < SAMPLES; i++) alone.push(await bOnce());

    // A's flood: dead receivers with events queued for them, a backlog of scans, huge-frame TIFFs.
    for (let i = 0; i < 20; i++) await a.request('POST', '/api/v1/webhooks', { json: { url: hookUrl(`/dead/${i}`), events: ['document.completed'] } });
    for (let i = 0; i < 3; i++) await a.waitFor((await a.upload([['file', `a-small-${i}.pdf`, small]])).json.id);
    const lines = Array.from({ length: 40 }, (_, i) => `Line ${i + 1}: the quick brown fox jumps over the lazy dog, invoice ${1000 + i}.`);
    const scan = await scannedPdf(await textPicture(lines, { widthPt: 595, heightPt: 842, size: 11 }), 595, 842);
    const scans = await PDFDocument.create();
    for (const page of await scans.copyPages(await PDFDocument.load(scan), [0, 0, 0])) scans.addPage(page);
    const backlogPdf = await scans.save();
    // A long born-digital report: its spans fill the reader threads' queue.
    await a.upload([['file', 'a-report.pdf', await longPdf(400)]]);
    const tiff = manyFrames(3000);
    const flood: BFigures[] = [];
    const floodTiffs: { status: number; ms: number }[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      // Each of B's documents meets a fresh backlog, whatever became of the last one.
      for (let n = 0; n < 4; n++) await a.upload([['file', `a-scan-${i}-${n}.pdf`, backlogPdf]]);
      const started = performance.now();
      const counted = a.upload([['file', `frames-${i}.tiff`, tiff]]).then((answer) => ({ status: answer.status, ms: Math.round(performance.now() - started) }));
      await sleep(100);
      flood.push(await bOnce());
      floodTiffs.push(await counted);
    }

    // Memory: 10 reads at once of a document whose pictures come to about 24 MB.
    const doc = await PDFDocument.create();
    const noise = Buffer.alloc(1200 * 1600 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const picture = await doc.embedJpg(await sharp(noise, { raw: { width: 1200, height: 1600, channels: 3 } }).jpeg({ quality: 92 }).toBuffer());
    for (let i = 0; i < 16; i++) {
      const page = doc.addPage([595, 842]);
      page.drawImage(picture, { x: 0, y: 0, width: 595, height: 842 });
      page.drawText(`Page ${i + 1} of a picture-heavy report.`, { x: 40, y: 800, size: 12 });
    }
    const heavy = (await b.upload([['file', 'pictures.pdf', await doc.save()]])).json.id;
    await b.waitFor(heavy, 600_000);
    const pid = server.process.pid!;
    await sleep(2000);
    const before = await rssMb(pid);
    let peak = before;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await rssMb(pid));
        await sleep(20);
      }
    })();
    // Ten clients of one workspace; each takes its answer whole.
    await Promise.all(Array.from({ length: 10 }, () => b.request('GET', `/api/v1/documents/${heavy}/pages?include=image_data`)));
    sampling = false;
    await sampler;
    await sleep(5000);
    const after = await rssMb(pid);

    return {
      build,
      store: STORE,
      alone: summary(alone),
      flood: summary(flood),
      flood_tiffs: floodTiffs,
      memory_mb: { before, peak, after },
      samples: { alone, flood },
    };
  } finally {
    await server.stop();
    await install.destroy();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

function runChild(build: string, checkout: string, store: string): Promise<Run> {
  const env = { ...process.env, FOLIO_TEST_STORE: store, FOLIO_TEST_BIN: path.join(checkout, 'bin/folio.js'), FOLIO_BENCH_CHILD: build };
  const child = spawn(process.execPath, [...process.execArgv, SELF], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the ${build} run exited with ${code}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as Run);
    }),
  );
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

if (process.env.FOLIO_BENCH_CHILD) {
  process.stdout.write(`${JSON.stringify(await measure(process.env.FOLIO_BENCH_CHILD))}\n`);
} else {
  const store = argument('store') ?? 'sqlite';
  const before = argument('before');
  const runs: Run[] = [];
  if (before) runs.push(await runChild(`before (${path.basename(path.resolve(before))})`, path.resolve(before), store));
  runs.push(await runChild('this build', ROOT, store));
  const header = ['build', 'B alone: upload', 'completed', 'event', 'B during A\'s flood: upload', 'completed', 'event', 'A\'s TIFFs answered', 'API MB before/peak/after'];
  const rows = runs.map((r) => [
    r.build,
    `${r.alone.upload_ms} ms`,
    `${r.alone.completed_ms} ms`,
    `${r.alone.event_ms} ms`,
    `${r.flood.upload_ms} ms`,
    `${r.flood.completed_ms} ms`,
    `${r.flood.event_ms} ms`,
    r.flood_tiffs.map((t) => `${t.status} in ${t.ms} ms`).join(', '),
    `${r.memory_mb.before}/${r.memory_mb.peak}/${r.memory_mb.after}`,
  ]);
  console.log(`fairness on ${store}: workspace B's one-page document (median of ${SAMPLES}), alone and during workspace A's flood`);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  const file = path.join(ROOT, 'bench/results', `fairness-${new Date().toISOString().replace(/:/g, '-')}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ store, samples: SAMPLES, runs }, null, 1)}\n`);
  console.log(`wrote ${path.relative(ROOT, file)}`);
}
