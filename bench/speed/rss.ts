// Resident memory of another process (the Folio worker), in kB.
//
// On Linux the kernel keeps the peak itself (VmHWM in /proc/<pid>/status) and lets its owner reset
// it by writing 5 to /proc/<pid>/clear_refs, which gives an exact peak per phase. The sampler also
// polls the current RSS every 100 ms — from /proc, or from `ps -o rss=` where there is no /proc —
// so there is a peak even where the reset or /proc is not available.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PhasePeak {
  /** The highest RSS seen while polling, kB. */
  polledPeakKb: number | null;
  /** The kernel's peak since the phase began (VmHWM after a reset), kB; null if it could not be reset. */
  kernelPeakKb: number | null;
  /** The better of the two: the kernel's figure when it was reset for this phase, else the polled peak. */
  peakKb: number | null;
  samples: number;
}

async function procStatus(pid: number): Promise<{ rssKb: number; hwmKb: number } | null> {
  try {
    const text = await readFile(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(text)?.[1] ?? NaN);
    const rssKb = field('VmRSS');
    const hwmKb = field('VmHWM');
    return Number.isFinite(rssKb) && Number.isFinite(hwmKb) ? { rssKb, hwmKb } : null;
  } catch {
    return null;
  }
}

async function psRss(pid: number): Promise<number | null> {
  try {
    const { stdout } = await run('ps', ['-o', 'rss=', '-p', String(pid)]);
    const kb = Number(stdout.trim());
    return Number.isFinite(kb) && kb > 0 ? kb : null;
  } catch {
    return null;
  }
}

export class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  private polledPeak: number | null = null;
  private samples = 0;
  private kernelReset = false;
  private busy = false;

  constructor(
    readonly pid: number,
    private readonly intervalMs = 100,
  ) {}

  /** Current RSS, kB (null when the process cannot be read). */
  async current(): Promise<number | null> {
    return (await procStatus(this.pid))?.rssKb ?? (await psRss(this.pid));
  }

  /** The kernel's peak over the process's life so far (or since the last reset), kB. */
  async kernelPeak(): Promise<number | null> {
    return (await procStatus(this.pid))?.hwmKb ?? null;
  }

  /** Starts a phase: resets both peaks and polls until `end()`. */
  async begin(): Promise<void> {
    this.stopTimer();
    this.polledPeak = null;
    this.samples = 0;
    try {
      await writeFile(`/proc/${this.pid}/clear_refs`, '5');
      this.kernelReset = true;
    } catch {
      this.kernelReset = false;
    }
    await this.sample();
    this.timer = setInterval(() => void this.sample(), this.intervalMs);
    this.timer.unref();
  }

  async end(): Promise<PhasePeak> {
    this.stopTimer();
    await this.sample();
    const kernelPeakKb = this.kernelReset ? await this.kernelPeak() : null;
    const peakKb = kernelPeakKb ?? this.polledPeak;
    return { polledPeakKb: this.polledPeak, kernelPeakKb, peakKb, samples: this.samples };
  }

  stop(): void {
    this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const kb = await this.current();
      if (kb !== null) {
        this.samples++;
        this.polledPeak = Math.max(this.polledPeak ?? 0, kb);
      }
    } finally {
      this.busy = false;
    }
  }
}
