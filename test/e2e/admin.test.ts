// The admin CLI (docs/decisions.md#administration): one JSON object on stdout and exit 0, or {"error": {type,
// message}} on stderr and a non-zero exit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Installation } from '../helpers/folio.js';

let install: Installation;

beforeAll(async () => {
  install = await Installation.create();
});

afterAll(async () => {
  await install?.destroy();
});

describe('folio admin', () => {
  it('creates plans, workspaces, keys and credit, printing JSON', async () => {
    const plan = await install.admin('plan', 'create', '--id', 'team', '--name', 'Team', '--max-concurrent-jobs', '8', '--monthly-request-quota', '500', '--features', 'markdown,queries');
    expect(plan).toMatchObject({ id: 'team', name: 'Team', max_concurrent_jobs: 8, monthly_request_quota: 500, features: ['markdown', 'queries'] });

    const created = await install.admin('workspace', 'create', '--org', 'Acme Corp', '--plan', 'team', '--credits-micro', '1000');
    expect(created).toMatchObject({
      organization: { id: expect.stringMatching(/^org_/), name: 'Acme Corp', slug: 'acme-corp' },
      workspace: { id: expect.stringMatching(/^ws_/), plan_id: 'team' },
      keys: { live: expect.stringMatching(/^ak_live_[0-9A-Za-z]{32}$/), test: expect.stringMatching(/^ak_test_[0-9A-Za-z]{32}$/) },
    });
    // The same slug adds a workspace to the same organization.
    const second = await install.admin('workspace', 'create', '--org', 'Acme Corp');
    expect(second.organization.id).toBe(created.organization.id);
    expect(second.workspace.id).not.toBe(created.workspace.id);

    const key = await install.admin('key', 'create', '--workspace', created.workspace.id, '--mode', 'test', '--name', 'ci');
    expect(key).toEqual({ id: expect.stringMatching(/^key_/), name: 'ci', prefix: key.secret.slice(0, 12), mode: 'test', secret: expect.stringMatching(/^ak_test_/) });
    expect(await install.admin('key', 'revoke', '--key', key.id)).toEqual({ id: key.id, revoked_at: expect.stringMatching(/Z$/) });
    expect(await install.admin('credits', 'add', '--workspace', created.workspace.id, '--micro', '2500')).toEqual({ available_micro: 3500 });
  });

  it('reports errors as JSON on stderr with a non-zero exit', async () => {
    for (const args of [
      ['plan', 'create', '--name', 'No id'],
      ['workspace', 'create', '--org', 'X', '--plan', 'missing'],
      ['key', 'create', '--workspace', 'ws_missing', '--mode', 'live'],
      ['key', 'create', '--workspace', 'ws_missing', '--mode', 'sideways'],
      ['key', 'revoke', '--key', 'key_missing'],
      ['credits', 'add', '--workspace', 'ws_missing', '--micro', '5'],
      ['credits', 'add', '--workspace', 'ws_x', '--micro', 'lots'],
      ['frobnicate'],
      ['plan', 'create', '--id', 'p', '--name', 'P', '--unknown-flag', '1'],
    ]) {
      const { code, stdout, stderr } = await install.adminRaw(...args);
      expect(code, args.join(' ')).not.toBe(0);
      expect(stdout).toBe('');
      const body = JSON.parse(stderr);
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error).toEqual({ type: expect.any(String), message: expect.any(String) });
    }
    await install.admin('plan', 'create', '--id', 'dup', '--name', 'Dup');
    const duplicate = await install.adminRaw('plan', 'create', '--id', 'dup', '--name', 'Dup');
    expect(JSON.parse(duplicate.stderr).error.type).toBe('conflict');
  });
});
