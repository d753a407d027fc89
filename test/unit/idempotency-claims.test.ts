// Idempotency claims (docs/decisions.md#beyond-the-spec, issue 10 scope 3): a key claimed by a request that never finished (its
// process died) is in progress until the claim is stale, then a retry takes it over; the dead
// claim can no longer write its answer, the live one can, and later retries replay it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { claimKey, IDEMPOTENCY_WINDOW_MS, rememberAnswer } from '../../src/store/idempotency.js';

let dir: string;
let store: Store;
const scope = { workspace_id: 'ws_claims', mode: 'live' as const };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'folio-claims-'));
  store = await openStore({ databaseUrl: null, dataDir: dir, blobStore: 'local' });
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('idempotency claims', () => {
  it('are taken over once stale, and only the holding claim remembers its answer', async () => {
    const first = await claimKey(store.db, scope, 'k1', 'hash', 1_000, 5_000);
    expect(first.kind).toBe('fresh');
    expect(await claimKey(store.db, scope, 'k1', 'hash', 3_000, 5_000)).toEqual({ kind: 'in_progress' });
    expect(await claimKey(store.db, scope, 'k1', 'other', 3_000, 5_000)).toEqual({ kind: 'mismatch' });

    const second = await claimKey(store.db, scope, 'k1', 'hash', 7_000, 5_000);
    expect(second.kind).toBe('fresh');
    if (first.kind !== 'fresh' || second.kind !== 'fresh') return;
    expect(second.token).not.toBe(first.token);
    // The claim just taken is not stale, so a third request waits.
    expect(await claimKey(store.db, scope, 'k1', 'hash', 8_000, 5_000)).toEqual({ kind: 'in_progress' });

    expect(await store.writeTransaction((tx) => rememberAnswer(tx, scope, 'k1', first.token, 202, { id: 'doc_dead' }))).toBe(false);
    expect(await store.writeTransaction((tx) => rememberAnswer(tx, scope, 'k1', second.token, 202, { id: 'doc_live' }))).toBe(true);
    expect(await claimKey(store.db, scope, 'k1', 'hash', 9_000, 5_000)).toEqual({ kind: 'replay', status: 202, body: { id: 'doc_live' } });
  });

  it('are forgotten 24 hours after they were claimed: the key is claimed afresh, by any body', async () => {
    const day = IDEMPOTENCY_WINDOW_MS;
    const first = await claimKey(store.db, scope, 'k2', 'hash', 1_000, 5_000);
    if (first.kind !== 'fresh') throw new Error('expected a fresh claim');
    await store.writeTransaction((tx) => rememberAnswer(tx, scope, 'k2', first.token, 202, { id: 'doc_old' }));
    expect(await claimKey(store.db, scope, 'k2', 'hash', day, 5_000)).toEqual({ kind: 'replay', status: 202, body: { id: 'doc_old' } });
    const later = await claimKey(store.db, scope, 'k2', 'another body', 1_000 + day, 5_000);
    expect(later.kind).toBe('fresh');
    if (later.kind !== 'fresh') return;
    expect(await store.writeTransaction((tx) => rememberAnswer(tx, scope, 'k2', later.token, 202, { id: 'doc_new' }))).toBe(true);
    expect(await claimKey(store.db, scope, 'k2', 'another body', 2_000 + day, 5_000)).toEqual({ kind: 'replay', status: 202, body: { id: 'doc_new' } });
  });
});
