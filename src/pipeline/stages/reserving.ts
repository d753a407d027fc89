// `reserving`: the credit hold is re-sized to the real page count and the tokens the embedding
// reads, its pages' and its chunks' (and, when the model runs, to the document's real length in tokens). A URL document is estimated here for the first time; a
// document whose estimate the credit cannot cover fails.
import { estimateMicro } from '../../domain/billing.js';
import { holdCredit, releaseHeld } from '../../store/documents.js';
import { DocumentFailure, HoldLost, type RunContext } from '../context.js';
import { modelRuns } from '../../domain/options.js';
import { lengthTokens } from '../../domain/model.js';
import { documentTextLength } from '../../page-outputs/document-text.js';
import { documentPictureTokens } from './extracting.js';
import { embeddingInput, embeddingTokens } from '../../domain/embedding.js';
import { storedChunks } from '../page-rows.js';

/** The tokens the chunks' vectors will read: the chunks are cut from the stored pages, as at `embedding`. */
async function chunkTokens(ctx: RunContext): Promise<number> {
  let tokens = 0;
  for await (const chunks of storedChunks(ctx)) tokens += embeddingTokens(chunks.map((chunk) => embeddingInput(chunk.text)));
  return tokens;
}

export async function reserveCredit(ctx: RunContext): Promise<void> {
  const { doc, store } = ctx;
  // The pages' outputs are in the store; their summaries know the lengths the model and the embedding read.
  const pages = ctx.pages!;
  const tokens = modelRuns(ctx.options) ? lengthTokens(documentTextLength(pages)) + documentPictureTokens(ctx) : undefined;
  const embedded = ctx.options.embeddings === false ? 0 : pages.reduce((sum, page) => sum + page.embeddingTokens, 0) + (await chunkTokens(ctx));
  // The pages read: a page selection's, not the file's count.
  const needed = estimateMicro(pages.length, ctx.options, ctx.config.prices, doc.mode, tokens, embedded);
  const firstEstimate = doc.source_url !== null && doc.estimated_micro === 0;
  const covered = await store.writeTransaction(async (tx) => {
    const delta = needed - doc.hold_micro;
    if (delta > 0 && !(await holdCredit(tx, doc.workspace_id, delta))) return false;
    if (delta < 0) await releaseHeld(tx, doc.workspace_id, -delta);
    const changes = { hold_micro: needed, ...(firstEstimate ? { estimated_micro: needed } : {}) };
    if (!(await ctx.hold.update(tx, changes))) throw new HoldLost();
    Object.assign(doc, changes);
    return true;
  });
  if (!covered) {
    throw new DocumentFailure(
      'insufficient_credits',
      `The document's ${pages.length} pages${tokens === undefined ? '' : ` and the model's tokens`} are estimated at ${needed} micro-USD, more than the available credit.`,
    );
  }
}
