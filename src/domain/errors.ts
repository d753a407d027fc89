// The error taxonomy of the API (docs/api.md "Errors", docs/decisions.md#errors). Every layer throws FolioError;
// the HTTP layer turns it into `{error: {type, message, ...extra}}` with the status below.

export const ERROR_STATUS = {
  unauthorized: 401,
  forbidden: 403,
  not_entitled: 403,
  not_found: 404,
  rate_limited: 429,
  quota_exceeded: 402,
  invalid_request: 422,
  insufficient_credits: 402,
  document_not_ready: 409,
  document_expired: 410,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  document_too_large: 422,
  internal_error: 500,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;

/** Field name (dotted path, `body` for the whole body) to messages. */
export type ErrorDetails = Record<string, string[]>;

export class FolioError extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'FolioError';
  }

  get status(): number {
    return ERROR_STATUS[this.type];
  }
}

export function invalidRequest(details: ErrorDetails, message?: string): FolioError {
  return new FolioError('invalid_request', message ?? summarizeDetails(details), { details });
}

export function summarizeDetails(details: ErrorDetails): string {
  const parts = Object.entries(details).map(([field, messages]) => `${field}: ${messages.join('; ')}`);
  return parts.length ? `Invalid request. ${parts.join('. ')}.` : 'Invalid request.';
}

export function addDetail(details: ErrorDetails, field: string, message: string): void {
  (details[field] ??= []).push(message);
}

export const notFound = (what = 'document'): FolioError =>
  new FolioError('not_found', `No ${what} with that id for this key.`);
