import { describe, expect, it } from 'vitest';
import { Type, type TSchema } from 'typebox';
import { DocumentOptions } from '../../src/domain/option-shapes.js';
import { bodyAjv, compileBody, errorDetails } from '../../src/api/validation.js';

/** Validates `value` against `schema` with the service's body Ajv and returns the raw errors. */
function errorsOf(schema: TSchema | Record<string, unknown>, value: unknown) {
  const validate = bodyAjv.compile(schema);
  expect(validate(value)).toBe(false);
  return validate.errors;
}

describe('errorDetails (docs/api.md Errors: 422 details maps a field name to messages; docs/decisions.md#errors)', () => {
  it('no errors give empty details', () => {
    expect(errorDetails(null)).toEqual({});
    expect(errorDetails(undefined)).toEqual({});
    expect(errorDetails([])).toEqual({});
  });

  it('a missing required property is named and "is required"', () => {
    const errors = errorsOf(Type.Object({ url: Type.String(), name: Type.String() }), { name: 'x' });
    expect(errorDetails(errors)).toEqual({ url: ['is required'] });
    expect(errorDetails(errors, 'options')).toEqual({ 'options.url': ['is required'] });
  });

  it('a nested missing property gets a dotted path', () => {
    const schema = Type.Object({ a: Type.Object({ b: Type.Object({ c: Type.String() }) }) });
    expect(errorDetails(errorsOf(schema, { a: { b: {} } }))).toEqual({ 'a.b.c': ['is required'] });
  });

  it('docs/decisions.md#errors: an error on the whole body is named "body"', () => {
    const errors = errorsOf(Type.Object({ url: Type.String() }), 'not an object');
    expect(errorDetails(errors)).toEqual({ body: ['must be an object'] });
  });

  it('with a prefix, an error on the whole value is named by the prefix', () => {
    const errors = errorsOf(Type.Object({ url: Type.String() }), 42);
    expect(errorDetails(errors, 'options')).toEqual({ options: ['must be an object'] });
  });

  it('an unknown property gets a dotted path under the prefix', () => {
    const validate = compileBody(DocumentOptions);
    expect(validate({ extraction: { fields: ['title'], colour: 'red' } })).toBe(false);
    expect(errorDetails(validate.errors, 'options')).toEqual({ 'options.extraction.colour': ['is not a known field'] });
  });

  it('an unknown top-level property', () => {
    const validate = compileBody(DocumentOptions);
    expect(validate({ colour: 'red' })).toBe(false);
    expect(errorDetails(validate.errors, 'options')).toEqual({ 'options.colour': ['is not a known field'] });
  });

  it('an enum error lists the allowed values', () => {
    const validate = compileBody(DocumentOptions);
    expect(validate({ analysis: 'fast' })).toBe(false);
    expect(errorDetails(validate.errors, 'options')).toEqual({ 'options.analysis': ['must be one of: layout, read'] });
  });

  it('array item errors keep the key without the index and say "item N"', () => {
    const validate = compileBody(DocumentOptions);
    expect(validate({ queries: ['fine', 'also fine', ''], extraction: { fields: ['title', 'colour'] } })).toBe(false);
    const details = errorDetails(validate.errors, 'options');
    expect(details['options.queries']).toEqual(['item 2: must be at least 1 character long']);
    expect(details['options.extraction.fields']).toHaveLength(1);
    expect(details['options.extraction.fields'][0]).toMatch(/^item 1: must be one of: title, document_type, summary/);
    expect(Object.keys(details).some((key) => /\d/.test(key))).toBe(false);
  });

  it('item errors in nested arrays name every index', () => {
    const schema = Type.Object({ rows: Type.Array(Type.Array(Type.Integer())) });
    expect(errorDetails(errorsOf(schema, { rows: [[1], [2, 'x']] }))).toEqual({ rows: ['item 1.1: must be a whole number'] });
  });

  it('docs/api.md EmbeddingOptions: a union of constants (1024|512|256) collapses to one "must be one of"', () => {
    const schema = Type.Object({ dimensions: Type.Union([Type.Literal(1024), Type.Literal(512), Type.Literal(256)]) });
    const errors = errorsOf(schema, { dimensions: 768 });
    // Ajv reports one const error per branch plus the anyOf.
    expect(errors!.length).toBe(4);
    expect(errorDetails(errors, 'options.embeddings')).toEqual({ 'options.embeddings.dimensions': ['must be one of: 1024, 512, 256'] });
  });

  it('a union of types says which types are allowed', () => {
    const schema = Type.Object({ when: Type.Union([Type.String(), Type.Integer()]) });
    expect(errorDetails(errorsOf(schema, { when: true }))).toEqual({ when: ['must be a string or a whole number'] });
  });

  it('several fields each get their own key', () => {
    const validate = compileBody(DocumentOptions);
    expect(validate({ analysis: 'x', images: 'yes', retention_seconds: -1 })).toBe(false);
    expect(errorDetails(validate.errors, 'options')).toEqual({
      'options.analysis': ['must be one of: layout, read'],
      'options.images': ['must be true or false'],
      'options.retention_seconds': ['must be at least 0'],
    });
  });

  it('a bad value inside a boolean|object union is reported at that value only', () => {
    const validate = compileBody(DocumentOptions);
    expect(validate({ embeddings: { dimensions: 768 } })).toBe(false);
    expect(errorDetails(validate.errors, 'options')).toEqual({ 'options.embeddings.dimensions': ['must be one of: 1024, 512, 256'] });
    expect(validate({ embeddings: 'yes' })).toBe(false);
    expect(errorDetails(validate.errors, 'options')).toEqual({ 'options.embeddings': ['must be true, false or an object'] });
  });

  // Source bug (reported): an unknown field inside the object branch of a union is an error at the
  // union's own path (additionalProperties), so it is dropped with the other branch errors and only
  // the type branch is summarized: `{embeddings: {colour: 1}}` gives "options.embeddings: must be
  // boolean" and never names `colour`.
  it('an unknown field inside embeddings is named, not reported as "must be boolean"', () => {
    const validate = compileBody(DocumentOptions);
    expect(validate({ embeddings: { colour: 1 } })).toBe(false);
    expect(errorDetails(validate.errors, 'options')).toEqual({ 'options.embeddings.colour': ['is not a known field'] });
  });
});

