// One workspace never holds up another (issue 37; docs/decisions.md#sharing-between-workspaces):
// worker slots go first to the workspace with the least work running, so a workspace that sends
// one document after another has queued a backlog is served next, not after the backlog; the same
// for questions; webhook deliveries are shared the same way, and a receiver that never answers
// holds at most its workspace's share of a process's deliveries. Each test checks who was served
// when, against the order a first-come queue would have given.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { PDFDocument } from 'pdf-lib';
import { scannedPdf, textPicture } from '../helpers/images.js';
import { textPdf } from '../helpers/pdfs.js';

let install: Installation;
let api: Server;
let pdf: Uint8Array;

beforeAll(async () => {
  install = await Installation.create({ FOLIO_POLL_MS: '100' });
  api = await install.start(['--no-workers']);
  pdf = await textPdf([['Invoice 2026-114', 'Total due: EUR 310.00']]);
});

afterAll(async () => {
  await api?.stop();
  await install?.destroy();
});

/** Two worker processes of one slot each: the slots a backlog competes for. */
async function workers(env: NodeJS.ProcessEnv = {}): Promise<Server[]> {
  return Promise.all([0, 1].map(() => install.start(['worker'], { FOLIO_WORKER_CONCURRENCY: '1', ...env })));
}

/** Where `id` stands in the order the rows of `table` were first claimed (0 = first). */
async function claimRank(table: 'documents' | 'queries', ids: string[], id: string): Promise<number> {
  const rows = await install.select<{ id: string; started_at: number }>(`SELECT id, started_at FROM ${table} WHERE id IN (${ids.map(() => '?').join(',')})`, ids);
  const mine = rows.find((r) => r.id === id)!.started_at;
  // Claims a millisecond apart may share a time: count only those strictly before.
  return rows.filter((r) => r.started_at < mine).length;
}

