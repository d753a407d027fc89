// The `include` query parameter: a comma-separated list of names, each one the route knows.
import { invalidRequest } from '../domain/errors.js';

/** The names asked for; 422 naming `field` for any the route does not know. */
export function parseIncludes<T extends string>(raw: string | undefined, allowed: readonly T[], field = 'include'): Set<T> {
  const out = new Set<T>();
  if (!raw) return out;
  const unknown: string[] = [];
  for (const item of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    if ((allowed as readonly string[]).includes(item)) out.add(item as T);
    else unknown.push(item);
  }
  if (unknown.length) throw invalidRequest({ [field]: [`unknown value${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; allowed: ${allowed.join(', ')}`] });
  return out;
}
