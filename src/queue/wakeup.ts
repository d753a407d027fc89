// Wake-ups for idle workers: an in-process signal when the API and workers share a process, and
// across processes PostgreSQL LISTEN/NOTIFY, or on SQLite a write to a file beside the database
// (store/file-signal.ts). Workers still poll as a fallback, so a lost notification only delays
// work, never loses it.
import { EventEmitter } from 'node:events';
import { ChannelListener } from '../store/channel-listener.js';
import { FileSignal } from '../store/file-signal.js';
import type { Store } from '../store/index.js';

const CHANNEL = 'folio_documents';

export class Wakeup {
  private readonly local = new EventEmitter();
  private readonly listener: ChannelListener;
  private readonly fileSignal: FileSignal | null;
  /**
   * Wake-ups so far. A worker reads it before it looks for work and waits only if it has not
   * moved since: a notification that lands while the claim query runs (the new document not yet
   * visible to it) would otherwise be lost, and the worker sleep until its next poll.
   */
  private count = 0;

  constructor(private readonly store: Store) {
    this.local.setMaxListeners(100);
    this.local.on('wake', () => this.count++);
    this.listener = new ChannelListener(store, CHANNEL, { notified: () => this.local.emit('wake') });
    this.fileSignal = store.sqliteFile ? new FileSignal(`${store.sqliteFile}-wakeup`, () => this.local.emit('wake')) : null;
  }

  /** The wake-ups seen so far, to pass to `wait` after looking for work. */
  get seen(): number {
    return this.count;
  }

  /** Starts listening for other processes' notifications. */
  async listen(): Promise<void> {
    await Promise.all([this.listener.listen(), this.fileSignal?.listen()]);
  }

  /** Tells workers here and elsewhere that there may be new work. */
  async notify(): Promise<void> {
    this.local.emit('wake');
    if (this.store.pool) await this.store.pool.query(`NOTIFY ${CHANNEL}`).catch(() => undefined);
    // Its own watch hears this too: one more look for work, which finds none or the same.
    else await this.fileSignal?.send();
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
    this.local.emit('wake');
    this.fileSignal?.close();
    await this.listener.close();
  }
}
