// Settling a document's money in one transaction: the charges move from the balance into usage
// records, and the document's whole hold is released. A charge is capped at what the workspace
// can pay, so the balance never goes below zero (balance + holds + charges stay conserved).
import { newId } from '../domain/ids.js';
import type { Charge } from '../domain/billing.js';
import type { Tx } from './database.js';
import { debitBalance, insertUsage, releaseHeld, type DocumentRow } from './documents.js';
import * as clock from '../domain/clock.js';

/**
 * `doc.hold_micro` is the hold being settled: the document's, or with `queryId` a query's on that
 * document, whose usage records then carry the query's id.
 */
export async function settleDocument(tx: Tx, doc: Pick<DocumentRow, 'id' | 'workspace_id' | 'mode' | 'hold_micro'>, charges: Charge[], queryId: string | null = null): Promise<number> {
  const workspace = await tx
    .selectFrom('workspaces')
    .select(['balance_micro', 'held_micro'])
    .where('id', '=', doc.workspace_id)
    .executeTakeFirstOrThrow();
  let payable = Math.max(0, workspace.balance_micro - (workspace.held_micro - doc.hold_micro));
  const now = clock.now();
  const rows = charges.map((charge) => {
    const amount = Math.min(charge.amount_micro, payable);
    payable -= amount;
    return { id: newId('usg'), workspace_id: doc.workspace_id, mode: doc.mode, document_id: doc.id, query_id: queryId, created_at: now, ...charge, amount_micro: amount };
  });
  const total = rows.reduce((sum, row) => sum + row.amount_micro, 0);
  await releaseHeld(tx, doc.workspace_id, doc.hold_micro);
  await debitBalance(tx, doc.workspace_id, total);
  await insertUsage(tx, rows);
  return total;
}
