// One webhook delivery over HTTP: a POST under the URL rules of URL documents (no loopback,
// private or reserved address unless FOLIO_URL_ALLOW_PRIVATE=1, checked when the connection is
// made, since DNS may have changed since the webhook was created), within a time limit, no redirect
// followed, and only a short excerpt of the answer read. What went wrong is said in Folio's words;
// Node's own error goes to the log only.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isPublicAddress, NETWORK_TROUBLE } from '../pipeline/intake/fetch-url.js';

/** Bytes of the answer read at most; the rest is never read. */
const EXCERPT_BYTES = 1024;
/** Characters of it kept. */
const EXCERPT_CHARS = 200;

export interface PostOutcome {
  /** The receiver's status; null when no answer came. */
  statusCode: number | null;
  /** Folio's words for a failure; null on a 2xx. */
  error: string | null;
  excerpt: string | null;
  durationMs: number;
  /** What the network said, for the log. */
  cause?: unknown;
  /** The process is stopping and cut the attempt short: it is not an attempt to record. */
  stopped?: boolean;
}

export interface PostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Aborted when the process stops. */
  signal: AbortSignal;
}

const PRIVATE = 'The webhook URL points to a private or reserved network address, which Folio does not call.';

function excerptOf(chunks: Buffer[]): string | null {
  const text = Buffer.concat(chunks)
    .subarray(0, EXCERPT_BYTES)
    .toString('utf8')
    .replace(/[\u0000-\u001f\u007f\ufffd]+/g, ' ')
    .trim()
    .slice(0, EXCERPT_CHARS);
  return text || null;
}

export function postWebhook(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ statusCode: null, error: 'The webhook URL cannot be read as a URL.', excerpt: null, durationMs: 0 });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return Promise.resolve({ statusCode: null, error: 'The webhook URL is not http or https.', excerpt: null, durationMs: 0 });
  }
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(host) && !isPublicAddress(host)) {
    return Promise.resolve({ statusCode: null, error: PRIVATE, excerpt: null, durationMs: 0 });
  }
  if (options.signal.aborted) return Promise.resolve({ statusCode: null, error: null, excerpt: null, durationMs: 0, stopped: true });

  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const answered = (): PostOutcome => {
      const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
      const error = ok
        ? null
        : statusCode !== null && statusCode >= 300 && statusCode < 400
          ? `The receiver answered HTTP ${statusCode}; redirects are not followed.`
          : `The receiver answered HTTP ${statusCode}.`;
      return { statusCode, error, excerpt: excerptOf(chunks), durationMs: elapsed() };
    };
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onStop);
      req.destroy();
      resolve(outcome);
    };
    // Once the status is in, a slow or endless body only shortens the excerpt.
    const timer = setTimeout(() => {
      finish(statusCode !== null ? answered() : { statusCode: null, error: `The receiver did not answer within ${Math.round(options.timeoutMs / 100) / 10} s.`, excerpt: null, durationMs: elapsed() });
    }, options.timeoutMs);
    const onStop = () => finish({ statusCode: null, error: null, excerpt: null, durationMs: elapsed(), stopped: true });
    options.signal.addEventListener('abort', onStop, { once: true });

    const req = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      // A fresh connection each time, each one checked by the guard as it is made.
      agent: false,
      ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }),
    });
    req.on('response', (response) => {
      statusCode = response.statusCode ?? 0;
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= EXCERPT_BYTES) finish(answered());
      });
      response.on('end', () => finish(answered()));
      response.on('error', () => finish(answered()));
      response.on('close', () => finish(answered()));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (statusCode !== null) return finish(answered());
      const reason =
        error.code === 'EPRIVATE'
          ? PRIVATE
          : `The receiver could not be reached: ${NETWORK_TROUBLE[error.code ?? ''] ?? 'the connection broke off'}.`;
      finish({ statusCode: null, error: reason, excerpt: null, durationMs: elapsed(), cause: error });
    });
    req.end(body);
  });
}
