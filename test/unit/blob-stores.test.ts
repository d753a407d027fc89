// Blob stores for machines that share no disk (issue 10 scope 1): in the database (SQLite and
// PostgreSQL) and in S3-compatible storage (an s3rver started here). What goes in comes out byte
// for byte, streamed (the database one chunk of 1 MiB at a time), replaced whole, deleted by key
// or by prefix, and a missing key is an ENOENT like a missing file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { CHUNK_BYTES } from '../../src/store/database-blobs.js';

const PG_URL = process.env.FOLIO_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `t_blobs_${Math.random().toString(36).slice(2, 10)}`;
let dir: string;
const stores: [string, Store][] = [];
let s3: S3rver;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'folio-blobs-'));
  stores.push(['sqlite', await openStore({ databaseUrl: null, dataDir: path.join(dir, 'sqlite'), blobStore: 'database' })]);
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  stores.push(['postgres', await openStore({ databaseUrl: url, dataDir: path.join(dir, 'pg'), blobStore: 'database' })]);
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(dir, 's3rver'), configureBuckets: [{ name: 'folio-blobs', configs: [] }] });
  const { port } = await s3.run();
  const settings = {
    bucket: 'folio-blobs',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
    prefix: 'install-a/',
  };
  stores.push(['s3', await openStore({ databaseUrl: null, dataDir: path.join(dir, 's3'), blobStore: 's3', s3: settings })]);
});

afterAll(async () => {
  for (const [, store] of stores) await store.close();
  await s3?.close();
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
  await rm(dir, { recursive: true, force: true });
});

async function collect(stream: NodeJS.ReadableStream): Promise<{ bytes: Buffer; pieces: number }> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return { bytes: Buffer.concat(parts), pieces: parts.length };
}

describe.each(['sqlite', 'postgres', 's3'])('blob store: %s', (name) => {
  const store = () => stores.find(([n]) => n === name)![1];

  it('keeps a file of several chunks byte for byte, streams it a chunk at a time, and removes the spooled file', async () => {
    const bytes = randomBytes(2 * CHUNK_BYTES + 12_345);
    const spooled = path.join(store().blobs.tempDir, 'upload.part');
    await writeFile(spooled, bytes);
    await store().blobs.putFile('uploads/doc_a/file.pdf', spooled);
    expect((await store().blobs.get('uploads/doc_a/file.pdf')).equals(bytes)).toBe(true);
    const streamed = await collect(await store().blobs.stream('uploads/doc_a/file.pdf'));
    expect(streamed.bytes.equals(bytes)).toBe(true);
    if (name !== 's3') expect(streamed.pieces).toBe(3);
    await expect(import('node:fs/promises').then((fs) => fs.stat(spooled))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('replaces a blob whole, keeps empty blobs, deletes by key and by prefix only under that prefix', async () => {
    const blobs = store().blobs;
    await blobs.put('images/doc_1/a.png', randomBytes(3 * CHUNK_BYTES));
    await blobs.put('images/doc_1/a.png', Buffer.from('small'));
    expect((await blobs.get('images/doc_1/a.png')).toString()).toBe('small');
    await blobs.put('images/doc_1/empty.png', Buffer.alloc(0));
    expect((await blobs.get('images/doc_1/empty.png')).length).toBe(0);
    // `_` and case are matched exactly: doc_10 and DOC_1 are other documents.
    await blobs.put('images/doc_10/b.png', Buffer.from('other'));
    await blobs.put('images/DOC_1/c.png', Buffer.from('other case'));
    await blobs.put('images/docX1/d.png', Buffer.from('wildcard'));
    await blobs.deletePrefix('images/doc_1');
    await expect(blobs.get('images/doc_1/a.png')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(blobs.get('images/doc_1/empty.png')).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await blobs.get('images/doc_10/b.png')).toString()).toBe('other');
    expect((await blobs.get('images/DOC_1/c.png')).toString()).toBe('other case');
    expect((await blobs.get('images/docX1/d.png')).toString()).toBe('wildcard');
    await blobs.delete('images/doc_10/b.png');
    await expect(blobs.stream('images/doc_10/b.png')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(blobs.put('../escape', Buffer.from('x'))).rejects.toThrow(/invalid blob key/);
    await blobs.check();
  });
});
