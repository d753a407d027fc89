// What a model provider is given and what it gives back. Every provider (the built-in engine, the
// Anthropic Messages API, OpenAI-compatible servers) reads the same task and answers in the same
// shape; grounding, validation and billing happen after, the same way for all of them.
import type { Tier } from '../../domain/model.js';
import type { PageOutputs } from '../../page-outputs/shapes.js';

export const BUILTIN_FIELDS = ['title', 'document_type', 'summary', 'dates', 'parties', 'amounts', 'key_facts'] as const;
export type BuiltinField = (typeof BUILTIN_FIELDS)[number];

/** A JSON Schema as the client sent it. */
export type JsonSchema = Record<string, unknown>;

export interface ModelPicture {
  page: number;
  mediaType: string;
  width: number;
  height: number;
  bytes: Uint8Array;
  caption: string | null;
}

export interface Question {
  question: string;
  /** The answer must follow this schema (queries made with `schema`); else a string. */
  schema: JsonSchema | null;
}

export interface ModelTask {
  tier: Tier;
  /** The pages this request reads, in order (the whole document, or one page with per_page). */
  pages: PageOutputs[];
  fields: BuiltinField[];
  schema: JsonSchema | null;
  instructions: string | null;
  questions: Question[];
  pictures: ModelPicture[];
  maxOutputTokens: number;
  signal: AbortSignal;
}

/** A cited value: `path` into data as `data.amounts[0].amount`. */
export interface RawCitation {
  path: string;
  page: number;
  quote: string;
  confidence: number;
}

export interface RawAnswer {
  /** A string, or an object following the question's schema. */
  answer: unknown;
  not_found: boolean;
  confidence: number;
  citations: { page: number; quote: string }[];
}

export interface ModelReply {
  data: Record<string, unknown>;
  citations: RawCitation[];
  /** One per question, in order. */
  answers: RawAnswer[];
  usage: { inputTokens: number; outputTokens: number };
}

export interface ModelProvider {
  /** `builtin`, `anthropic` or `openai`. */
  readonly name: string;
  /** Whether the provider reads pictures (and is billed for them). */
  readonly readsPictures: boolean;
  run(task: ModelTask): Promise<ModelReply>;
}

/** The provider could not give an answer (after its retries); the run fails, nothing is charged. */
export class ModelUnavailable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ModelUnavailable';
  }
}
