// One place turns every failure into SPEC.md's error body `{error: {type, message, ...extra}}`:
// FolioErrors, validation errors (422 with `details`), Fastify's and multipart's own errors, and
// anything unexpected (500 with `request_id`, never a stack trace).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { FolioError, invalidRequest, type ErrorType } from '../domain/errors.js';
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
  FST_INVALID_MULTIPART_CONTENT_TYPE: () => invalidRequest({ body: ['is not multipart/form-data'] }),
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
  if (error.code && BY_CODE[error.code]) return BY_CODE[error.code]();
  if (error instanceof SyntaxError) return invalidRequest({ body: ['is not valid JSON'] });
  const status = error.statusCode ?? 500;
  if (status === 404) return new FolioError('not_found', 'Not found.');
  if (status === 413) return new FolioError('payload_too_large', error.message);
  if (status === 415) return invalidRequest({ body: ['content type not accepted here'] });
  if (status >= 400 && status < 500) return invalidRequest({ body: [error.message] });
  return null;
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const folio = toFolioError(error);
  if (folio) {
    if (folio.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, folio);
  }
  request.log.error({ err: error }, 'unexpected error');
  const type: ErrorType = 'internal_error';
  return reply.code(500).send({ error: { type, message: 'Something went wrong on our side. Quote the request id when you report it.', request_id: request.id } });
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, new FolioError('not_found', `There is no ${request.method} ${request.url.split('?')[0]}.`));
}
