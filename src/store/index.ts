// The store: the database and the blob store, opened together from the configuration. Blobs are
// local files by default and rows of the database with PostgreSQL (FOLIO_BLOB_STORE).
import type { Config } from '../config.js';
import { LocalBlobStore, type BlobStore } from './blobs.js';
import { DatabaseBlobStore } from './database-blobs.js';
import { openDatabase, type DatabaseHandle } from './database.js';
import { migrate } from './migrate.js';

export interface Store extends DatabaseHandle {
  blobs: BlobStore;
}

export async function openStore(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'blobStore'>, options: { migrate?: boolean; poolSize?: number } = {}): Promise<Store> {
  const handle = openDatabase({ ...config, poolSize: options.poolSize });
  try {
    if (options.migrate !== false) await migrate(handle);
    const blobs = config.blobStore === 'database' ? await new DatabaseBlobStore(handle, config.dataDir).init() : await new LocalBlobStore(config.dataDir).init();
    return { ...handle, blobs };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

export type { Db, Tx, Dialect } from './database.js';
