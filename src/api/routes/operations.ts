// Operations endpoints outside the API (no key): `/healthz` says the process is up, `/readyz` that
// it can reach its database and blob store (a load balancer sends it no traffic otherwise), and
// `/metrics` is the Prometheus text of this process.
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { OperationsDeps } from '../deps.js';
import { registry, watchDatabase } from '../../metrics.js';

/** 'ok' or 'unreachable'. The driver's own words name hosts, ports and paths, and `/readyz`
 * answers anyone, so they go to the log only. */
async function probe(what: string, check: () => Promise<unknown>, log: FastifyBaseLogger): Promise<string> {
  try {
    await check();
    return 'ok';
  } catch (error) {
    log.warn({ err: error, check: what }, 'readiness check failed');
    return 'unreachable';
  }
}

export const operationsRoutes =
  (deps: OperationsDeps): FastifyPluginAsync =>
  async (app) => {
    watchDatabase(deps.store);
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

    app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
      const [database, blobs] = await Promise.all([
        probe('database', () => deps.store.db.selectFrom('plans').select('id').limit(1).execute(), request.log),
        probe('blobs', () => deps.store.blobs.check(), request.log),
      ]);
      const ready = database === 'ok' && blobs === 'ok';
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks: { database, blobs } });
    });

    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      return reply.header('content-type', registry.contentType).send(await registry.metrics());
    });
  };
