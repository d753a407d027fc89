// A reader thread may be stopped at any moment of loading its module: a task aborted on a thread
// still starting, or a pool closed just after it opened (a worker told to stop as it starts), must
// end the thread, not the process. Node 20 and 22 abort the process (SIGABRT) when a thread is
// stopped while require() loads an ES module; thread-entry.cjs loads it with import() instead.
// A child process stops threads at many random moments of their loading and must come through.
// It exits itself once through: on Node 22, a thread stopped at one moment of its start can leave
// the worker's internal message ports open after the pool is destroyed (seen about once in three
// runs of forty rounds, never on Node 20), which keeps an otherwise idle process from ending by
// itself; the server exits explicitly on shutdown (cli/serve.ts).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/folio.js';

const threads = (file: string) => pathToFileURL(path.join(ROOT, 'dist/pipeline/threads', file)).href;

// Rounds of: open a pool of two reader threads, give it work or not, and stop it after a random
// part of its threads' loading time.
const script = `
import { Piscina } from 'piscina';
import { threadModuleOptions } from '${threads('thread-module.js')}';
const options = threadModuleOptions(new URL('${threads('reader-thread.js')}'));
for (let round = 0; round < 40; round++) {
  const pool = new Piscina({ ...options, minThreads: round % 2 ? 2 : 0, maxThreads: 2 });
  const abort = new AbortController();
  const tasks = round % 2 ? [] : [0, 1].map(() => pool.run({ kind: 'none' }, { signal: abort.signal }).catch(() => null));
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 300));
  abort.abort();
  await Promise.all(tasks);
  await pool.destroy();
}
console.log('came through');
process.exit(0);
`;

describe('stopping reader threads while they load', () => {
  it('never takes the process down', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
    expect({ code, signal, output: output.trim().split('\n').slice(0, 3) }).toEqual({ code: 0, signal: null, output: ['came through'] });
  }, 60_000);
});
