// Retention and expiry (docs/api.md "Limits", the `expired` transition; issue 3 scope 8). One test in
// real time; the rest restart the server with FOLIO_CLOCK_OFFSET_MS to stand days later against
// the same database.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { pdfWithFigure, textPdf } from '../helpers/pdfs.js';

const HOUR = 3600 * 1000;
let install: Installation;

beforeAll(async () => {
  install = await Installation.create({ FOLIO_SWEEP_MS: '200' });
});

afterAll(async () => {
  await install?.destroy();
});

async function at(offsetMs: number, work: (server: Server) => Promise<void>) {
  const server = await install.start([], { FOLIO_CLOCK_OFFSET_MS: String(offsetMs) });
  try {
    await work(server);
  } finally {
    await server.stop();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a fetched result', () => {
  it('answers 410 document_expired the moment retention ends, then is purged and listed as expired', async () => {
    const ws = await install.workspace();
    await at(0, async (server) => {
      const client = new Client(server.url, ws.test);
      const id = (await client.upload([['file', 'f.pdf', await pdfWithFigure()]], { retention_seconds: 2 })).json.id;
      const done = await client.waitFor(id);
      expect(Date.parse(done.expires_at) - Date.parse(done.completed_at)).toBe(2000);
      expect((await client.get(`/api/v1/documents/${id}/images`)).json.data.length).toBeGreaterThan(0);
      await sleep(Math.max(0, Date.parse(done.expires_at) - Date.now()) + 50);
      for (const path of [`/api/v1/documents/${id}`, `/api/v1/documents/${id}/pages`, `/api/v1/documents/${id}/images`, `/api/v1/documents/${id}?include=text`]) {
        const response = await client.get(path);
        expect(response.status, path).toBe(410);
        expect(response.json.error.type).toBe('document_expired');
      }
      let item: any;
      for (let i = 0; i < 50; i++) {
        item = (await client.get('/api/v1/documents?status=expired')).json.data.find((d: any) => d.id === id);
        if (item?.purged_at) break;
        await sleep(100);
      }
      expect(item).toMatchObject({ id, status: 'expired', expires_at: done.expires_at, purged_at: expect.any(String) });
      expect((await client.get('/api/v1/documents?status=completed')).json.data.map((d: any) => d.id)).not.toContain(id);
      // The payload is gone from the blob store.
      expect(existsSync(path.join(install.dataDir, 'blobs/uploads', id))).toBe(false);
      expect(existsSync(path.join(install.dataDir, 'blobs/images', id))).toBe(false);
      // Usage records outlive the purge.
      expect((await client.get(`/api/v1/usage?document_id=${id}`)).json.data).toHaveLength(1);
    });
  });
});

describe('an unfetched result', () => {
  it('is kept at least 24 hours after completion whatever retention_seconds says', async () => {
    const ws = await install.workspace();
    let id = '';
    await at(0, async (server) => {
      const client = new Client(server.url, ws.test);
      id = (await client.upload([['file', 'a.pdf', await textPdf([['Kept a day']])]], { retention_seconds: 60 })).json.id;
      // Waited on through the list, which does not count as fetching the result.
      for (;;) {
        const item = (await client.get('/api/v1/documents')).json.data.find((d: any) => d.id === id);
        if (item.status === 'completed') break;
        await sleep(100);
      }
    });
    await at(23 * HOUR, async (server) => {
      const client = new Client(server.url, ws.test);
      const item = (await client.get('/api/v1/documents')).json.data.find((d: any) => d.id === id);
      expect(item.status).toBe('completed');
      expect(item.retrieved_at).toBeNull();
    });
    await at(25 * HOUR, async (server) => {
      const client = new Client(server.url, ws.test);
      expect((await client.get(`/api/v1/documents/${id}`)).status).toBe(410);
      const item = (await client.get('/api/v1/documents')).json.data.find((d: any) => d.id === id);
      expect(item.status).toBe('expired');
    });
  });
});

