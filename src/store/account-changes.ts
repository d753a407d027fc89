// Changes to who may call the API (a key revoked, a workspace suspended or resumed), announced
// to every process on PostgreSQL with NOTIFY at commit, so a process that keeps what it learned
// about keys in memory forgets it at once. SQLite has one API process, which reads keys afresh.
import { PostgresAdapter, sql } from 'kysely';
import { ChannelListener } from './channel-listener.js';
import type { Tx } from './database.js';
import type { Store } from './index.js';

const CHANNEL = 'folio_accounts';

/** Tells every process, when the transaction commits, that keys or workspaces changed. */
export async function announceAccountChange(db: Tx): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`SELECT pg_notify(${CHANNEL}, '')`.execute(db);
}

/**
 * Calls `changed` on every announced change, and whenever the listening connection is made or
 * lost (a change may have gone unheard meanwhile).
 */
export function accountChanges(store: Store, changed: () => void): ChannelListener {
  return new ChannelListener(store, CHANNEL, { notified: changed, gap: changed });
}
