// Bearer-key authentication (docs/api.md "Authentication"): one indexed lookup of the key's hash
// gives the key, workspace, organization and plan. Missing, unknown, revoked and expired keys
// are 401; a suspended workspace is 403 (docs/decisions.md#errors).
//
// On PostgreSQL that lookup is a round trip on every request, most of them polls; so a process
// keeps what it read about a key for KEY_CACHE_MS and forgets all of it the moment any process
// revokes a key or suspends a workspace (store/account-changes.ts), or while it cannot hear such
// changes. Credit is never kept: the routes that need it read it when they need it.
import type { FastifyRequest } from 'fastify';
import { FolioError } from '../domain/errors.js';
import { hashKeySecret, keyModeOf } from '../domain/keys.js';
import type { Plan } from '../domain/plans.js';
import type { Mode } from '../domain/states.js';
import { findPrincipal, planFromRow } from '../store/accounts.js';
import { accountChanges } from '../store/account-changes.js';
import type { ChannelListener } from '../store/channel-listener.js';
import type { Store } from '../store/index.js';
import * as clock from '../domain/clock.js';

export interface Principal {
  key: { id: string; name: string; prefix: string; mode: Mode };
  workspaceId: string;
  organization: { id: string; name: string; slug: string };
  plan: Plan;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

/** How long a process answers from what it read about a key, when it hears of every change. */
const KEY_CACHE_MS = 5_000;
/** Keys remembered at most; past it the memory starts again. */
const KEY_CACHE_ENTRIES = 10_000;

type PrincipalRow = NonNullable<Awaited<ReturnType<typeof findPrincipal>>>;

const unauthorized = (message: string) => new FolioError('unauthorized', message);

export class Authenticator {
  private readonly remembered = new Map<string, { row: PrincipalRow; until: number }>();
  private readonly changes: ChannelListener | null;

  constructor(private readonly store: Store) {
    this.changes = store.dialect === 'postgres' ? accountChanges(store, () => this.remembered.clear()) : null;
  }

  async start(): Promise<void> {
    await this.changes?.listen();
  }

  async close(): Promise<void> {
    await this.changes?.close();
  }

  async authenticate(request: FastifyRequest): Promise<Principal> {
    const header = request.headers.authorization;
    if (!header) throw unauthorized('Send your API key as "Authorization: Bearer <key>".');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('The Authorization header must be "Bearer <key>".');
    const secret = match[1];
    if (!keyModeOf(secret)) throw unauthorized('That is not a Folio API key (keys start with ak_live_ or ak_test_).');
    const row = await this.lookUp(hashKeySecret(secret));
    if (!row) throw unauthorized('The API key is not valid.');
    if (row.key_revoked_at !== null) throw unauthorized('The API key has been revoked.');
    if (row.key_expires_at !== null && row.key_expires_at <= clock.now()) throw unauthorized('The API key has expired.');
    if (row.workspace_suspended_at !== null) throw new FolioError('forbidden', 'The workspace of this key is suspended.');
    return {
      key: { id: row.key_id, name: row.key_name, prefix: row.key_prefix, mode: row.key_mode },
      workspaceId: row.workspace_id,
      organization: { id: row.organization_id, name: row.organization_name, slug: row.organization_slug },
      plan: planFromRow({ ...row, id: row.plan_id, name: row.plan_name, created_at: 0 }),
    };
  }

  private async lookUp(secretHash: string): Promise<PrincipalRow | undefined> {
    // Only while changes are heard: a process that might miss a revocation reads every time.
    if (!this.changes?.listening) return findPrincipal(this.store.db, secretHash);
    const now = Date.now();
    const known = this.remembered.get(secretHash);
    if (known && known.until > now) return known.row;
    const row = await findPrincipal(this.store.db, secretHash);
    if (row) {
      if (this.remembered.size >= KEY_CACHE_ENTRIES) this.remembered.clear();
      this.remembered.set(secretHash, { row, until: now + KEY_CACHE_MS });
    }
    return row;
  }
}

export function scopeOf(principal: Principal) {
  return { workspace_id: principal.workspaceId, mode: principal.key.mode };
}
