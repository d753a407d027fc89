// `embedding` (only with `embeddings`): one vector per page from up to the first 20,000 bytes of
// its text (docs/api.md EmbeddingOptions), stored with the page and read through
// `GET /documents/{id}/pages?include=embeddings`; then one vector per chunk of the default cut
// (`GET /documents/{id}/chunks?include=embeddings`). The tokens read, pages' and chunks', are
// charged as `embedding.input`. A provider that cannot embed fails the document with
// embedding_failed. Texts are read back from the stored pages a run of pages at a time, and each
// run's vectors written straight away, so a long document's texts and vectors are never held whole.
import { embeddingCharge, embeddingInput, embeddingTokens, packEmbedding } from '../../domain/embedding.js';
import { embeddingProvider } from '../../models/embeddings/index.js';
import { EmbeddingUnavailable, type EmbeddingDimensions, type EmbeddingProvider } from '../../models/embeddings/types.js';
import { DocumentFailure, type RunContext } from '../context.js';
import { storeChunkEmbeddings, storedChunks, storeEmbeddings, storedTexts } from '../page-rows.js';

/** Chunks embedded in one call to the provider. */
const CHUNKS_PER_CALL = 64;

export async function embedDocument(ctx: RunContext): Promise<void> {
  const options = ctx.options.embeddings;
  if (options === false) return;
  const dimensions = options.dimensions as EmbeddingDimensions;
  const provider = embeddingProvider(ctx.config.embedding, ctx.doc.mode);
  const pack = (vector: Float32Array) => packEmbedding({ model: provider.model, dimensions, vector });
  let tokens = 0;
  for await (const pages of storedTexts(ctx)) {
    const inputs = pages.map((page) => embeddingInput(page.text));
    const vectors = await embed(provider, inputs, dimensions, ctx.signal);
    tokens += embeddingTokens(inputs);
    await storeEmbeddings(ctx, pages.map((page, i) => ({ page: page.page_number, embedding: pack(vectors[i]) })));
  }
  for await (const completed of storedChunks(ctx)) {
    for (let start = 0; start < completed.length; start += CHUNKS_PER_CALL) {
      const chunks = completed.slice(start, start + CHUNKS_PER_CALL);
      const inputs = chunks.map((chunk) => embeddingInput(chunk.text));
      const vectors = await embed(provider, inputs, dimensions, ctx.signal);
      tokens += embeddingTokens(inputs);
      await storeChunkEmbeddings(ctx, chunks.map((chunk, i) => ({ chunk, embedding: pack(vectors[i]) })));
    }
  }
  ctx.embeddings = { charge: embeddingCharge(tokens, provider.model, ctx.config.prices, ctx.doc.mode) };
}

/** The provider's vectors for `inputs`; a provider that cannot embed fails the document. */
async function embed(provider: EmbeddingProvider, inputs: string[], dimensions: EmbeddingDimensions, signal: AbortSignal): Promise<Float32Array[]> {
  try {
    return await provider.embed(inputs, dimensions, signal);
  } catch (error) {
    if (error instanceof EmbeddingUnavailable) throw new DocumentFailure('embedding_failed', error.message, { cause: error.cause });
    throw error;
  }
}
