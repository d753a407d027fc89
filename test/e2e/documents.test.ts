// Submit, poll, read: the document lifecycle through the HTTP API (docs/api.md "Endpoints",
// "States and transitions"; docs/decisions.md#money for the charge, docs/decisions.md#identifiers for ids).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, CORPUS, Installation, type Server } from '../helpers/folio.js';
import { textPdf } from '../helpers/pdfs.js';

let install: Installation;
let server: Server;
let live: Client;
let test: Client;

const MULTICOLUMN = path.join(CORPUS, 'text_pdf/samplefiles-multicolumn/multicolumn.pdf');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  const ws = await install.workspace({ credits: 10_000_000 });
  live = new Client(server.url, ws.live);
  test = new Client(server.url, ws.test);
});

afterAll(async () => {
  await server?.stop();
  await install?.destroy();
});

describe('a PDF upload', () => {
  let id: string;
  let accepted: any;
  let done: any;

  beforeAll(async () => {
    const response = await live.upload([['file', 'multicolumn.pdf', await readFile(MULTICOLUMN)]]);
    expect(response.status).toBe(202);
    accepted = response.json;
    id = accepted.id;
    done = await live.waitFor(id);
  });

  it('is accepted with the Accepted shape and the estimate held (docs/api.md Accepted; docs/decisions.md#money)', async () => {
    expect(accepted).toEqual({
      id: expect.stringMatching(/^doc_[0-9a-z]{26}$/),
      object: 'document',
      status: 'queued',
      estimated_cost_micro: 3 * 25_000,
      poll_url: `${server.url}/api/v1/documents/${id}`,
    });
  });

  it('completes with every Document field as docs/api.md types it', () => {
    expect(done).toMatchObject({
      id,
      object: 'document',
      status: 'completed',
      stage: 'done',
      analysis: 'layout',
      byte_size: expect.any(Number),
      content_type: 'application/pdf',
      filename: 'multicolumn.pdf',
      source_url: null,
      page_count: 3,
      mode: 'live',
      model: { requested: 'auto', used: expect.stringMatching(/^svc-(swift|summit)-\d+$/) },
      cost: { estimated_micro: 75_000, settled_micro: 75_000 },
      retention_seconds: 86_400,
      result: null,
    });
    for (const field of ['created_at', 'started_at', 'completed_at', 'expires_at']) expect(done[field]).toMatch(ISO);
    expect(Date.parse(done.expires_at) - Date.parse(done.completed_at)).toBe(86_400_000);
    expect(done.failed_at).toBeUndefined();
    expect(done.purged_at).toBeUndefined();
    expect(done.error).toBeUndefined();
    expect(done.timings.analyzing_ms).toEqual(expect.any(Number));
    expect(done.timings.finalizing_ms).toEqual(expect.any(Number));
    expect(done.timings.fetching_ms).toBeUndefined();
  });

  it('sets retrieved_at on the first fetch of the completed result and never moves it', async () => {
    const first = (await live.get(`/api/v1/documents/${id}`)).json;
    expect(first.retrieved_at).toMatch(ISO);
    await new Promise((r) => setTimeout(r, 20));
    const second = (await live.get(`/api/v1/documents/${id}`)).json;
    expect(second.retrieved_at).toBe(first.retrieved_at);
    expect(second.expires_at).toBe(done.expires_at);
  });

  it('gives the text of every page under "=== Page N ===" lines in reading order', async () => {
    const { json } = await live.get(`/api/v1/documents/${id}?include=text`);
    const text: string = json.text;
    expect(text.startsWith('=== Page 1 ===\nTwo-Column Document with Lorem Ipsum')).toBe(true);
    expect(text).toContain('=== Page 2 ===');
    expect(text).toContain('=== Page 3 ===');
    // The left column is read before the right one, and hyphenated words are joined.
    const left = text.indexOf('This is a sample document with two columns');
    const right = text.indexOf('pellentesque ante. Phasellus adipiscing');
    expect(left).toBeGreaterThan(0);
    expect(right).toBeGreaterThan(left);
    expect(text).toContain('adipiscing elit. Ut purus elit');
  });

  it('gives pages with word counts, empty tables and key/values on request', async () => {
    const { json } = await live.get(`/api/v1/documents/${id}?include=pages,tables,key_values`);
    expect(json.pages).toHaveLength(3);
    for (const [i, page] of json.pages.entries()) {
      expect(page.page).toBe(i + 1);
      expect(page.word_count).toBeGreaterThan(20);
      expect(page.result).toBeNull();
      expect(Array.isArray(page.tables)).toBe(true);
      expect(typeof page.key_values).toBe('object');
    }
  });

  it('gives the options with defaults filled in', async () => {
    const { json } = await live.get(`/api/v1/documents/${id}?include=options`);
    expect(json.options).toEqual({
      analysis: 'layout',
      embeddings: false,
      extraction: null,
      images: true,
      markdown: false,
      model: 'auto',
      queries: [],
      retention_seconds: 86_400,
      pages: null,
    });
  });

  it('charges the pages once, with a usage record (include=usage, GET /usage)', async () => {
    const { json } = await live.get(`/api/v1/documents/${id}?include=usage`);
    expect(json.usage.amount_micro).toBe(75_000);
    expect(json.usage.by_sku).toEqual({ 'pages.layout': { quantity: 3, amount_micro: 75_000 } });
    expect(json.usage.records).toHaveLength(1);
    expect(json.usage.records[0]).toEqual({
      id: expect.stringMatching(/^usg_/),
      document_id: id,
      stage: 'analysis',
      sku: 'pages.layout',
      model: expect.any(String),
      quantity: 3,
      unit_price_micro: 25_000,
      unit_divisor: 1,
      amount_micro: 75_000,
      created_at: expect.stringMatching(ISO),
    });
    const usage = await live.get(`/api/v1/usage?document_id=${id}`);
    expect(usage.json).toMatchObject({ object: 'list', has_more: false });
    expect(usage.json.data.map((r: any) => r.id)).toEqual([json.usage.records[0].id]);
    const account = await live.get('/api/v1/account');
    expect(account.json.credits.available_micro).toBe(10_000_000 - 75_000);
  });

  it('reads one page or a range of pages, and refuses anything else with 422', async () => {
    const one = await live.get(`/api/v1/documents/${id}/pages?page=2&include=layout`);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ object: 'list', document_id: id });
    expect(one.json.data.map((p: any) => p.page)).toEqual([2]);
    const element = one.json.data[0].layout[0];
    expect(element).toMatchObject({ type: expect.any(String), text: expect.any(String), reading_order: 0 });
    for (const k of ['left', 'top', 'width', 'height']) expect(element.bbox[k]).toBeGreaterThanOrEqual(0);
    const range = await live.get(`/api/v1/documents/${id}/pages?page=2-3`);
    expect(range.json.data.map((p: any) => p.page)).toEqual([2, 3]);
    for (const bad of ['0', 'x', '3-1', '1-', '1,2', '-2', '9']) {
      const response = await live.get(`/api/v1/documents/${id}/pages?page=${encodeURIComponent(bad)}`);
      expect(response.status, bad).toBe(422);
      expect(response.json.error.type).toBe('invalid_request');
      expect(response.json.error.details.page).toBeDefined();
    }
  });

  it('is visible only to keys of the same workspace and mode (404 otherwise)', async () => {
    expect((await test.get(`/api/v1/documents/${id}`)).status).toBe(404);
    const other = await install.workspace();
    const stranger = new Client(server.url, other.live);
    const response = await stranger.get(`/api/v1/documents/${id}`);
    expect(response.status).toBe(404);
    expect(response.json.error.type).toBe('not_found');
    expect((await stranger.get(`/api/v1/documents/${id}/pages`)).status).toBe(404);
  });
});

