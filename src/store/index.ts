// The store: the database and the blob store, opened together from the configuration. Blobs are
// local files by default, rows of the database with PostgreSQL, or S3 objects (FOLIO_BLOB_STORE).
import { LocalBlobStore, type BlobStore } from './blobs.js';
import { DatabaseBlobStore } from './database-blobs.js';
import type { S3Settings } from './s3-blobs.js';
import { openDatabase, type DatabaseHandle } from './database.js';
import { migrate } from './migrate.js';

export interface Store extends DatabaseHandle {
  blobs: BlobStore;
}

/** Where the store lives: the part of the configuration it reads. */
export interface StoreSettings {
  dataDir: string;
  /** PostgreSQL when set, else SQLite under dataDir. */
  databaseUrl: string | null;
  /** Where uploads and pictures live: `local` files under dataDir, `database` rows, or `s3` objects. */
  blobStore: 'local' | 'database' | 's3';
  s3?: S3Settings | null;
}

export async function openStore(
  config: StoreSettings,
  options: { migrate?: boolean; poolSize?: number } = {},
): Promise<Store> {
  const handle = openDatabase({ ...config, poolSize: options.poolSize });
  try {
    if (options.migrate !== false) await migrate(handle);
    const blobs = await openBlobs(config, handle);
    return { ...handle, blobs };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

async function openBlobs(config: StoreSettings, handle: DatabaseHandle): Promise<BlobStore> {
  switch (config.blobStore) {
    case 'database':
      return new DatabaseBlobStore(handle, config.dataDir).init();
    case 's3': {
      if (!config.s3) throw new Error('the s3 blob store needs FOLIO_S3_BUCKET');
      // The AWS SDK is loaded only where it is used: it added 24 MB of RSS and 0.3 s of start to
      // every API and worker process.
      const { S3BlobStore } = await import('./s3-blobs.js');
      return new S3BlobStore(config.s3, config.dataDir).init();
    }
    default:
      return new LocalBlobStore(config.dataDir).init();
  }
}

export type { Db, Tx, Dialect } from './database.js';
