// Blobs kept in the database (the default with PostgreSQL), so API and worker processes on
// different machines share uploads and pictures with nothing but DATABASE_URL. A blob is a run of
// 1 MiB chunks written in one transaction (a reader never sees half a blob) and read back one
// chunk at a time, so a large upload is neither written nor served from one buffer.
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { blobNotFound, checkBlobKey, type BlobStore } from './blobs.js';
import type { DatabaseHandle } from './database.js';

export const CHUNK_BYTES = 1024 * 1024;

export class DatabaseBlobStore implements BlobStore {
  readonly tempDir: string;

  constructor(
    private readonly handle: DatabaseHandle,
    dataDir: string,
  ) {
    // Uploads are spooled to a local temporary file before they are stored; only this process reads it.
    this.tempDir = path.join(dataDir, 'tmp');
  }

  async init(): Promise<this> {
    await mkdir(this.tempDir, { recursive: true });
    return this;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const chunks: Buffer[] = [];
    for (let at = 0; at < data.length; at += CHUNK_BYTES) chunks.push(data.subarray(at, at + CHUNK_BYTES));
    await this.write(key, chunks);
  }

  async putFile(key: string, localPath: string): Promise<void> {
    await this.write(key, createReadStream(localPath, { highWaterMark: CHUNK_BYTES }));
    await rm(localPath, { force: true });
  }

  private async write(key: string, chunks: Iterable<Buffer> | AsyncIterable<Buffer>): Promise<void> {
    checkBlobKey(key);
    await this.handle.writeTransaction(async (tx) => {
      await tx.deleteFrom('blob_chunks').where('key', '=', key).execute();
      let seq = 0;
      for await (const chunk of chunks) await tx.insertInto('blob_chunks').values({ key, seq: seq++, data: Buffer.from(chunk) }).execute();
      if (seq === 0) await tx.insertInto('blob_chunks').values({ key, seq: 0, data: Buffer.alloc(0) }).execute();
    });
  }

  async get(key: string): Promise<Buffer> {
    const rows = await this.handle.db.selectFrom('blob_chunks').select('data').where('key', '=', checkBlobKey(key)).orderBy('seq').execute();
    if (rows.length === 0) throw blobNotFound(key);
    return Buffer.concat(rows.map((r) => r.data));
  }

  async stream(key: string): Promise<Readable> {
    const { db } = this.handle;
    const count = await db.selectFrom('blob_chunks').select((eb) => eb.fn.countAll<number>().as('n')).where('key', '=', checkBlobKey(key)).executeTakeFirstOrThrow();
    const chunks = Number(count.n);
    if (chunks === 0) throw blobNotFound(key);
    return Readable.from(
      (async function* () {
        for (let seq = 0; seq < chunks; seq++) {
          const row = await db.selectFrom('blob_chunks').select('data').where('key', '=', key).where('seq', '=', seq).executeTakeFirst();
          if (!row) throw blobNotFound(key);
          yield row.data;
        }
      })(),
    );
  }

  async delete(key: string): Promise<void> {
    await this.handle.db.deleteFrom('blob_chunks').where('key', '=', checkBlobKey(key)).execute();
  }

  async deletePrefix(prefix: string): Promise<void> {
    // An exact comparison of the key's start, the same on both databases (LIKE would need escapes
    // for the `_` in ids, and is case-blind on SQLite).
    const start = `${checkBlobKey(prefix)}/`;
    await this.handle.db
      .deleteFrom('blob_chunks')
      .where(sql<string>`substr(key, 1, ${start.length})`, '=', start)
      .execute();
  }

  async check(): Promise<void> {
    await this.handle.db.selectFrom('blob_chunks').select('key').limit(1).execute();
  }
}

