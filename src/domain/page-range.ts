// The `page` query parameter: one page (`3`) or an inclusive range (`1-3`); anything else is a 422.
import { invalidRequest } from './errors.js';

export interface PageRange {
  first: number;
  last: number;
}

export function parsePageRange(value: string | undefined, pageCount: number): PageRange {
  if (value === undefined) return { first: 1, last: pageCount };
  const match = /^(\d{1,7})(?:-(\d{1,7}))?$/.exec(value.trim());
  const first = match ? Number(match[1]) : NaN;
  const last = match ? Number(match[2] ?? match[1]) : NaN;
  if (!match || first < 1 || last < first) {
    throw invalidRequest({ page: ['must be one page number such as "3" or an inclusive range such as "1-3"'] });
  }
  if (first > pageCount) {
    throw invalidRequest({ page: [`the document has ${pageCount} page${pageCount === 1 ? '' : 's'}`] });
  }
  return { first, last: Math.min(last, pageCount) };
}
