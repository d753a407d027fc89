// Plans, organizations, workspaces, keys and credit: the rows behind authentication and the
// admin CLI.
import type { Plan } from '../domain/plans.js';
import { generateKeySecret, hashKeySecret, keyPrefix } from '../domain/keys.js';
import { newId } from '../domain/ids.js';
import type { Mode } from '../domain/states.js';
import { preparedQuery, type Db, type Tx } from './database.js';
import type { PlansTable } from './schema.js';
import * as clock from '../domain/clock.js';
import { announceAccountChange } from './account-changes.js';

export function planFromRow(row: PlansTable): Plan {
  return {
    id: row.id,
    name: row.name,
    rate_limit_per_second: row.rate_limit_per_second,
    max_concurrent_jobs: row.max_concurrent_jobs,
    max_pages_per_document: row.max_pages_per_document,
    max_retention_seconds: row.max_retention_seconds,
    max_upload_bytes: row.max_upload_bytes,
    monthly_request_quota: row.monthly_request_quota,
    features: row.features === null ? null : (JSON.parse(row.features) as string[]),
  };
}

export async function getPlan(db: Tx, id: string): Promise<Plan | undefined> {
  const row = await db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
  return row && planFromRow(row);
}

export async function insertPlan(db: Tx, plan: Plan): Promise<void> {
  await db
    .insertInto('plans')
    .values({ ...plan, features: plan.features === null ? null : JSON.stringify(plan.features), created_at: clock.now() })
    .execute();
}

export interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
}

export async function findOrganizationBySlug(db: Tx, slug: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').select(['id', 'name', 'slug']).where('slug', '=', slug).executeTakeFirst();
}

export async function insertOrganization(db: Tx, name: string, slug: string): Promise<OrganizationRow> {
  const row = { id: newId('org'), name, slug, created_at: clock.now() };
  await db.insertInto('organizations').values(row).execute();
  return { id: row.id, name, slug };
}

export async function insertWorkspace(
  db: Tx,
  values: { organization_id: string; plan_id: string; name: string; balance_micro: number },
) {
  const row = { id: newId('ws'), ...values, held_micro: 0, suspended_at: null, created_at: clock.now() };
  await db.insertInto('workspaces').values(row).execute();
  return row;
}

export async function getWorkspace(db: Tx, id: string) {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface CreatedKey {
  id: string;
  name: string;
  prefix: string;
  mode: Mode;
  secret: string;
  expires_at: number | null;
}

export async function insertKey(
  db: Tx,
  values: { workspace_id: string; mode: Mode; name: string; expires_at: number | null },
): Promise<CreatedKey> {
  const secret = generateKeySecret(values.mode);
  const row = {
    id: newId('key'),
    workspace_id: values.workspace_id,
    name: values.name,
    prefix: keyPrefix(secret),
    secret_hash: hashKeySecret(secret),
    mode: values.mode,
    created_at: clock.now(),
    expires_at: values.expires_at,
    revoked_at: null,
  };
  await db.insertInto('api_keys').values(row).execute();
  return { id: row.id, name: row.name, prefix: row.prefix, mode: row.mode, secret, expires_at: row.expires_at };
}

export async function revokeKey(db: Tx, id: string): Promise<number | null> {
  const now = clock.now();
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) {
    await announceAccountChange(db);
    return now;
  }
  const existing = await db.selectFrom('api_keys').select('revoked_at').where('id', '=', id).executeTakeFirst();
  return existing ? existing.revoked_at : null;
}

/** Adds (or with a negative amount removes) credit; returns the new available credit. */
export async function addCredits(db: Tx, workspaceId: string, micro: number): Promise<number | null> {
  await db
    .updateTable('workspaces')
    .set((eb) => ({ balance_micro: eb('balance_micro', '+', micro) }))
    .where('id', '=', workspaceId)
    .execute();
  const row = await db
    .selectFrom('workspaces')
    .select(['balance_micro', 'held_micro'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return row ? row.balance_micro - row.held_micro : null;
}

export async function setSuspended(db: Tx, workspaceId: string, suspended: boolean): Promise<boolean> {
  const result = await db
    .updateTable('workspaces')
    .set({ suspended_at: suspended ? clock.now() : null })
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await announceAccountChange(db);
  return true;
}

/** Everything a request needs to know about its key, in one indexed query. */
const principalQuery = preparedQuery((db: Tx, secretHash: string) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('workspaces as w', 'w.id', 'k.workspace_id')
    .innerJoin('organizations as o', 'o.id', 'w.organization_id')
    .innerJoin('plans as p', 'p.id', 'w.plan_id')
    .select([
      'k.id as key_id',
      'k.name as key_name',
      'k.prefix as key_prefix',
      'k.mode as key_mode',
      'k.expires_at as key_expires_at',
      'k.revoked_at as key_revoked_at',
      'w.id as workspace_id',
      'w.suspended_at as workspace_suspended_at',
      'o.id as organization_id',
      'o.name as organization_name',
      'o.slug as organization_slug',
      'p.id as plan_id',
      'p.name as plan_name',
      'p.rate_limit_per_second',
      'p.max_concurrent_jobs',
      'p.max_pages_per_document',
      'p.max_retention_seconds',
      'p.max_upload_bytes',
      'p.monthly_request_quota',
      'p.features',
    ])
    .where('k.secret_hash', '=', secretHash),
);

export async function findPrincipal(db: Db, secretHash: string) {
  return (await principalQuery(db, secretHash))[0];
}
