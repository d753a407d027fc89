// Stages beyond reading text: URL uploads (docs/decisions.md#url-uploads), pictures (docs/api.md picture rules), and the
// failures a document can end with (docs/api.md "Situations that end in failed").
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, CORPUS, Installation, type Server } from '../helpers/folio.js';
import { formPdf, pdfWithFigure, textPdf } from '../helpers/pdfs.js';

let install: Installation;
let server: Server;
let live: Client;
let test: Client;
let files: HttpServer;
let filesUrl: string;
let samplePdf: Uint8Array;

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  const ws = await install.workspace({ credits: 10_000_000 });
  live = new Client(server.url, ws.live);
  test = new Client(server.url, ws.test);
  samplePdf = await textPdf([['Fetched from a URL, page one'], ['Page two']]);
  // A small file server for URL uploads: documents, redirects and errors.
  files = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const hops = Number(url.searchParams.get('hops') ?? 0);
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: hops > 1 ? `/redirect?hops=${hops - 1}` : '/files/report%20final.pdf' }).end();
    } else if (url.pathname.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(samplePdf);
    } else if (url.pathname === '/text') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('not a document');
    } else {
      res.writeHead(404).end('missing');
    }
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});

afterAll(async () => {
  files?.close();
  await server?.stop();
  await install?.destroy();
});

const submitUrl = (client: Client, url: string, options?: unknown) =>
  client.request('POST', '/api/v1/documents', { json: options === undefined ? { url } : { url, options } });

describe('URL uploads (docs/decisions.md#url-uploads)', () => {
  it('are fetched, sniffed, estimated at reserving and read', async () => {
    const accepted = await submitUrl(live, `${filesUrl}/redirect?hops=3`);
    expect(accepted.status).toBe(202);
    expect(accepted.json.estimated_cost_micro).toBeNull();
    const done = await live.waitFor(accepted.json.id);
    expect(done).toMatchObject({
      status: 'completed',
      source_url: `${filesUrl}/redirect?hops=3`,
      filename: 'redirect',
      content_type: 'application/pdf',
      page_count: 2,
      cost: { estimated_micro: 50_000, settled_micro: 50_000 },
    });
    expect(done.timings.fetching_ms).toEqual(expect.any(Number));
    expect(done.timings.reserving_ms).toEqual(expect.any(Number));
    const direct = await live.waitFor((await submitUrl(live, `${filesUrl}/files/report%20final.pdf`)).json.id);
    expect(direct.filename).toBe('report final.pdf');
    const text = (await live.get(`/api/v1/documents/${direct.id}?include=text`)).json.text;
    expect(text).toContain('Fetched from a URL, page one');
  });

  it('fail with fetch_failed at fetching for a 404, too many redirects, or a refused address', async () => {
    const missing = await test.waitFor((await submitUrl(test, `${filesUrl}/nope.pdf`)).json.id);
    expect(missing).toMatchObject({ status: 'failed', stage: 'fetching', error: { type: 'fetch_failed', stage: 'fetching' } });
    expect(missing.error.message).toContain('404');
    expect(missing.failed_at).toEqual(expect.any(String));
    expect(missing.completed_at).toBeUndefined();
    const loop = await test.waitFor((await submitUrl(test, `${filesUrl}/redirect?hops=7`)).json.id);
    expect(loop.error).toMatchObject({ type: 'fetch_failed', stage: 'fetching' });
    const text = await test.waitFor((await submitUrl(test, `${filesUrl}/text`)).json.id);
    expect(text.error).toMatchObject({ type: 'unsupported_media_type', stage: 'fetching' });

    // Without FOLIO_URL_ALLOW_PRIVATE, loopback and metadata addresses are refused.
    const strict = await Installation.create({ FOLIO_URL_ALLOW_PRIVATE: '' });
    const strictServer = await strict.start();
    try {
      const client = new Client(strictServer.url, (await strict.workspace()).test);
      for (const url of [`${filesUrl}/files/a.pdf`, 'http://169.254.169.254/latest/meta-data', `http://localhost:${new URL(filesUrl).port}/files/a.pdf`]) {
        const failed = await client.waitFor((await submitUrl(client, url)).json.id);
        expect(failed.error, url).toMatchObject({ type: 'fetch_failed', stage: 'fetching' });
        expect(failed.error.message).toMatch(/private|reserved/);
      }
    } finally {
      await strictServer.stop();
      await strict.destroy();
    }
  });
});

