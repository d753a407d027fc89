// `embedding` (only with `embeddings`): one vector per page from up to the first 20,000 bytes of
// its text (docs/api.md EmbeddingOptions), stored with the page and read only through
// `GET /documents/{id}/pages?include=embeddings`; the tokens read are charged as
// `embedding.input`. A provider that cannot embed fails the document with embedding_failed.
import { embeddingCharge, embeddingInput, embeddingTokens } from '../../domain/embedding.js';
import { embeddingProvider } from '../../models/embeddings/index.js';
import { EmbeddingUnavailable, type EmbeddingDimensions } from '../../models/embeddings/types.js';
import { DocumentFailure, documentOutputs, type RunContext } from '../context.js';

export async function embedDocument(ctx: RunContext): Promise<void> {
  const options = ctx.options.embeddings;
  if (options === false) return;
  const dimensions = options.dimensions as EmbeddingDimensions;
  const outputs = documentOutputs(ctx);
  const inputs = outputs.map((page) => embeddingInput(page.text));
  const provider = embeddingProvider(ctx.config.embedding, ctx.doc.mode);
  let vectors: Float32Array[];
  try {
    vectors = await provider.embed(inputs, dimensions, ctx.signal);
  } catch (error) {
    if (error instanceof EmbeddingUnavailable) throw new DocumentFailure('embedding_failed', error.message, { cause: error.cause });
    throw error;
  }
  ctx.embeddings = {
    pages: new Map(outputs.map((page, i) => [page.page, { model: provider.model, dimensions, vector: vectors[i] }])),
    charge: embeddingCharge(embeddingTokens(inputs), provider.model, ctx.config.prices, ctx.doc.mode),
  };
}
