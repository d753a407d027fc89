// The service's clock for every business time (created, completed, expiry, quota months, leases).
// FOLIO_CLOCK_OFFSET_MS shifts it, so tests of expiry and of quota months can restart a server
// "in the future" against the same database; in production it is 0.

let offsetMs = 0;

export function setClockOffset(ms: number): void {
  offsetMs = ms;
}

export function now(): number {
  return Date.now() + offsetMs;
}
