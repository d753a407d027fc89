// Operations and scale-out (issue 10 scopes 1 and 4): `/healthz`, `/readyz` (database and blob
// store reachable), Prometheus `/metrics` (requests by route and status, queue depth, documents by
// status, stage durations, pages); and API and worker processes that share no disk: uploads and
// pictures travel through PostgreSQL, or through S3-compatible storage (an s3rver started here).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, STORE, type Server } from '../helpers/folio.js';
import { pdfWithFigure, textPdf } from '../helpers/pdfs.js';

let install: Installation;
const servers: Server[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  install = await Installation.create();
});

// Each test's processes end with it: a worker of one test (with its own blob store) must not
// claim another test's documents.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

afterAll(async () => {
  await install?.destroy();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** A process of this installation with a data directory of its own (another machine's disk). */
async function onItsOwnDisk(args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const dir = await mkdtemp(path.join(tmpdir(), 'folio-machine-'));
  dirs.push(dir);
  const server = await install.start(args, { FOLIO_DATA_DIR: dir, ...env });
  servers.push(server);
  return server;
}

function metric(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return null;
}

describe('operations endpoints', () => {
  it('answer /healthz and /readyz, and /metrics counts requests, pages, stages and documents', async () => {
    const server = await install.start();
    servers.push(server);
    const ws = await install.workspace();
    const client = new Client(server.url, ws.test);
    const anonymous = new Client(server.url, null);

    expect(await anonymous.get('/healthz')).toMatchObject({ status: 200, json: { status: 'ok' } });
    expect(await anonymous.get('/readyz')).toMatchObject({ status: 200, json: { status: 'ready', checks: { database: 'ok', blobs: 'ok' } } });

    const doc = await client.waitFor((await client.upload([['file', 'a.pdf', await textPdf([['One page'], ['Two pages']])]])).json.id);
    expect(doc.status).toBe('completed');
    await client.get('/api/v1/documents/doc_does_not_exist');

    const scraped = await anonymous.get('/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = scraped.text;
    expect(metric(text, 'folio_http_requests_total', { method: 'GET', route: '/api/v1/documents/:id', status: '200' })).toBeGreaterThan(0);
    expect(metric(text, 'folio_http_requests_total', { method: 'GET', route: '/api/v1/documents/:id', status: '404' })).toBe(1);
    expect(metric(text, 'folio_http_requests_total', { method: 'POST', route: '/api/v1/documents', status: '202' })).toBe(1);
    expect(metric(text, 'folio_pages_processed_total', { analysis: 'layout' })).toBe(2);
    expect(metric(text, 'folio_documents_finished_total', { outcome: 'completed' })).toBe(1);
    expect(metric(text, 'folio_stage_duration_seconds_count', { stage: 'analyzing' })).toBe(1);
    expect(metric(text, 'folio_documents', { status: 'completed' })).toBe(1);
    expect(metric(text, 'folio_queue_depth', { kind: 'documents' })).toBe(0);
    expect(metric(text, 'folio_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('a worker-only process serves them on FOLIO_METRICS_PORT; logs are JSON lines carrying request and document ids', async () => {
    const api = await install.start(['--no-workers']);
    const worker = await install.start(['worker'], { FOLIO_METRICS_PORT: '0' });
    servers.push(api, worker);
    const listening = worker.logs
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((entry) => entry.msg === 'operations endpoints listening');
    expect(listening?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const operations = new Client(listening.url, null);
    expect(await operations.get('/healthz')).toMatchObject({ status: 200, json: { status: 'ok' } });
    expect(await operations.get('/readyz')).toMatchObject({ status: 200, json: { status: 'ready' } });
    // The API itself is not served there.
    expect((await operations.get('/api/v1/account')).status).toBe(404);

    const ws = await install.workspace();
    const client = new Client(api.url, ws.test);
    const id = (await client.upload([['file', 'a.pdf', await textPdf([['One page'], ['Two pages'], ['Three pages']])]])).json.id;
    expect((await client.waitFor(id)).status).toBe('completed');
    const text = (await operations.get('/metrics')).text;
    expect(metric(text, 'folio_pages_processed_total', { analysis: 'layout' })).toBe(3);
    expect(metric(text, 'folio_stage_duration_seconds_count', { stage: 'analyzing' })).toBe(1);
    expect(metric(text, 'folio_documents_finished_total', { outcome: 'completed' })).toBe(1);

    const entries = (server: Server) =>
      server.logs
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line));
    const apiLog = entries(api);
    const accepted = apiLog.find((e) => e.msg === 'documents accepted');
    expect(accepted).toMatchObject({ role: 'api', document_ids: [id], workspace_id: ws.id, reqId: expect.stringMatching(/^req_/) });
    const read = apiLog.find((e) => e.msg === 'request' && e.route === '/api/v1/documents/:id' && e.status === 200);
    expect(read).toMatchObject({ method: 'GET', document_id: id, workspace_id: ws.id, reqId: expect.stringMatching(/^req_/), ms: expect.any(Number) });
    expect(entries(worker).find((e) => e.msg === 'document processed')).toMatchObject({ role: 'worker', document_id: id, outcome: 'completed' });
  });

  it.skipIf(STORE !== 'sqlite')('/readyz answers 503 when the blob store is gone', async () => {
    const server = await onItsOwnDisk(['--no-workers']);
    const anonymous = new Client(server.url, null);
    expect((await anonymous.get('/readyz')).status).toBe(200);
    const dir = dirs[dirs.length - 1];
    await rm(path.join(dir, 'blobs'), { recursive: true, force: true });
    const answer = await anonymous.get('/readyz');
    expect(answer.status).toBe(503);
    expect(answer.json.status).toBe('unavailable');
    expect(answer.json.checks.database).toBe('ok');
    // Said without the store's own words: the answer goes to anyone, the path only to the log.
    expect(answer.json.checks.blobs).toBe('unreachable');
    await server.logLine(['readiness check failed']);
    // Up, though not ready.
    expect((await anonymous.get('/healthz')).status).toBe(200);
  });
});

describe.skipIf(STORE !== 'postgres')('API and worker on machines that share no disk (PostgreSQL)', () => {
  it('reads the upload, stores the pictures and serves them through the database; deleting removes them', async () => {
    const api = await onItsOwnDisk(['--no-workers']);
    await onItsOwnDisk(['worker']);
    const ws = await install.workspace();
    const client = new Client(api.url, ws.live);

    const doc = await client.waitFor((await client.upload([['file', 'report.pdf', await pdfWithFigure()]])).json.id);
    expect(doc.status).toBe('completed');
    const images = (await client.get(`/api/v1/documents/${doc.id}/images`)).json.data;
    expect(images.length).toBeGreaterThan(0);
    const picture = await fetch(`${api.url}/api/v1/documents/${doc.id}/images/${images[0].id}`, { headers: client.headers() });
    expect(picture.status).toBe(200);
    const bytes = Buffer.from(await picture.arrayBuffer());
    expect(bytes.length).toBe(images[0].byte_size);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');

    expect((await client.request('DELETE', `/api/v1/documents/${doc.id}`)).status).toBeLessThan(300);
    const left = await install.database((db) => db.query("SELECT count(*)::int AS n FROM blob_chunks WHERE key LIKE '%' || $1 || '%'", [doc.id]));
    expect(left.rows[0].n).toBe(0);
  });
});

describe('API and worker on machines that share no disk, blobs in S3-compatible storage', () => {
  it('stores uploads and pictures as objects, serves them, and removes them with the document', async () => {
    const s3dir = await mkdtemp(path.join(tmpdir(), 'folio-s3-'));
    dirs.push(s3dir);
    const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir, configureBuckets: [{ name: 'folio', configs: [] }] });
    const { port } = await s3.run();
    try {
      const env = {
        FOLIO_S3_BUCKET: 'folio',
        FOLIO_S3_ENDPOINT: `http://127.0.0.1:${port}`,
        FOLIO_S3_ACCESS_KEY_ID: 'S3RVER',
        FOLIO_S3_SECRET_ACCESS_KEY: 'S3RVER',
        FOLIO_S3_PREFIX: 'e2e',
      };
      // SQLite is one file on one disk; with PostgreSQL each process gets a disk of its own.
      const start = async (args: string[]) => {
        if (STORE === 'postgres') return onItsOwnDisk(args, env);
        const server = await install.start(args, env);
        servers.push(server);
        return server;
      };
      const api = await start(['--no-workers']);
      await start(['worker']);
      const ws = await install.workspace();
      const client = new Client(api.url, ws.live);
      expect((await new Client(api.url, null).get('/readyz')).json.checks.blobs).toBe('ok');

      const doc = await client.waitFor((await client.upload([['file', 'report.pdf', await pdfWithFigure()]])).json.id);
      expect(doc.status).toBe('completed');
      const images = (await client.get(`/api/v1/documents/${doc.id}/images?include=data`)).json.data;
      expect(images.length).toBeGreaterThan(0);
      const picture = await fetch(`${api.url}/api/v1/documents/${doc.id}/images/${images[0].id}`, { headers: client.headers() });
      expect(picture.status).toBe(200);
      expect(Buffer.from(await picture.arrayBuffer()).toString('base64')).toBe(images[0].data);
      // s3rver keeps each object as <bucket>/<key>._S3rver_object.
      const objects = async () => (await readdir(s3dir, { recursive: true })).filter((f) => f.includes(doc.id) && f.endsWith('._S3rver_object'));
      expect((await objects()).some((f) => f.includes(`e2e/images/${doc.id}/`))).toBe(true);
      expect((await objects()).some((f) => f.includes(`e2e/uploads/${doc.id}`))).toBe(true);

      expect((await client.request('DELETE', `/api/v1/documents/${doc.id}`)).status).toBeLessThan(300);
      expect(await objects()).toEqual([]);
    } finally {
      await s3.close();
    }
  });
});
