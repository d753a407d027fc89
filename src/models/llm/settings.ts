// How the model provider is reached, from the environment (README "The model layer").
import type { Tier } from '../../domain/model.js';

export interface ModelSettings {
  /** `builtin` needs nothing; `openai` speaks OpenAI-compatible chat completions; `anthropic` the Messages API. */
  provider: 'builtin' | 'openai' | 'anthropic';
  /** Without a trailing slash: `https://api.openai.com/v1`, `http://localhost:11434/v1`, `https://api.anthropic.com`. */
  baseUrl: string;
  apiKey: string;
  /** The provider's model name for each tier. */
  models: Record<Tier, string>;
  /** One request's time limit. */
  timeoutMs: number;
  /** Further attempts after a rate limit, a timeout, a server error or a dropped connection. */
  retries: number;
  /** The first wait between attempts; it doubles each time unless the provider says how long. */
  retryBaseMs: number;
}
