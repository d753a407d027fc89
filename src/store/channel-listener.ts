// One PostgreSQL connection held open to LISTEN on a channel, made again when it is lost. Workers'
// wake-ups (queue/wakeup.ts) and account changes (store/account-changes.ts) both listen this way.
import type pg from 'pg';
import type { Store } from './index.js';

export interface ChannelHandlers {
  /** A notification on the channel. */
  notified(): void;
  /** The connection was made or lost: notifications may have been missed meanwhile. */
  gap?(): void;
}

export class ChannelListener {
  private client: pg.PoolClient | null = null;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly channel: string,
    private readonly handlers: ChannelHandlers,
  ) {}

  /** Whether notifications are being heard now. */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Starts listening (PostgreSQL only); retries every second until it can. */
  async listen(): Promise<void> {
    if (!this.store.pool || this.client || this.closed) return;
    try {
      const client = await this.store.pool.connect();
      client.on('notification', () => this.handlers.notified());
      client.on('error', () => this.lost(client));
      await client.query(`LISTEN ${this.channel}`);
      this.client = client;
      this.handlers.gap?.();
    } catch {
      setTimeout(() => void this.listen(), 1000).unref();
    }
  }

  private lost(client: pg.PoolClient): void {
    if (this.client === client) this.client = null;
    this.handlers.gap?.();
    client.release(true);
    if (!this.closed) setTimeout(() => void this.listen(), 500).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.client) {
      const client = this.client;
      this.client = null;
      await client.query(`UNLISTEN ${this.channel}`).catch(() => undefined);
      client.release();
    }
  }
}
