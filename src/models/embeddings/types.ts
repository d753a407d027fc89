// What an embedding provider is given and gives back. Every provider (the built-in hashed n-gram
// embedding, OpenAI-compatible `/embeddings` servers) embeds a batch of page texts into vectors of
// the chosen length; token counting and billing happen after, the same way for all of them.

export type EmbeddingDimensions = 1024 | 512 | 256;

export interface EmbeddingProvider {
  /** `builtin` or `openai`. */
  readonly name: string;
  /** The model named on `Page.embedding.model` and on the usage record. */
  readonly model: string;
  /** One unit-length vector per text, in order, each `dimensions` long. */
  embed(texts: readonly string[], dimensions: EmbeddingDimensions, signal: AbortSignal): Promise<Float32Array[]>;
}

/** The provider could not embed (after its retries); the document fails with embedding_failed. */
export class EmbeddingUnavailable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'EmbeddingUnavailable';
  }
}
