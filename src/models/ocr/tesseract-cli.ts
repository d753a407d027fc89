// The system's Tesseract (Debian `tesseract-ocr`): one process per page, the picture on stdin as
// PGM, TSV on stdout. One OpenMP thread each: pages run side by side instead, which uses the cores
// better. It reads the same models as the WebAssembly engine (the "best" integer LSTM models of the
// @tesseract.js-data packages, unpacked once into the data directory), so both engines read alike;
// Debian's own models are the smaller "fast" ones, which misread noisy photos more often.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { DEFAULT_MODE, Gate, modeParameters, parseTsv, toPgm, type GrayImage, type OcrEngine, type OcrWord, type RecognizeOptions } from './engine.js';

const exec = promisify(execFile);

/** The installed tesseract's version; null when there is none. */
export async function findTesseract(command: string): Promise<string | null> {
  try {
    const version = await exec(command, ['--version'], { timeout: 5000 });
    return /tesseract\s+(\S+)/i.exec(version.stdout + version.stderr)?.[1] ?? 'unknown';
  } catch {
    return null;
  }
}

export class TesseractCli implements OcrEngine {
  readonly name: string;
  private readonly gate: Gate;

  constructor(
    private readonly command: string,
    version: string,
    private readonly languages: string[],
    readonly scriptModels: Readonly<Record<string, string[]>>,
    private readonly tessdata: string,
    readonly concurrency: number,
  ) {
    this.name = `tesseract ${version} (system)`;
    this.gate = new Gate(concurrency);
  }

  recognize(image: GrayImage, dpi: number, { mode = DEFAULT_MODE, signal }: RecognizeOptions = {}): Promise<OcrWord[]> {
    const { psm, thresholding } = modeParameters(mode);
    const languages = mode.languages ?? this.languages;
    const args = ['-l', languages.join('+'), '--oem', '1', '--psm', psm, '--dpi', String(Math.round(dpi))];
    args.push('-c', `thresholding_method=${thresholding}`, '-c', 'tessedit_create_tsv=1', '-c', 'tessedit_create_txt=0');
    return this.run(image, args, signal).then(({ stdout }) => parseTsv(stdout));
  }

  /** One tesseract process reading the picture from stdin. */
  private run(image: GrayImage, args: string[], signal: AbortSignal | undefined): Promise<{ stdout: string }> {
    return this.gate.run(
      () =>
        new Promise<{ stdout: string }>((resolve, reject) => {
          const child = spawn(this.command, ['stdin', 'stdout', '--tessdata-dir', this.tessdata, ...args], {
            env: { ...process.env, OMP_THREAD_LIMIT: '1' },
            stdio: ['pipe', 'pipe', 'pipe'],
            signal,
          });
          const out: Buffer[] = [];
          let err = '';
          child.stdout.on('data', (d: Buffer) => out.push(d));
          child.stderr.on('data', (d: Buffer) => (err += d.toString()));
          child.on('error', reject);
          child.on('close', (code) => {
            if (code === 0) resolve({ stdout: Buffer.concat(out).toString('utf8') });
            else reject(new Error(`tesseract exited with ${code}: ${err.trim().split('\n').pop() ?? ''}`));
          });
          child.stdin.on('error', () => undefined);
          child.stdin.end(toPgm(image));
        }),
    );
  }

  async close(): Promise<void> {}
}