describe('an unfetched result past its retention_seconds but within its first 24 hours', () => {
  // Issue 22 point 6: docs/api.md keeps an unfetched result at least 24 hours, so the first fetch
  // answers it completed, whole; being fetched, it then expires by its retention.
  it('is kept by the sweeper and served whole, as completed, on its first fetch; the next read is 410', async () => {
    const ws = await install.workspace();
    let id = '';
    let raced = '';
    await at(0, async (server) => {
      const client = new Client(server.url, ws.test);
      id = (await client.upload([['file', 'f.pdf', await pdfWithFigure()]], { retention_seconds: 1 })).json.id;
      raced = (await client.upload([['file', 'r.pdf', await textPdf([['Fetched by many at once']])]], { retention_seconds: 1 })).json.id;
      for (;;) {
        const items = (await client.get('/api/v1/documents')).json.data.filter((d: any) => d.id === id || d.id === raced);
        if (items.every((item: any) => item.status === 'completed')) break;
        await sleep(100);
      }
    });
    await at(HOUR, async (server) => {
      const client = new Client(server.url, ws.test);
      // Several sweeps (every 200 ms) pass over it while it is unfetched.
      await sleep(1000);
      const item = (await client.get('/api/v1/documents')).json.data.find((d: any) => d.id === id);
      expect(item).toMatchObject({ status: 'completed', retrieved_at: null });
      expect(item.purged_at).toBeUndefined();
      // Reading its pages and pictures is not fetching the document: it stays unfetched.
      const pages = await client.get(`/api/v1/documents/${id}/pages`);
      expect(pages.status).toBe(200);
      expect(pages.json.data.length).toBe(1);
      const images = await client.get(`/api/v1/documents/${id}/images`);
      expect(images.status).toBe(200);
      expect(images.json.data.length).toBeGreaterThan(0);
      expect((await client.get(`/api/v1/documents/${id}/images/${images.json.data[0].id}`)).status).toBe(200);

      const first = await client.get(`/api/v1/documents/${id}?include=text`);
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({ id, status: 'completed', retrieved_at: expect.any(String) });
      expect(first.json.text).toContain('Quarterly report');
      expect(first.json.purged_at).toBeUndefined();

      // Fetched now, and past expires_at: every read answers 410, and the sweeper purges it.
      for (const path of [`/api/v1/documents/${id}`, `/api/v1/documents/${id}/pages`, `/api/v1/documents/${id}/images`]) {
        const response = await client.get(path);
        expect(response.status, path).toBe(410);
        expect(response.json.error.type).toBe('document_expired');
      }
      let purged: any;
      for (let i = 0; i < 50 && !purged?.purged_at; i++) {
        purged = (await client.get('/api/v1/documents?status=expired')).json.data.find((d: any) => d.id === id);
        await sleep(100);
      }
      expect(purged).toMatchObject({ id, status: 'expired', retrieved_at: first.json.retrieved_at, purged_at: expect.any(String) });

      // Several first fetches at once: one of them is the first; each answer is the whole
      // completed result or, for a read that came after it, 410. None is a 200 saying expired.
      const answers = await Promise.all(Array.from({ length: 6 }, () => client.get(`/api/v1/documents/${raced}?include=text`)));
      const served = answers.filter((a) => a.status === 200);
      expect(served.length).toBeGreaterThan(0);
      for (const answer of served) {
        expect(answer.json).toMatchObject({ status: 'completed', retrieved_at: served[0].json.retrieved_at });
        expect(answer.json.text).toContain('Fetched by many at once');
      }
      for (const answer of answers.filter((a) => a.status !== 200)) expect(answer.json.error.type, `${answer.status}`).toBe('document_expired');
    });
  });
});

describe('retention_seconds 0', () => {
  it('keeps a result forever on a plan without a ceiling (expires_at null)', async () => {
    const ws = await install.workspace();
    let id = '';
    await at(0, async (server) => {
      const client = new Client(server.url, ws.test);
      id = (await client.upload([['file', 'a.pdf', await textPdf([['Forever']])]], { retention_seconds: 0 })).json.id;
      expect((await client.waitFor(id)).expires_at).toBeNull();
    });
    await at(1000 * 24 * HOUR, async (server) => {
      const response = await new Client(server.url, ws.test).get(`/api/v1/documents/${id}?include=text`);
      expect(response.status).toBe(200);
      expect(response.json.text).toContain('Forever');
    });
  });
});
