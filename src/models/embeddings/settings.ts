// How the embedding provider is reached, from the environment (README "Page embeddings").
export interface EmbeddingSettings {
  /** `builtin` needs nothing; `openai` speaks the OpenAI-compatible `/embeddings` endpoint. */
  provider: 'builtin' | 'openai';
  /** Without a trailing slash, such as `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string;
  /** The server's model name, also shown on `Page.embedding.model`. */
  model: string;
  timeoutMs: number;
  retries: number;
  retryBaseMs: number;
}
