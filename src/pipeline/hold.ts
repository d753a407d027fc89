// A run's hold on the row it works on (a document or a question), handed to the run by the
// queue's runner. A stage writes its row only through the hold and never learns how holding is
// done (leases, tokens and their expiry are the queue's), as a Graphile Worker task knows nothing
// of the lock on its job.
import type { Updateable } from 'kysely';
import type { Tx } from '../store/database.js';
import type { DocumentsTable, QueriesTable } from '../store/schema.js';

export interface RowHold<Changes> {
  /** Writes `changes` to the row while the hold lasts; false once it is gone. */
  update(db: Tx, changes: Changes): Promise<boolean>;
  /** Whether the hold still lasts; on PostgreSQL it also locks the row until the transaction ends. */
  check(db: Tx): Promise<boolean>;
  /** Writes the row's final state (completed or failed) and ends the hold, with the webhook event it sets off in the same transaction; false once it is gone. */
  finish(db: Tx, changes: Changes): Promise<boolean>;
}

export type DocumentHold = RowHold<Updateable<DocumentsTable>>;
export type QueryHold = RowHold<Updateable<QueriesTable>>;
