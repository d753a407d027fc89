// Prometheus metrics of this process (`GET /metrics`): HTTP requests by route and status, and, read
// from the database when scraped, queue depth and documents by status. The worker side (stage
// durations, pages read, documents finished) is recorded by the pipeline through `workMetrics`.
// prom-client keeps one registry per process, so every API and worker process is scraped on its
// own and Prometheus adds them up.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Store } from './store/index.js';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'folio_' });

export const httpRequests = new Counter({
  name: 'folio_http_requests_total',
  help: 'HTTP requests answered, by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'folio_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method and route',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const workMetrics = {
  stageDuration: new Histogram({
    name: 'folio_stage_duration_seconds',
    help: 'Time a document spent in each processing stage',
    labelNames: ['stage'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  }),
  pages: new Counter({
    name: 'folio_pages_processed_total',
    help: 'Pages of completed documents; its rate is pages per second',
    labelNames: ['analysis'] as const,
    registers: [registry],
  }),
  finished: new Counter({
    name: 'folio_documents_finished_total',
    help: 'Documents this process finished, by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
};

let databaseGauges = false;

/** Gauges read from the database at scrape time (once per process). */
export function watchDatabase(store: Store): void {
  if (databaseGauges) return;
  databaseGauges = true;
  new Gauge({
    name: 'folio_queue_depth',
    help: 'Documents and queries waiting to be claimed, and webhook events not yet delivered (waiting for a retry included)',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      const [documents, queries, deliveries] = await Promise.all([
        store.db.selectFrom('documents').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'queued').executeTakeFirstOrThrow(),
        store.db.selectFrom('queries').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'queued').executeTakeFirstOrThrow(),
        store.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow(),
      ]);
      this.set({ kind: 'documents' }, Number(documents.n));
      this.set({ kind: 'queries' }, Number(queries.n));
      this.set({ kind: 'webhook_deliveries' }, Number(deliveries.n));
    },
  });
  new Gauge({
    name: 'folio_documents',
    help: 'Documents by status',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = await store.db.selectFrom('documents').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
      this.reset();
      for (const row of rows) this.set({ status: row.status }, Number(row.n));
    },
  });
}
