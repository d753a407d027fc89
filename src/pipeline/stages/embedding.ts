// `embedding` (only with `embeddings`): one vector per page from up to the first 20,000 bytes of
// its text (docs/api.md EmbeddingOptions), stored with the page and read only through
// `GET /documents/{id}/pages?include=embeddings`; the tokens read are charged as
// `embedding.input`. A provider that cannot embed fails the document with embedding_failed. The
// texts are read back from the stored pages a run of pages at a time, and each run's vectors
// written to them, so a long document's texts and vectors are never held whole.
import { embeddingCharge, embeddingInput, embeddingTokens, packEmbedding } from '../../domain/embedding.js';
import { embeddingProvider } from '../../models/embeddings/index.js';
import { EmbeddingUnavailable, type EmbeddingDimensions } from '../../models/embeddings/types.js';
import { DocumentFailure, type RunContext } from '../context.js';
import { storeEmbeddings, storedTexts } from '../page-rows.js';

export async function embedDocument(ctx: RunContext): Promise<void> {
  const options = ctx.options.embeddings;
  if (options === false) return;
  const dimensions = options.dimensions as EmbeddingDimensions;
  const provider = embeddingProvider(ctx.config.embedding, ctx.doc.mode);
  let tokens = 0;
  for await (const pages of storedTexts(ctx)) {
    const inputs = pages.map((page) => embeddingInput(page.text));
    let vectors: Float32Array[];
    try {
      vectors = await provider.embed(inputs, dimensions, ctx.signal);
    } catch (error) {
      if (error instanceof EmbeddingUnavailable) throw new DocumentFailure('embedding_failed', error.message, { cause: error.cause });
      throw error;
    }
    tokens += embeddingTokens(inputs);
    await storeEmbeddings(
      ctx,
      pages.map((page, i) => ({ page: page.page_number, embedding: packEmbedding({ model: provider.model, dimensions, vector: vectors[i] }) })),
    );
  }
  ctx.embeddings = { charge: embeddingCharge(tokens, provider.model, ctx.config.prices, ctx.doc.mode) };
}
