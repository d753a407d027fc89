// Picks the OCR engine (FOLIO_OCR_ENGINE: `auto`, `system` or `wasm`): with `auto`, the system's
// tesseract when it is installed, else the WebAssembly build. Both get the page languages'
// models and, for each script named in FOLIO_OCR_SCRIPTS whose models are installed, that
// script's; a script whose models are missing is left out, its pages read as before.
import { createRequire } from 'node:module';
import type { OcrEngine } from './engine.js';
import { modelSource, unpackModels } from './models.js';
import { findTesseract, TesseractCli } from './tesseract-cli.js';
import { TesseractWasm } from './tesseract-wasm.js';

export type { GrayImage, OcrEngine, OcrWord } from './engine.js';
export { unpackModels } from './models.js';

export interface OcrSettings {
  engine: 'auto' | 'system' | 'wasm';
  languages: string[];
  /** The models that read each script other than the page languages' ("Greek": ell, eng). */
  scripts: Record<string, string[]>;
  workers: number;
  tesseractPath: string;
  /** Where the engines' models are unpacked. */
  modelDir: string;
}

export async function createOcrEngine(settings: OcrSettings): Promise<OcrEngine> {
  const missing = settings.languages.filter((language) => !modelSource(language));
  if (missing.length > 0) {
    throw new Error(`OCR language data missing: install @tesseract.js-data/<language> (or the system's tesseract-ocr-<language>) for ${missing.join(', ')}`);
  }
  const scripts = installedScripts(settings.scripts);
  await unpackModels([...new Set([...settings.languages, ...Object.values(scripts).flat()])], settings.modelDir);
  if (settings.engine !== 'wasm') {
    const version = await findTesseract(settings.tesseractPath);
    if (version) return new TesseractCli(settings.tesseractPath, version, settings.languages, scripts, settings.modelDir, settings.workers);
    if (settings.engine === 'system') throw new Error(`FOLIO_OCR_ENGINE=system, but "${settings.tesseractPath}" is not installed`);
  }
  const require = createRequire(import.meta.url);
  const { version } = require('tesseract.js/package.json') as { version: string };
  return new TesseractWasm(settings.languages, scripts, settings.modelDir, settings.workers, version);
}

/** The scripts whose every model is installed. */
export function installedScripts(scripts: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(scripts).filter(([, languages]) => languages.every((language) => modelSource(language))));
}
