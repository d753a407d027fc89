// The embedding provider pages are embedded with, chosen by configuration. Test keys always get the
// built-in embedding (docs/decisions.md#test-mode): deterministic and free.
import type { Mode } from '../../domain/states.js';
import { BuiltinEmbedding } from './builtin.js';
import { OpenAiEmbedding } from './openai.js';
import type { EmbeddingSettings } from './settings.js';
import type { EmbeddingProvider } from './types.js';

const builtin = new BuiltinEmbedding();

export function embeddingProvider(settings: EmbeddingSettings, mode: Mode): EmbeddingProvider {
  if (mode === 'test' || settings.provider === 'builtin') return builtin;
  return new OpenAiEmbedding(settings);
}