describe('pictures', () => {
  it('crop figures as PNG with a box and a [FIGURE] marker, and keep sparse pages as JPEG', async () => {
    const id = (await test.upload([['file', 'figure.pdf', await pdfWithFigure()]])).json.id;
    await test.waitFor(id);
    const list = await test.get(`/api/v1/documents/${id}/images`);
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ object: 'list', document_id: id });
    const figure = list.json.data.find((i: any) => i.kind === 'figure');
    // 28 words and a picture on less than half the page: the page itself is not kept.
    expect(list.json.data.map((i: any) => i.kind)).toEqual(['figure']);
    expect(figure).toMatchObject({
      object: 'image',
      page: 1,
      figure_index: 0,
      media_type: 'image/png',
      caption: 'Figure 1: Monthly revenue by region',
      url: `${server.url}/api/v1/documents/${id}/images/${figure.id}`,
    });
    expect(figure.bbox.left).toBeCloseTo(72 / 612, 2);
    expect(figure.bbox.width).toBeCloseTo(300 / 612, 2);
    expect(figure.bbox.top).toBeCloseTo((792 - 580) / 792, 2);

    const bytes = await fetch(figure.url, { headers: test.headers() });
    expect(bytes.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await bytes.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'png', width: figure.width, height: figure.height });

    const text = (await test.get(`/api/v1/documents/${id}?include=text`)).json.text;
    expect(text).toContain('[FIGURE]');
    expect(text.indexOf('Revenue grew')).toBeLessThan(text.indexOf('[FIGURE]'));
    const withData = await test.get(`/api/v1/documents/${id}/pages?include=image_data`);
    expect(Buffer.from(withData.json.data[0].images[0].data, 'base64').byteLength).toBe(withData.json.data[0].images[0].byte_size);
    const listData = await test.get(`/api/v1/documents/${id}/images?include=data`);
    expect(listData.json.data.every((i: any) => typeof i.data === 'string')).toBe(true);
    // The bytes written into the answer as it streams are the picture's own.
    expect(listData.headers.get('content-type')).toBe('application/json; charset=utf-8');
    for (const image of listData.json.data) {
      const own = Buffer.from(await (await fetch(image.url, { headers: test.headers() })).arrayBuffer());
      expect(Buffer.from(image.data, 'base64').equals(own)).toBe(true);
    }
    const { data: _data, ...listed } = listData.json.data[0];
    expect((await test.get(`/api/v1/documents/${id}/images`)).json.data[0]).toEqual(listed);
    expect((await test.get(`/api/v1/documents/${id}/images/img_01aaaaaaaaaaaaaaaaaaaaaaaa`)).status).toBe(404);
  });

  it('keep a page with fewer than 25 words whole, as JPEG with the long side at most 1568 px', async () => {
    const id = (await test.upload([['file', 'sparse.pdf', await textPdf([['Only a few words on this page']])]])).json.id;
    await test.waitFor(id);
    const [page, ...rest] = (await test.get(`/api/v1/documents/${id}/images`)).json.data;
    expect(rest).toEqual([]);
    expect(page).toMatchObject({ kind: 'page', page: 1, figure_index: null, bbox: null, caption: null, media_type: 'image/jpeg', height: 1568 });
    const jpeg = await fetch(page.url, { headers: test.headers() });
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await jpeg.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: page.width, height: 1568 });
    // One short word leaves little ink on a page, but the page is not blank: it has words.
    const word = (await test.upload([['file', 'word.pdf', await textPdf([['Hi.']])]])).json.id;
    await test.waitFor(word);
    expect((await test.get(`/api/v1/documents/${word}/images`)).json.data).toMatchObject([{ kind: 'page', page: 1 }]);
    // Blank pages are skipped (rule 3).
    const blank = (await test.upload([['file', 'blank.pdf', await textPdf([[]])]])).json.id;
    const failed = await test.waitFor(blank);
    expect(failed.status).toBe('completed');
    expect((await test.get(`/api/v1/documents/${blank}/images`)).json.data).toEqual([]);
  });

  it('are not taken with images: false, and not for text-rich pages', async () => {
    const off = (await test.upload([['file', 'figure.pdf', await pdfWithFigure()]], { images: false })).json.id;
    await test.waitFor(off);
    expect((await test.get(`/api/v1/documents/${off}/images`)).json.data).toEqual([]);
    const multicolumn = await readFile(path.join(CORPUS, 'text_pdf/samplefiles-multicolumn/multicolumn.pdf'));
    const rich = (await test.upload([['file', 'm.pdf', multicolumn]])).json.id;
    await test.waitFor(rich);
    expect((await test.get(`/api/v1/documents/${rich}/images`)).json.data).toEqual([]);
  });
});

