// The Python client (clients/python, issue 27 scope 4) is tested by its own pytest suite; this
// runs that suite from `npm test` against a server started here like every other e2e test, so a
// change to the API that breaks Python callers fails the same run. Python is not part of the Node
// toolchain: without python3, httpx and pytest the suite is skipped with a warning, unless
// FOLIO_REQUIRE_PYTHON=1 (for CI, which installs them) makes that a failure. It runs once
// (SQLite): the API beneath it runs on both stores in the other files.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Installation, ROOT, STORE, type Server } from '../helpers/folio.js';

// A venv made with --system-site-packages (as CI makes it) when there is one, else Debian's python.
const VENV_PYTHON = path.join(ROOT, '.venv-python/bin/python');
const PYTHON = existsSync(VENV_PYTHON) ? VENV_PYTHON : '/usr/bin/python3';
const probe = spawnSync(PYTHON, ['-c', 'import httpx, pytest'], { encoding: 'utf8' });
const havePython = probe.status === 0;
const missing = `${PYTHON} cannot import httpx and pytest (${(probe.error?.message ?? probe.stderr ?? '').trim().split('\n').at(-1)}); apt-get install python3-httpx python3-pytest`;
if (!havePython && process.env.FOLIO_REQUIRE_PYTHON === '1') throw new Error(missing);
if (!havePython) console.warn(`Python client tests skipped: ${missing}`);

describe.skipIf(!havePython || STORE !== 'sqlite')('the Python client', () => {
  let install: Installation;
  let server: Server;
  let key: string;

  beforeAll(async () => {
    install = await Installation.create();
    server = await install.start();
    key = (await install.workspace({ org: 'Python client' })).test;
  });

  afterAll(async () => {
    await server?.stop();
    await install?.destroy();
  });

  it('passes its pytest suite against this server', async () => {
    const child = spawn(PYTHON, ['-m', 'pytest', 'clients/python/tests', '-q', '-p', 'no:cacheprovider'], {
      cwd: ROOT,
      // No bytecode or pytest cache written into the checkout.
      env: { ...process.env, FOLIO_URL: server.url, FOLIO_API_KEY: key, PYTHONDONTWRITEBYTECODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, output).toBe(0);
    // Every test ran: a suite that skipped its way to success would prove nothing.
    expect(output).toMatch(/\d+ passed/);
    expect(output).not.toMatch(/skipped|deselected/);
  }, 300_000);
});
