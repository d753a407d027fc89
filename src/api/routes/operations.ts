// Operations endpoints outside the API (no key): `/healthz` says the process is up, `/readyz` that
// it can reach its database and blob store (a load balancer sends it no traffic otherwise), and
// `/metrics` is the Prometheus text of this process.
import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../app.js';
import { registry, watchDatabase } from '../../metrics.js';

async function probe(check: () => Promise<unknown>): Promise<string> {
  try {
    await check();
    return 'ok';
  } catch (error) {
    return (error as Error).message || 'unreachable';
  }
}

export const operationsRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (app) => {
    watchDatabase(deps.store);
    app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

    app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
      const [database, blobs] = await Promise.all([
        probe(() => deps.store.db.selectFrom('plans').select('id').limit(1).execute()),
        probe(() => deps.store.blobs.check()),
      ]);
      const ready = database === 'ok' && blobs === 'ok';
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks: { database, blobs } });
    });

    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      return reply.header('content-type', registry.contentType).send(await registry.metrics());
    });
  };
