// Peer tools measured beside Folio: PDFium's own page text, through the binding Folio reads PDFs
// with (always there), and, when installed on this machine, poppler's `pdftotext` (text_pdf and
// layout_markdown cases) and the `tesseract` CLI (ocr_scans cases, with Folio's languages and model
// files, so the two differ only in what Folio does around the engine). A missing tool is reported
// and its column skipped.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PdfDocument } from '../../src/pipeline/formats/pdfium.js';

const run = promisify(execFile);
const MAX_BUFFER = 64 * 1024 * 1024;

export interface Tool {
  name: string;
  /** First line of its version output, or null when it is not installed. */
  version: string | null;
  /** What to run to install it (Debian). */
  install: string;
}

async function probe(command: string, args: string[]): Promise<string | null> {
  try {
    const { stdout, stderr } = await run(command, args, { maxBuffer: MAX_BUFFER });
    return (stdout || stderr).split('\n')[0]!.trim() || command;
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (e.code === 'ENOENT') return null;
    // Some versions print their version on stderr and exit non-zero.
    return ((e.stderr || e.stdout || '').split('\n')[0] ?? '').trim() || command;
  }
}

export async function findTools(): Promise<{ pdftotext: Tool; pdftoppm: Tool; tesseract: Tool }> {
  const [pdftotext, pdftoppm, tesseract] = await Promise.all([probe('pdftotext', ['-v']), probe('pdftoppm', ['-v']), probe('tesseract', ['--version'])]);
  return {
    pdftotext: { name: 'pdftotext', version: pdftotext, install: 'apt-get install poppler-utils' },
    pdftoppm: { name: 'pdftoppm', version: pdftoppm, install: 'apt-get install poppler-utils' },
    tesseract: { name: 'tesseract', version: tesseract, install: 'apt-get install tesseract-ocr' },
  };
}

/** `pdftotext` in its default (reading-order) mode, UTF-8, optionally a page range. */
export async function pdftotext(file: string, pages?: { first: number; last: number }): Promise<string> {
  const args = ['-enc', 'UTF-8'];
  if (pages) args.push('-f', String(pages.first), '-l', String(pages.last));
  args.push(file, '-');
  const { stdout } = await run('pdftotext', args, { maxBuffer: MAX_BUFFER });
  return stdout;
}

/** Where Tesseract finds the models of `languages`, and which: Folio's own (see ocrModels). */
export interface TesseractModels {
  dir: string;
  languages: string[];
}

/**
 * `tesseract FILE stdout -l <languages>` with its defaults otherwise (page segmentation 3), reading
 * the same model files as Folio. A PDF is first rendered at 300 dpi with `pdftoppm`, each page
 * read in turn.
 */
export async function tesseract(file: string, canRenderPdf: boolean, models: TesseractModels): Promise<string> {
  const read = async (image: string) => (await run('tesseract', [image, 'stdout', '--tessdata-dir', models.dir, '-l', models.languages.join('+')], { maxBuffer: MAX_BUFFER })).stdout;
  if (!file.toLowerCase().endsWith('.pdf')) return read(file);
  if (!canRenderPdf) throw new Error('pdftoppm is not installed, so a PDF cannot be rendered for tesseract');
  const dir = await mkdtemp(path.join(tmpdir(), 'folio-quality-'));
  try {
    await run('pdftoppm', ['-r', '300', '-png', file, path.join(dir, 'page')], { maxBuffer: MAX_BUFFER });
    const images = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort();
    const texts: string[] = [];
    for (const image of images) texts.push(await read(path.join(dir, image)));
    return texts.join('\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * PDFium's own text of each page (`FPDFText_GetText` over all of the page's characters, as
 * pypdfium2's `get_text_range()` reads it), pages joined by a line break; optionally a page range.
 */
export async function pdfiumText(file: string, pages?: { first: number; last: number }): Promise<string> {
  const doc = await PdfDocument.open(await readFile(file));
  const { lib } = doc;
  try {
    const texts: string[] = [];
    const first = pages ? pages.first - 1 : 0;
    const last = pages ? Math.min(pages.last, doc.pageCount) : doc.pageCount;
    for (let index = first; index < last; index++) {
      const page = lib.FPDF_LoadPage(doc.handle, index);
      if (!page) throw new Error(`page ${index + 1} could not be loaded`);
      const textPage = lib.FPDFText_LoadPage(page);
      try {
        const count = textPage ? lib.FPDFText_CountChars(textPage) : 0;
        if (count <= 0) {
          texts.push('');
          continue;
        }
        const buffer = lib.pdfium.wasmExports.malloc((count + 1) * 2);
        try {
          lib.FPDFText_GetText(textPage, 0, count, buffer);
          texts.push(lib.pdfium.UTF16ToString(buffer));
        } finally {
          lib.pdfium.wasmExports.free(buffer);
        }
      } finally {
        if (textPage) lib.FPDFText_ClosePage(textPage);
        lib.FPDF_ClosePage(page);
      }
    }
    return texts.join('\n');
  } finally {
    doc.close();
  }
}