describe('failures', () => {
  it('a damaged PDF fails at analyzing with analysis_failed and is charged nothing', async () => {
    const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)]);
    const id = (await live.upload([['file', 'broken.pdf', broken]])).json.id;
    const failed = await live.waitFor(id);
    expect(failed).toMatchObject({ status: 'failed', error: { type: 'analysis_failed', stage: 'analyzing' }, cost: { settled_micro: 0 } });
    expect(failed.error.message).toMatch(/not a valid PDF|damaged/);
  });
});

describe('key/values from form fields (issue 5, scope 4)', () => {
  it('reads text fields, checkboxes and choices with their printed labels and meaningful confidences', async () => {
    const id = (await test.upload([['file', 'form.pdf', await formPdf()]])).json.id;
    await test.waitFor(id);
    const kv = (await test.get(`/api/v1/documents/${id}/pages?include=key_values`)).json.data[0].key_values;
    // Each pair's box holds the field and its printed label: "Full name:" from x 72 to the end of
    // its text box (150 + 200), the checkbox at 72 with its label after it.
    const box = (x0: number, y0: number, x1: number, y1: number) => ({
      left: expect.closeTo(x0 / 612, 2),
      top: expect.closeTo((792 - y1) / 792, 2),
      width: expect.closeTo((x1 - x0) / 612, 2),
      height: expect.closeTo((y1 - y0) / 792, 2),
    });
    expect(kv['Full name']).toEqual({ value: 'Ada Lovelace', key_confidence: 90, value_confidence: 99, selection_status: null, bbox: box(72, 678, 350, 698) });
    expect(kv['I agree to the terms'].bbox.left).toBeCloseTo(72 / 612, 2);
    expect(kv['I agree to the terms'].bbox.width).toBeGreaterThan(100 / 612);
    expect(kv['I agree to the terms']).toMatchObject({ selection_status: 'SELECTED', value: expect.any(String) });
    expect(kv['I agree to the terms'].value.length).toBeGreaterThan(0);
    expect(kv['Send me the newsletter']).toMatchObject({ selection_status: 'NOT_SELECTED', value: '' });
    expect(kv['Country']).toMatchObject({ value: 'Germany', selection_status: null });
    // A field with nothing printed beside it is keyed by its field name, with less confidence.
    expect(kv['internal_ref']).toEqual({ value: 'REF-42', key_confidence: 80, value_confidence: 99, selection_status: null, bbox: box(400, 400, 500, 420) });

    const read = (await test.upload([['file', 'form.pdf', await formPdf()]], { analysis: 'read' })).json.id;
    await test.waitFor(read);
    expect((await test.get(`/api/v1/documents/${read}/pages?include=key_values`)).json.data[0].key_values).toEqual({});
  });
});
