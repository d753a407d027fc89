// Runs in the page-counting threads (page-counter.ts): it loads the format readers' page counts
// only, not layout analysis or rendering, so it is ready in a fraction of a reader thread's start.
// It reads the upload from its temporary file itself, so a file waiting for its turn is not held
// in the API's memory.
import { readFile } from 'node:fs/promises';
import type { SupportedMediaType } from '../../domain/media-types.js';
import { readerFor } from '../formats/index.js';
import { pdfium } from '../formats/pdfium.js';

export type CountTask = { kind: 'count'; mediaType: SupportedMediaType; path: string; stopAfter: number } | { kind: 'warm' };

/** The page count (stopAfter + 1 for "more than stopAfter"), or null when the file cannot be opened (it then fails in `analyzing`, with the reason). */
export default async function run(task: CountTask): Promise<number | null> {
  if (task.kind === 'warm') {
    // PDFium's WebAssembly is compiled and set up here rather than under the first upload.
    await pdfium();
    return null;
  }
  try {
    return await readerFor(task.mediaType).countPages(await readFile(task.path), task.stopAfter);
  } catch {
    return null;
  }
}
