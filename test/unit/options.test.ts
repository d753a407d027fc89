import { describe, expect, it } from 'vitest';
import type { DocumentOptions } from '../../src/domain/option-shapes.js';
import { FolioError } from '../../src/domain/errors.js';
import { assertEntitled, DEFAULT_RETENTION_SECONDS, featuresUsed, modelRuns, readStoredOptions, resolveOptions } from '../../src/domain/options.js';

const UNCAPPED = { max_retention_seconds: 0 };
const CAPPED = { max_retention_seconds: 604_800 };

function resolve(input: DocumentOptions, plan = UNCAPPED) {
  return resolveOptions(input, plan);
}

describe('resolveOptions defaults (docs/api.md DocumentOptions)', () => {
  it('fills every default', () => {
    const { options, details } = resolve({});
    expect(details).toEqual({});
    expect(options).toEqual({
      analysis: 'layout',
      embeddings: false,
      extraction: null,
      images: true,
      markdown: false,
      model: 'auto',
      queries: [],
      retention_seconds: 86_400,
      pages: null,
    });
    expect(DEFAULT_RETENTION_SECONDS).toBe(86_400);
  });

  it('keeps a page selection normalized and says what is wrong with a bad one', () => {
    expect(resolve({ pages: ' 7, 1-3 ,2-4,5 ' }).options.pages).toBe('1-5,7');
    expect(resolve({ pages: '3' }).options.pages).toBe('3');
    for (const bad of ['0', '4-2', '1;2', '1-', '-3', 'x']) expect(resolve({ pages: bad }).details, bad).toHaveProperty(['options.pages']);
  });

  it('keeps values that were given', () => {
    const { options, details } = resolve({ analysis: 'read', images: false, model: 'summit', queries: ['Who signed?'] });
    expect(details).toEqual({});
    expect(options).toMatchObject({ analysis: 'read', images: false, model: 'summit', queries: ['Who signed?'] });
  });
});

describe('resolveOptions embeddings (docs/api.md EmbeddingOptions)', () => {
  it('embeddings: true means the defaults, 1024 dimensions per page', () => {
    expect(resolve({ embeddings: true }).options.embeddings).toEqual({ dimensions: 1024, granularity: 'page' });
  });

  it('embeddings: false and an object with dimensions', () => {
    expect(resolve({ embeddings: false }).options.embeddings).toBe(false);
    expect(resolve({ embeddings: { dimensions: 256 } }).options.embeddings).toEqual({ dimensions: 256, granularity: 'page' });
    expect(resolve({ embeddings: {} }).options.embeddings).toEqual({ dimensions: 1024, granularity: 'page' });
  });
});

