// Request validation with Ajv, and the translation of its errors into docs/api.md's 422 `details`:
// one key per field, named by its path (`options.extraction.fields`, `limit`, `body`), each
// message in Folio's words (domain/validation-words.ts), never the validator's.
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';
import { addDetail, type ErrorDetails } from '../domain/errors.js';
import { failedCheckWords } from '../domain/validation-words.js';

// Both packages are CommonJS with a default export.
const Ajv = AjvModule.default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;

function makeAjv(coerce: boolean) {
  const ajv = new Ajv({ allErrors: true, coerceTypes: coerce, useDefaults: true, removeAdditional: false, strict: false });
  addFormats(ajv);
  return ajv;
}

/** Bodies are taken as sent; query strings and path parameters are text, so they are coerced. */
export const bodyAjv = makeAjv(false);
export const queryAjv = makeAjv(true);

export function addSharedSchemas(schemas: TSchema[]): void {
  for (const schema of schemas) {
    for (const ajv of [bodyAjv, queryAjv]) {
      if (!ajv.getSchema((schema as { $id: string }).$id)) ajv.addSchema(schema);
    }
  }
}

export function compileBody<T>(schema: TSchema): ValidateFunction<T> {
  const id = (schema as { $id?: string }).$id;
  const known = id ? bodyAjv.getSchema<T>(id) : undefined;
  return known ?? bodyAjv.compile<T>(schema);
}

/** Turns Ajv errors into `details`, with `prefix` before every field name. */
export function errorDetails(errors: ErrorObject[] | null | undefined, prefix = ''): ErrorDetails {
  const details: ErrorDetails = {};
  if (!errors) return details;
  const unionPaths = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath));
  // A union whose value had the right shape but a bad part is reported by that part alone.
  const deeper = (at: string) => errors.some((e) => e.instancePath.startsWith(`${at}/`));
  for (const error of errors) {
    const isUnion = error.keyword === 'anyOf' || error.keyword === 'oneOf';
    if (!isUnion && unionPaths.has(error.instancePath)) continue;
    if (isUnion && deeper(error.instancePath)) continue;
    let path = error.instancePath;
    let message = failedCheckWords(error);
    if (error.keyword === 'required') {
      path += `/${(error.params as { missingProperty: string }).missingProperty}`;
    } else if (error.keyword === 'additionalProperties') {
      path += `/${(error.params as { additionalProperty: string }).additionalProperty}`;
    } else if (isUnion && errors.some((e) => e.instancePath === error.instancePath && e.keyword === 'additionalProperties')) {
      // The value took the object form of the union but carries a field it does not know.
      for (const unknown of errors.filter((e) => e.instancePath === error.instancePath && e.keyword === 'additionalProperties')) {
        const name = (unknown.params as { additionalProperty: string }).additionalProperty;
        const base = error.instancePath.split('/').filter((s) => s && !/^\d+$/.test(s)).join('.');
        addDetail(details, [prefix, base, name].filter(Boolean).join('.'), 'is not a known field');
      }
      continue;
    } else if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      const constants = errors
        .filter((e) => e.instancePath === error.instancePath && e.keyword === 'const')
        .map((e) => (e.params as { allowedValue: unknown }).allowedValue);
      const types = errors
        .filter((e) => e.instancePath === error.instancePath && e.keyword === 'type')
        .map((e) => (e.params as { type: string }).type);
      message = constants.length ? `must be one of: ${constants.join(', ')}` : types.length ? failedCheckWords({ keyword: 'type', params: { type: [...new Set(types)] } }) : 'must take one of the allowed forms';
    }
    const segments = path.split('/').filter(Boolean);
    const indices = segments.filter((s) => /^\d+$/.test(s));
    const name = segments.filter((s) => !/^\d+$/.test(s)).join('.');
    const field = prefix ? (name ? `${prefix}.${name}` : prefix) : name || 'body';
    addDetail(details, field, indices.length ? `item ${indices.join('.')}: ${message}` : message);
  }
  return details;
}
