// Request limits (docs/api.md "Limits", docs/decisions.md#rate-limits): a per-key limit per one-second window, and on
// capped plans a per-workspace request quota per calendar month in UTC.

export function rateWindow(at: number): number {
  return Math.floor(at / 1000);
}

/** Whole seconds until the current one-second window ends (at least 1, as an integer header). */
export function secondsToReset(at: number): number {
  return Math.max(1, Math.ceil((1000 - (at % 1000)) / 1000));
}

export function monthPeriod(at: number): string {
  const d = new Date(at);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The first instant of the next calendar month (UTC): when a monthly quota resets. */
export function nextMonthStart(at: number): number {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}
