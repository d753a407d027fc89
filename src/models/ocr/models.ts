// Where each OCR model comes from, and unpacking them into the data directory both engines read.
// A language's model is the "best" integer model of its @tesseract.js-data package, so both engines
// read alike and nothing is fetched; where npm has none (Russian: there is no such package), the
// system's own tessdata (Debian's tesseract-ocr-rus) serves, copied as it is.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

const MODEL_VARIANT = '4.0.0_best_int';

/** Where Debian's (and most distributions') tesseract keeps its models, newest first. */
const SYSTEM_TESSDATA = ['/usr/share/tesseract-ocr/5/tessdata', '/usr/share/tesseract-ocr/4.00/tessdata', '/usr/share/tessdata'];

export interface ModelSource {
  file: string;
  gzipped: boolean;
}

const sources = new Map<string, ModelSource | null>();

/** The file a language's model is read from: its npm package's, else the system's; null when neither has it. */
export function modelSource(language: string): ModelSource | null {
  if (!sources.has(language)) sources.set(language, findModel(language));
  return sources.get(language)!;
}

function findModel(language: string): ModelSource | null {
  const require = createRequire(import.meta.url);
  try {
    const folder = path.dirname(require.resolve(`@tesseract.js-data/${language}/package.json`));
    const file = path.join(folder, MODEL_VARIANT, `${language}.traineddata.gz`);
    if (existsSync(file)) return { file, gzipped: true };
  } catch {
    // No such package: the system may have the model.
  }
  const prefixes = [process.env.TESSDATA_PREFIX, ...SYSTEM_TESSDATA].filter((p): p is string => Boolean(p));
  for (const dir of prefixes) {
    const file = path.join(dir, `${language}.traineddata`);
    if (existsSync(file)) return { file, gzipped: false };
  }
  return null;
}

/** Unpacks each language's model once; several processes may do it at the same time safely. */
export async function unpackModels(languages: string[], dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const language of languages) {
    const source = modelSource(language);
    if (!source) throw new Error(`OCR model missing for ${language}`);
    const target = path.join(dir, `${language}.traineddata`);
    const wanted = (await stat(source.file)).mtimeMs;
    const present = await stat(target).then((s) => s.mtimeMs >= wanted, () => false);
    if (present) continue;
    const temp = `${target}.${process.pid}.${Date.now()}`;
    if (source.gzipped) await writeFile(temp, gunzipSync(await readFile(source.file)));
    else await copyFile(source.file, temp);
    await rename(temp, target);
  }
}
