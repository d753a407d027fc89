// The figures both HTTP load benchmarks (bench/api.ts, bench/speed.ts) keep from an autocannon run.
import type { Result } from 'autocannon';

export interface LoadFigures {
  connections: number;
  duration_s: number;
  requests_per_s: { average: number; stddev: number; min: number; max: number };
  requests_total: number;
  latency_ms: { average: number; p50: number; p90: number; p99: number; max: number };
  non_2xx: number;
  errors: number;
  timeouts: number;
  status_codes: Record<string, number>;
  bytes_per_s_average: number;
}

export function loadFigures(result: Result): LoadFigures {
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = count;
  return {
    connections: result.connections,
    duration_s: result.duration,
    requests_per_s: { average: result.requests.average, stddev: result.requests.stddev, min: result.requests.min, max: result.requests.max },
    requests_total: result.requests.total,
    latency_ms: { average: result.latency.average, p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    status_codes: statusCodes,
    bytes_per_s_average: result.throughput.average,
  };
}
