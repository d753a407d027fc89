// Rules of page embeddings (docs/api.md EmbeddingOptions, Limits; docs/decisions.md#money): what text a page's
// vector is made from, how its tokens are counted and what they cost.
import { textTokens } from './model.js';
import { amountMicro, type Charge, type PriceTable } from './prices.js';
import type { Mode } from './states.js';

/** docs/api.md Limits: a page's vector is built from up to the first 20,000 bytes of its text. */
export const EMBEDDING_INPUT_BYTES = 20_000;

/** Most text tokens a page's embedding can read (four characters a token, one byte at least each). */
export const MAX_EMBEDDING_TOKENS_PER_PAGE = Math.ceil(EMBEDDING_INPUT_BYTES / 4);

/** The first 20,000 bytes of a page's text in UTF-8, never cutting a character in two. */
export function embeddingInput(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= EMBEDDING_INPUT_BYTES) return text;
  let end = EMBEDDING_INPUT_BYTES;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

export function embeddingTokens(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + textTokens(text), 0);
}

export function embeddingCharge(tokens: number, model: string, prices: PriceTable, mode: Mode): Charge {
  const price = prices['embedding.input'];
  return {
    stage: 'embedding',
    sku: 'embedding.input',
    model,
    quantity: tokens,
    unit_price_micro: price.unit_price_micro,
    unit_divisor: price.unit_divisor,
    amount_micro: mode === 'test' ? 0 : amountMicro(tokens, price),
  };
}

/** A page's vector (docs/api.md Page.embedding). */
export interface PageEmbedding {
  model: string;
  dimensions: number;
  vector: Float32Array;
}

/** A vector as stored: float32 in the machine's order (little-endian on x86 and ARM), base64, a quarter of the size of JSON numbers. */
export function packEmbedding(embedding: PageEmbedding): string {
  const bytes = Buffer.from(embedding.vector.buffer, embedding.vector.byteOffset, embedding.vector.byteLength);
  return JSON.stringify({ model: embedding.model, dimensions: embedding.dimensions, vector_f32le: bytes.toString('base64') });
}

/** A stored vector as served: numbers rounded to float32 precision's shortest digits. */
export function unpackEmbedding(stored: string): { model: string; dimensions: number; vector: number[] } {
  const { model, dimensions, vector_f32le } = JSON.parse(stored) as { model: string; dimensions: number; vector_f32le: string };
  const bytes = Buffer.from(vector_f32le, 'base64');
  const floats = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return { model, dimensions, vector: Array.from(floats, (v) => Number(v.toPrecision(7))) };
}

/** What a document's page vectors cost, once the embedding stage stored them with its pages. */
export interface EmbeddingRun {
  charge: Charge;
}
