// Peer command-line tools run on the same input as Folio: poppler's `pdftotext` for born-digital
// PDFs and `tesseract` for scans. They are optional: when one is missing the benchmark says how to
// install it and leaves its ratio out.
import { spawn, spawnSync } from 'node:child_process';
import { median } from './stats.js';

export interface PeerTool {
  name: 'pdftotext' | 'tesseract';
  /** The Debian package that has it. */
  aptPackage: string;
  /** First line of its version output, or null when it is not installed. */
  version: string | null;
}

export interface PeerRun {
  seconds: number;
  exitCode: number | null;
  stderr: string;
}

export interface PeerFigures {
  tool: PeerTool['name'];
  version: string;
  command: string;
  runs: number[];
  median_s: number;
  /** Set when a run exited non-zero; the figures are then not comparable. */
  error: string | null;
}

const TOOLS: Record<PeerTool['name'], { aptPackage: string; versionArgs: string[] }> = {
  pdftotext: { aptPackage: 'poppler-utils', versionArgs: ['-v'] },
  tesseract: { aptPackage: 'tesseract-ocr', versionArgs: ['--version'] },
};

export function findTool(name: PeerTool['name']): PeerTool {
  const { aptPackage, versionArgs } = TOOLS[name];
  const probe = spawnSync(name, versionArgs, { encoding: 'utf8', timeout: 10_000 });
  if (probe.error) return { name, aptPackage, version: null };
  // pdftotext prints its version on stderr, tesseract on stdout.
  const version = `${probe.stdout ?? ''}\n${probe.stderr ?? ''}`
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /\d+\.\d+/.test(line));
  return { name, aptPackage, version: version ?? 'unknown version' };
}

export function notInstalled(tool: PeerTool): string {
  return `${tool.name}: not installed (apt-get install ${tool.aptPackage})`;
}

/** Runs a command once, output to /dev/null; wall time from spawn to exit. */
export function timeCommand(command: string, args: string[], timeoutMs = 120_000): Promise<PeerRun> {
  return new Promise((resolve) => {
    const started = performance.now();
    // One OpenMP thread: tesseract's default of one per core thrashes on a small machine (22 s a
    // page here instead of 3), and the peer should be measured at its best.
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ seconds: (performance.now() - started) / 1000, exitCode: null, stderr: String(error) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ seconds: (performance.now() - started) / 1000, exitCode: code, stderr });
    });
  });
}

/** `runs` timed runs of an installed tool; the median is what the ratio uses. */
export async function timePeer(tool: PeerTool, args: string[], runs: number): Promise<PeerFigures> {
  const times: number[] = [];
  let error: string | null = null;
  for (let i = 0; i < runs; i++) {
    const run = await timeCommand(tool.name, args);
    times.push(run.seconds);
    if (run.exitCode !== 0) {
      error = `exit ${run.exitCode}: ${run.stderr.trim().split('\n').slice(-2).join(' ')}`;
      break;
    }
  }
  return { tool: tool.name, version: tool.version ?? 'unknown', command: [tool.name, ...args].join(' '), runs: times, median_s: median(times), error };
}

/**
 * The `tesseract` CLI on every picture, `processes` at a time, with `languages` and the models in
 * `modelDir` (Folio's own, unpacked): the engine's own speed for the work Folio's OCR does.
 * `runs` timed runs of the whole batch.
 */
export async function tesseractBatch(pictures: string[], languages: string[], modelDir: string, processes: number, runs: number): Promise<PeerFigures> {
  const args = (picture: string) => [picture, '-', '--tessdata-dir', modelDir, '-l', languages.join('+')];
  const times: number[] = [];
  let error: string | null = null;
  for (let i = 0; i < runs && !error; i++) {
    const started = performance.now();
    const queue = [...pictures];
    const worker = async () => {
      for (let picture = queue.shift(); picture; picture = queue.shift()) {
        const run = await timeCommand('tesseract', args(picture));
        if (run.exitCode !== 0) error ??= `exit ${run.exitCode}: ${run.stderr.trim().split('\n').slice(-2).join(' ')}`;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(processes, pictures.length)) }, worker));
    times.push((performance.now() - started) / 1000);
  }
  return {
    tool: 'tesseract',
    version: findTool('tesseract').version ?? 'unknown',
    command: `${processes} at once: tesseract <page>.png - ${args('').slice(2).join(' ')}`,
    runs: times,
    median_s: median(times),
    error,
  };
}
