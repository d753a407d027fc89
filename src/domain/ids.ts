// Identifiers (docs/decisions.md#identifiers): a type prefix and a ULID, so ids sort by creation time and
// `starting_after` pages stay stable. The monotonic factory keeps ids made in the same
// millisecond by one process in order.
import { monotonicFactory } from 'ulid';

export type IdPrefix = 'doc' | 'qry' | 'img' | 'usg' | 'key' | 'org' | 'ws' | 'req' | 'wrk' | 'whk' | 'evt' | 'dlv' | 'att';

const nextUlid = monotonicFactory();

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${nextUlid().toLowerCase()}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(`${prefix}_`) && id.length === prefix.length + 27;
}
