// Bearer-key authentication (docs/api.md "Authentication"): one indexed lookup of the key's hash
// gives the key, workspace, organization and plan. Missing, unknown, revoked and expired keys
// are 401; a suspended workspace is 403 (docs/decisions.md#errors).
import type { FastifyRequest } from 'fastify';
import { FolioError } from '../domain/errors.js';
import { hashKeySecret, keyModeOf } from '../domain/keys.js';
import type { Plan } from '../domain/plans.js';
import type { Mode } from '../domain/states.js';
import { findPrincipal, planFromRow } from '../store/accounts.js';
import type { Db } from '../store/database.js';
import * as clock from '../domain/clock.js';

export interface Principal {
  key: { id: string; name: string; prefix: string; mode: Mode };
  workspaceId: string;
  organization: { id: string; name: string; slug: string };
  plan: Plan;
  /** Workspace credit when the request arrived. */
  balanceMicro: number;
  heldMicro: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

const unauthorized = (message: string) => new FolioError('unauthorized', message);

export async function authenticate(db: Db, request: FastifyRequest): Promise<Principal> {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('Send your API key as "Authorization: Bearer <key>".');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('The Authorization header must be "Bearer <key>".');
  const secret = match[1];
  if (!keyModeOf(secret)) throw unauthorized('That is not a Folio API key (keys start with ak_live_ or ak_test_).');
  const row = await findPrincipal(db, hashKeySecret(secret));
  if (!row) throw unauthorized('The API key is not valid.');
  if (row.key_revoked_at !== null) throw unauthorized('The API key has been revoked.');
  if (row.key_expires_at !== null && row.key_expires_at <= clock.now()) throw unauthorized('The API key has expired.');
  if (row.workspace_suspended_at !== null) throw new FolioError('forbidden', 'The workspace of this key is suspended.');
  return {
    key: { id: row.key_id, name: row.key_name, prefix: row.key_prefix, mode: row.key_mode },
    workspaceId: row.workspace_id,
    organization: { id: row.organization_id, name: row.organization_name, slug: row.organization_slug },
    plan: planFromRow({ ...row, id: row.plan_id, name: row.plan_name, created_at: 0 }),
    balanceMicro: row.balance_micro,
    heldMicro: row.held_micro,
  };
}

export function scopeOf(principal: Principal) {
  return { workspace_id: principal.workspaceId, mode: principal.key.mode };
}
