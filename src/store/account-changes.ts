// Changes to who may call the API (a key revoked, a workspace suspended or restored), announced
// to every process on PostgreSQL with NOTIFY at commit, so a process that keeps what it learned
// about keys in memory forgets it at once. SQLite has one API process, which reads keys afresh.
import { EventEmitter } from 'node:events';
import { PostgresAdapter, sql } from 'kysely';
import type pg from 'pg';
import type { Tx } from './database.js';
import type { Store } from './index.js';

const CHANNEL = 'folio_accounts';

/** Tells every process, when the transaction commits, that keys or workspaces changed. */
export async function announceAccountChange(db: Tx): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`SELECT pg_notify(${CHANNEL}, '')`.execute(db);
}

/**
 * Emits `change` on every announced change, and whenever the listening connection is lost or
 * made again (a change may have gone unheard meanwhile).
 */
export class AccountChanges extends EventEmitter {
  private listener: pg.PoolClient | null = null;
  private closed = false;

  constructor(private readonly store: Store) {
    super();
  }

  /** Whether changes are being heard now (PostgreSQL with a live listening connection). */
  get listening(): boolean {
    return this.listener !== null;
  }

  async listen(): Promise<void> {
    if (!this.store.pool || this.listener || this.closed) return;
    try {
      const client = await this.store.pool.connect();
      client.on('notification', () => this.emit('change'));
      client.on('error', () => this.lost(client));
      await client.query(`LISTEN ${CHANNEL}`);
      this.listener = client;
      this.emit('change');
    } catch {
      setTimeout(() => void this.listen(), 1000).unref();
    }
  }

  private lost(client: pg.PoolClient): void {
    if (this.listener === client) this.listener = null;
    this.emit('change');
    client.release(true);
    if (!this.closed) setTimeout(() => void this.listen(), 500).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.listener) {
      const client = this.listener;
      this.listener = null;
      await client.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
      client.release();
    }
  }
}
