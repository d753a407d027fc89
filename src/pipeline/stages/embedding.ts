// `embedding` (only with `embeddings`): one vector per page from up to the first 20,000 bytes of
// its text (docs/api.md EmbeddingOptions), stored with the page and read through
// `GET /documents/{id}/pages?include=embeddings`; and one vector per chunk of the default cut
// (`GET /documents/{id}/chunks?include=embeddings`). The tokens read, pages' and chunks', are
// charged as `embedding.input`. A provider that cannot embed fails the document with
// embedding_failed. The stored pages are read once, a run of pages at a time: each run's page
// vectors are written, and the chunks it completes embedded, before the next run is read, so a
// long document's texts and vectors are never held whole.
import { embeddingCharge, embeddingInput, embeddingTokens, packEmbedding } from '../../domain/embedding.js';
import { Chunker, chunkablePage, type Chunk } from '../../page-outputs/chunks.js';
import { embeddingProvider } from '../../models/embeddings/index.js';
import { EmbeddingUnavailable, type EmbeddingDimensions, type EmbeddingProvider } from '../../models/embeddings/types.js';
import { DocumentFailure, type RunContext } from '../context.js';
import { defaultCut, storeChunkEmbeddings, storedContent, storeEmbeddings } from '../page-rows.js';

/** Chunks embedded in one call to the provider. */
const CHUNKS_PER_CALL = 64;

export async function embedDocument(ctx: RunContext): Promise<void> {
  const options = ctx.options.embeddings;
  if (options === false) return;
  const dimensions = options.dimensions as EmbeddingDimensions;
  const provider = embeddingProvider(ctx.config.embedding, ctx.doc.mode);
  const pack = (vector: Float32Array) => packEmbedding({ model: provider.model, dimensions, vector });
  let tokens = 0;
  const embedChunks = async (completed: Chunk[]) => {
    for (let start = 0; start < completed.length; start += CHUNKS_PER_CALL) {
      const chunks = completed.slice(start, start + CHUNKS_PER_CALL);
      const inputs = chunks.map((chunk) => embeddingInput(chunk.text));
      const vectors = await embed(provider, inputs, dimensions, ctx.signal);
      tokens += embeddingTokens(inputs);
      await storeChunkEmbeddings(ctx, chunks.map((chunk, i) => ({ chunk, embedding: pack(vectors[i]) })));
    }
  };
  const chunker = new Chunker(defaultCut(ctx));
  for await (const pages of storedContent(ctx)) {
    const inputs = pages.map((page) => embeddingInput(page.text));
    const vectors = await embed(provider, inputs, dimensions, ctx.signal);
    tokens += embeddingTokens(inputs);
    await storeEmbeddings(ctx, pages.map((page, i) => ({ page: page.page_number, embedding: pack(vectors[i]) })));
    await embedChunks(pages.flatMap((page) => chunker.add(chunkablePage(page))));
  }
  await embedChunks(chunker.finish());
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
