// Tesseract compiled to WebAssembly (tesseract.js), the engine that installs from npm alone. The
// language models come from the @tesseract.js-data packages in node_modules, unpacked into the
// data directory (the same files the system engine reads), so nothing is fetched. One worker per
// page read at once.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { DEFAULT_MODE, modeParameters, parseTsv, toPgm, type GrayImage, type OcrEngine, type OcrWord, type RecognizeOptions } from './engine.js';

const MODEL_VARIANT = '4.0.0_best_int';

/** The gzipped model of a language, from its @tesseract.js-data package. */
export function modelFile(language: string): string {
  const require = createRequire(import.meta.url);
  const folder = path.dirname(require.resolve(`@tesseract.js-data/${language}/package.json`));
  return path.join(folder, MODEL_VARIANT, `${language}.traineddata.gz`);
}

export function wasmLanguagesAvailable(languages: string[]): boolean {
  try {
    for (const language of languages) readFileSync(modelFile(language), { flag: 'r' }).subarray(0, 0);
    return true;
  } catch {
    return false;
  }
}

export class TesseractWasm implements OcrEngine {
  readonly name: string;
  private readonly idle: Worker[] = [];
  private readonly waiting: ((worker: Worker) => void)[] = [];
  private created = 0;

  constructor(
    private readonly languages: string[],
    private readonly modelDir: string,
    readonly concurrency: number,
    version: string,
  ) {
    this.name = `tesseract.js ${version} (WebAssembly)`;
  }

  private async newWorker(): Promise<Worker> {
    const worker = await createWorker(this.languages, OEM.LSTM_ONLY, {
      langPath: this.modelDir,
      gzip: false,
      cacheMethod: 'none',
      // Without a handler tesseract.js throws its workers' errors where no one can catch them.
      errorHandler: () => undefined,
    });
    await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
    return worker;
  }

  private async acquire(): Promise<Worker> {
    const ready = this.idle.pop();
    if (ready) return ready;
    if (this.created < this.concurrency) {
      this.created++;
      try {
        return await this.newWorker();
      } catch (error) {
        this.created--;
        throw error;
      }
    }
    return new Promise<Worker>((resolve) => this.waiting.push(resolve));
  }

  private release(worker: Worker): void {
    const next = this.waiting.shift();
    if (next) next(worker);
    else this.idle.push(worker);
  }

  async recognize(image: GrayImage, dpi: number, { mode = DEFAULT_MODE, signal }: RecognizeOptions = {}): Promise<OcrWord[]> {
    const worker = await this.acquire();
    let healthy = true;
    try {
      signal?.throwIfAborted();
      const { psm, thresholding } = modeParameters(mode);
      await worker.setParameters({ user_defined_dpi: String(Math.round(dpi)), tessedit_pageseg_mode: psm as PSM, thresholding_method: thresholding });
      const aborted = new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
      const result = await Promise.race([worker.recognize(toPgm(image), {}, { text: false, tsv: true } as never), aborted]);
      return parseTsv((result.data as unknown as { tsv: string }).tsv ?? '');
    } catch (error) {
      // A worker stopped half-way (abort, crash) is not reused.
      healthy = false;
      this.created--;
      void worker.terminate().catch(() => undefined);
      // Someone waiting for a worker gets a fresh one in its place.
      if (this.waiting.length > 0) void this.acquire().then((fresh) => this.release(fresh), () => undefined);
      throw error;
    } finally {
      if (healthy) this.release(worker);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((w) => w.terminate().catch(() => undefined)));
  }
}
