// Money under concurrency (docs/decisions.md#money; issue 3 scope 2): holds never exceed the balance, even
// with 50 submissions at once through two API processes, and balance + holds + charges is
// conserved through processing. A charge the credit cannot cover in full (issue 22 point 5) is
// recorded as the whole pages the credit pays for, so every record obeys the formula of docs/decisions.md#money.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { expectMoneyKept } from '../helpers/money.js';
import { textPdf } from '../helpers/pdfs.js';

let install: Installation;
let apis: Server[] = [];

beforeAll(async () => {
  install = await Installation.create();
  apis = await Promise.all([install.start(['--no-workers']), install.start(['--no-workers'])]);
  // A burst of 50 must meet the credit check, not the rate limit.
  await install.admin('plan', 'create', '--id', 'bulk', '--name', 'Bulk', '--rate-limit-per-second', '1000');
});

afterAll(async () => {
  for (const s of apis) await s.stop();
  await install?.destroy();
});

describe('credit holds', () => {
  it('accept exactly what the balance covers from 50 concurrent uploads; the rest get 402', async () => {
    const initial = 10 * 25_000;
    const ws = await install.workspace({ credits: initial, plan: 'bulk' });
    const clients = apis.map((api) => new Client(api.url, ws.live));
    const pdf = await textPdf([['One page, 25,000 micro-USD']]);
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => clients[i % 2].upload([['file', `d${i}.pdf`, pdf]])));
    const accepted = responses.filter((r) => r.status === 202);
    const refused = responses.filter((r) => r.status === 402);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect(r.json.error).toMatchObject({ type: 'insufficient_credits', balance_micro: expect.any(Number), top_up_url: expect.any(String) });
    for (const r of refused) expect(r.json.error.balance_micro).toBeGreaterThanOrEqual(0);
    expect((await clients[0].get('/api/v1/account')).json.credits.available_micro).toBe(0);

    // Processing settles every hold: what is available plus what was charged is what there was.
    const worker = await install.start(['worker']);
    try {
      for (const r of accepted) expect((await clients[0].waitFor(r.json.id)).cost.settled_micro).toBe(25_000);
    } finally {
      await worker.stop();
    }
    await expectMoneyKept(install, ws, apis[0].url, initial);
  });
});

describe('reserving', () => {
  let files: HttpServer;
  let url: string;

  beforeAll(async () => {
    const pdf = await textPdf([['first'], ['second']]);
    files = createServer((_req, res) => res.writeHead(200).end(pdf));
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(files.address() as AddressInfo).port}/two-pages.pdf`;
  });

  afterAll(() => files?.close());

  it('estimates a URL document when read; one the credit cannot cover fails with insufficient_credits', async () => {
    const ws = await install.workspace({ credits: 30_000 });
    const client = new Client(apis[0].url, ws.live);
    const worker = await install.start(['worker']);
    try {
      const id = (await client.request('POST', '/api/v1/documents', { json: { url } })).json.id;
      const failed = await client.waitFor(id);
      expect(failed).toMatchObject({ status: 'failed', page_count: 2, error: { type: 'insufficient_credits', stage: 'reserving' } });
      // Two pages were read before the hold failed; the credit pays for one of them, which is
      // what is charged and recorded. The second is not charged.
      expect(failed.cost).toEqual({ estimated_micro: 0, settled_micro: 25_000 });
      const usage = (await client.get(`/api/v1/documents/${id}?include=usage`)).json.usage;
      expect(usage.records).toEqual([expect.objectContaining({ sku: 'pages.layout', quantity: 1, unit_price_micro: 25_000, unit_divisor: 1, amount_micro: 25_000 })]);
      expect((await client.get('/api/v1/account')).json.credits.available_micro).toBe(5_000);
      await expectMoneyKept(install, ws, apis[0].url, 30_000);

      // With enough credit the same URL is estimated at reserving and charged exactly.
      await install.admin('credits', 'add', '--workspace', ws.id, '--micro', '100000');
      const ok = await client.waitFor((await client.request('POST', '/api/v1/documents', { json: { url } })).json.id);
      expect(ok.cost).toEqual({ estimated_micro: 50_000, settled_micro: 50_000 });
      expect((await client.get('/api/v1/account')).json.credits.available_micro).toBe(55_000);
      await expectMoneyKept(install, ws, apis[0].url, 130_000);
    } finally {
      await worker.stop();
    }
  });

  it('charges nothing, and records nothing, for pages read when the credit left pays for none of them', async () => {
    const ws = await install.workspace({ credits: 10_000 });
    const client = new Client(apis[0].url, ws.live);
    const worker = await install.start(['worker']);
    try {
      const id = (await client.request('POST', '/api/v1/documents', { json: { url } })).json.id;
      const failed = await client.waitFor(id);
      expect(failed).toMatchObject({ status: 'failed', page_count: 2, error: { type: 'insufficient_credits', stage: 'reserving' } });
      expect(failed.cost).toEqual({ estimated_micro: 0, settled_micro: 0 });
      expect((await client.get(`/api/v1/usage?document_id=${id}`)).json.data).toEqual([]);
      expect((await client.get('/api/v1/account')).json.credits.available_micro).toBe(10_000);
      await expectMoneyKept(install, ws, apis[0].url, 10_000);
    } finally {
      await worker.stop();
    }
  });
});
