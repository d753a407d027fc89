// Issue 22: whatever a client sends, the API answers in docs/api.md's error shape with X-Request-Id
// and a message of Folio's own, and stays up. Requests are written byte by byte on a raw socket,
// so that what Node's HTTP parser, the router and the multipart parser refuse is reached too: a
// list of known malformed requests, then a few hundred made by breaking valid ones at random
// (seeded, so a failure can be replayed). JSON nested past the documented limits is refused at
// submission with the field named, so that no worker ever walks it.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, MAX_SCHEMA_DEPTH, MAX_SCHEMA_PROPERTIES } from '../../src/domain/json-limits.js';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { internalLeak } from '../helpers/leaks.js';
import { seeded } from '../helpers/random.js';
import { textPdf } from '../helpers/pdfs.js';
import { manyFrames } from '../helpers/tiffs.js';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

const ERROR_TYPES = [
  'unauthorized', 'forbidden', 'not_found', 'rate_limited', 'quota_exceeded', 'not_entitled', 'invalid_request',
  'insufficient_credits', 'document_not_ready', 'document_expired', 'conflict', 'payload_too_large',
  'unsupported_media_type', 'document_too_large', 'internal_error',
];

let install: Installation;
let server: Server;
let ws: Awaited<ReturnType<Installation['workspace']>>;
let client: Client;
let pdf: Uint8Array;
let port: number;

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  await install.admin('plan', 'create', '--id', 'open', '--name', 'Open', '--rate-limit-per-second', '100000');
  ws = await install.workspace({ plan: 'open' });
  client = new Client(server.url, ws.test);
  pdf = await textPdf([['Hostile input']]);
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await server?.stop();
  await install?.destroy();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** How long a request that the server is still waiting on (a body cut short) is given. */
const QUIET_MS = 3_000;

/**
 * Writes `bytes` on a new connection and reads the first answer (status, headers and as many body
 * bytes as its Content-Length says); null when nothing complete arrives within QUIET_MS. The
 * connection stays open meanwhile: a client that hangs up gets no answer, by HTTP's own rules.
 */
function rawRequest(bytes: Buffer): Promise<RawAnswer | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const finish = (answer: RawAnswer | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish(parseAnswer(received, true)), QUIET_MS);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const answer = parseAnswer(received, false);
      if (answer) finish(answer);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(parseAnswer(received, true)));
    socket.write(bytes);
  });
}

