// How fast an idle worker in another process picks up a new document on PostgreSQL (issue 10:
// within 100 ms through LISTEN/NOTIFY, without polling the database).
//
//   npm run bench:wakeup        (builds, then runs this file with tsx; needs PostgreSQL at
//                                FOLIO_TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
//
// Starts an API (`folio serve --no-workers`) and one worker (`folio worker`) as separate
// processes, the worker with FOLIO_POLL_MS=60000 so that only a notification can wake it; uploads
// SAMPLES one-page PDFs one after another, each once the previous one is done (so the worker is
// idle every time), and reads from the database how long each waited between its row being
// written (`created_at`) and its claim (`started_at`). Prints the median, p95 and maximum and
// writes bench/results/wakeup-<ISO date>.json. Nothing here asserts on time.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The test helpers read the store when they load, so they are loaded after it is set.
process.env.FOLIO_TEST_STORE = 'postgres';
const { Client, Installation } = await import('../test/helpers/folio.js');
const { textPdf } = await import('../test/helpers/pdfs.js');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLES = 30;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const install = await Installation.create({ FOLIO_POLL_MS: '60000' });
const servers: { stop(): Promise<void> }[] = [];
try {
  const api = await install.start(['--no-workers']);
  servers.push(api);
  servers.push(await install.start(['worker']));
  const ws = await install.workspace();
  const client = new Client(api.url, ws.test);
  const pdf = await textPdf([['A one-page document for the wake-up benchmark.']]);
  const ids: string[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const id = (await client.upload([['file', `w${i}.pdf`, pdf]])).json.id;
    const doc = await client.waitFor(id, 30_000);
    if (doc.status !== 'completed') throw new Error(`${id} ${doc.status}`);
    ids.push(id);
    // The worker goes back to waiting before the next one arrives.
    await new Promise((r) => setTimeout(r, 50));
  }
  const rows = (await install.database((db) => db.query('SELECT started_at - created_at AS wait FROM documents WHERE id = ANY($1)', [ids]))).rows;
  const waits = rows.map((r) => Number(r.wait)).sort((a, b) => a - b);
  const figures = { samples: waits.length, median_ms: percentile(waits, 50), p95_ms: percentile(waits, 95), max_ms: waits[waits.length - 1], worker_poll_ms: 60_000 };
  console.log(`wakeup: ${figures.samples} documents | created -> claimed median ${figures.median_ms} ms, p95 ${figures.p95_ms} ms, max ${figures.max_ms} ms (worker poll 60 s, so NOTIFY did the waking)`);
  const out = path.join(ROOT, 'bench/results', `wakeup-${new Date().toISOString().replace(/:/g, '-')}.json`);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify({ figures, waits_ms: waits }, null, 1)}\n`);
  console.log(`wrote ${path.relative(ROOT, out)}`);
} finally {
  for (const server of servers) await server.stop();
  await install.destroy();
}
