// Wake-ups for idle workers: an in-process signal when the API and workers share a process, and
// PostgreSQL LISTEN/NOTIFY across processes. Workers still poll as a fallback, so a lost
// notification only delays work, never loses it.
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import type { Store } from '../store/index.js';

const CHANNEL = 'folio_documents';

export class Wakeup {
  private readonly local = new EventEmitter();
  private listener: pg.PoolClient | null = null;
  private closed = false;
  /**
   * Wake-ups so far. A worker reads it before it looks for work and waits only if it has not
   * moved since: a notification that lands while the claim query runs (the new document not yet
   * visible to it) would otherwise be lost, and the worker sleep until its next poll.
   */
  private count = 0;

  constructor(private readonly store: Store) {
    this.local.setMaxListeners(100);
    this.local.on('wake', () => this.count++);
  }

  /** The wake-ups seen so far, to pass to `wait` after looking for work. */
  get seen(): number {
    return this.count;
  }

  /** Starts listening for other processes' notifications (PostgreSQL only). */
  async listen(): Promise<void> {
    if (!this.store.pool || this.listener || this.closed) return;
    try {
      const client = await this.store.pool.connect();
      client.on('notification', () => this.local.emit('wake'));
      client.on('error', () => this.reconnect(client));
      await client.query(`LISTEN ${CHANNEL}`);
      this.listener = client;
    } catch {
      setTimeout(() => void this.listen(), 1000).unref();
    }
  }

  private reconnect(client: pg.PoolClient): void {
    if (this.listener === client) this.listener = null;
    client.release(true);
    if (!this.closed) setTimeout(() => void this.listen(), 500).unref();
  }

  /** Tells workers here and elsewhere that there may be new work. */
  async notify(): Promise<void> {
    this.local.emit('wake');
    if (this.store.pool) await this.store.pool.query(`NOTIFY ${CHANNEL}`).catch(() => undefined);
  }

  /** Resolves on the next wake-up or after `ms`, whichever comes first; at once if one came after `since` (a `seen` value). */
  wait(ms: number, since?: number): Promise<void> {
    if (since !== undefined && this.count !== since) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.local.off('wake', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.local.once('wake', done);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.local.emit('wake');
    if (this.listener) {
      const client = this.listener;
      this.listener = null;
      await client.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
      client.release();
    }
  }
}