/** The first answer in `raw`, once it is complete (or whatever there is, at the end). */
function parseAnswer(raw: Buffer, atEnd: boolean): RawAnswer | null {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (!raw.subarray(0, 9).equals(Buffer.from('HTTP/1.1 ')) || headEnd < 0) return null;
  const [statusLine, ...lines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.subarray(headEnd + 4);
  let body: string;
  if (headers['transfer-encoding'] === 'chunked') {
    if (!atEnd && !rest.includes('\r\n0\r\n\r\n') && !rest.subarray(0, 5).equals(Buffer.from('0\r\n\r\n'))) return null;
    body = unchunk(rest.toString('utf8'));
  } else {
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < length && !atEnd) return null;
    body = rest.subarray(0, length).toString('utf8');
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function unchunk(body: string): string {
  let out = '';
  for (let at = 0; at < body.length; ) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.slice(at, lineEnd), 16);
    if (!(size > 0)) break;
    out += body.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
  return out;
}

/** Whether `bytes` leave the server waiting for more: headers not ended, or a body short of its length. */
function incomplete(bytes: Buffer): boolean {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return true;
  const head = bytes.subarray(0, headEnd).toString('latin1');
  const body = bytes.subarray(headEnd + 4);
  if (/^transfer-encoding:\s*chunked/im.test(head)) return !body.includes('0\r\n\r\n');
  const declared = /^content-length:\s*(\d+)\s*$/im.exec(head);
  return declared !== null && Number(declared[1]) > body.length;
}

/** What is wrong with an answer, or null when it keeps the promise. */
function brokenPromise(answer: RawAnswer | null, sent: Buffer): string | null {
  const what = JSON.stringify(sent.subarray(0, 160).toString('latin1'));
  if (answer === null) return `no HTTP answer to ${what}`;
  if (answer.status >= 500) return `${answer.status} to ${what}: ${answer.body}`;
  if (!/^req_[0-9a-f]{32}$/.test(answer.headers['x-request-id'] ?? '')) return `no X-Request-Id on the ${answer.status} to ${what}`;
  if (answer.status < 400) return null;
  let json: { error?: { type?: unknown; message?: unknown } };
  try {
    json = JSON.parse(answer.body);
  } catch {
    return `a ${answer.status} whose body is not JSON to ${what}: ${answer.body.slice(0, 200)}`;
  }
  const { type, message } = json.error ?? {};
  if (typeof type !== 'string' || !ERROR_TYPES.includes(type)) return `error type ${String(type)} in the ${answer.status} to ${what}`;
  if (typeof message !== 'string' || !message) return `no message in the ${answer.status} to ${what}`;
  const leak = internalLeak(message);
  if (leak) return `the ${answer.status} to ${what} shows ${leak}: ${message}`;
  return null;
}

function request(head: string, body: Buffer | string = ''): Buffer {
  return Buffer.concat([Buffer.from(head, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1')]);
}

const auth = () => `Authorization: Bearer ${ws.test}\r\n`;

function jsonPost(path: string, body: string, extraHeaders = ''): Buffer {
  return request(`POST ${path} HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extraHeaders}\r\n`, body);
}

function multipart(parts: string, boundary = 'XyZ'): Buffer {
  return request(`POST /api/v1/documents HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${Buffer.byteLength(parts, 'latin1')}\r\n\r\n`, parts);
}

/** JSON text with `depth` objects nested inside one another. */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
}

function deepSchema(levels: number): unknown {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

/** Requests known to reach each layer's refusals. */
function knownMalformed(): Buffer[] {
  const pdfText = Buffer.from(pdf).toString('latin1');
  return [
    request(`GET /api/v1/documents/doc_${'a'.repeat(300)} HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`),
    request(`GET /api/v1/documents/%E0%A4%A HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`),
    request(`GET /api/v1/account HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`),
    request(`GET /api/v1/${'b'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
    request(`FOO /api/v1/account HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`),
    request(`GET /api/v1/account HTTP/9.9\r\nHost: x\r\n\r\n`),
    request(`GET /api/v1/account\r\n\r\n`),
    request('\x00\x01\x02 garbage\r\n\r\n'),
    request(`GET /api/v1/account HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n`),
    request(`GET /api/v1/account HTTP/1.1\r\nHost: x\r\nX-Thing: a\x00b\r\n\r\n`),
    request(`POST /api/v1/documents HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`, 'ZZZ\r\nabc\r\n0\r\n\r\n'),
    request(`POST /api/v1/documents HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n`, '3\r\nabc\r\n0\r\n\r\n'),
    request(`POST /api/v1/documents HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 10\r\nContent-Length: 12\r\n\r\n`, '{"url":"x"}'),
    request(`POST /api/v1/documents HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: -5\r\n\r\n`),
    jsonPost('/api/v1/documents', '{"url": "https://example.com/a.pdf"', ''),
    jsonPost('/api/v1/documents', '{"url":"https://example.com/a.pdf"}', 'Content-Encoding: gzip\r\n'),
    jsonPost('/api/v1/documents', '{"url":"https://example.com/a.pdf"}', 'Content-Encoding: br, gzip\r\n'),
    jsonPost('/api/v1/documents', '{"__proto__":{"x":1},"url":"https://example.com/a.pdf"}'),
    jsonPost('/api/v1/documents', '{"constructor":{"prototype":{"x":1}},"url":"https://example.com/a.pdf"}'),
    jsonPost('/api/v1/documents', `{"url":"https://example.com/a.pdf","options":${nested(5_000)}}`),
    jsonPost('/api/v1/documents', nested(MAX_JSON_DEPTH + 1)),
    jsonPost('/api/v1/documents', '[]'.repeat(1)),
    jsonPost('/api/v1/documents', '"just a string"'),
    jsonPost('/api/v1/documents', 'null'),
    jsonPost('/api/v1/documents', '\uFEFF{"url":"https://example.com/a.pdf"}'),
    jsonPost('/api/v1/documents/doc_01aaaaaaaaaaaaaaaaaaaaaaaa/queries', '{"question":"x","schema":' + nested(3_000) + '}'),
    request(`POST /api/v1/documents HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/xml\r\nContent-Length: 7\r\n\r\n`, '<a></a>'),
    request(`POST /api/v1/documents HTTP/1.1\r\nHost: x\r\n${auth()}Content-Length: 7\r\n\r\n`, 'abcdefg'),
    multipart('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 cut short'),
    multipart('--XyZ\r\nContent-Dispo\r\n\r\n'),
    multipart('not a form at all'),
    multipart('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n' + pdfText + '\r\n--XyZ--\r\n', ''),
    multipart('--XyZ\r\nContent-Disposition: form-data; name="options"\r\n\r\n' + nested(MAX_JSON_DEPTH + 10) + '\r\n--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n' + pdfText + '\r\n--XyZ--\r\n'),
    multipart('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="../../etc/passwd"\r\nContent-Type: application/pdf\r\n\r\n' + pdfText + '\r\n--XyZ--\r\n'),
    multipart('--XyZ\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\n{}\r\n--XyZ--\r\n'),
    request(`GET /api/v1/documents?limit=${'9'.repeat(400)}&status[]=x&starting_after[$gt]=1 HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`),
    request(`GET /api/v1/documents/doc_01aaaaaaaaaaaaaaaaaaaaaaaa/pages?page=1-999999999999999999999 HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`),
    request(`GET /api/v1/documents/doc_01aaaaaaaaaaaaaaaaaaaaaaaa/pages/${'9'.repeat(40)}/preview?size=-1 HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`),
    request(`DELETE /api/v1/documents/%00%00 HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`),
    request(`GET /api/v1/documents?starting_after=%00 HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`),
    jsonPost('/api/v1/documents', '{"url":"https://example.com/a%00b.pdf"}'),
    jsonPost('/api/v1/documents', '{"url":"https://example.com/a.pdf","options":{"queries":["a\\u0000b"]}}'),
    jsonPost('/api/v1/documents/doc_01aaaaaaaaaaaaaaaaaaaaaaaa/queries', '{"question":"\\u0000"}'),
    multipart('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a\x00b.pdf"\r\n\r\n' + pdfText + '\r\n--XyZ--\r\n'),
    multipart('--XyZ\r\nContent-Disposition: form-data; name="options"\r\n\r\n{"queries":["\\u0000"]}\r\n--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n' + pdfText + '\r\n--XyZ--\r\n'),
    request(`OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n`),
    request(`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`),
    request(`GET http://evil.example/api/v1/account HTTP/1.1\r\nHost: evil.example\r\n${auth()}\r\n`),
  ];
}

/** Valid requests broken at random: bytes flipped, cut, repeated or replaced by hostile ones. */
function brokenAtRandom(count: number, seed: number): Buffer[] {
  const random = seeded(seed);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const hostile = ['\x00', '\r\n', '\r', '\n', ':', ' ', '%', '%00', '%ff', '{', '"', '\\', '\u00ff', '../', '\x7f', '9'.repeat(30), '{"a":'.repeat(200)];
  const templates = [
    request(`GET /api/v1/account HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`),
    request(`GET /api/v1/documents?limit=5&status=completed HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`),
    jsonPost('/api/v1/documents', JSON.stringify({ url: 'https://example.com/a.pdf', options: { markdown: true, extraction: { fields: ['dates'] } } })),
    jsonPost('/api/v1/documents/doc_01aaaaaaaaaaaaaaaaaaaaaaaa/queries', JSON.stringify({ question: 'What is due?', schema: { type: 'object' } })),
    multipart(`--XyZ\r\nContent-Disposition: form-data; name="options"\r\n\r\n{"queries":["Who?"]}\r\n--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 short\r\n--XyZ--\r\n`),
  ];
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    let bytes = Buffer.from(pick(templates));
    const edits = 1 + Math.floor(random() * 3);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(random() * bytes.length);
      switch (Math.floor(random() * 4)) {
        case 0: // flip a byte
          bytes[at] = Math.floor(random() * 256);
          break;
        case 1: // cut the request short
          bytes = bytes.subarray(0, at);
          break;
        case 2: // insert something hostile
          bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(pick(hostile), 'latin1'), bytes.subarray(at)]);
          break;
        default: // repeat a stretch
          bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at, at + 64).fill(bytes[at] ?? 32), bytes.subarray(at)]);
      }
    }
    out.push(bytes);
  }
  return out;
}

