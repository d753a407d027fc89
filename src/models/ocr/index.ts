// Picks the OCR engine (FOLIO_OCR_ENGINE: `auto`, `system` or `wasm`): with `auto`, the system's
// tesseract when it is installed with every language wanted, else the WebAssembly build.
import { createRequire } from 'node:module';
import type { OcrEngine } from './engine.js';
import { findTesseract, TesseractCli } from './tesseract-cli.js';
import { modelFile, TesseractWasm, wasmLanguagesAvailable } from './tesseract-wasm.js';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

export type { GrayImage, OcrEngine, OcrWord } from './engine.js';

export interface OcrSettings {
  engine: 'auto' | 'system' | 'wasm';
  languages: string[];
  workers: number;
  tesseractPath: string;
  /** Where the system engine's models are unpacked. */
  modelDir: string;
}

export async function createOcrEngine(settings: OcrSettings): Promise<OcrEngine> {
  if (!wasmLanguagesAvailable(settings.languages)) {
    throw new Error(`OCR language data missing: install @tesseract.js-data/<language> for ${settings.languages.join(', ')}`);
  }
  await unpackModels(settings.languages, settings.modelDir);
  if (settings.engine !== 'wasm') {
    const version = await findTesseract(settings.tesseractPath);
    if (version) return new TesseractCli(settings.tesseractPath, version, settings.languages, settings.modelDir, settings.workers);
    if (settings.engine === 'system') throw new Error(`FOLIO_OCR_ENGINE=system, but "${settings.tesseractPath}" is not installed`);
  }
  const require = createRequire(import.meta.url);
  const { version } = require('tesseract.js/package.json') as { version: string };
  return new TesseractWasm(settings.languages, settings.modelDir, settings.workers, version);
}

/** Unpacks each language's model once; several processes may do it at the same time safely. */
export async function unpackModels(languages: string[], dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const language of languages) {
    const target = path.join(dir, `${language}.traineddata`);
    const wanted = (await stat(modelFile(language))).mtimeMs;
    const present = await stat(target).then((s) => s.mtimeMs >= wanted, () => false);
    if (present) continue;
    const temp = `${target}.${process.pid}.${Date.now()}`;
    await writeFile(temp, gunzipSync(await readFile(modelFile(language))));
    await rename(temp, target);
  }
}
