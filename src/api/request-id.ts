// Request ids (`X-Request-Id`, `request_id` of a 500, `reqId` in the log): uniqueness is all they
// need, not order, so a UUID, cheaper per request than a ULID.
import { randomUUID } from 'node:crypto';

export function newRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '')}`;
}
