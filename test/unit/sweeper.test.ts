// An upload whose API stopped between storing the file and committing its document leaves the
// file recorded as pending; the sweeper deletes it once it has waited longer than any request
// could still be committing it, and leaves recent ones alone; the same for temporary files.
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as clock from '../../src/domain/clock.js';
import { sweepExpired } from '../../src/queue/sweeper.js';
import { clearPendingUpload, recordPendingUpload } from '../../src/store/documents.js';
import { openStore, type Store } from '../../src/store/index.js';

let dir: string;
let store: Store;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'folio-sweeper-'));
  store = await openStore({ dataDir: dir, databaseUrl: null, blobStore: 'local' });
});

afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const exists = (key: string) => store.blobs.get(key).then(() => true, () => false);

describe('the sweeper and uploads left pending', () => {
  it('deletes a stale pending upload and keeps a recent one and a committed one', async () => {
    const now = clock.now();
    for (const key of ['uploads/doc_stale', 'uploads/doc_recent', 'uploads/doc_committed']) await store.blobs.put(key, Buffer.from('%PDF-1.7'));
    await recordPendingUpload(store.db, 'uploads/doc_stale', now - 20_000);
    await recordPendingUpload(store.db, 'uploads/doc_recent', now - 1_000);
    // Committed: its document's transaction cleared the entry.
    await recordPendingUpload(store.db, 'uploads/doc_committed', now - 20_000);
    await clearPendingUpload(store.db, 'uploads/doc_committed');

    await sweepExpired(store, 10_000);
    expect(await exists('uploads/doc_stale')).toBe(false);
    expect(await exists('uploads/doc_recent')).toBe(true);
    expect(await exists('uploads/doc_committed')).toBe(true);
    const pending = await store.db.selectFrom('pending_uploads').select('blob_key').execute();
    expect(pending.map((row) => row.blob_key)).toEqual(['uploads/doc_recent']);
  });
});

describe('the sweeper and temporary files', () => {
  it('removes what a killed process left half-written in the temporary folder, and keeps files still being written', async () => {
    const temp = store.blobs.tempDir;
    await mkdir(temp, { recursive: true });
    const stale = ['a.upload', 'b.download', 'c.part'];
    for (const name of [...stale, 'fresh.upload']) await writeFile(path.join(temp, name), 'half a file');
    const old = new Date(Date.now() - 60_000);
    for (const name of stale) await utimes(path.join(temp, name), old, old);
    await sweepExpired(store, 10_000);
    expect(await readdir(temp)).toEqual(['fresh.upload']);
  });
});
