// When a completed result expires (docs/api.md "Limits" and the `expired` transition): at
// `expires_at` (completed_at + retention_seconds; never when null), but an unfetched result is
// kept at least 24 hours after completion whatever retention_seconds says. Reads never move it.
// A first fetch is judged as the document was before it (unfetched), so it answers the result;
// only the reads after it can find it expired.

export const UNFETCHED_MINIMUM_MS = 24 * 3600 * 1000;

export interface RetentionFacts {
  status: string;
  completed_at: number | null;
  expires_at: number | null;
  retrieved_at: number | null;
}

export function isExpired(doc: RetentionFacts, at: number): boolean {
  if (doc.status === 'expired') return true;
  if (doc.status !== 'completed' || doc.expires_at === null || at < doc.expires_at) return false;
  return doc.retrieved_at !== null || at >= (doc.completed_at ?? 0) + UNFETCHED_MINIMUM_MS;
}

export function expiresAt(completedAt: number, retentionSeconds: number): number | null {
  return retentionSeconds === 0 ? null : completedAt + retentionSeconds * 1000;
}