describe('resolveOptions cross-field rules (docs/api.md Errors: 422 invalid_request)', () => {
  it('markdown with analysis "read" is refused under options.markdown', () => {
    const { details } = resolve({ markdown: true, analysis: 'read' });
    expect(Object.keys(details)).toEqual(['options.markdown']);
    expect(details['options.markdown'][0]).toMatch(/layout/);
  });

  it('markdown with analysis "layout" (or the default) is fine', () => {
    expect(resolve({ markdown: true }).details).toEqual({});
    expect(resolve({ markdown: true, analysis: 'layout' }).details).toEqual({});
    expect(resolve({ markdown: false, analysis: 'read' }).details).toEqual({});
  });

  it('duplicate queries are refused under options.queries', () => {
    const { details } = resolve({ queries: ['Who signed?', 'What is the total?', 'Who signed?'] });
    expect(Object.keys(details)).toEqual(['options.queries']);
    expect(details['options.queries']).toHaveLength(1);
    expect(details['options.queries'][0]).toMatch(/question 2 repeats question 0/);
  });

  it('queries differing only in case or whitespace count as duplicates', () => {
    const { details } = resolve({ queries: ['Who signed the contract?', '  who   SIGNED the\tcontract? '] });
    expect(details['options.queries']).toHaveLength(1);
    expect(details['options.queries'][0]).toMatch(/question 1 repeats question 0/);
  });

  it('distinct queries are fine and kept as sent', () => {
    const queries = ['Who signed?', 'Who paid?'];
    const { options, details } = resolve({ queries });
    expect(details).toEqual({});
    expect(options.queries).toEqual(queries);
  });

  it('extraction with neither fields nor schema is refused under options.extraction', () => {
    expect(Object.keys(resolve({ extraction: {} }).details)).toEqual(['options.extraction']);
    expect(Object.keys(resolve({ extraction: { fields: [] } }).details)).toEqual(['options.extraction']);
    expect(Object.keys(resolve({ extraction: { instructions: 'be brief' } }).details)).toEqual(['options.extraction']);
  });

  it('extraction with fields resolves its defaults', () => {
    const { options, details } = resolve({ extraction: { fields: ['title', 'dates'] } });
    expect(details).toEqual({});
    expect(options.extraction).toEqual({ fields: ['title', 'dates'], schema: null, instructions: null, per_page: false });
  });

  it('extraction with only a valid object schema is fine', () => {
    const schema = { type: 'object', properties: { invoice_number: { type: 'string' } } };
    const { options, details } = resolve({ extraction: { schema } });
    expect(details).toEqual({});
    expect(options.extraction).toEqual({ fields: [], schema, instructions: null, per_page: false });
  });

  it('a schema without "type": "object" is refused under options.extraction.schema', () => {
    const { details } = resolve({ extraction: { schema: { properties: { a: { type: 'string' } } } } });
    expect(Object.keys(details)).toEqual(['options.extraction.schema']);
    expect(Object.keys(resolve({ extraction: { schema: { type: 'array' } } }).details)).toEqual(['options.extraction.schema']);
  });

  it('a schema property with the name of a requested field is refused under options.extraction.schema', () => {
    const { details } = resolve({
      extraction: { fields: ['title', 'summary'], schema: { type: 'object', properties: { title: { type: 'string' }, total: { type: 'number' } } } },
    });
    expect(Object.keys(details)).toEqual(['options.extraction.schema']);
    expect(details['options.extraction.schema']).toHaveLength(1);
    expect(details['options.extraction.schema'][0]).toMatch(/"title"/);
  });

  it('a schema property named like a field that was not requested is fine', () => {
    const { details } = resolve({ extraction: { fields: ['summary'], schema: { type: 'object', properties: { title: { type: 'string' } } } } });
    expect(details).toEqual({});
  });

  it('several problems are all reported', () => {
    const { details } = resolve({ markdown: true, analysis: 'read', queries: ['a', 'A'], extraction: {} });
    expect(Object.keys(details).sort()).toEqual(['options.extraction', 'options.markdown', 'options.queries']);
  });
});

describe('resolveOptions retention (docs/api.md Limits: retention)', () => {
  it('capped plan: above the ceiling is refused under options.retention_seconds', () => {
    const { details } = resolve({ retention_seconds: 604_801 }, CAPPED);
    expect(Object.keys(details)).toEqual(['options.retention_seconds']);
    expect(details['options.retention_seconds'][0]).toMatch(/604800/);
  });

  it('capped plan: exactly the ceiling and below are accepted', () => {
    expect(resolve({ retention_seconds: 604_800 }, CAPPED)).toMatchObject({ details: {}, options: { retention_seconds: 604_800 } });
    expect(resolve({ retention_seconds: 3600 }, CAPPED)).toMatchObject({ details: {}, options: { retention_seconds: 3600 } });
  });

  it('capped plan: 0 ("forever") is clamped to the ceiling', () => {
    expect(resolve({ retention_seconds: 0 }, CAPPED)).toMatchObject({ details: {}, options: { retention_seconds: 604_800 } });
  });

  it('capped plan: unset is min(86400, ceiling)', () => {
    expect(resolve({}, CAPPED).options.retention_seconds).toBe(86_400);
    expect(resolve({}, { max_retention_seconds: 3600 }).options.retention_seconds).toBe(3600);
  });

  it('uncapped plan: 0 stays 0 (forever), large values are allowed', () => {
    expect(resolve({ retention_seconds: 0 }, UNCAPPED)).toMatchObject({ details: {}, options: { retention_seconds: 0 } });
    expect(resolve({ retention_seconds: 10 ** 9 }, UNCAPPED)).toMatchObject({ details: {}, options: { retention_seconds: 10 ** 9 } });
    expect(resolve({}, UNCAPPED).options.retention_seconds).toBe(86_400);
  });
});

