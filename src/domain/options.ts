// Rules on DocumentOptions that a JSON Schema cannot say: defaults, rules across fields, and the
// plan's retention ceiling and features (docs/api.md DocumentOptions and Limits; docs/decisions.md#errors).
import { Compile } from 'typebox/compile';
import { ResolvedOptions as ResolvedOptionsShape, type DocumentOptions, type ResolvedOptions } from './option-shapes.js';
import { addDetail, FolioError, type ErrorDetails } from './errors.js';
import { schemaLimitProblems } from './json-limits.js';
import { planAllows, type Plan, type PlanFeature } from './plans.js';
import { formatPageSelection, parsePageSelection, type PageSelection } from './page-selection.js';

export const DEFAULT_RETENTION_SECONDS = 86_400;

export interface OptionsCheck {
  options: ResolvedOptions;
  details: ErrorDetails;
}

/** Fills defaults and checks the rules; `details` is empty when the options are acceptable. */
export function resolveOptions(input: DocumentOptions, plan: Pick<Plan, 'max_retention_seconds'>): OptionsCheck {
  const details: ErrorDetails = {};
  const analysis = input.analysis ?? 'layout';
  const markdown = input.markdown ?? false;
  if (markdown && analysis === 'read') {
    addDetail(details, 'options.markdown', 'markdown needs analysis "layout"; it is not available with analysis "read"');
  }

  const embeddings: ResolvedOptions['embeddings'] =
    input.embeddings === undefined || input.embeddings === false
      ? false
      : {
          dimensions: input.embeddings === true ? 1024 : (input.embeddings.dimensions ?? 1024),
          granularity: 'page',
        };

  let extraction: ResolvedOptions['extraction'] = null;
  if (input.extraction) {
    const fields = input.extraction.fields ?? [];
    const schema = (input.extraction.schema ?? null) as Record<string, unknown> | null;
    if (fields.length === 0 && schema === null) {
      addDetail(details, 'options.extraction', 'give at least one built-in field in "fields" or a "schema"');
    }
    if (schema !== null) checkExtractionSchema(schema, fields, details);
    extraction = {
      fields,
      schema,
      instructions: input.extraction.instructions ?? null,
      per_page: input.extraction.per_page ?? false,
    };
  }

  const queries = input.queries ?? [];
  const seen = new Map<string, number>();
  queries.forEach((question, index) => {
    const key = question.trim().replace(/\s+/g, ' ').toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      addDetail(details, 'options.queries', `question ${index} repeats question ${first}: the same question twice is not allowed`);
    } else {
      seen.set(key, index);
    }
  });

  const retention = resolveRetention(input.retention_seconds, plan, details);

  let pages: string | null = null;
  if (input.pages !== undefined) {
    const parsed = parsePageSelection(input.pages);
    if ('problem' in parsed) addDetail(details, 'options.pages', parsed.problem);
    else pages = formatPageSelection(parsed.selection);
  }

  return {
    options: {
      analysis,
      embeddings,
      extraction,
      images: input.images ?? true,
      markdown,
      model: input.model ?? 'auto',
      queries,
      retention_seconds: retention,
      pages,
    },
    details,
  };
}

function resolveRetention(
  requested: number | undefined,
  plan: Pick<Plan, 'max_retention_seconds'>,
  details: ErrorDetails,
): number {
  const ceiling = plan.max_retention_seconds;
  if (ceiling === 0) return requested ?? DEFAULT_RETENTION_SECONDS;
  if (requested === undefined) return Math.min(DEFAULT_RETENTION_SECONDS, ceiling);
  // On a capped plan 0 ("forever") is clamped to the ceiling; anything above it is refused.
  if (requested === 0) return ceiling;
  if (requested > ceiling) {
    addDetail(details, 'options.retention_seconds', `must be at most ${ceiling} on this plan`);
  }
  return requested;
}

/**
 * What is wrong with the outline of a client's schema (an extraction's or a question's): past the
 * JSON limits, not an object schema, or `properties` that is no object. Whether it compiles as
 * JSON Schema is checked after, by the API.
 */
export function schemaShapeProblems(schema: Record<string, unknown>): string[] {
  const tooBig = schemaLimitProblems(schema);
  if (tooBig.length) return tooBig;
  if (schema.type !== 'object') return ['must be a JSON Schema with "type": "object"'];
  const properties = schema.properties;
  if (properties !== undefined && (typeof properties !== 'object' || properties === null || Array.isArray(properties))) return ['"properties" must be an object'];
  return [];
}

function checkExtractionSchema(schema: Record<string, unknown>, fields: readonly string[], details: ErrorDetails): void {
  const path = 'options.extraction.schema';
  const shape = schemaShapeProblems(schema);
  for (const problem of shape) addDetail(details, path, problem);
  const properties = schema.properties;
  if (shape.length || properties === undefined) return;
  for (const name of Object.keys(properties as object)) {
    if (fields.includes(name)) {
      addDetail(details, path, `property "${name}" has the same name as a requested built-in field`);
    }
  }
}

/** The plan features an options object uses, in a stable order. */
export function featuresUsed(options: ResolvedOptions): PlanFeature[] {
  const used: PlanFeature[] = [];
  if (options.markdown) used.push('markdown');
  if (options.embeddings !== false) used.push('embeddings');
  if (options.extraction !== null) used.push('extraction');
  if (options.queries.length > 0) used.push('queries');
  return used;
}

/** 403 not_entitled (docs/decisions.md#errors) for the first option the plan does not include. */
export function assertEntitled(options: ResolvedOptions, plan: Pick<Plan, 'features'>): void {
  for (const feature of featuresUsed(options)) {
    if (!planAllows(plan, feature)) {
      throw new FolioError('not_entitled', `Your plan does not include the "${feature}" option.`, { feature });
    }
  }
}

/** The stored options' page selection (null: every page). */
export function pageSelectionOf(options: Pick<ResolvedOptions, 'pages'>): PageSelection | null {
  if (options.pages === null) return null;
  const parsed = parsePageSelection(options.pages);
  if ('problem' in parsed) throw new TypeError('The page selection stored with the document is not one Folio wrote.');
  return parsed.selection;
}

/** Whether the document needs the model (docs/api.md: only for extraction or queries). */
export function modelRuns(options: ResolvedOptions): boolean {
  return options.extraction !== null || options.queries.length > 0;
}

const resolvedShape = Compile(ResolvedOptionsShape);

/**
 * The options stored with a document (the JSON written at submission), read back and checked
 * against their shape, so a damaged row fails where it is read rather than deep in a stage; with
 * a TypeError, as any value of the wrong type, which the queue treats as a fault that another
 * attempt would meet again. What a row written before an option existed lacks takes the option's
 * default.
 */
export function readStoredOptions(json: string): ResolvedOptions {
  const stored: unknown = JSON.parse(json);
  const defaults = resolveOptions({}, { max_retention_seconds: 0 }).options;
  const options = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? { ...defaults, ...stored } : stored;
  if (!resolvedShape.Check(options)) throw new TypeError('The options stored with the document are not options Folio wrote.');
  return options;
}
