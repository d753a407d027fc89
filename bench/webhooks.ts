// How long a webhook event takes to reach its receiver (issue 26 scope 2): from the moment the
// document completed (its `completed_at`, which the event carries) to the moment a local receiver
// has the whole request.
//
//   npm run bench:webhooks      (builds, then runs this file with tsx; the PostgreSQL rows need
//                                FOLIO_TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
//
// For each setup it starts Folio with the default delivery settings, creates a test-mode webhook
// for document.completed pointing at a receiver on 127.0.0.1, and sends SAMPLES one-page PDFs:
// one after another (each once the previous event has arrived, so the worker and the deliverer
// are idle every time), then SAMPLES at once in three batches of ten. Prints the median, p95 and
// maximum per setup and writes bench/results/webhooks-<ISO date>.json. Nothing here asserts on time.
//
// The test helpers read the store they run against when they load, so each store is measured in
// a child process of this file.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const SAMPLES = 30;

interface Setup {
  name: string;
  store: 'sqlite' | 'postgres';
  /** API and workers in one process, or an API and a `folio worker` apart. */
  apart: boolean;
}

interface Figures {
  setup: string;
  pattern: 'one at a time' | 'burst of 30';
  samples: number;
  median_ms: number;
  p95_ms: number;
  max_ms: number;
  latencies_ms: number[];
}

const SETUPS: Setup[] = [
  { name: 'SQLite, folio serve', store: 'sqlite', apart: false },
  { name: 'PostgreSQL, folio serve', store: 'postgres', apart: false },
  { name: 'PostgreSQL, API + folio worker', store: 'postgres', apart: true },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function figures(setup: string, pattern: Figures['pattern'], latencies: number[]): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { setup, pattern, samples: sorted.length, median_ms: percentile(sorted, 50), p95_ms: percentile(sorted, 95), max_ms: sorted[sorted.length - 1], latencies_ms: sorted };
}

/** Runs the setups of one store in this process (the child's part). */
async function measure(store: Setup['store']): Promise<Figures[]> {
  const { Client, Installation } = await import('../test/helpers/folio.js');
  const { textPdf } = await import('../test/helpers/pdfs.js');
  const arrived = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      // The first arrival counts; a repeat (at least once) does not move it.
      if (!arrived.has(event.data.object.id)) arrived.set(event.data.object.id, at - Date.parse(event.data.object.completed_at));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const waitFor = async (ids: string[]) => {
    const deadline = Date.now() + 60_000;
    while (!ids.every((id) => arrived.has(id))) {
      if (Date.now() > deadline) throw new Error(`events missing for ${ids.filter((id) => !arrived.has(id)).join(', ')}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return ids.map((id) => arrived.get(id)!);
  };
  const pdf = await textPdf([['A one-page document for the webhook benchmark.']]);
  const out: Figures[] = [];
  try {
    for (const setup of SETUPS.filter((s) => s.store === store)) {
      const install = await Installation.create();
      const servers: { stop(): Promise<void> }[] = [];
      try {
        const api = await install.start(setup.apart ? ['--no-workers'] : []);
        servers.push(api);
        if (setup.apart) servers.push(await install.start(['worker']));
        const client = new Client(api.url, (await install.workspace()).test);
        const created = await client.request('POST', '/api/v1/webhooks', { json: { url, events: ['document.completed'] } });
        if (created.status !== 201) throw new Error(`creating the webhook answered ${created.status}`);

        const sequential: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          const id = (await client.upload([['file', `w${i}.pdf`, pdf]])).json.id as string;
          sequential.push(...(await waitFor([id])));
          // Idle again before the next one.
          await new Promise((r) => setTimeout(r, 50));
        }
        out.push(figures(setup.name, 'one at a time', sequential));

        const ids: string[] = [];
        for (let batch = 0; batch < SAMPLES / 10; batch++) {
          const files = Array.from({ length: 10 }, (_, i): [string, string, Uint8Array] => ['files[]', `b${batch}-${i}.pdf`, pdf]);
          const answer = (await client.upload(files)).json as { documents: { id: string }[] };
          ids.push(...answer.documents.map((d) => d.id));
        }
        out.push(figures(setup.name, 'burst of 30', await waitFor(ids)));
      } finally {
        for (const server of servers) await server.stop();
        await install.destroy();
      }
    }
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
  return out;
}

function runChild(store: Setup['store']): Promise<Figures[]> {
  const child = spawn(process.execPath, [...process.execArgv, SELF], { env: { ...process.env, FOLIO_TEST_STORE: store, FOLIO_BENCH_CHILD: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the ${store} run exited with ${code}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as Figures[]);
    }),
  );
}

if (process.env.FOLIO_BENCH_CHILD) {
  const results = await measure(process.env.FOLIO_TEST_STORE as Setup['store']);
  process.stdout.write(`${JSON.stringify(results)}\n`);
} else {
  const results = [...(await runChild('sqlite')), ...(await runChild('postgres'))];
  const header = ['setup', 'documents', 'median', 'p95', 'max'];
  const rows = results.map((r) => [`${r.setup}, ${r.pattern}`, String(r.samples), `${r.median_ms} ms`, `${r.p95_ms} ms`, `${r.max_ms} ms`]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log('webhook latency: document completed_at -> receiver has the request');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  const file = path.join(ROOT, 'bench/results', `webhooks-${new Date().toISOString().replace(/:/g, '-')}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ samples: SAMPLES, results }, null, 1)}\n`);
  console.log(`wrote ${path.relative(ROOT, file)}`);
}