describe('assertEntitled (docs/decisions.md#errors: 403 not_entitled with extra `feature`)', () => {
  const everything = resolve({
    markdown: true,
    embeddings: true,
    extraction: { fields: ['title'] },
    queries: ['Who?'],
  }).options;

  it('features in a stable order', () => {
    expect(featuresUsed(everything)).toEqual(['markdown', 'embeddings', 'extraction', 'queries']);
    expect(featuresUsed(resolve({}).options)).toEqual([]);
  });

  it('throws not_entitled naming the feature the plan lacks', () => {
    const options = resolve({ embeddings: true }).options;
    let caught: unknown;
    try {
      assertEntitled(options, { features: ['markdown'] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FolioError);
    const error = caught as FolioError;
    expect(error.type).toBe('not_entitled');
    expect(error.status).toBe(403);
    expect(error.extra).toEqual({ feature: 'embeddings' });
    expect(error.message).toMatch(/embeddings/);
  });

  it('names the first missing feature when several are missing', () => {
    expect(() => assertEntitled(everything, { features: ['markdown', 'embeddings'] })).toThrow(
      expect.objectContaining({ type: 'not_entitled', extra: { feature: 'extraction' } }),
    );
  });

  it('an empty features list refuses any feature option but allows plain documents', () => {
    expect(() => assertEntitled(resolve({ queries: ['q'] }).options, { features: [] })).toThrow(
      expect.objectContaining({ type: 'not_entitled', extra: { feature: 'queries' } }),
    );
    expect(() => assertEntitled(resolve({ analysis: 'read', images: false }).options, { features: [] })).not.toThrow();
  });

  it('passes when the plan lists every feature used', () => {
    expect(() => assertEntitled(everything, { features: ['markdown', 'embeddings', 'extraction', 'queries'] })).not.toThrow();
  });

  it('passes with features null (every option)', () => {
    expect(() => assertEntitled(everything, { features: null })).not.toThrow();
  });
});

describe('modelRuns (docs/api.md: the model runs only for extraction or queries)', () => {
  it('is true only with extraction or queries', () => {
    expect(modelRuns(resolve({}).options)).toBe(false);
    expect(modelRuns(resolve({ markdown: true, embeddings: true }).options)).toBe(false);
    expect(modelRuns(resolve({ queries: ['q'] }).options)).toBe(true);
    expect(modelRuns(resolve({ extraction: { fields: ['title'] } }).options)).toBe(true);
  });
});

describe('readStoredOptions', () => {
  it('reads back what resolveOptions wrote, and fills options a row written before them lacks', () => {
    const { options } = resolveOptions({ markdown: true, queries: ['Who signed?'] }, { max_retention_seconds: 0 });
    expect(readStoredOptions(JSON.stringify(options))).toEqual(options);
    const { model: _model, ...older } = options;
    expect(readStoredOptions(JSON.stringify(older))).toEqual({ ...older, model: 'auto' });
  });

  it('refuses stored options that are not options Folio wrote', () => {
    expect(() => readStoredOptions('{"analysis":"ocr"}')).toThrow(/not options Folio wrote/);
    expect(() => readStoredOptions('[]')).toThrow(/not options Folio wrote/);
    expect(() => readStoredOptions('{"queries":"one"}')).toThrow(/not options Folio wrote/);
  });
});
