import { describe, expect, it } from 'vitest';
import { FolioError } from '../../src/domain/errors.js';
import { parsePageRange } from '../../src/domain/page-range.js';

function refusal(value: string, pageCount: number): FolioError {
  try {
    parsePageRange(value, pageCount);
  } catch (error) {
    return error as FolioError;
  }
  throw new Error(`"${value}" was accepted`);
}

describe('parsePageRange (docs/api.md pages endpoint: `page` is one page or an inclusive range)', () => {
  it('no parameter means every page', () => {
    expect(parsePageRange(undefined, 5)).toEqual({ first: 1, last: 5 });
  });

  it('"3" is one page', () => {
    expect(parsePageRange('3', 5)).toEqual({ first: 3, last: 3 });
  });

  it('"1-3" is an inclusive range', () => {
    expect(parsePageRange('1-3', 5)).toEqual({ first: 1, last: 3 });
    expect(parsePageRange('2-2', 5)).toEqual({ first: 2, last: 2 });
  });

  it('the end of a range is clamped to the page count', () => {
    expect(parsePageRange('2-10', 4)).toEqual({ first: 2, last: 4 });
    expect(parsePageRange('4-9999999', 4)).toEqual({ first: 4, last: 4 });
  });

  it('the last page alone is fine', () => {
    expect(parsePageRange('4', 4)).toEqual({ first: 4, last: 4 });
  });

  for (const value of ['0', '3-1', 'a', '1-', '-1', '1,2', '', '0-2', '1.5', '1 - 3', '1-2-3']) {
    it(`docs/api.md Errors: "${value}" is a 422 invalid_request with details.page`, () => {
      const error = refusal(value, 5);
      expect(error).toBeInstanceOf(FolioError);
      expect(error.type).toBe('invalid_request');
      expect(error.status).toBe(422);
      const details = error.extra.details as Record<string, string[]>;
      expect(Object.keys(details)).toEqual(['page']);
      expect(details.page.length).toBeGreaterThan(0);
    });
  }

  it('docs/api.md Errors: a start beyond the page count is a 422 naming the page count', () => {
    const error = refusal('6', 5);
    expect(error.type).toBe('invalid_request');
    expect((error.extra.details as Record<string, string[]>).page[0]).toMatch(/5 pages/);
    const single = refusal('2-3', 1);
    expect((single.extra.details as Record<string, string[]>).page[0]).toMatch(/1 page$/);
  });
});