describe("validator messages in Folio's words (issue 37 scope 6)", () => {
  // Each value fails one keyword; Ajv's own phrasing ("must NOT", "##", "format \"uri\"", ">=")
  // must never reach a client.
  const cases: [Record<string, unknown>, unknown, string][] = [
    [{ type: 'array', uniqueItems: true }, ['a', 'b', 'a'], 'must not list the same item twice (items 0 and 2 are the same)'],
    [{ type: 'string', minLength: 2 }, 'a', 'must be at least 2 characters long'],
    [{ type: 'string', maxLength: 1 }, 'ab', 'must be at most 1 character long'],
    [{ type: 'string', format: 'uri' }, 'not a url', 'must be an absolute URL'],
    [{ type: 'string', format: 'date-time' }, 'yesterday', 'must be a date and time as RFC 3339 writes them (2026-01-31T12:00:00Z)'],
    [{ type: 'string', pattern: '^[a-z]+$' }, 'A1', 'is not written in the expected form'],
    [{ type: 'integer', minimum: 1 }, 0, 'must be at least 1'],
    [{ type: 'integer', maximum: 5 }, 6, 'must be at most 5'],
    [{ type: 'number', exclusiveMinimum: 0 }, 0, 'must be more than 0'],
    [{ type: 'number', multipleOf: 5 }, 7, 'must be a multiple of 5'],
    [{ type: 'array', minItems: 1 }, [], 'must hold at least 1 item'],
    [{ type: 'array', maxItems: 2 }, [1, 2, 3], 'must hold at most 2 items'],
    [{ type: 'object', minProperties: 1 }, {}, 'must have at least 1 field'],
    [{ const: 'x' }, 'y', 'must be "x"'],
    [{ not: { type: 'string' } }, 'a', 'is a value that is not allowed here'],
    [{ type: ['string', 'null'] }, 3, 'must be a string or null'],
  ];
  for (const [schema, value, words] of cases) {
    it(`${Object.keys(schema).filter((k) => k !== 'type').join(', ') || 'type'}: "${words}"`, () => {
      const details = errorDetails(errorsOf({ type: 'object', properties: { field: schema } }, { field: value }));
      expect(details).toEqual({ field: [words] });
    });
  }

  it('no keyword Ajv knows answers in its own phrasing', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'array', uniqueItems: true, maxItems: 1 },
        b: { type: 'string', format: 'email', minLength: 50 },
        c: { type: 'object', propertyNames: { pattern: '^[a-z]$' }, dependentRequired: { x: ['y'] } },
        d: { type: 'array', contains: { type: 'string' } },
        e: { oneOf: [{ type: 'integer' }, { type: 'number' }] },
        f: { if: { type: 'string' }, then: { minLength: 3 } },
      },
    };
    const details = errorDetails(errorsOf(schema, { a: [1, 1], b: 'x', c: { AB: 1, x: 1 }, d: [1], e: 1, f: 'ab' }));
    for (const message of Object.values(details).flat()) expect(message).not.toMatch(/must NOT|##|match format|[<>]=|must match|should|must pass|must have property/);
  });
});
