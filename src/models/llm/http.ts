// One JSON request to a model vendor, made patiently: rate limits (429), overload (529), server
// errors, timeouts and dropped connections are tried again after a wait that doubles each time,
// or after exactly as long as the vendor asks (`Retry-After`, `retry-after-ms`). A request the
// vendor refuses for good (bad key, bad request) is not repeated. When every attempt fails the
// run fails with ModelUnavailable (or the caller's own error): its message says what happened in
// Folio's words, for the client; the vendor's own words are its `cause`, for the log (they may
// name the operator's account, key or endpoint).
import { setTimeout as sleep } from 'node:timers/promises';
import type { ModelSettings } from './settings.js';
import { ModelUnavailable } from './types.js';

/** The longest wait Folio honours between two attempts, whatever the vendor asks. */
const MAX_WAIT_MS = 60_000;

const RETRYABLE_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);

export interface JsonRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** The run's signal: when it aborts (lease lost, time limit) nothing is retried. */
  signal: AbortSignal;
  /** The vendor's name, for messages. */
  vendor: string;
  /** The error thrown when every attempt failed; ModelUnavailable unless the caller is not a model. */
  failure?: (problem: string, options: ErrorOptions) => Error;
}

/** What came back: the parsed body of a 2xx answer. */
export async function postJson(request: JsonRequest, settings: Pick<ModelSettings, 'timeoutMs' | 'retries' | 'retryBaseMs'>): Promise<unknown> {
  const payload = JSON.stringify(request.body);
  let lastProblem = '';
  let lastDetail = '';
  for (let attempt = 0; attempt <= settings.retries; attempt++) {
    request.signal.throwIfAborted();
    let waitMs = settings.retryBaseMs * 2 ** attempt;
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...request.headers },
        body: payload,
        signal: AbortSignal.any([request.signal, AbortSignal.timeout(settings.timeoutMs)]),
      });
      const text = await response.text();
      if (response.ok) {
        try {
          return JSON.parse(text);
        } catch {
          lastProblem = `${request.vendor} answered ${response.status} with a body that is not JSON`;
          lastDetail = text.slice(0, 300);
          continue;
        }
      }
      lastProblem = `${request.vendor} answered ${response.status} (${statusMeaning(response.status)})`;
      lastDetail = vendorMessage(text);
      if (!RETRYABLE_STATUS.has(response.status)) break;
      waitMs = requestedWait(response.headers) ?? waitMs;
    } catch (error) {
      request.signal.throwIfAborted();
      const name = (error as Error).name;
      lastProblem = name === 'TimeoutError' ? `${request.vendor} did not answer within ${settings.timeoutMs} ms` : `${request.vendor} could not be reached`;
      lastDetail = describe(error);
    }
    if (attempt < settings.retries) await sleep(Math.min(waitMs, MAX_WAIT_MS), undefined, { signal: request.signal });
  }
  const cause = { cause: lastDetail || undefined };
  throw request.failure ? request.failure(lastProblem, cause) : new ModelUnavailable(`The model provider failed: ${lastProblem}.`, cause);
}

/** `Retry-After` (seconds or an HTTP date) or OpenAI's `retry-after-ms`, in milliseconds. */
export function requestedWait(headers: Headers): number | null {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** What an HTTP status from a vendor means for the operator who set the vendor up. */
function statusMeaning(status: number): string {
  if (status === 401 || status === 403) return 'the API key set for it was refused';
  if (status === 404) return 'the model or endpoint set for it does not exist';
  if (status === 429) return 'it is rate limiting this server';
  if (status >= 500) return 'a fault on its side';
  return 'it refused the request';
}

/** The vendor's own words from an error body (`{error: {message}}` for both vendors), shortened. */
function vendorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    if (typeof message === 'string' && message) return message.slice(0, 300);
  } catch {
    // not JSON: the raw text below
  }
  return text.slice(0, 300) || '(empty body)';
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
