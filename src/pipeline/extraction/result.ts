// From a provider's reply to docs/api.md's ExtractionResult: every value is matched with its citation
// and kept only when the quote is words of the cited page and bears the value out; everything
// else is left out and counted in `warnings`. Only requested fields and schema properties stay,
// and the data must then follow the schema (its `required` aside, since a value the document
// does not state is left out rather than invented), else the run fails with schema_mismatch.
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { writtenDates } from '../../models/llm/builtin/dates.js';
import type { BuiltinField, JsonSchema, ModelReply, RawAnswer, RawCitation } from '../../models/llm/types.js';
import { answerSupport, quoteSupports, type PageTexts } from './grounding.js';
import type { FractionBox as Box } from '../../page-outputs/shapes.js';
import type { Charge } from '../../domain/prices.js';
import { failedCheckWords } from '../../domain/validation-words.js';

const Ajv = AjvModule.default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;

export interface Citation {
  path: string;
  page: number;
  quote: string;
  confidence: number;
  bbox?: Box;
}

export interface GroundedData {
  data: Record<string, unknown>;
  citations: Citation[];
  /** Values left out because their quotes did not verify or did not bear them out. */
  dropped: number;
}

export interface GroundedAnswer {
  answer: unknown;
  not_found: boolean;
  confidence: number;
  citations: { page: number; quote: string; bbox?: Box }[];
}

/** Shapes of docs/api.md's built-in fields, checked like a client's schema. */
const BUILTIN_SHAPES: Record<BuiltinField, JsonSchema> = {
  title: { type: 'string' },
  document_type: { type: 'string' },
  summary: { type: 'string' },
  dates: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, date: { type: 'string' } } } },
  parties: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, role: { type: 'string' } } } },
  amounts: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, amount: { type: 'number' }, currency: { type: 'string' } } } },
  key_facts: { type: 'array', items: { type: 'string' } },
};

const clamp01 = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? Math.round(Math.min(1, Math.max(0, n)) * 100) / 100 : 0.5);

/** The schema the result's data must follow: built-in field shapes plus the client's properties. */
export function resultSchema(fields: readonly BuiltinField[], schema: JsonSchema | null): JsonSchema {
  const properties: Record<string, unknown> = { ...((schema?.properties as Record<string, unknown>) ?? {}) };
  for (const field of fields) properties[field] = BUILTIN_SHAPES[field];
  const out: JsonSchema = { ...(schema ?? {}), type: 'object', properties };
  delete out.required;
  if (!schema) out.additionalProperties = false;
  return out;
}

/** A schema without `required` anywhere in it: values the document does not state are left out. */
export function withoutRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' && Array.isArray(value)) continue;
    if (key === 'minItems' || key === 'minProperties') continue;
    out[key] = withoutRequired(value);
  }
  return out;
}

