// Turns at a few shared slots, given in rotation between the tenants that wait, so that one tenant
// with many tasks waiting delays another's next task by at most one of its own (the one already
// running), however many it has queued. A tenant also holds at most `perTenant` slots at once.

interface Waiter {
  start: () => void;
}

export class FairTurns {
  private readonly waiting = new Map<string, Waiter[]>();
  /** Tenants with tasks waiting, in the order their turn comes. */
  private readonly rotation: string[] = [];
  private readonly running = new Map<string, number>();
  private runningTotal = 0;

  constructor(
    private readonly slots: number,
    private readonly perTenant: number,
  ) {}

  /**
   * Runs `task` once the tenant's turn comes and a slot is free. A signal that aborts while it waits
   * takes it out of the line, rejecting with the signal's reason; once started, the task itself
   * decides what an abort means.
   */
  async run<T>(tenant: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const line = this.waiting.get(tenant);
        const at = line?.indexOf(waiter) ?? -1;
        if (at >= 0) {
          line!.splice(at, 1);
          if (!line!.length) this.forget(tenant);
        }
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const line = this.waiting.get(tenant);
      if (line) line.push(waiter);
      else {
        this.waiting.set(tenant, [waiter]);
        this.rotation.push(tenant);
      }
      this.dispatch();
    });
    try {
      return await task();
    } finally {
      this.runningTotal--;
      const held = (this.running.get(tenant) ?? 1) - 1;
      if (held) this.running.set(tenant, held);
      else this.running.delete(tenant);
      this.dispatch();
    }
  }

  /** Tasks running and waiting, for metrics and tests. */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const line of this.waiting.values()) waiting += line.length;
    return { running: this.runningTotal, waiting };
  }

  private forget(tenant: string): void {
    this.waiting.delete(tenant);
    const at = this.rotation.indexOf(tenant);
    if (at >= 0) this.rotation.splice(at, 1);
  }

  /** Starts waiting tasks while slots are free: each tenant in rotation, skipping those at their share. */
  private dispatch(): void {
    let passed = 0;
    while (this.runningTotal < this.slots && passed < this.rotation.length) {
      const tenant = this.rotation.shift()!;
      if ((this.running.get(tenant) ?? 0) >= this.perTenant) {
        this.rotation.push(tenant);
        passed++;
        continue;
      }
      passed = 0;
      const line = this.waiting.get(tenant)!;
      const next = line.shift()!;
      if (line.length) this.rotation.push(tenant);
      else this.waiting.delete(tenant);
      this.runningTotal++;
      this.running.set(tenant, (this.running.get(tenant) ?? 0) + 1);
      next.start();
    }
  }
}
