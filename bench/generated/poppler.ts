// Poppler's tools on a produced PDF: its pages rasterized by pdftoppm, its words and their boxes as
// pdftotext -bbox reads them. A reader that is not Folio's, so the bench's scans and its checks of
// the truth never depend on what is being measured.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** A word as pdftotext -bbox reads it, its box in points from the top left. */
export interface PopplerWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One page as pdftotext -bbox reads it: its size and its words. */
export interface PopplerPage {
  width: number;
  height: number;
  words: PopplerWord[];
}

/** Runs `work` on the PDF written to a file of a scratch folder, removed after. */
async function withPdfFile<T>(pdf: Uint8Array, work: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'folio-poppler-'));
  try {
    const file = path.join(dir, 'in.pdf');
    await writeFile(file, pdf);
    // Awaited here: the folder is removed in `finally` as soon as this returns.
    return await work(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The pages of `pdf` as grey PNGs at `dpi`, by pdftoppm. */
export function rasterize(pdf: Uint8Array, dpi: number): Promise<Buffer[]> {
  return withPdfFile(pdf, async (file, dir) => {
    await exec('pdftoppm', ['-r', String(dpi), '-gray', '-png', file, path.join(dir, 'page')], { maxBuffer: 1 << 20 });
    const pages = (await readdir(dir)).filter((f) => f.startsWith('page') && f.endsWith('.png')).sort((a, b) => Number(/(\d+)\.png$/.exec(a)![1]) - Number(/(\d+)\.png$/.exec(b)![1]));
    return Promise.all(pages.map((f) => readFile(path.join(dir, f))));
  });
}

const unescape = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** The words of a PDF (its bytes, or a file) with their boxes, page by page, by pdftotext -bbox. */
export async function popplerWords(pdf: Uint8Array | string): Promise<PopplerPage[]> {
  const read = (file: string) => exec('pdftotext', ['-bbox', file, '-'], { maxBuffer: 64 << 20 });
  const { stdout } = typeof pdf === 'string' ? await read(pdf) : await withPdfFile(pdf, read);
  return stdout
    .split('<page ')
    .slice(1)
    .map((chunk) => {
      const size = /width="([\d.]+)" height="([\d.]+)"/.exec(chunk)!;
      const words = [...chunk.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({ text: unescape(m[5]), x0: Number(m[1]), y0: Number(m[2]), x1: Number(m[3]), y1: Number(m[4]) }));
      return { width: Number(size[1]), height: Number(size[2]), words };
    });
}
