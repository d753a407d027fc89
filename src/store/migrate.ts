// Versioned migrations applied at start-up. Each runs in the same write transaction as the row
// that records it, under a lock (PostgreSQL advisory lock; SQLite's write lock), so processes
// starting together apply each migration exactly once and the others wait, then find it done.
import { sql, type Kysely } from 'kysely';
import type { DatabaseHandle, Dialect } from './database.js';
import * as m001 from './migrations/001-initial.js';
import * as m002 from './migrations/002-request-counters.js';
import * as m003 from './migrations/003-idempotency.js';
import * as m004 from './migrations/004-model-layer.js';
import * as m005 from './migrations/005-page-embeddings.js';
import * as m006 from './migrations/006-database-blobs.js';
import * as m007 from './migrations/007-idempotency-claims.js';
import * as m008 from './migrations/008-page-geometry.js';
import * as m009 from './migrations/009-pending-uploads.js';
import * as m010 from './migrations/010-chunk-embeddings.js';
import * as m011 from './migrations/011-webhooks.js';
import * as m012 from './migrations/012-fair-sharing.js';
import * as clock from '../domain/clock.js';

interface Migration {
  id: number;
  name: string;
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

export const MIGRATIONS: Migration[] = [
  { id: 1, ...m001 },
  { id: 2, ...m002 },
  { id: 3, ...m003 },
  { id: 4, ...m004 },
  { id: 5, ...m005 },
  { id: 6, ...m006 },
  { id: 7, ...m007 },
  { id: 8, ...m008 },
  { id: 9, ...m009 },
  { id: 10, ...m010 },
  { id: 11, ...m011 },
  { id: 12, ...m012 },
];

const LOCK_KEY = 4_242_001;

export async function migrate(handle: DatabaseHandle): Promise<number[]> {
  return handle.writeTransaction(async (tx) => {
    if (handle.dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(tx);
    await tx.schema
      .createTable('folio_migrations')
      .ifNotExists()
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('applied_at', 'bigint', (c) => c.notNull())
      .execute();
    const applied = new Set((await tx.selectFrom('folio_migrations').select('id').execute()).map((row) => row.id));
    const done: number[] = [];
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.id)) continue;
      await migration.up(tx as Kysely<any>, handle.dialect);
      await tx.insertInto('folio_migrations').values({ id: migration.id, name: migration.name, applied_at: clock.now() }).execute();
      done.push(migration.id);
    }
    return done;
  });
}
