// The model provider documents and queries are read with, chosen by configuration (README "The
// model layer"). Test keys always get the built-in engine (docs/decisions.md#test-mode): it is deterministic,
// free and quotes only words of the page, so the same document gives byte-identical results.
import type { Mode } from '../../domain/states.js';
import { AnthropicProvider } from './anthropic.js';
import { BuiltinProvider } from './builtin/index.js';
import { OpenAiProvider } from './openai.js';
import type { ModelSettings } from './settings.js';
import type { ModelProvider } from './types.js';

/** The version in `model.used` (`svc-swift-<n>`); it rises when a better model replaces the old. */
export const MODEL_VERSION = 1;

const builtin = new BuiltinProvider();

export function modelProvider(settings: ModelSettings, mode: Mode): ModelProvider {
  if (mode === 'test') return builtin;
  switch (settings.provider) {
    case 'openai':
      return new OpenAiProvider(settings);
    case 'anthropic':
      return new AnthropicProvider(settings);
    default:
      return builtin;
  }
}
