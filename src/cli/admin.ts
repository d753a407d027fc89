// `folio admin ...` (docs/decisions.md#administration): every command prints one JSON object on stdout and exits 0,
// or prints {"error": {"type", "message"}} on stderr and exits non-zero.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { setClockOffset } from '../domain/clock.js';
import { FolioError, invalidRequest } from '../domain/errors.js';
import { DEFAULT_PLAN_ID, type Plan } from '../domain/plans.js';
import { addCredits, findOrganizationBySlug, getPlan, getWorkspace, insertKey, insertOrganization, insertPlan, insertWorkspace, revokeKey, setSuspended } from '../store/accounts.js';
import { openStore, type Store } from '../store/index.js';
import { isoTime } from '../store/wire.js';
import * as clock from '../domain/clock.js';

type Flags = Record<string, string | boolean | undefined>;

function parse(argv: string[], names: string[], booleans: string[] = []): Flags {
  const options = Object.fromEntries([
    ...names.map((name) => [name, { type: 'string' as const }]),
    ...booleans.map((name) => [name, { type: 'boolean' as const }]),
  ]);
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Flags;
  } catch (error) {
    throw invalidRequest({ arguments: [(error as Error).message] }, (error as Error).message);
  }
}

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value === '') throw invalidRequest({ [name]: ['is required'] }, `--${name} is required.`);
  return value;
}

function integer(flags: Flags, name: string, fallback: number, min = 0): number {
  const value = flags[name];
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw invalidRequest({ [name]: [`must be an integer of at least ${min}`] }, `--${name} must be an integer of at least ${min}.`);
  return n;
}

function slugify(name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48) || 'org';
}

const PLAN_FLAGS = [
  'id',
  'name',
  'rate-limit-per-second',
  'max-concurrent-jobs',
  'max-pages-per-document',
  'max-retention-seconds',
  'max-upload-bytes',
  'monthly-request-quota',
  'features',
];

async function planCreate(store: Store, argv: string[]): Promise<unknown> {
  const flags = parse(argv, PLAN_FLAGS);
  const base = (await getPlan(store.db, DEFAULT_PLAN_ID))!;
  const features = typeof flags.features === 'string' ? flags.features.split(',').map((f) => f.trim()).filter(Boolean) : null;
  const plan: Plan = {
    id: required(flags, 'id'),
    name: required(flags, 'name'),
    rate_limit_per_second: integer(flags, 'rate-limit-per-second', base.rate_limit_per_second, 1),
    max_concurrent_jobs: integer(flags, 'max-concurrent-jobs', base.max_concurrent_jobs, 1),
    max_pages_per_document: integer(flags, 'max-pages-per-document', base.max_pages_per_document, 1),
    max_retention_seconds: integer(flags, 'max-retention-seconds', 0),
    max_upload_bytes: integer(flags, 'max-upload-bytes', base.max_upload_bytes, 1),
    monthly_request_quota: integer(flags, 'monthly-request-quota', 0),
    features,
  };
  if (await getPlan(store.db, plan.id)) throw new FolioError('conflict', `A plan with id "${plan.id}" already exists.`);
  await insertPlan(store.db, plan);
  return plan;
}

async function workspaceCreate(store: Store, argv: string[]): Promise<unknown> {
  const flags = parse(argv, ['org', 'slug', 'plan', 'credits-micro', 'name']);
  const orgName = required(flags, 'org');
  const slug = typeof flags.slug === 'string' ? slugify(flags.slug) : slugify(orgName);
  const planId = typeof flags.plan === 'string' ? flags.plan : DEFAULT_PLAN_ID;
  const credits = integer(flags, 'credits-micro', 0);
  if (!(await getPlan(store.db, planId))) throw new FolioError('not_found', `No plan with id "${planId}".`);
  return store.writeTransaction(async (tx) => {
    // An existing organization (same slug) gets another workspace.
    const organization = (await findOrganizationBySlug(tx, slug)) ?? (await insertOrganization(tx, orgName, slug));
    const workspace = await insertWorkspace(tx, {
      organization_id: organization.id,
      plan_id: planId,
      name: typeof flags.name === 'string' ? flags.name : 'default',
      balance_micro: credits,
    });
    const live = await insertKey(tx, { workspace_id: workspace.id, mode: 'live', name: 'default live key', expires_at: null });
    const test = await insertKey(tx, { workspace_id: workspace.id, mode: 'test', name: 'default test key', expires_at: null });
    return {
      organization,
      workspace: {
        id: workspace.id,
        name: workspace.name,
        organization_id: organization.id,
        plan_id: planId,
        credits: { available_micro: credits },
        created_at: isoTime(workspace.created_at),
      },
      keys: { live: live.secret, test: test.secret },
    };
  });
}

