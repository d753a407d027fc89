// The JSON limits of issue 22: depth read from text without parsing it (brackets inside strings
// do not count), and a schema's depth, properties and size.
import { describe, expect, it } from 'vitest';
import { holdsNul, jsonTextDepth, MAX_SCHEMA_BYTES, MAX_SCHEMA_DEPTH, MAX_SCHEMA_PROPERTIES, schemaLimitProblems } from '../../src/domain/json-limits.js';

describe('JSON depth from text', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(jsonTextDepth('1')).toBe(0);
    expect(jsonTextDepth('{}')).toBe(1);
    expect(jsonTextDepth('{"a":[{"b":[]}],"c":{}}')).toBe(4);
    expect(jsonTextDepth('{"a":"[[[[{{{{"}')).toBe(1);
    expect(jsonTextDepth('{"a":"\\"[[[","b":[1]}')).toBe(2);
    expect(jsonTextDepth('['.repeat(100_000))).toBe(100_000);
  });

  it('stops counting past the limit it is asked about', () => {
    expect(jsonTextDepth('['.repeat(100_000), 10)).toBe(11);
  });
});

describe('NUL characters in a value', () => {
  it('are found in keys and strings at any depth, in arrays of any length', () => {
    expect(holdsNul({ a: [1, { b: 'x\u0000' }] })).toBe(true);
    expect(holdsNul({ ['k\u0000']: 1 })).toBe(true);
    expect(holdsNul({ a: ['no', 'nul', 1, null] })).toBe(false);
    expect(holdsNul({ a: Array.from({ length: 300_000 }, (_, i) => i) })).toBe(false);
  });
});

describe('schema limits', () => {
  const nest = (levels: number) => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
    return schema;
  };

  it('lets an ordinary schema through', () => {
    expect(schemaLimitProblems({ type: 'object', properties: { total: { type: 'number' }, items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } } })).toEqual([]);
  });

  it('refuses nesting past the limit without walking all of it', () => {
    // Each nested object adds two levels: the object, and its `properties`.
    expect(schemaLimitProblems(nest(MAX_SCHEMA_DEPTH / 2 - 1))).toEqual([]);
    expect(schemaLimitProblems(nest(MAX_SCHEMA_DEPTH / 2))).toEqual([`is nested more than ${MAX_SCHEMA_DEPTH} levels deep`]);
    expect(schemaLimitProblems(nest(5_000))).toEqual([`is nested more than ${MAX_SCHEMA_DEPTH} levels deep`]);
  });

  it('counts properties over every properties object, and the size as JSON', () => {
    const half = Object.fromEntries(Array.from({ length: MAX_SCHEMA_PROPERTIES / 2 + 1 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const problems = schemaLimitProblems({ type: 'object', properties: { ...half, child: { type: 'object', properties: half } } });
    expect(problems).toEqual([`declares ${MAX_SCHEMA_PROPERTIES + 3} properties; at most ${MAX_SCHEMA_PROPERTIES} are allowed`]);
    const big = schemaLimitProblems({ type: 'object', description: 'x'.repeat(MAX_SCHEMA_BYTES) });
    expect(big).toEqual([expect.stringContaining(`at most ${MAX_SCHEMA_BYTES} are allowed`)]);
  });
});
