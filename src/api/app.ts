// The HTTP application: a Fastify instance with request ids, the error shape, validation that
// reports `details`, authentication for /api/v1, the routes, and the OpenAPI document built
// from the same schemas that validate and serialize.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { newRequestId } from './request-id.js';
import type { ReaderPool } from '../pipeline/threads/pool.js';
import type { Wakeup } from '../queue/wakeup.js';
import type { Store } from '../store/index.js';
import { authenticate } from './auth.js';
import { enforceLimits } from './limits.js';
import { requestCounters } from '../store/counters.js';
import { clientErrorHandler, connectHandler, errorHandler, frameworkErrorHandler, notFoundHandler } from './errors.js';
import { FolioError, invalidRequest } from '../domain/errors.js';
import { holdsNul, jsonTextDepth, MAX_JSON_DEPTH, NUL_REFUSED } from '../domain/json-limits.js';
import { ErrorBody } from './schemas/common.js';
import { SHARED_SCHEMAS } from './schemas/resources.js';
import { addSharedSchemas, bodyAjv, queryAjv } from './validation.js';
import { accountRoutes } from './routes/account.js';
import { documentRoutes } from './routes/documents.js';
import { imageRoutes } from './routes/images.js';
import { pageRoutes } from './routes/pages.js';
import { queryRoutes } from './routes/queries.js';
import { operationsRoutes } from './routes/operations.js';
import { httpDuration, httpRequests } from '../metrics.js';
import { usageRoutes } from './routes/usage.js';

export interface AppDeps {
  store: Store;
  config: Config;
  /** Reader threads for counting pages at submission. */
  pool: ReaderPool;
  wakeup: Wakeup;
}

export async function buildApp(deps: AppDeps, options: { logger?: FastifyBaseLogger } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: newRequestId,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // Node answers a request without Host with a bare 400 of its own; Folio answers it below.
    http: { requireHostHeader: false },
  });
  app.server.on('connect', connectHandler.bind(app));

  const shared = [ErrorBody, ...SHARED_SCHEMAS];
  addSharedSchemas(shared);
  for (const schema of shared) app.addSchema(schema);
  app.setValidatorCompiler(({ schema, httpPart, contentType }) => {
    // The upload form is documented in its route schema but read part by part (src/api/submit.ts).
    if (contentType === 'multipart/form-data') return () => true;
    return (httpPart === 'body' ? bodyAjv : queryAjv).compile(schema);
  });
  // Only JSON and multipart bodies exist in this API; anything else is a 422 (D6).
  app.removeContentTypeParser('text/plain');
  // JSON nested past MAX_JSON_DEPTH is refused before it is parsed: whatever walks it next
  // (validation, the idempotency hash, serialization) would overflow the stack.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonTextDepth(body as string, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      done(invalidRequest({ body: [`is nested more than ${MAX_JSON_DEPTH} levels deep`] }), undefined);
      return;
    }
    parseJson(request, body as string, (error, value) => {
      if (!error && holdsNul(value)) done(invalidRequest({ body: [NUL_REFUSED] }), undefined);
      else done(error, value);
    });
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (!request.headers.host) throw invalidRequest({ Host: ['is required (HTTP/1.1)'] });
    // A %00 in the path or query decodes to U+0000, which no id holds and no text column stores.
    if (Object.values((request.params ?? {}) as Record<string, unknown>).some((v) => typeof v === 'string' && v.includes('\u0000'))) {
      throw new FolioError('not_found', 'There is nothing at that path: it holds a NUL character.');
    }
    const query = Object.entries((request.query ?? {}) as Record<string, unknown>).filter(([, v]) => holdsNul(v));
    if (query.length) throw invalidRequest(Object.fromEntries(query.map(([name]) => [name, [NUL_REFUSED]])));
    // Bodies are read as sent; a compressed one would be read as garbage (or inflate past every limit).
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      throw new FolioError('unsupported_media_type', 'Request bodies are read uncompressed: send the body without a Content-Encoding.');
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    // Routes by their pattern, so ids do not make a label per document.
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequests.inc({ method: request.method, route, status: reply.statusCode });
    httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    // One access line per request, under the request id (`reqId`), with the workspace and the
    // document it concerns, so a document's story can be followed from its upload to its reads.
    const documentId = (request.params as { id?: unknown } | undefined)?.id;
    request.log[reply.statusCode >= 500 ? 'warn' : 'info'](
      {
        method: request.method,
        route,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        ...(request.principal ? { workspace_id: request.principal.workspaceId } : {}),
        ...(typeof documentId === 'string' && documentId.startsWith('doc_') ? { document_id: documentId } : {}),
      },
      'request',
    );
  });

  await app.register(multipart, { throwFileSizeLimit: false });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Folio',
        version: '1.0.0',
        description: 'Self-hosted document processing: text, tables, key/values, layout and pictures from PDFs, scans and Office files.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'ak_live_... or ak_test_...' } } },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  await app.register(operationsRoutes(deps));
  await servePlayground(app);
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(async (api) => {
    api.decorateRequest('principal', null as never);
    const counters = requestCounters(deps.store);
    api.addHook('onRequest', async (request, reply) => {
      request.principal = await authenticate(deps.store.db, request);
      await enforceLimits(request.principal, reply, counters, deps.config);
    });
    await api.register(documentRoutes(deps));
    await api.register(pageRoutes(deps));
    await api.register(queryRoutes(deps));
    await api.register(imageRoutes(deps));
    await api.register(accountRoutes(deps));
    await api.register(usageRoutes(deps));
  }, { prefix: '/api/v1' });

  return app;
}

/** Built by `npm run build` (scripts/build-playground.mjs) next to the compiled server. */
const PLAYGROUND_DIR = fileURLToPath(new URL('../playground/', import.meta.url));

/**
 * The playground at `/`: its page, script and styles, each registered as its own route (no
 * wildcard, so unknown paths keep the API's 404). The page shows what documents say, so it may load
 * nothing but its own files and talk to nothing but this server.
 */
async function servePlayground(app: FastifyInstance): Promise<void> {
  if (!existsSync(`${PLAYGROUND_DIR}index.html`)) {
    app.log.warn({ dir: PLAYGROUND_DIR }, 'playground not built (npm run build); / is not served');
    return;
  }
  await app.register(fastifyStatic, {
    root: PLAYGROUND_DIR,
    prefix: '/',
    wildcard: false,
    index: 'index.html',
    schemaHide: true,
    setHeaders(reply) {
      reply.header(
        'content-security-policy',
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
    },
  });
}

/** The address clients should use for links: FOLIO_PUBLIC_URL, else the request's own host. */
export function baseUrlOf(config: Config, request: { protocol: string; host: string }): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}

/** Only /healthz, /readyz and /metrics: what a worker-only process offers (FOLIO_METRICS_PORT). */
export async function buildOperationsApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, return503OnClosing: true });
  await app.register(operationsRoutes(deps));
  return app;
}
