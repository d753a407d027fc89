// One place turns every failure into docs/api.md's error body `{error: {type, message, ...extra}}`:
// FolioErrors, validation errors (422 with `details`), Fastify's and multipart's own errors,
// requests the router or Node's HTTP parser cannot take, and anything unexpected (500 with
// `request_id`). Messages are Folio's own words: a framework's or engine's text (which may name
// its internals, a file path or the URL sent) goes to the log under the request id, never to the
// client.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FolioError, invalidRequest, type ErrorType } from '../domain/errors.js';
import { newRequestId } from './request-id.js';
import { errorDetails } from './validation.js';

export function sendError(reply: FastifyReply, error: FolioError): FastifyReply {
  return reply.code(error.status).send({ error: { type: error.type, message: error.message, ...error.extra } });
}

const BY_CODE: Record<string, () => FolioError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new FolioError('payload_too_large', 'The request body is larger than the server accepts (1 MiB for JSON).'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    invalidRequest({ body: ['content type not accepted here; send application/json, or multipart/form-data for uploads'] }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => invalidRequest({ body: ['is empty; send a JSON object'] }),
  FST_ERR_CTP_INVALID_JSON_BODY: () => invalidRequest({ body: ['is not valid JSON'] }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => invalidRequest({ body: ['is not as long as its Content-Length header says'] }),
  FST_INVALID_MULTIPART_CONTENT_TYPE: () => invalidRequest({ body: ['is not multipart/form-data'] }),
  FST_MP_PREMATURE_CLOSE: () => invalidRequest({ body: ['ended before the upload form was complete'] }),
  FST_FILES_LIMIT: () => invalidRequest({ 'files[]': ['at most 10 files per request'] }),
  FST_PARTS_LIMIT: () => invalidRequest({ body: ['has too many parts'] }),
  FST_FIELDS_LIMIT: () => invalidRequest({ body: ['has too many fields'] }),
  FST_PROTO_VIOLATION: () => invalidRequest({ body: ['contains a forbidden property name'] }),
  FST_REQ_FILE_TOO_LARGE: () => new FolioError('payload_too_large', 'The file is larger than the plan allows.'),
  FST_ERR_VALIDATION: () => invalidRequest({ body: ['is invalid'] }),
};

export function toFolioError(error: FastifyError): FolioError | null {
  if (error instanceof FolioError) return error;
  if (error.validation) {
    return invalidRequest(errorDetails(error.validation as never));
  }
  // A SyntaxError of its own is not the client's: bad JSON in a body comes as FST_ERR_CTP_INVALID_JSON_BODY.
  if (error.code && BY_CODE[error.code]) return BY_CODE[error.code]();
  const status = error.statusCode ?? 500;
  if (status === 404) return new FolioError('not_found', 'Not found.');
  if (status === 413) return new FolioError('payload_too_large', 'The request is larger than the server accepts.');
  if (status === 415) return invalidRequest({ body: ['content type not accepted here'] });
  if (status >= 400 && status < 500) return invalidRequest({ body: ['could not be read as a request to this endpoint'] });
  return null;
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const folio = toFolioError(error);
  if (folio) {
    // The framework's own words stay in the log, beside the answer the client got.
    if (folio.status >= 500) request.log.error({ err: error }, 'request failed');
    else if (!(error instanceof FolioError)) request.log.info({ err: error, type: folio.type }, 'request refused');
    return sendError(reply, folio);
  }
  request.log.error({ err: error }, 'unexpected error');
  const type: ErrorType = 'internal_error';
  return reply.code(500).send({ error: { type, message: 'Something went wrong on our side. Quote the request id when you report it.', request_id: request.id } });
}

/** Unknown paths and methods (docs/decisions.md#errors). The path is not echoed back: it is whatever the client sent. */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, new FolioError('not_found', `There is no ${request.method} endpoint at that path; /api/v1/openapi.json lists them all.`));
}

/**
 * The router's refusals before any route or hook runs: a path with a malformed %-escape
 * (FST_ERR_BAD_URL) or a segment longer than any id (FST_ERR_MAX_PARAM_LENGTH). Neither names
 * anything Folio has, so both are 404s.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('x-request-id', request.id);
  request.log.info({ code: error.code }, 'request refused by the router');
  const why = error.code === 'FST_ERR_BAD_URL' ? 'the path is not a valid URL' : 'a part of the path is longer than any id';
  return sendError(reply, new FolioError('not_found', `There is nothing at that path: ${why}.`));
}

/** How a request Node's HTTP parser cannot read is answered: HTTP's own status, Folio's body. */
function clientErrorAnswer(code: string | undefined): { status: number; type: ErrorType; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, type: 'payload_too_large', message: 'The request line and headers are larger than the server accepts (16 KiB in all).' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, type: 'invalid_request', message: 'The request did not arrive in time.' };
    case 'HPE_INVALID_METHOD':
      return { status: 400, type: 'invalid_request', message: 'The request is not valid HTTP: its method is not one HTTP knows.' };
    default:
      return { status: 400, type: 'invalid_request', message: 'The request is not valid HTTP/1.1 and could not be read.' };
  }
}

/**
 * Node's `clientError`: bytes that are not a readable HTTP request (an unknown method, headers
 * over the limit, a malformed chunked body, a bad header). No Fastify request exists, so the
 * answer is written to the socket here, with a request id of its own, and the connection closed.
 * Fastify calls it bound to the instance.
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, type, message } = clientErrorAnswer(error.code);
  const id = writeRawError(socket, status, type, message);
  this.log.info({ reqId: id, code: error.code, status }, 'malformed request refused');
}

/** CONNECT asks for a tunnel, which Node hands over raw; Folio is no proxy. */
export function connectHandler(this: FastifyInstance, _request: unknown, socket: Duplex): void {
  const id = writeRawError(socket, 404, 'not_found', 'This server is not a proxy: CONNECT leads nowhere here.');
  this.log.info({ reqId: id }, 'CONNECT refused');
}

/** An error answer written straight to a socket, which is then closed; returns its request id. */
function writeRawError(socket: Duplex, status: number, type: ErrorType, message: string): string {
  const id = newRequestId();
  if (!socket.writable) {
    socket.destroy();
    return id;
  }
  const body = JSON.stringify({ error: { type, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
  );
  return id;
}
