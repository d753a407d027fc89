// The TypeScript client (`folio-api/client`, imported here through the package's own export) and the
// command-line client (`folio parse`), against the running server (issue 11 scopes 1 and 2).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolioApiError, FolioClient, OPERATIONS } from 'folio-api/client';
import { BIN, Installation, type Server } from '../helpers/folio.js';
import { tablePdf, textPdf } from '../helpers/pdfs.js';

let install: Installation;
let server: Server;
let key: string;
const dirs: string[] = [];

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  key = (await install.workspace()).test;
});

afterAll(async () => {
  await server?.stop();
  await install?.destroy();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'folio-client-'));
  dirs.push(dir);
  return dir;
}

describe('the TypeScript client', () => {
  it('calls exactly the operations the served OpenAPI document describes', async () => {
    const spec = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const served = Object.entries(spec.paths)
      .flatMap(([route, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`))
      .sort();
    const called = [...new Set(Object.values(OPERATIONS).map(([method, route]) => `${method} ${route}`))].sort();
    expect(called).toEqual(served);
  });

  it('submits, waits, and reads every resource with typed answers', async () => {
    const seen: Record<string, string>[] = [];
    const recording: typeof fetch = async (input, init) => {
      seen.push(Object.fromEntries(Object.entries((init?.headers as Record<string, string>) ?? {})));
      return fetch(input, init);
    };
    const client = new FolioClient({ baseUrl: `${server.url}/`, apiKey: key, fetch: recording });
    const pdf = await tablePdf([{ header: ['Item', 'Qty'], rows: [['Apples', '3'], ['Pears', '5']], ruled: true }], { before: 'Order summary' });
    const stages: string[] = [];
    const document = await client.parse(
      { data: pdf, filename: 'order.pdf' },
      { options: { markdown: true, queries: ['How many pears?'] }, include: ['markdown', 'pages', 'tables'], intervalMs: 50, onProgress: (d) => stages.push(d.stage) },
    );
    expect(document.status).toBe('completed');
    expect(stages.at(-1)).toBe('done');
    expect(document.markdown).toContain('| Item | Qty |');
    expect(document.pages?.[0].tables?.[0]).toMatchObject({ rows: [['Item', 'Qty'], ['Apples', '3'], ['Pears', '5']], columns: 2 });
    expect(document.result?.answers?.[0]).toMatchObject({ question: 'How many pears?', answer: expect.stringContaining('5') });
    // A fresh Idempotency-Key on the submission.
    expect(seen[0]['idempotency-key']).toMatch(/^folio-client-[0-9a-f-]{36}$/);

    const pages = await client.getPages(document.id, { include: ['layout', 'images'], page: 1 });
    expect(pages.data[0].layout?.length).toBeGreaterThan(0);
    const chunks = await client.getChunks(document.id, { maxTokens: 64 });
    expect(chunks.data.map((c) => c.text).join('\n\n')).toBe('Order summary\n\n| Item | Qty |\n| --- | --- |\n| Apples | 3 |\n| Pears | 5 |');
    expect(chunks.data[0]).toMatchObject({ index: 0, headings: [], pages: [1] });
    const images = await client.listImages(document.id);
    if (images.data.length) {
      const picture = await client.getImage(document.id, images.data[0].id);
      expect(picture.contentType).toMatch(/^image\//);
      expect(picture.bytes.byteLength).toBe(images.data[0].byte_size);
    }
    const asked = await client.createQuery(document.id, { question: 'How many apples?' });
    const answered = await client.waitForQuery(document.id, asked.id, { intervalMs: 50 });
    expect(answered.status).toBe('completed');
    expect((await client.listQueries(document.id)).data.map((q) => q.id)).toContain(asked.id);
    expect((await client.getAccount()).key.mode).toBe('test');
    expect((await client.listUsage({ document_id: document.id })).object).toBe('list');
    const listed: string[] = [];
    for await (const item of client.allDocuments()) listed.push(item.id);
    expect(listed).toContain(document.id);

    // The same key twice is one document.
    const again = await client.submitFile({ data: pdf, filename: 'order.pdf' }, { idempotencyKey: 'client-test-key' });
    const replay = await client.submitFile({ data: pdf, filename: 'order.pdf' }, { idempotencyKey: 'client-test-key' });
    expect(replay.id).toBe(again.id);
    await client.waitUntilDone(again.id, { intervalMs: 50 });
    await client.deleteDocument(again.id);
    await expect(client.getDocument(again.id)).rejects.toMatchObject({ status: 404, type: 'not_found' });
  });

  it('throws FolioApiError with the type and its fields, and waits out a 429', async () => {
    const client = new FolioClient({ baseUrl: server.url, apiKey: key });
    const refused = await client.submitFile({ data: await textPdf([['x']]), filename: 'x.pdf' }, { options: { markdown: true, analysis: 'read' } }).catch((e) => e);
    expect(refused).toBeInstanceOf(FolioApiError);
    expect(refused).toMatchObject({ status: 422, type: 'invalid_request' });
    expect(refused.details).toBeTypeOf('object');
    expect(refused.requestId).toMatch(/^req_/);
    const unauthorized = await new FolioClient({ baseUrl: server.url, apiKey: 'ak_test_wrong' }).getAccount().catch((e) => e);
    expect(unauthorized).toMatchObject({ status: 401, type: 'unauthorized' });
    const unreachable = await new FolioClient({ baseUrl: 'http://127.0.0.1:9', apiKey: key, maxRetries: 0 }).getAccount().catch((e) => e);
    expect(unreachable).toMatchObject({ status: 0, type: 'network_error' });

    // A plan allowing one request a second: five at once all succeed, the refused ones retried
    // after Retry-After.
    await install.admin('plan', 'create', '--id', 'slow', '--name', 'Slow', '--rate-limit-per-second', '1');
    const slow = new FolioClient({ baseUrl: server.url, apiKey: (await install.workspace({ plan: 'slow' })).test, maxRetries: 10 });
    const accounts = await Promise.all(Array.from({ length: 5 }, () => slow.getAccount()));
    expect(accounts.every((a) => a.rate_limit_per_second === 1)).toBe(true);
  });
});

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr })));
}

describe('folio --help', () => {
  it('names the npm package and the client import, as package.json does', async () => {
    const { name } = JSON.parse(await readFile(path.join(path.dirname(BIN), '..', 'package.json'), 'utf8'));
    const help = await runCli(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`npm package ${name};`);
    expect(help.stdout).toContain(`'${name}/client'`);
  });
});

describe('folio parse', () => {
  it('reads files, writes JSON and markdown, and prints a line per stage when not on a terminal', async () => {
    const dir = await tempDir();
    const a = path.join(dir, 'order.pdf');
    const b = path.join(dir, 'letter.pdf');
    await writeFile(a, await tablePdf([{ header: ['Item', 'Qty'], rows: [['Apples', '3']], ruled: true }]));
    await writeFile(b, await textPdf([['Dear reader, the meeting is on 4 March 2025.']]));
    const out = path.join(dir, 'out');
    const result = await runCli(['parse', a, b, '--markdown', '--chunks', '--extract', 'dates,title', '--ask', 'When is the meeting?', '--out', out], {
      FOLIO_URL: server.url,
      FOLIO_API_KEY: key,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('order.pdf: queued');
    expect(result.stderr).toContain('letter.pdf: completed (1 pages)');
    expect(result.stderr).toContain('2 of 2 files read');
    expect((await readdir(out)).sort()).toEqual(['letter.chunks.jsonl', 'letter.json', 'letter.md', 'order.chunks.jsonl', 'order.json', 'order.md']);
    const letterChunks = (await readFile(path.join(out, 'letter.chunks.jsonl'), 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line));
    // --pages reads only the pages asked for.
    const two = path.join(dir, 'two.pdf');
    await writeFile(two, await textPdf([['The first page.'], ['The second page.']]));
    const selected = await runCli(['parse', two, '--pages', '2', '--out', out], { FOLIO_URL: server.url, FOLIO_API_KEY: key });
    expect(selected.code, selected.stderr).toBe(0);
    const twoJson = JSON.parse(await readFile(path.join(out, 'two.json'), 'utf8'));
    expect(twoJson.page_count).toBe(2);
    expect(twoJson.pages.map((p: any) => p.page)).toEqual([2]);
    expect(letterChunks).toEqual([expect.objectContaining({ index: 0, text: 'Dear reader, the meeting is on 4 March 2025.', pages: [1] })]);
    const letter = JSON.parse(await readFile(path.join(out, 'letter.json'), 'utf8'));
    expect(letter.result.data.dates[0]).toMatchObject({ date: '2025-03-04' });
    expect(letter.result.answers[0]).toMatchObject({ question: 'When is the meeting?', not_found: false });
    const order = JSON.parse(await readFile(path.join(out, 'order.json'), 'utf8'));
    expect(order.pages[0].tables[0].markdown).toContain('Apples');
    expect(await readFile(path.join(out, 'order.md'), 'utf8')).toContain('| Item | Qty |');
  });

  it('draws a progress bar per file on a terminal', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'one.pdf');
    await writeFile(file, await textPdf([['A page for the progress bar.']]));
    // `script` gives the command a terminal, as a user's shell would.
    const command = [process.execPath, BIN, 'parse', file, '--out', dir].map((p) => `'${p}'`).join(' ');
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, FOLIO_URL: server.url, FOLIO_API_KEY: key } });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.on('close', (code) => resolve({ code: code ?? 1, output }));
    });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('\x1b[2K');
    expect(result.output).toMatch(/one\.pdf \[#{20}\] completed 1 page/);
  });

  it('exits 1 with the error type when a file fails, and 2 without a key', async () => {
    const dir = await tempDir();
    const broken = path.join(dir, 'broken.pdf');
    await writeFile(broken, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(500, 0x41)]));
    const failed = await runCli(['parse', broken, '--out', dir], { FOLIO_URL: server.url, FOLIO_API_KEY: key });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/failed .*broken\.pdf: failed analysis_failed: /);
    const refused = await runCli(['parse', path.join(dir, 'missing.pdf'), '--out', dir], { FOLIO_URL: server.url, FOLIO_API_KEY: key });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('ENOENT');
    const noKey = await runCli(['parse', broken], { FOLIO_URL: server.url, FOLIO_API_KEY: '' });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('FOLIO_API_KEY');
  });
});