async function sendAll(requests: Buffer[]): Promise<{ problems: string[]; statuses: number[] }> {
  const problems: string[] = [];
  const statuses: number[] = [];
  // Many connections at once, as clients would make them.
  for (let i = 0; i < requests.length; i += 32) {
    const batch = requests.slice(i, i + 32);
    const answers = await Promise.all(batch.map(rawRequest));
    answers.forEach((answer, j) => {
      if (answer) statuses.push(answer.status);
      // A request the server is still waiting on rightly has no answer yet.
      if (answer === null && incomplete(batch[j])) return;
      const problem = brokenPromise(answer, batch[j]);
      if (problem) problems.push(problem);
    });
  }
  return { problems, statuses };
}

describe('hostile HTTP', () => {
  it('answers every known malformed request in the error shape, with X-Request-Id and Folio words', async () => {
    const requests = knownMalformed();
    const { problems, statuses } = await sendAll(requests);
    expect(problems).toEqual([]);
    expect(statuses.filter((s) => s >= 400).length).toBeGreaterThan(requests.length * 0.8);
    expect(server.exited).toBe(false);
  });

  it('answers a few hundred randomly broken requests the same way, and stays up', async () => {
    const seed = Number(process.env.FOLIO_FUZZ_SEED ?? 20261124);
    const { problems, statuses } = await sendAll(brokenAtRandom(300, seed));
    expect(problems, `seed ${seed}`).toEqual([]);
    // Most broken requests are answered (the rest leave the server waiting for a body).
    expect(statuses.length, `statuses ${statuses.join(',')}`).toBeGreaterThan(150);
    expect(server.exited).toBe(false);
    expect((await client.get('/healthz')).status).toBe(200);
    expect((await client.get('/api/v1/account')).status).toBe(200);
    expect((await client.upload([['file', 'a.pdf', pdf]])).status).toBe(202);
  });

  it('words the refusals of the HTTP layer and the router as Folio does', async () => {
    const longId = await rawRequest(request(`GET /api/v1/documents/doc_${'a'.repeat(300)} HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`));
    expect(longId).toMatchObject({ status: 404 });
    expect(JSON.parse(longId!.body).error.type).toBe('not_found');
    expect(longId!.body).not.toContain('aaaa');
    const bigHeader = await rawRequest(request(`GET /api/v1/account HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(bigHeader).toMatchObject({ status: 431 });
    expect(JSON.parse(bigHeader!.body).error.type).toBe('payload_too_large');
    const gzip = await rawRequest(jsonPost('/api/v1/documents', '{"url":"https://example.com/a.pdf"}', 'Content-Encoding: gzip\r\n'));
    expect(gzip).toMatchObject({ status: 415 });
    expect(JSON.parse(gzip!.body).error.type).toBe('unsupported_media_type');
    const form = await rawRequest(multipart('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 cut short'));
    expect(form).toMatchObject({ status: 422 });
    expect(JSON.parse(form!.body).error.details).toEqual({ body: [expect.stringContaining('multipart/form-data')] });
  });
});

describe('NUL characters', () => {
  it('are refused where they would be stored, and cleaned from file names, alike on both stores', async () => {
    const question = await client.request('POST', '/api/v1/documents', { body: '{"url":"https://example.com/a.pdf","options":{"queries":["why\\u0000"]}}', headers: { 'content-type': 'application/json' } });
    expect(question.status).toBe(422);
    expect(question.json.error.details).toEqual({ body: [expect.stringContaining('NUL')] });
    expect((await client.get('/api/v1/documents?starting_after=%00')).json.error.details).toEqual({ starting_after: [expect.stringContaining('NUL')] });
    expect((await client.request('DELETE', '/api/v1/documents/doc_%00')).status).toBe(404);
    const named = await client.upload([['file', 'a\u0000b\u0007.pdf', pdf]]);
    expect(named.status).toBe(202);
    expect((await client.get(`/api/v1/documents/${named.json.id}`)).json.filename).toBe('ab.pdf');
    // A right-to-left override would make it display as "invoiceexe.pdf".
    const disguised = await client.upload([['file', 'invoice\u202efdp.exe', pdf]]);
    expect((await client.get(`/api/v1/documents/${disguised.json.id}`)).json.filename).toBe('invoicefdp.exe');
    const url = await client.request('POST', '/api/v1/documents', { json: { url: 'https://example.com/report%00.pdf' } });
    expect(url.status).toBe(202);
    expect((await client.get(`/api/v1/documents/${url.json.id}`)).json.filename).toBe('report.pdf');
  });
});

describe('page-heavy files (issue 37 scope 1)', () => {
  it('refuses a small TIFF of thousands of frames, counted only as far as the limit, and another workspace uploads meanwhile', async () => {
    const other = new Client(server.url, (await install.workspace()).test);
    const flood = manyFrames(5000);
    const [refused, meanwhile] = await Promise.all([client.upload([['file', 'frames.tiff', flood]]), other.upload([['file', 'small.pdf', pdf]])]);
    expect(refused.status).toBe(422);
    expect(refused.json.error.details.file).toEqual(['"frames.tiff" has more than 2000 pages; the plan allows at most 2000']);
    expect(meanwhile.status).toBe(202);
    // Under the page limit, but more frames than its bytes may buy: one scanned page per KiB.
    const cheap = await client.upload([['file', 'cheap.tiff', manyFrames(1000)]]);
    expect(cheap.status).toBe(422);
    expect(cheap.json.error.details.file).toEqual(['"cheap.tiff" has 1000 frames in 102 KB; Folio reads at most one scanned page per KiB of file (here 101)']);
    // A PDF of copies of one blank picture is known to need OCR only once its pages are read.
    const copies = await PDFDocument.create();
    const blank = await copies.embedPng(await sharp({ create: { width: 400, height: 100, channels: 3, background: 'white' } }).png().toBuffer());
    for (let i = 0; i < 60; i++) copies.addPage([612, 792]).drawImage(blank, { x: 0, y: 0, width: 612, height: 792 });
    const accepted = await client.upload([['file', 'copies.pdf', await copies.save()]]);
    expect(accepted.status).toBe(202);
    const failed = await client.waitFor(accepted.json.id);
    expect(failed).toMatchObject({ status: 'failed', error: { type: 'document_too_large', stage: 'analyzing' } });
    expect(failed.error.message).toMatch(/^The document has 60 pages to read by OCR in \d+ KB; Folio reads at most one scanned page per KiB of file \(here 16\)\.$/);
    // A chain of directories that comes back on itself ends where it does.
    const looped = await client.upload([['file', 'looped.tiff', manyFrames(3, 8, 8, { loopTo: 1 })]]);
    expect(looped.status).toBe(202);
    expect((await client.get(`/api/v1/documents/${looped.json.id}`)).json.page_count).toBe(3);
  });
});

describe('nested JSON', () => {
  it('refuses a body nested past the limit before anything walks it, naming the body', async () => {
    for (const depth of [MAX_JSON_DEPTH + 1, 5_000, 50_000]) {
      const answer = await client.request('POST', '/api/v1/documents', {
        body: `{"url":"https://example.com/a.pdf","options":{"extraction":{"schema":${nested(depth)}}}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status, `depth ${depth}`).toBe(422);
      expect(answer.json.error).toMatchObject({ type: 'invalid_request', details: { body: [expect.stringContaining(`${MAX_JSON_DEPTH} levels`)] } });
    }
    const form = await client.upload([['file', 'a.pdf', pdf]], `{"extraction":{"schema":${nested(2_000)}}}`);
    expect(form.status).toBe(422);
    expect(form.json.error.details).toEqual({ options: [expect.stringContaining(`${MAX_JSON_DEPTH} levels`)] });
  });

  it('refuses an extraction or query schema past its limits, naming the field', async () => {
    const tooDeep = deepSchema(MAX_SCHEMA_DEPTH);
    const url = await client.request('POST', '/api/v1/documents', { json: { url: 'https://example.com/a.pdf', options: { extraction: { schema: tooDeep } } } });
    expect(url.status).toBe(422);
    expect(url.json.error.details).toEqual({ 'options.extraction.schema': [`is nested more than ${MAX_SCHEMA_DEPTH} levels deep`] });
    const upload = await client.upload([['file', 'a.pdf', pdf]], { extraction: { schema: tooDeep } });
    expect(upload.json.error.details).toEqual({ 'options.extraction.schema': [`is nested more than ${MAX_SCHEMA_DEPTH} levels deep`] });

    const properties = Object.fromEntries(Array.from({ length: MAX_SCHEMA_PROPERTIES + 1 }, (_, i) => [`field_${i}`, { type: 'string' }]));
    const wide = await client.upload([['file', 'a.pdf', pdf]], { extraction: { schema: { type: 'object', properties } } });
    expect(wide.json.error.details['options.extraction.schema']).toEqual([expect.stringContaining(`at most ${MAX_SCHEMA_PROPERTIES}`)]);

    const invalid = await client.upload([['file', 'a.pdf', pdf]], { extraction: { schema: { type: 'object', properties: { a: { type: 'strnig' } } } } });
    expect(invalid.status).toBe(422);
    expect(invalid.json.error.details['options.extraction.schema']).toEqual([expect.stringContaining('is not valid JSON Schema')]);

    const doc = await client.waitFor((await client.upload([['file', 'a.pdf', pdf]])).json.id);
    const question = await client.request('POST', `/api/v1/documents/${doc.id}/queries`, { json: { question: 'What?', schema: tooDeep } });
    expect(question.status).toBe(422);
    expect(question.json.error.details).toEqual({ schema: [`is nested more than ${MAX_SCHEMA_DEPTH} levels deep`] });
  });

  it('reads a document whose schema is as deep as allowed, on the first attempt', async () => {
    // The deepest schema the limit lets through: the worker must walk it without trouble.
    let schema: Record<string, unknown> = { type: 'object', properties: { total: { type: 'string' } } };
    while (depthOf({ type: 'object', properties: { a: schema } }) <= MAX_SCHEMA_DEPTH) schema = { type: 'object', properties: { a: schema } };
    const accepted = await client.upload([['file', 'a.pdf', pdf]], { extraction: { schema }, queries: ['What is the total?'] });
    expect(accepted.status).toBe(202);
    const doc = await client.waitFor(accepted.json.id);
    expect(doc.status).toBe('completed');
    await server.logLine([accepted.json.id, '"document processed"']);
    const attempts = server.logs.split('\n').filter((line) => line.includes(accepted.json.id) && line.includes('"document processed"'));
    expect(attempts).toHaveLength(1);
  });
});

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}
