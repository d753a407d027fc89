// Idempotency-Key on POST (docs/decisions.md#beyond-the-spec): the same key and body within 24 hours return the first
// answer and charge once; the same key with another body is a 422; a key whose first request is
// still running is a 409 conflict. The handler writes the answer in the transaction that creates
// its documents (`remember`), so an API process killed mid-request leaves no document without
// its answer: the client's retry either replays the answer or, once the dead claim is stale
// (FOLIO_IDEMPOTENCY_STALE_MS), is accepted afresh.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as clock from '../domain/clock.js';
import { FolioError, invalidRequest } from '../domain/errors.js';
import type { Db, Tx } from '../store/database.js';
import { claimKey, rememberAnswer, releaseKey } from '../store/idempotency.js';
import { scopeOf } from './auth.js';

const HEADER = 'idempotency-key';

export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers[HEADER];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw invalidRequest({ 'Idempotency-Key': ['must be 1 to 255 visible ASCII characters'] });
  }
  return key;
}

/** A stable hash of a JSON body: keys sorted, so the same object in another order matches. */
export function hashJson(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]))
        : v;
  return createHash('sha256').update(JSON.stringify(canonical(value))).digest('hex');
}

/** Writes the answer in the transaction that accepted the request. */
export type Remember = (tx: Tx, answer: { status: number; body: unknown }) => Promise<void>;

/** Runs `handle` once per key and body; replays the remembered answer otherwise. */
export async function idempotent(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  key: string | null,
  requestHash: string,
  staleMs: number,
  handle: (remember: Remember) => Promise<{ status: number; body: unknown }>,
): Promise<FastifyReply> {
  if (key === null) {
    const answer = await handle(async () => undefined);
    return reply.code(answer.status).send(answer.body);
  }
  const scope = scopeOf(request.principal);
  const claim = await claimKey(db, scope, key, requestHash, clock.now(), staleMs);
  if (claim.kind === 'mismatch') throw invalidRequest({ 'Idempotency-Key': ['was already used with a different request body'] });
  if (claim.kind === 'in_progress') throw new FolioError('conflict', 'A request with this Idempotency-Key is still being processed; retry later.');
  if (claim.kind === 'replay') return reply.code(claim.status).header('idempotent-replayed', 'true').send(claim.body);
  let remembered = false;
  const remember: Remember = async (tx, answer) => {
    if (!(await rememberAnswer(tx, scope, key, claim.token, answer.status, answer.body))) {
      throw new FolioError('conflict', 'Another request with this Idempotency-Key took it over; retry to get its answer.');
    }
    remembered = true;
  };
  try {
    const answer = await handle(remember);
    return reply.code(answer.status).send(answer.body);
  } catch (error) {
    if (!remembered) await releaseKey(db, scope, key, claim.token).catch(() => undefined);
    throw error;
  }
}
