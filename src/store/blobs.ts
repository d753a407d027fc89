// Blob storage (uploads and pictures) behind one small interface. This implementation keeps
// files under FOLIO_DATA_DIR/blobs; writes go to a temporary file first and are renamed into
// place, so a reader never sees half a file and a crash leaves no partial blob under its key.
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';

export interface BlobStore {
  /** Stores bytes under `key`, replacing what was there. */
  put(key: string, data: Buffer): Promise<void>;
  /** Moves a finished local temporary file under `key` (the upload path). */
  putFile(key: string, localPath: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  stream(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
  /** Deletes every blob whose key starts with `prefix` followed by a slash. */
  deletePrefix(prefix: string): Promise<void>;
  /** A directory for temporary files on the same file system as the blobs. */
  readonly tempDir: string;
  check(): Promise<void>;
}

/** Keys are relative paths of safe characters, never climbing out (every store checks them). */
export function checkBlobKey(key: string): string {
  if (!/^[A-Za-z0-9_./-]+$/.test(key) || key.includes('..')) throw new Error(`invalid blob key: ${key}`);
  return key;
}

/** A missing blob looks the same from every store: an ENOENT error, as the local files give. */
export function blobNotFound(key: string): Error {
  return Object.assign(new Error(`blob not found: ${key}`), { code: 'ENOENT' });
}

export class LocalBlobStore implements BlobStore {
  readonly tempDir: string;
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'blobs');
    this.tempDir = path.join(dataDir, 'tmp');
  }

  async init(): Promise<this> {
    await mkdir(this.root, { recursive: true });
    await mkdir(this.tempDir, { recursive: true });
    return this;
  }

  private pathOf(key: string): string {
    return path.join(this.root, checkBlobKey(key));
  }

  async put(key: string, data: Buffer): Promise<void> {
    const tmp = path.join(this.tempDir, `${randomUUID()}.part`);
    await writeFile(tmp, data);
    await this.putFile(key, tmp);
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(localPath, target);
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async stream(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    await stat(file);
    return createReadStream(file);
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix), { recursive: true, force: true });
  }

  async check(): Promise<void> {
    await stat(this.root);
  }
}

/**
 * Removes the files in a blob store's temporary folder (uploads being received, URL downloads,
 * blobs being written) that nothing has written to since `before` (milliseconds since the epoch,
 * the file system's clock): what a process killed in the middle left behind. A file still being
 * written is younger than that; one another process removes at the same moment is no error.
 */
export async function removeStaleTempFiles(tempDir: string, before: number): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tempDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(tempDir, name);
    try {
      const info = await stat(file);
      if (!info.isFile() || info.mtimeMs >= before) continue;
      await unlink(file);
      removed++;
    } catch {
      // Gone already, or being moved into place.
    }
  }
  return removed;
}