describe('worker slots shared between workspaces', () => {
  it('claims the one document of a workspace with nothing running before the backlog another queued first', async () => {
    const a = new Client(api.url, (await install.workspace()).test);
    const b = new Client(api.url, (await install.workspace()).test);
    const backlog: string[] = [];
    for (let i = 0; i < 10; i++) backlog.push((await a.upload([['file', `a-${i}.pdf`, pdf]])).json.id);
    const late = (await b.upload([['file', 'b.pdf', pdf]])).json.id;
    const running = await workers();
    try {
      for (const id of backlog) expect((await a.waitFor(id)).status).toBe('completed');
      expect((await b.waitFor(late)).status).toBe('completed');
      // First come, first served would claim it 11th (rank 10). Shared: the first claim takes A's
      // oldest (both have nothing running), the second B's, give or take the two workers' race.
      expect(await claimRank('documents', [...backlog, late], late)).toBeLessThanOrEqual(1);
    } finally {
      await Promise.all(running.map((w) => w.stop()));
    }
  });

  it("reads a workspace's first document in the spare slot while another's long one holds every regular slot", async () => {
    const a = new Client(api.url, (await install.workspace()).test);
    const b = new Client(api.url, (await install.workspace()).test);
    // A few pages read by OCR: seconds of work, where a one-page PDF with text takes a fraction of one.
    const lines = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of a scanned page, read by OCR.`);
    const page = await scannedPdf(await textPicture(lines, { widthPt: 595, heightPt: 842, size: 12 }), 595, 842);
    const scans = await PDFDocument.create();
    for (const copied of await scans.copyPages(await PDFDocument.load(page), [0, 0, 0])) scans.addPage(copied);
    const long = (await a.upload([['file', 'scans.pdf', await scans.save()]])).json.id;
    const worker = await install.start(['worker'], { FOLIO_WORKER_CONCURRENCY: '1' });
    try {
      for (const deadline = Date.now() + 30_000; (await a.get(`/api/v1/documents/${long}`)).json.status === 'queued' && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      const quick = (await b.upload([['file', 'b.pdf', pdf]])).json.id;
      const [longDoc, quickDoc] = [await a.waitFor(long, 120_000), await b.waitFor(quick)];
      expect(longDoc.status).toBe('completed');
      expect(quickDoc.status).toBe('completed');
      // With one slot and no spare, B's document would start only once A's had completed.
      expect(Date.parse(quickDoc.completed_at)).toBeLessThan(Date.parse(longDoc.completed_at));
    } finally {
      await worker.stop();
    }
  });

  it('answers the question of a workspace with nothing running before another workspace’s queue of questions', async () => {
    const ws = await install.workspace();
    const a = new Client(api.url, ws.test);
    const b = new Client(api.url, (await install.workspace()).test);
    const docA = (await a.upload([['file', 'a.pdf', pdf]])).json.id;
    const docB = (await b.upload([['file', 'b.pdf', pdf]])).json.id;
    let running = await workers();
    await a.waitFor(docA);
    await b.waitFor(docB);
    await Promise.all(running.map((w) => w.stop()));
    const asked: string[] = [];
    for (let i = 0; i < 10; i++) asked.push((await a.request('POST', `/api/v1/documents/${docA}/queries`, { json: { question: `What is the total? (${i})` } })).json.id);
    const late = (await b.request('POST', `/api/v1/documents/${docB}/queries`, { json: { question: 'What is the total?' } })).json.id;
    running = await workers();
    try {
      const done = async (client: Client, doc: string, id: string) => {
        for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
          const q = (await client.get(`/api/v1/documents/${doc}/queries/${id}`)).json;
          if (q.status === 'completed' || q.status === 'failed') return q;
        }
        throw new Error(`query ${id} did not finish`);
      };
      for (const id of asked) expect((await done(a, docA, id)).status).toBe('completed');
      expect((await done(b, docB, late)).status).toBe('completed');
      expect(await claimRank('queries', [...asked, late], late)).toBeLessThanOrEqual(1);
    } finally {
      await Promise.all(running.map((w) => w.stop()));
    }
  });
});

/** A receiver on 127.0.0.1 that answers /ok at once and never answers /dead/*. */
class Receivers {
  readonly ok: number[] = [];
  private readonly server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/dead/')) return; // held open: the delivery runs into its time limit
      this.ok.push(Date.now());
      res.writeHead(200).end('thanks');
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(pathname: string): string {
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}${pathname}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('webhook deliveries shared between workspaces', () => {
  it("sends one workspace's event while another's twenty receivers time out, instead of after them", async () => {
    const receivers = await new Receivers().start();
    const a = new Client(api.url, (await install.workspace()).test);
    const b = new Client(api.url, (await install.workspace()).test);
    const deadHooks: string[] = [];
    for (let i = 0; i < 20; i++) {
      deadHooks.push((await a.request('POST', '/api/v1/webhooks', { json: { url: receivers.url(`/dead/${i}`), events: ['document.completed'] } })).json.id);
    }
    await b.request('POST', '/api/v1/webhooks', { json: { url: receivers.url('/ok'), events: ['document.completed'] } });
    const worker = await install.start(['worker'], { FOLIO_WEBHOOK_TIMEOUT_MS: '3000', FOLIO_WEBHOOK_RETRY_BASE_MS: '20' });
    try {
      // 60 events to receivers that never answer, each holding a delivery for its 3 s limit.
      for (let i = 0; i < 3; i++) await a.waitFor((await a.upload([['file', `a-${i}.pdf`, pdf]])).json.id);
      await b.waitFor((await b.upload([['file', 'b.pdf', pdf]])).json.id);
      for (const deadline = Date.now() + 30_000; receivers.ok.length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      expect(receivers.ok).toHaveLength(1);
      // How many of A's attempts had ended when B's event arrived: with the 8 slots taken in order
      // of arrival, B's came after A's 60 first attempts; shared, before A's first ones even end.
      const [{ n }] = await install.select<{ n: number }>(
        `SELECT COUNT(*) AS n FROM webhook_attempts WHERE webhook_id IN (${deadHooks.map(() => '?').join(',')}) AND attempted_at + duration_ms <= ?`,
        [...deadHooks, receivers.ok[0]],
      );
      expect(Number(n)).toBeLessThan(8);
    } finally {
      await worker.stop();
      await receivers.close();
    }
  });
});

