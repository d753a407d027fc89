// Settling a document's money in one transaction: the charges move from the balance into usage
// records, and the document's whole hold is released. The workspace pays at most its balance
// less the other holds; a charge beyond that is cut to the whole units it pays for
// (domain/billing.ts payableCharges), so every record obeys the formula of docs/decisions.md#money, the balance never goes
// below zero, and balance + holds + charges stay conserved.
import { newId } from '../domain/ids.js';
import { payableCharges } from '../domain/billing.js';
import type { Charge } from '../domain/prices.js';
import type { Tx } from './database.js';
import { debitBalance, insertUsage, releaseHeld, type DocumentRow } from './documents.js';
import * as clock from '../domain/clock.js';

/**
 * `doc.hold_micro` is the hold being settled: the document's, or with `queryId` a query's on that
 * document, whose usage records then carry the query's id.
 */
export async function settleDocument(tx: Tx, doc: Pick<DocumentRow, 'id' | 'workspace_id' | 'mode' | 'hold_micro'>, charges: Charge[], queryId: string | null = null): Promise<number> {
  // The balance is read by the statement that releases the hold, which locks the workspace row on
  // PostgreSQL: a settlement running at the same time cannot spend the same credit (SQLite's write
  // transactions are serial already).
  const workspace = await releaseHeld(tx, doc.workspace_id, doc.hold_micro);
  const payable = workspace.balance_micro - workspace.held_micro;
  const now = clock.now();
  const rows = payableCharges(charges, payable).map((charge) => ({
    id: newId('usg'),
    workspace_id: doc.workspace_id,
    mode: doc.mode,
    document_id: doc.id,
    query_id: queryId,
    created_at: now,
    ...charge,
  }));
  const total = rows.reduce((sum, row) => sum + row.amount_micro, 0);
  await debitBalance(tx, doc.workspace_id, total);
  await insertUsage(tx, rows);
  return total;
}