describe('listing', () => {
  it('lists newest first with limit, starting_after, has_more and status', async () => {
    const ws = await install.workspace();
    const client = new Client(server.url, ws.test);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await client.upload([['file', `doc${i}.pdf`, await textPdf([[`Document number ${i}`]])]]);
      ids.push(r.json.id);
    }
    for (const id of ids) await client.waitFor(id);
    const first = await client.get('/api/v1/documents?limit=2');
    expect(first.json.object).toBe('list');
    expect(first.json.data.map((d: any) => d.id)).toEqual([ids[4], ids[3]]);
    expect(first.json.has_more).toBe(true);
    expect(first.json.data[0].result).toBeUndefined();
    const second = await client.get(`/api/v1/documents?limit=2&starting_after=${ids[3]}`);
    expect(second.json.data.map((d: any) => d.id)).toEqual([ids[2], ids[1]]);
    const last = await client.get(`/api/v1/documents?limit=2&starting_after=${ids[1]}`);
    expect(last.json.data.map((d: any) => d.id)).toEqual([ids[0]]);
    expect(last.json.has_more).toBe(false);
    const completed = await client.get('/api/v1/documents?status=completed&limit=100');
    expect(completed.json.data).toHaveLength(5);
    const failed = await client.get('/api/v1/documents?status=failed');
    expect(failed.json.data).toHaveLength(0);
    for (const bad of ['limit=0', 'limit=101', 'limit=abc', 'status=done']) {
      const r = await client.get(`/api/v1/documents?${bad}`);
      expect(r.status, bad).toBe(422);
      expect(r.json.error.type).toBe('invalid_request');
      expect(Object.keys(r.json.error.details)).toEqual([bad.split('=')[0]]);
    }
  });
});