/** Keeps the values whose citations verify; re-numbers arrays after left-out items. */
export function groundData(reply: Pick<ModelReply, 'data' | 'citations'>, allowed: Set<string> | null, texts: PageTexts): GroundedData {
  const byPath = new Map<string, RawCitation[]>();
  for (const citation of reply.citations ?? []) {
    if (!citation || typeof citation.path !== 'string') continue;
    const path = normalizePath(citation.path);
    const list = byPath.get(path) ?? [];
    list.push(citation);
    byPath.set(path, list);
  }
  const citations: Citation[] = [];
  let dropped = 0;

  const citationFor = (path: string, value: unknown): Citation | null => {
    // The value's own citation first, then one given for an enclosing object or array.
    const paths = [path];
    for (let p = parentPath(path); p; p = parentPath(p)) paths.push(p);
    for (const candidatePath of paths) {
      for (const raw of byPath.get(candidatePath) ?? []) {
        const page = Number(raw.page);
        if (!Number.isInteger(page) || typeof raw.quote !== 'string') continue;
        if (!texts.verify(page, raw.quote)) continue;
        if (!quoteSupports(value, raw.quote, path, writtenDates)) continue;
        const citation: Citation = { path, page, quote: raw.quote.replace(/\s+/g, ' ').trim(), confidence: clamp01(raw.confidence) };
        const bbox = texts.locate(page, raw.quote);
        if (bbox) citation.bbox = bbox;
        return citation;
      }
    }
    return null;
  };

  /** Array items are re-numbered as they are kept: a leaf is looked up under its original path
   * and cited under the kept one. */
  const walk = (value: unknown, path: string, original: string): unknown => {
    if (Array.isArray(value)) {
      const kept: unknown[] = [];
      value.forEach((item, i) => {
        const result = walk(item, `${path}[${kept.length}]`, `${original}[${i}]`);
        if (result !== undefined) kept.push(result);
      });
      return kept.length ? kept : undefined;
    }
    if (typeof value === 'object' && value !== null) {
      const kept: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const result = walk(item, `${path}.${key}`, `${original}.${key}`);
        if (result !== undefined) kept[key] = result;
      }
      return Object.keys(kept).length ? kept : undefined;
    }
    if (value === null || value === undefined || value === '') return undefined;
    const citation = citationFor(original, value);
    if (!citation) {
      dropped++;
      return undefined;
    }
    citations.push({ ...citation, path });
    return value;
  };

  const data: Record<string, unknown> = {};
  const source = typeof reply.data === 'object' && reply.data !== null && !Array.isArray(reply.data) ? reply.data : {};
  for (const [key, value] of Object.entries(source)) {
    if (allowed && !allowed.has(key)) continue;
    const kept = walk(value, `data.${key}`, `data.${key}`);
    if (kept !== undefined) data[key] = kept;
  }
  return { data, citations, dropped };
}

/** `data.amounts.0.amount`, `amounts[0].amount` and `data.amounts[0].amount` are one path. */
function normalizePath(path: string): string {
  let p = path.trim().replace(/\.(\d+)(?=\.|$|\[)/g, '[$1]');
  if (p.startsWith('$.')) p = p.slice(2);
  if (!p.startsWith('data.') && !p.startsWith('data[') && p !== 'data') p = `data.${p}`;
  return p;
}

function parentPath(path: string): string | null {
  const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
  if (cut <= 0) return null;
  const parent = path.slice(0, cut);
  return parent === 'data' ? null : parent;
}

/**
 * An answer is grounded like a value: its citations must verify, and they must bear out what it
 * states. An answer in words keeps the citations `answerSupport` keeps, and is not found when it
 * is not borne out (a date or number its quotes do not hold, words they do not say). An object
 * (a question with a schema) keeps each value some verified quote bears out as `groundData`
 * would, and the citations that bear out a kept value. `dropped` says the answer or some of its
 * values were left out for that.
 */
export function groundAnswer(raw: RawAnswer | undefined, texts: PageTexts, expectsObject: boolean): { answer: GroundedAnswer; dropped: boolean } {
  const notFound: GroundedAnswer = { answer: expectsObject ? {} : '', not_found: true, confidence: 0, citations: [] };
  if (!raw || raw.not_found || raw.answer === null || raw.answer === undefined || raw.answer === '') return { answer: notFound, dropped: false };
  const isObject = typeof raw.answer === 'object' && !Array.isArray(raw.answer);
  if (expectsObject && !isObject) return { answer: notFound, dropped: true };
  const verified = (raw.citations ?? [])
    .filter((c) => c && Number.isInteger(Number(c.page)) && typeof c.quote === 'string' && texts.verify(Number(c.page), c.quote))
    .map((c) => {
      const citation: { page: number; quote: string; bbox?: Box } = { page: Number(c.page), quote: c.quote.replace(/\s+/g, ' ').trim() };
      const bbox = texts.locate(citation.page, c.quote);
      if (bbox) citation.bbox = bbox;
      return citation;
    });
  const quotes = verified.map((c) => c.quote);
  let answer: unknown = raw.answer;
  let kept: number[] | null;
  let partly = false;
  if (typeof raw.answer === 'string') {
    kept = answerSupport(raw.answer, quotes, writtenDates);
  } else {
    const grounded = groundValues(raw.answer, quotes);
    answer = grounded.value;
    kept = grounded.value === undefined ? null : grounded.kept;
    partly = grounded.dropped > 0;
  }
  if (!kept?.length) return { answer: notFound, dropped: true };
  const citations = verified.filter((_, i) => kept.includes(i));
  return { answer: { answer, not_found: false, confidence: clamp01(raw.confidence), citations }, dropped: partly };
}

/** The values of an answer some quote bears out (array items re-numbered), and which quotes did. */
function groundValues(value: unknown, quotes: readonly string[]): { value: unknown; kept: number[]; dropped: number } {
  const kept = new Set<number>();
  let dropped = 0;
  const walk = (item: unknown, path: string): unknown => {
    if (Array.isArray(item)) {
      const out = item.map((entry, i) => walk(entry, `${path}[${i}]`)).filter((entry) => entry !== undefined);
      return out.length ? out : undefined;
    }
    if (typeof item === 'object' && item !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, entry] of Object.entries(item)) {
        const result = walk(entry, `${path}.${key}`);
        if (result !== undefined) out[key] = result;
      }
      return Object.keys(out).length ? out : undefined;
    }
    if (item === null || item === undefined || item === '') return undefined;
    const supporting = quotes.map((_, i) => i).filter((i) => quoteSupports(item, quotes[i], path, writtenDates));
    if (!supporting.length) {
      dropped++;
      return undefined;
    }
    for (const i of supporting) kept.add(i);
    return item;
  };
  return { value: walk(value, 'data'), kept: [...kept].sort((a, b) => a - b), dropped };
}

