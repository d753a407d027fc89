// `reserving`: the credit hold is re-sized to the real page count. A URL document is estimated
// here for the first time; a document whose estimate the credit cannot cover fails.
import { estimateMicro } from '../../domain/billing.js';
import { holdCredit, releaseHeld } from '../../store/documents.js';
import { updateHeld } from '../../queue/leases.js';
import { DocumentFailure, LeaseLost, type RunContext } from '../context.js';

export async function reserveCredit(ctx: RunContext): Promise<void> {
  const { doc, store } = ctx;
  const needed = estimateMicro(doc.page_count, ctx.options, ctx.config.prices, doc.mode);
  const firstEstimate = doc.source_url !== null && doc.estimated_micro === 0;
  const covered = await store.writeTransaction(async (tx) => {
    const delta = needed - doc.hold_micro;
    if (delta > 0 && !(await holdCredit(tx, doc.workspace_id, delta))) return false;
    if (delta < 0) await releaseHeld(tx, doc.workspace_id, -delta);
    const changes = { hold_micro: needed, ...(firstEstimate ? { estimated_micro: needed } : {}) };
    if (!(await updateHeld(tx, ctx.lease, changes))) throw new LeaseLost();
    Object.assign(doc, changes);
    return true;
  });
  if (!covered) {
    throw new DocumentFailure(
      'insufficient_credits',
      `The document's ${doc.page_count} pages cost ${needed} micro-USD, more than the available credit.`,
    );
  }
}
