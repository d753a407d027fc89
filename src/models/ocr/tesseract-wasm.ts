// Tesseract compiled to WebAssembly (tesseract.js), the engine that installs from npm alone. The
// language models are the ones models.ts unpacks into the data directory (the same files the
// system engine reads), so nothing is fetched. One worker per
// page read at once, each holding the models it last read with (a page in another script loads its
// script's models into a worker).
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { DEFAULT_MODE, modeParameters, parseTsv, toPgm, type GrayImage, type OcrEngine, type OcrWord, type RecognizeOptions } from './engine.js';

export class TesseractWasm implements OcrEngine {
  readonly name: string;
  /** Idle workers, each with the models it has loaded ("ell", "eng+deu"). */
  private readonly idle: { worker: Worker; models: string }[] = [];
  private readonly waiting: ((idle: { worker: Worker; models: string }) => void)[] = [];
  private created = 0;

  constructor(
    private readonly languages: string[],
    readonly scriptModels: Readonly<Record<string, string[]>>,
    private readonly modelDir: string,
    readonly concurrency: number,
    version: string,
  ) {
    this.name = `tesseract.js ${version} (WebAssembly)`;
  }

  private async newWorker(models: string): Promise<Worker> {
    const worker = await createWorker(models.split('+'), OEM.LSTM_ONLY, {
      langPath: this.modelDir,
      gzip: false,
      cacheMethod: 'none',
      // Without a handler tesseract.js throws its workers' errors where no one can catch them.
      errorHandler: () => undefined,
    });
    await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
    return worker;
  }

  /** A worker with `models` loaded: an idle one that has them, a new one while there are fewer than `concurrency`, else an idle one loaded anew. */
  private async acquire(models: string): Promise<Worker> {
    const same = this.idle.findIndex((w) => w.models === models);
    let ready = same >= 0 ? this.idle.splice(same, 1)[0] : undefined;
    if (!ready && this.created < this.concurrency) {
      this.created++;
      try {
        return await this.newWorker(models);
      } catch (error) {
        this.created--;
        throw error;
      }
    }
    ready ??= this.idle.pop() ?? (await new Promise<{ worker: Worker; models: string }>((resolve) => this.waiting.push(resolve)));
    if (ready.models !== models) await ready.worker.reinitialize(models, OEM.LSTM_ONLY);
    return ready.worker;
  }

  private release(worker: Worker, models: string): void {
    const next = this.waiting.shift();
    if (next) next({ worker, models });
    else this.idle.push({ worker, models });
  }

  async recognize(image: GrayImage, dpi: number, { mode = DEFAULT_MODE, signal }: RecognizeOptions = {}): Promise<OcrWord[]> {
    const models = (mode.languages ?? this.languages).join('+');
    const worker = await this.acquire(models);
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
      if (this.waiting.length > 0) void this.acquire(models).then((fresh) => this.release(fresh, models), () => undefined);
      throw error;
    } finally {
      if (healthy) this.release(worker, models);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((w) => w.worker.terminate().catch(() => undefined)));
  }
}
