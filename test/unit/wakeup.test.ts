// Wake-ups are not lost in the gap between a worker looking for work and starting to wait: a
// notification that arrives while the claim query runs makes the wait end at once.
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
