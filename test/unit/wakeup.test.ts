// Wake-ups are not lost in the gap between a worker looking for work and starting to wait: a
// notification that arrives while the claim query runs makes the wait end at once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Wakeup } from '../../src/queue/wakeup.js';
import type { Store } from '../../src/store/index.js';

const inProcess = () => new Wakeup({ pool: undefined } as unknown as Store);

describe('Wakeup.wait', () => {
  it('returns at once when a wake-up came after the count the worker read before claiming', async () => {
    const wakeup = inProcess();
    const seen = wakeup.seen;
    await wakeup.notify(); // lands while the (imagined) claim query runs
    const started = Date.now();
    await wakeup.wait(60_000, seen);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('waits for the next wake-up when none came since', async () => {
    const wakeup = inProcess();
    const seen = wakeup.seen;
    let woke = false;
    const waiting = wakeup.wait(60_000, seen).then(() => (woke = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(woke).toBe(false);
    await wakeup.notify();
    await waiting;
    expect(woke).toBe(true);
  });
});

describe('Wakeup across processes on SQLite', () => {
  it('wakes a worker of another process through the file beside the database, long before its poll', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'folio-wakeup-'));
    const sqliteFile = path.join(dir, 'folio.sqlite');
    // Two Wakeups share nothing but the database's path, as an API and a worker started apart.
    const api = new Wakeup({ pool: null, sqliteFile } as unknown as Store);
    const worker = new Wakeup({ pool: null, sqliteFile } as unknown as Store);
    try {
      await worker.listen();
      const seen = worker.seen;
      let woke = false;
      const waiting = worker.wait(600_000, seen).then(() => (woke = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(woke).toBe(false);
      await api.notify();
      // Resolves on the signal; without it the wait would last its 600 s poll and time the test out.
      await waiting;
      expect(woke).toBe(true);
    } finally {
      await api.close();
      await worker.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
