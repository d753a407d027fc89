// The model provider documents and queries are read with. Only the built-in engine exists so far;
// it is also what test keys use (DECISIONS D3), since it is deterministic and quotes only words
// of the page. Vendor providers (Anthropic, OpenAI-compatible servers) will be chosen here by
// configuration.
import { BuiltinProvider } from './builtin/index.js';
import type { ModelProvider } from './types.js';

/** The version in `model.used` (`svc-swift-<n>`); it rises when a better model replaces the old. */
export const MODEL_VERSION = 1;

let provider: ModelProvider | null = null;

export function modelProvider(): ModelProvider {
  provider ??= new BuiltinProvider();
  return provider;
}
