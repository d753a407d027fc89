// What every HTTP answer of a Folio server has, whatever produced it: docs/api.md's error shape, an
// X-Request-Id, and Folio's own words. Fastify, its router and Node's HTTP parser each have
// answers of their own (a 503 while closing, a 414 for a long id, a bare 400 for a missing Host,
// an HTML-free JSON of their own making); the options and hooks here replace every one of them.
// Also the guards every request meets before a route: what no route could store or read.
import type { Server } from 'node:http';
import type { FastifyBaseLogger, FastifyHttpOptions, FastifyInstance } from 'fastify';
import { FolioError, invalidRequest } from '../domain/errors.js';
import { holdsNul, jsonTextDepth, MAX_JSON_DEPTH, NUL_REFUSED } from '../domain/json-limits.js';
import { clientErrorHandler, connectHandler, errorHandler, frameworkErrorHandler, notFoundHandler } from './errors.js';
import { newRequestId } from './request-id.js';

/** Fastify's options for a server that answers only in Folio's shape. */
export function serverOptions(logger?: FastifyBaseLogger): FastifyHttpOptions<Server> {
  return {
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    genReqId: newRequestId,
    // Fastify's own 503 while closing has its own body and no request id: `useEnvelope` answers it.
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // Node answers a request without Host with a bare 400 of its own: `useEnvelope` answers it.
    http: { requireHostHeader: false },
  };
}

/** The error shape, request ids, and the refusals every request meets before its route. */
export function useEnvelope(app: FastifyInstance): void {
  app.server.on('connect', connectHandler.bind(app));
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) {
      // A request that reached a closing server is worth sending again to another, or to this one restarted.
      return reply
        .code(503)
        .header('retry-after', '1')
        .header('connection', 'close')
        .send({ error: { type: 'internal_error', message: 'The server is shutting down; send the request again in a moment.', request_id: request.id } });
    }
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
}

/**
 * JSON bodies, refused before they are parsed when nested past MAX_JSON_DEPTH (whatever walks
 * them next, validation, the idempotency hash, serialization, would overflow the stack), and
 * after when a string holds U+0000.
 */
export function useBoundedJson(app: FastifyInstance): void {
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
}
