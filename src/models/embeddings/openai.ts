// OpenAI-compatible embeddings (`POST {base}/embeddings` with `dimensions`), which OpenAI serves
// and so do local embedding servers (Ollama, vLLM, llama.cpp's server, text-embeddings-inference).
// Pages go in batches; a server that answers with vectors of another length (one that ignores
// `dimensions`) fails the document rather than mixing lengths that cannot be compared.
import { postJson } from '../llm/http.js';
import type { EmbeddingSettings } from './settings.js';
import { EmbeddingUnavailable, type EmbeddingDimensions, type EmbeddingProvider } from './types.js';

/** Pages per request: well under OpenAI's 2,048 inputs and 300k tokens (20,000 bytes a page). */
const BATCH = 32;

interface EmbeddingsReply {
  data?: { index?: number; embedding?: number[] }[];
}

export class OpenAiEmbedding implements EmbeddingProvider {
  readonly name = 'openai';
  readonly model: string;

  constructor(private readonly settings: EmbeddingSettings) {
    this.model = settings.model;
  }

  async embed(texts: readonly string[], dimensions: EmbeddingDimensions, signal: AbortSignal): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += BATCH) {
      const batch = texts.slice(start, start + BATCH);
      vectors.push(...(await this.request(batch, dimensions, signal)));
    }
    return vectors;
  }

  private async request(input: readonly string[], dimensions: EmbeddingDimensions, signal: AbortSignal): Promise<Float32Array[]> {
    const headers: Record<string, string> = {};
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    const body = (await postJson(
      {
        url: `${this.settings.baseUrl}/embeddings`,
        headers,
        vendor: 'The embedding server',
        signal,
        failure: (problem, options) => new EmbeddingUnavailable(`The embedding provider failed: ${problem}.`, options),
        // An empty page is sent as one space: servers refuse empty strings.
        body: { model: this.settings.model, input: input.map((t) => t || ' '), dimensions, encoding_format: 'float' },
      },
      this.settings,
    )) as EmbeddingsReply;
    const data = Array.isArray(body.data) ? body.data : [];
    if (data.length !== input.length) throw new EmbeddingUnavailable(`The embedding server returned ${data.length} vectors for ${input.length} pages.`);
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return ordered.map((item) => {
      const vector = item.embedding;
      if (!Array.isArray(vector) || vector.length !== dimensions || !vector.every((v) => typeof v === 'number' && Number.isFinite(v))) {
        throw new EmbeddingUnavailable(
          `The embedding server returned vectors of ${Array.isArray(vector) ? vector.length : 0} numbers, not the ${dimensions} asked for; it may not support the dimensions parameter.`,
        );
      }
      return Float32Array.from(vector);
    });
  }
}