// ---- schema checks ----

const strictAjv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const coercingAjv = new Ajv({ allErrors: true, strict: false, coerceTypes: true, validateFormats: false });
addFormats(strictAjv);
addFormats(coercingAjv);

/**
 * Whether a client's schema is JSON Schema Folio can use; else what is wrong, in words for the
 * client (Ajv's own exception text names its internals). Compiled schemas are dropped from Ajv's
 * cache at once: each document brings its own, and the cache would keep every one of them.
 */
export function schemaProblem(schema: JsonSchema): string | null {
  const relaxed = withoutRequired(schema) as JsonSchema;
  if (!strictAjv.validateSchema(relaxed)) {
    const first = strictAjv.errors?.[0];
    // The place as dotted names (`properties.total.type`), as `details` names fields.
    const at = first?.instancePath.split('/').filter(Boolean).join('.');
    return first ? `is not valid JSON Schema: at ${at || 'its top level'}, the value ${failedCheckWords(first)}` : 'is not valid JSON Schema';
  }
  try {
    strictAjv.compile(relaxed);
    return null;
  } catch {
    return 'is not valid JSON Schema: it could not be compiled (a $ref that points nowhere, or a keyword used where JSON Schema does not allow it)';
  } finally {
    strictAjv.removeSchema(relaxed);
  }
}

/**
 * The data made to follow `schema` (numbers written as text become numbers, and so on), or null
 * when it cannot.
 */
export function conform(data: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> | null {
  const relaxed = withoutRequired(schema) as JsonSchema;
  try {
    if (strictAjv.validate(relaxed, data)) return data;
    const copy = structuredClone(data);
    return coercingAjv.validate(relaxed, copy) ? copy : null;
  } finally {
    strictAjv.removeSchema(relaxed);
    coercingAjv.removeSchema(relaxed);
  }
}

export interface PageResult {
  data: Record<string, unknown>;
  citations: Citation[];
}

/** docs/api.md's ExtractionResult as stored and served. */
export interface ExtractionResult {
  data?: Record<string, unknown>;
  citations?: Citation[];
  answers?: WireAnswer[];
  per_page?: boolean;
  pages?: ({ page: number } & PageResult)[];
  warnings?: string[];
}

export interface WireAnswer {
  question: string;
  answer: string;
  page: number | null;
  quote: string;
  not_found: boolean;
  bbox?: Citation['bbox'];
}

export interface ModelRun {
  result: ExtractionResult;
  /** With per_page: each page's `{data, citations}`. */
  pageResults: Map<number, PageResult>;
  charges: Charge[];
  modelUsed: string;
}