async function workspaceSuspend(store: Store, argv: string[], suspended: boolean): Promise<unknown> {
  const flags = parse(argv, ['workspace']);
  const id = required(flags, 'workspace');
  if (!(await setSuspended(store.db, id, suspended))) throw new FolioError('not_found', `No workspace with id "${id}".`);
  return { id, suspended };
}

async function keyCreate(store: Store, argv: string[]): Promise<unknown> {
  const flags = parse(argv, ['workspace', 'mode', 'name', 'expires-in']);
  const workspaceId = required(flags, 'workspace');
  const mode = required(flags, 'mode');
  if (mode !== 'live' && mode !== 'test') throw invalidRequest({ mode: ['must be live or test'] }, '--mode must be live or test.');
  if (!(await getWorkspace(store.db, workspaceId))) throw new FolioError('not_found', `No workspace with id "${workspaceId}".`);
  const expiresIn = flags['expires-in'] === undefined ? null : integer(flags, 'expires-in', 0, 1);
  const key = await insertKey(store.db, {
    workspace_id: workspaceId,
    mode,
    name: typeof flags.name === 'string' ? flags.name : `${mode} key`,
    expires_at: expiresIn === null ? null : clock.now() + expiresIn * 1000,
  });
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    mode: key.mode,
    secret: key.secret,
    ...(key.expires_at === null ? {} : { expires_at: isoTime(key.expires_at) }),
  };
}

async function keyRevoke(store: Store, argv: string[]): Promise<unknown> {
  const flags = parse(argv, ['key']);
  const id = required(flags, 'key');
  const revokedAt = await revokeKey(store.db, id);
  if (revokedAt === null) throw new FolioError('not_found', `No key with id "${id}".`);
  return { id, revoked_at: isoTime(revokedAt) };
}

async function creditsAdd(store: Store, argv: string[]): Promise<unknown> {
  const flags = parse(argv, ['workspace', 'micro']);
  const workspaceId = required(flags, 'workspace');
  const raw = required(flags, 'micro');
  const micro = Number(raw);
  if (!Number.isSafeInteger(micro)) throw invalidRequest({ micro: ['must be an integer'] }, '--micro must be an integer.');
  const available = await store.writeTransaction((tx) => addCredits(tx, workspaceId, micro));
  if (available === null) throw new FolioError('not_found', `No workspace with id "${workspaceId}".`);
  return { available_micro: available };
}

const COMMANDS: Record<string, (store: Store, argv: string[]) => Promise<unknown>> = {
  'plan create': planCreate,
  'workspace create': workspaceCreate,
  'workspace suspend': (store, argv) => workspaceSuspend(store, argv, true),
  'workspace resume': (store, argv) => workspaceSuspend(store, argv, false),
  'key create': keyCreate,
  'key revoke': keyRevoke,
  'credits add': creditsAdd,
};

export async function runAdmin(argv: string[]): Promise<number> {
  const name = argv.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  let store: Store | null = null;
  try {
    if (!command) {
      throw invalidRequest({ command: [`unknown; one of: ${Object.keys(COMMANDS).join(', ')}`] }, `Unknown admin command "${name}". Commands: ${Object.keys(COMMANDS).join(', ')}.`);
    }
    const config = loadConfig();
    setClockOffset(config.clockOffsetMs);
    store = await openStore(config, { poolSize: 2 });
    const result = await command(store, argv.slice(2));
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    const folio = error instanceof FolioError ? error : new FolioError('internal_error', (error as Error).message);
    process.stderr.write(`${JSON.stringify({ error: { type: folio.type, message: folio.message } })}\n`);
    return 1;
  } finally {
    await store?.close();
  }
}
