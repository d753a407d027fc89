// The rules of webhooks that do not depend on where they run: which events exist, how a body is
// signed, and when a failed delivery is tried again. The API, the worker that sends and the tests
// all read them from here, so the schedule and the signature cannot differ between them.
import { createHmac, randomBytes } from 'node:crypto';

export const WEBHOOK_EVENT_TYPES = ['document.completed', 'document.failed', 'document.expired', 'query.completed', 'query.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Webhooks a workspace may have in one mode: every event is sent to each, so they are few. */
export const MAX_WEBHOOKS = 20;

/** How long the log of finished deliveries is kept (GET /webhooks/{id}/deliveries), far past the retry window. */
export const WEBHOOK_LOG_MS = 30 * 24 * 3600 * 1000;

/** The longest webhook URL accepted (as for URL documents). */
export const MAX_WEBHOOK_URL_LENGTH = 8192;

/** `whsec_` and 256 random bits: the key of the HMAC, shown once at creation. */
/**
 * A webhook's URL as Folio shows it: credentials in it (`https://user:pass@host/...`, which
 * receivers behind basic authentication need and which Folio sends) become `***`, so a listing
 * never hands them to whoever reads it. The stored URL keeps them.
 */
export function shownWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (!parsed.username && !parsed.password) return url;
  parsed.username = '***';
  parsed.password = '';
  return parsed.href;
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The `Folio-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. The time
 * is inside what is signed, so a captured request cannot be replayed later under a new time, and
 * a receiver can refuse old ones.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * Waits after each failed attempt, in units of the retry base (10 s by default): 10 s, 1 min,
 * 5 min, 30 min, 2 h, then every 6 h. A receiver that is down for a deploy gets the event within
 * seconds of coming back; one down for hours is not hammered meanwhile.
 */
const RETRY_STEPS = [1, 6, 30, 180, 720, 2160];
/** Attempts stop this many retry bases after the event: 24 h at the default base. */
const RETRY_WINDOW = 8640;

/** How long after the event attempts go on, at `retryBaseMs`. */
export function retryWindowMs(retryBaseMs: number): number {
  return RETRY_WINDOW * retryBaseMs;
}

/**
 * When to try again after `attemptsMade` attempts have failed, the last at `now`; null once the
 * window after the event (`eventAt`) has passed. The last retry is moved to the window's end rather
 * than dropped, so a receiver is given the whole day.
 */
export function nextAttemptAt(eventAt: number, attemptsMade: number, now: number, retryBaseMs: number): number | null {
  const end = eventAt + retryWindowMs(retryBaseMs);
  if (now >= end) return null;
  const step = RETRY_STEPS[Math.min(Math.max(attemptsMade, 1), RETRY_STEPS.length) - 1];
  return Math.min(now + step * retryBaseMs, end);
}