describe('test mode (docs/decisions.md#test-mode)', () => {
  it('reads for real, is never charged and keeps usage records at amount 0', async () => {
    const before = (await test.get('/api/v1/account')).json.credits.available_micro;
    const r = await test.upload([['file', 'a.pdf', await textPdf([['Hello from test mode'], ['Second page']])]]);
    expect(r.status).toBe(202);
    expect(r.json.estimated_cost_micro).toBe(0);
    const done = await test.waitFor(r.json.id);
    expect(done.mode).toBe('test');
    expect(done.cost).toEqual({ estimated_micro: 0, settled_micro: 0 });
    const text = (await test.get(`/api/v1/documents/${r.json.id}?include=text,usage`)).json;
    expect(text.text).toBe('=== Page 1 ===\nHello from test mode\n\n=== Page 2 ===\nSecond page');
    expect(text.usage.records[0]).toMatchObject({ quantity: 2, amount_micro: 0 });
    expect((await test.get('/api/v1/account')).json.credits.available_micro).toBe(before);
  });
});

describe('markdown', () => {
  it('is written only when asked, and refused for a document sent without it', async () => {
    const r = await test.upload([['file', 'm.pdf', await textPdf([['Plain line one', 'Plain line two']])]], { markdown: true });
    await test.waitFor(r.json.id);
    const doc = (await test.get(`/api/v1/documents/${r.json.id}?include=markdown`)).json;
    expect(doc.markdown).toContain('Plain line one');
    const plain = await test.upload([['file', 'p.pdf', await textPdf([['No markdown here']])]]);
    await test.waitFor(plain.json.id);
    const refused = await test.get(`/api/v1/documents/${plain.json.id}?include=markdown`);
    expect(refused.status).toBe(422);
    expect(refused.json.error.details.include).toBeDefined();
  });
});

