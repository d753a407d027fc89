// Small figures helpers for the speed benchmark: medians, rounding and the printed table.

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Seconds with about three significant digits: 0.0123 s, 0.548 s, 3.14 s, 21.3 s, 123 s. */
export function secs(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  if (value >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

/** A rate with about three significant digits, never in exponent notation. */
export function rate(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function ratio(folioSeconds: number, peerSeconds: number): string {
  if (!Number.isFinite(folioSeconds) || !Number.isFinite(peerSeconds) || peerSeconds <= 0) return '-';
  const r = folioSeconds / peerSeconds;
  return `${r >= 10 ? r.toFixed(0) : r.toFixed(1)}x`;
}

export function megabytes(kb: number | null): string {
  return kb === null ? 'n/a' : `${Math.round(kb / 1024)} MB`;
}

/** A plain-text table; the first column is left-aligned, the others too (they hold prose). */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
