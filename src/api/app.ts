// The HTTP application: a Fastify instance with request ids, the error shape, validation that
// reports `details`, authentication for /api/v1, the routes, and the OpenAPI document built
// from the same schemas that validate and serialize.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AppDeps, OperationsDeps } from './deps.js';
import { Authenticator } from './auth.js';
import { enforceLimits } from './limits.js';
import { requestCounters } from '../store/open-counters.js';
import { serverOptions, useBoundedJson, useEnvelope } from './envelope.js';
import { ErrorBody } from './schemas/common.js';
import { SHARED_SCHEMAS } from './schemas/resources.js';
import { addSharedSchemas, bodyAjv, queryAjv } from './validation.js';
import { accountRoutes } from './routes/account.js';
import { documentRoutes } from './routes/documents.js';
import { imageRoutes } from './routes/images.js';
import { pageRoutes } from './routes/pages.js';
import { chunkRoutes } from './routes/chunks.js';
import { queryRoutes } from './routes/queries.js';
import { operationsRoutes } from './routes/operations.js';
import { httpDuration, httpRequests } from '../metrics.js';
import { usageRoutes } from './routes/usage.js';
import { webhookRoutes } from './routes/webhooks.js';
import { PictureAnswers } from './picture-answers.js';
import { WEBHOOK_SCHEMAS } from './schemas/webhooks.js';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks.js';
import { CLIENT_IMPORT, PACKAGE_NAME } from '../domain/package-name.js';

export async function buildApp(deps: AppDeps, options: { logger?: FastifyBaseLogger } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...serverOptions(options.logger),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
  });
  useEnvelope(app);

  const shared = [ErrorBody, ...SHARED_SCHEMAS, ...WEBHOOK_SCHEMAS];
  addSharedSchemas(shared);
  for (const schema of shared) app.addSchema(schema);
  app.setValidatorCompiler(({ schema, httpPart, contentType }) => {
    // The upload form is documented in its route schema but read part by part (src/api/submit.ts).
    if (contentType === 'multipart/form-data') return () => true;
    return (httpPart === 'body' ? bodyAjv : queryAjv).compile(schema);
  });
  // Only JSON and multipart bodies exist in this API; anything else is a 422 (docs/decisions.md#errors).
  app.removeContentTypeParser('text/plain');
  useBoundedJson(app);
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
        description: `Self-hosted document processing: text, tables, key/values, layout and pictures from PDFs, scans and Office files. The npm package ${PACKAGE_NAME} runs it (the folio command) and holds a typed TypeScript client, imported from '${CLIENT_IMPORT}'.`,
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'ak_live_... or ak_test_...' } } },
      security: [{ bearer: [] }],
      webhooks: webhookEventsDocument(),
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  await app.register(operationsRoutes(deps));
  await servePlayground(app);
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(async (api) => {
    api.decorateRequest('principal', null as never);
    const counters = requestCounters(deps.store, deps.config, api.log);
    const authenticator = new Authenticator(deps.store);
    api.addHook('onClose', async () => {
      await counters.close();
      await authenticator.close();
    });
    await Promise.all([counters.started(), authenticator.start()]);
    api.addHook('onRequest', async (request, reply) => {
      request.principal = await authenticator.authenticate(request);
      await enforceLimits(request.principal, reply, counters, deps.config);
    });
    await api.register(documentRoutes(deps));
    // One count of the answers with pictures' bytes under way, shared by both routes that write them.
    const pictureAnswers = new PictureAnswers();
    await api.register(pageRoutes(deps, pictureAnswers));
    await api.register(chunkRoutes(deps));
    await api.register(queryRoutes(deps));
    await api.register(imageRoutes(deps, pictureAnswers));
    await api.register(accountRoutes(deps));
    await api.register(usageRoutes(deps));
    await api.register(webhookRoutes(deps));
  }, { prefix: '/api/v1' });

  return app;
}

/** OpenAPI 3.1's `webhooks`: what Folio POSTs to a receiver, one entry per event type, signed as docs/api.md says. */
function webhookEventsDocument() {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: `The ${type} event`,
          description: 'Signed with the Folio-Signature header: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the webhook\'s secret>.',
          parameters: [{ name: 'Folio-Signature', in: 'header', required: true, schema: { type: 'string' as const } }],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } } },
          responses: { '2XX': { description: 'Received. Any other answer, or none within the time limit (10 s by default), is tried again for a day.' } },
        },
      },
    ]),
  );
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

/** Only /healthz, /readyz and /metrics: what a worker-only process offers (FOLIO_METRICS_PORT). */
export async function buildOperationsApp(deps: OperationsDeps): Promise<FastifyInstance> {
  const app = Fastify(serverOptions());
  useEnvelope(app);
  await app.register(operationsRoutes(deps));
  return app;
}
