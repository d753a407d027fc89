// A pool is destroyed only once every thread it has has loaded its module: Node 20 aborts the
// whole process when a thread is stopped in the middle of loading (queue.test's SIGTERM test saw
// it in CI while a second reader thread was still starting). The threads here take half a second
// to load; destroying the pool at once must wait for both.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { describe, expect, it } from 'vitest';
import { ThreadCloser } from '../../src/pipeline/threads/closing.js';
import { ROOT } from '../helpers/folio.js';

describe('closing a pool of threads', () => {
  it('waits until every thread has loaded its module', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'folio-closing-'));
    const module = path.join(dir, 'slow-thread.mjs');
    // The built closing.js (npm test builds first), as the reader threads use it.
    const closing = pathToFileURL(path.join(ROOT, 'dist/pipeline/threads/closing.js')).href;
    await writeFile(module, `import { announceLoaded } from '${closing}';\nawait new Promise((r) => setTimeout(r, 500));\nexport default () => null;\nannounceLoaded();\n`);
    const pool = new Piscina({ filename: pathToFileURL(module).href, minThreads: 2, maxThreads: 2 });
    const loaded: number[] = [];
    pool.on('message', (message: { folioThreadLoaded?: number }) => {
      if (message.folioThreadLoaded !== undefined) loaded.push(message.folioThreadLoaded);
    });
    const closer = new ThreadCloser(pool);
    try {
      expect(pool.threads).toHaveLength(2);
      await closer.destroy();
      expect(new Set(loaded).size).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