describe('delete', () => {
  it('removes the document (204, then 404) and keeps its usage records', async () => {
    const r = await live.upload([['file', 'd.pdf', await textPdf([['To be deleted']])]]);
    await live.waitFor(r.json.id);
    const deleted = await live.request('DELETE', `/api/v1/documents/${r.json.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await live.get(`/api/v1/documents/${r.json.id}`)).status).toBe(404);
    expect((await live.request('DELETE', `/api/v1/documents/${r.json.id}`)).status).toBe(404);
    const usage = await live.get(`/api/v1/usage?document_id=${r.json.id}`);
    expect(usage.json.data).toHaveLength(1);
    expect(usage.json.data[0]).toMatchObject({ document_id: r.json.id, amount_micro: 25_000 });
  });

  it('releases the hold of a document deleted before it ran', async () => {
    // An installation without workers, so the document is still queued when deleted.
    const quiet = await Installation.create();
    const api = await quiet.start(['--no-workers']);
    try {
      const ws = await quiet.workspace({ credits: 1_000_000 });
      const client = new Client(api.url, ws.live);
      const r = await client.upload([['file', 'q.pdf', await textPdf([['Queued only']])]]);
      expect((await client.get('/api/v1/account')).json.credits.available_micro).toBe(1_000_000 - 25_000);
      expect((await client.request('DELETE', `/api/v1/documents/${r.json.id}`)).status).toBe(204);
      expect((await client.get('/api/v1/account')).json.credits.available_micro).toBe(1_000_000);
    } finally {
      await api.stop();
      await quiet.destroy();
    }
  });
});

describe('GET /usage (docs/decisions.md#usage-history)', () => {
  it('pages newest first and filters by document and time', async () => {
    const ws = await install.workspace();
    const client = new Client(server.url, ws.test);
    const ids: string[] = [];
    // One after the other: usage is recorded when a document completes, and two workers may
    // finish documents sent together in either order.
    for (let i = 0; i < 3; i++) {
      ids.push((await client.upload([['file', `u${i}.pdf`, await textPdf([[`Usage ${i}`]])]])).json.id);
      await client.waitFor(ids[i]);
    }
    const first = (await client.get('/api/v1/usage?limit=2')).json;
    expect(first).toMatchObject({ object: 'list', has_more: true });
    expect(first.data.map((r: any) => r.document_id)).toEqual([ids[2], ids[1]]);
    const rest = (await client.get(`/api/v1/usage?limit=2&starting_after=${first.data[1].id}`)).json;
    expect(rest.data.map((r: any) => r.document_id)).toEqual([ids[0]]);
    expect(rest.has_more).toBe(false);
    const future = new Date(Date.now() + 3600_000).toISOString();
    const past = new Date(Date.now() - 3600_000).toISOString();
    expect((await client.get(`/api/v1/usage?since=${future}`)).json.data).toEqual([]);
    expect((await client.get(`/api/v1/usage?until=${past}`)).json.data).toEqual([]);
    expect((await client.get(`/api/v1/usage?since=${past}&until=${future}`)).json.data).toHaveLength(3);
    // The live key of the same workspace sees only live usage.
    expect((await new Client(server.url, ws.live).get('/api/v1/usage')).json.data).toEqual([]);
  });
});

describe('reading real PDFs', () => {
  it('keeps words of a line together when the producer scales a 1-point font with the text matrix', async () => {
    // docling's multi_page.pdf sets every font at 1 pt and scales it; sizes must come from the page.
    const bytes = await readFile(path.join(CORPUS, 'layout_markdown/docling-multi_page/multi_page.pdf'));
    const id = (await test.upload([['file', 'multi_page.pdf', bytes]], { markdown: true })).json.id;
    await test.waitFor(id);
    const doc = (await test.get(`/api/v1/documents/${id}?include=text,markdown`)).json;
    expect(doc.text).toContain('=== Page 1 ===\nThe Evolution of the Word Processor\n\nThe concept of the word processor predates modern computers');
    expect(doc.markdown).toContain('\n- IBM MT/ST (Magnetic Tape/Selectric Typewriter)');
    expect(doc.markdown.match(/^#+ /gm)!.length).toBeLessThan(20);
  });
});
