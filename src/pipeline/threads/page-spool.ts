// Raw pages wait on disk, not in memory, between their reading and their analysis. Analysis waits
// for the whole document's font statistics (headings are judged against every page) and for OCR,
// so every raw page of a document is read before the first is analysed. A reader thread writes
// its span's pages, packed with v8's serializer, to one file of the run's spool folder and hands
// back only where each lies; the thread that analyses the span reads them back. A page completed
// by OCR is written to a file of its own and replaces its first reading. The worker itself holds
// no page model of the document, however long it is.
//
// The folder is the run's own, under FOLIO_DATA_DIR/spool, named after the process, and removed
// when `analyzing` ends; a worker that starts removes the folders of processes no longer running.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, open, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { PageTally } from '../analysis/document-stats.js';
import type { RawPage } from '../page-model.js';

/** Where a raw page waits in the spool. */
export interface SpoolPlace {
  number: number;
  file: string;
  offset: number;
  length: number;
}

/** A raw page as read, and where it waits. */
export interface SpooledPage extends SpoolPlace {
  /** The page's text must come from OCR; its words are read then. */
  ocr: boolean;
  weights: PageTally;
}

/** Writes `pages` to `file` (in a reader thread) and tells where each lies. */
export function spoolPages(file: string, pages: RawPage[], weights: (page: RawPage) => PageTally): SpooledPage[] {
  const packed = pages.map((page) => serialize(page));
  const spooled: SpooledPage[] = [];
  let offset = 0;
  for (let i = 0; i < pages.length; i++) {
    spooled.push({ number: pages[i].number, ocr: pages[i].textSource === 'ocr', weights: weights(pages[i]), file, offset, length: packed[i].byteLength });
    offset += packed[i].byteLength;
  }
  writeFileSync(file, Buffer.concat(packed, offset));
  return spooled;
}

/** The raw pages back (in a reader thread), each file read once. */
export function readSpooled(pages: readonly SpoolPlace[]): RawPage[] {
  const files = new Map<string, Buffer>();
  return pages.map((page) => {
    let bytes = files.get(page.file);
    if (!bytes) files.set(page.file, (bytes = readFileSync(page.file)));
    return deserialize(bytes.subarray(page.offset, page.offset + page.length)) as RawPage;
  });
}

const SPOOL_FOLDER = 'spool';

/** The spool folder of one run, in the worker. */
export class PageSpool {
  private files = 0;

  private constructor(readonly dir: string) {}

  static async create(dataDir: string, documentId: string): Promise<PageSpool> {
    const root = path.join(dataDir, SPOOL_FOLDER);
    await mkdir(root, { recursive: true });
    const dir = path.join(root, `${process.pid}-${documentId}-${Date.now().toString(36)}`);
    await mkdir(dir);
    return new PageSpool(dir);
  }

  /** A file name of its own for a reader thread to write. */
  nextFile(): string {
    return path.join(this.dir, `${this.files++}.pages`);
  }

  /** One page back, in the worker (a page to be read by OCR). */
  async read(page: SpooledPage): Promise<RawPage> {
    const handle = await open(page.file, 'r');
    try {
      const bytes = Buffer.alloc(page.length);
      await handle.read(bytes, 0, page.length, page.offset);
      return deserialize(bytes) as RawPage;
    } finally {
      await handle.close();
    }
  }

  /** Writes the page as it now stands (read by OCR) in place of its first reading. */
  async replace(page: SpooledPage, raw: RawPage, weights: PageTally): Promise<void> {
    const bytes = serialize(raw);
    const file = this.nextFile();
    await writeFile(file, bytes);
    Object.assign(page, { file, offset: 0, length: bytes.byteLength, weights });
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** Removes the spool folders of processes that are no longer running (a worker killed mid-run). */
export async function removeDeadSpools(dataDir: string): Promise<void> {
  const root = path.join(dataDir, SPOOL_FOLDER);
  const entries = await readdir(root).catch(() => [] as string[]);
  await Promise.all(
    entries.map(async (entry) => {
      const pid = Number(entry.split('-')[0]);
      if (pid === process.pid || (Number.isInteger(pid) && pid > 0 && running(pid))) return;
      await rm(path.join(root, entry), { recursive: true, force: true });
    }),
  );
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
