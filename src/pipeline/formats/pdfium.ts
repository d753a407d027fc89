// PDFium (Chrome's PDF engine, BSD/Apache) compiled to WebAssembly by @embedpdf/pdfium (MIT).
// Chosen over pdf.js for per-character boxes, font data and 2-3x faster rendering, and over
// MuPDF because MuPDF's AGPL licence would bind every Folio deployment (see STACK.md).
// One instance per thread, created on first use; the wasm file is loaded from the package.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import type { Box } from '../page-model.js';

let instance: Promise<WrappedPdfiumModule> | null = null;

/** The Emscripten heap views (typed here because the package leaves them to @types/emscripten). */
interface Heaps {
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPF32: Float32Array;
  HEAPF64: Float64Array;
}

export function heaps(lib: WrappedPdfiumModule): Heaps {
  return lib.pdfium as unknown as Heaps;
}

/**
 * The raw WebAssembly exports of the functions called once per character or path segment. The
 * package's wrappers go through Emscripten's `ccall` (a name lookup, argument conversion and
 * debug assertions on every call), which cost more than the work itself on long documents.
 * Booleans come back as 0 or 1.
 */
export interface NativeExports {
  FPDFText_CountChars(textPage: number): number;
  FPDFText_GetUnicode(textPage: number, index: number): number;
  FPDFText_GetLooseCharBox(textPage: number, index: number, rect: number): number;
  FPDFText_GetTextObject(textPage: number, index: number): number;
  FPDFText_GetFontSize(textPage: number, index: number): number;
  FPDFText_GetFontWeight(textPage: number, index: number): number;
  FPDFText_IsGenerated(textPage: number, index: number): number;
  FPDFText_GetMatrix(textPage: number, index: number, matrix: number): number;
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, index: number): number;
  FPDFFormObj_CountObjects(form: number): number;
  FPDFFormObj_GetObject(form: number, index: number): number;
  FPDFPageObj_GetType(object: number): number;
  FPDFPageObj_GetMatrix(object: number, matrix: number): number;
  FPDFPageObj_GetBounds(object: number, left: number, bottom: number, right: number, top: number): number;
  FPDFPageObj_GetFillColor(object: number, r: number, g: number, b: number, a: number): number;
  FPDFPageObj_GetStrokeColor(object: number, r: number, g: number, b: number, a: number): number;
  FPDFPath_CountSegments(path: number): number;
  FPDFPath_GetPathSegment(path: number, index: number): number;
  FPDFPath_GetDrawMode(path: number, fillMode: number, stroke: number): number;
  FPDFPathSegment_GetType(segment: number): number;
  FPDFPathSegment_GetPoint(segment: number, x: number, y: number): number;
  FPDFPathSegment_GetClose(segment: number): number;
}

export function native(lib: WrappedPdfiumModule): NativeExports {
  return (lib.pdfium as unknown as { wasmExports: NativeExports }).wasmExports;
}

export function pdfium(): Promise<WrappedPdfiumModule> {
  instance ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmBinary = readFileSync(require.resolve('@embedpdf/pdfium/pdfium.wasm'));
    const lib = await init({ wasmBinary } as never);
    lib.PDFiumExt_Init();
    return lib;
  })();
  return instance;
}

const LOAD_ERRORS: Record<number, string> = {
  1: 'the PDF could not be read (unknown error)',
  2: 'the PDF could not be read',
  3: 'the file is not a valid PDF or is damaged',
  4: 'the PDF is protected by a password',
  5: 'the PDF uses an unsupported security handler',
  6: 'the PDF page is damaged',
};

export class PdfOpenError extends Error {}

/**
 * The files open in this thread, by the number PDFium hands back when it reads one. PDFium reads a
 * file through `readBlock` as it needs its parts, so a file is never copied whole into each
 * thread's wasm memory (which never shrinks): the threads share the worker's one copy.
 */
const openFiles = new Map<number, Uint8Array>();
let lastFile = 0;
let readBlock = 0;

/** FPDF_FILEACCESS's m_GetBlock: copies `size` bytes of file `param` from `position` into PDFium's buffer; 0 when out of range. */
function blockReader(lib: WrappedPdfiumModule): number {
  if (readBlock) return readBlock;
  const mod = lib.pdfium as unknown as { addFunction(fn: (...args: number[]) => number, signature: string): number };
  readBlock = mod.addFunction((param: number, position: number, buffer: number, size: number) => {
    const file = openFiles.get(param);
    const start = position >>> 0;
    const end = start + (size >>> 0);
    if (!file || end > file.length) return 0;
    heaps(lib).HEAPU8.set(file.subarray(start, end), buffer >>> 0);
    return 1;
  }, 'iiiii');
  return readBlock;
}

/** An open document; `close()` frees the document, what readers keep with it, and its file access. */
export class PdfDocument {
  private readonly resources = new Map<string, { value: unknown; free: () => void }>();

  private constructor(
    readonly lib: WrappedPdfiumModule,
    readonly handle: number,
    private readonly access: number,
    private readonly file: number,
  ) {}

  /** Something a reader keeps for as long as the document is open (its font cache), made once. */
  resource<T>(name: string, make: () => T, free: (value: T) => void): T {
    let entry = this.resources.get(name);
    if (!entry) {
      const value = make();
      entry = { value, free: () => free(value) };
      this.resources.set(name, entry);
    }
    return entry.value as T;
  }

  static async open(bytes: Uint8Array): Promise<PdfDocument> {
    const lib = await pdfium();
    const mod = lib.pdfium;
    const file = ++lastFile;
    openFiles.set(file, bytes);
    // FPDF_FILEACCESS: the file's length, the block reader and its parameter (wasm32: three words).
    const access = mod.wasmExports.malloc(12);
    const words = heaps(lib).HEAP32;
    words[access >> 2] = bytes.length;
    words[(access >> 2) + 1] = blockReader(lib);
    words[(access >> 2) + 2] = file;
    const handle = lib.FPDF_LoadCustomDocument(access, '');
    if (!handle) {
      const code = lib.FPDF_GetLastError();
      mod.wasmExports.free(access);
      openFiles.delete(file);
      throw new PdfOpenError(LOAD_ERRORS[code] ?? `the PDF could not be read (error ${code})`);
    }
    return new PdfDocument(lib, handle, access, file);
  }

  get pageCount(): number {
    return this.lib.FPDF_GetPageCount(this.handle);
  }

  close(): void {
    for (const { free } of this.resources.values()) free();
    this.resources.clear();
    this.lib.FPDF_CloseDocument(this.handle);
    this.lib.pdfium.wasmExports.free(this.access);
    openFiles.delete(this.file);
  }
}

/** How long a thread keeps a document open after its last task on it. */
const KEEP_OPEN_MS = 10_000;

/**
 * A kept document is opened afresh once this many of its pages have been loaded from it: PDFium
 * keeps every object it has parsed of a document (pages, fonts, pictures), and Folio its fonts,
 * until the document is closed, so a thread's memory followed the pages it had read, not the
 * pages in hand. GeoTopo joined 9 times (1,053 pages, 12 MB) grew each thread's WebAssembly
 * memory from 18 to 64 MB; opening it again every 128 pages costs about 40 ms each time.
 */
export const REOPEN_AFTER_PAGES = 128;

let kept: { key: string; size: number; doc: PdfDocument; users: number; loaded: number; timer: NodeJS.Timeout | null } | null = null;

function closeKept(): void {
  if (!kept || kept.users > 0) return;
  kept.doc.close();
  kept = null;
}

/**
 * The document `key` names, kept open in this thread between tasks on the same file: a long
 * document's spans and pictures are separate tasks, and opening it again for each (its
 * cross-reference table, then its fonts) cost about 40 ms a task on a 12 MB, 1,053-page book.
 * One document is kept at a time, closed when another comes, after KEEP_OPEN_MS, or once
 * REOPEN_AFTER_PAGES of its pages were loaded. `pages` is how many pages the caller will load.
 * Without a key the document is opened for the caller alone. `release()` when done with it.
 */
export async function openPdf(bytes: Uint8Array, pages: number, key?: string): Promise<{ doc: PdfDocument; release: () => void }> {
  if (!key) {
    const doc = await PdfDocument.open(bytes);
    return { doc, release: () => doc.close() };
  }
  if (kept?.key !== key || kept.size !== bytes.byteLength || kept.loaded >= REOPEN_AFTER_PAGES) {
    closeKept();
    const doc = await PdfDocument.open(bytes);
    // A document still in use (never, while a thread runs one task at a time) is left to its user.
    kept = { key, size: bytes.byteLength, doc, users: 0, loaded: 0, timer: null };
  }
  const entry = kept;
  entry.users++;
  entry.loaded += pages;
  if (entry.timer) clearTimeout(entry.timer);
  let released = false;
  return {
    doc: entry.doc,
    release: () => {
      if (released) return;
      released = true;
      entry.users--;
      if (kept !== entry) {
        if (entry.users === 0) entry.doc.close();
        return;
      }
      entry.timer = setTimeout(closeKept, KEEP_OPEN_MS);
      entry.timer.unref();
    },
  };
}

/** A scratch area in wasm memory for out-parameters, freed with `free()`. */
export class Scratch {
  readonly ptr: number;
  constructor(
    private readonly lib: WrappedPdfiumModule,
    bytes: number,
  ) {
    this.ptr = lib.pdfium.wasmExports.malloc(bytes);
  }
  f64(index: number): number {
    return heaps(this.lib).HEAPF64[(this.ptr >> 3) + index];
  }
  f32(index: number): number {
    return heaps(this.lib).HEAPF32[(this.ptr >> 2) + index];
  }
  i32(index: number): number {
    return heaps(this.lib).HEAP32[(this.ptr >> 2) + index];
  }
  free(): void {
    this.lib.pdfium.wasmExports.free(this.ptr);
  }
}

/** Affine map from PDF user space to the top-left-origin page space of the page model. */
export interface Transform {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

export function apply(t: Transform, x: number, y: number): [number, number] {
  return [t.a * x + t.c * y + t.e, t.b * x + t.d * y + t.f];
}

/** A page object's matrix (PDF's a b c d e f), mapping its own space to its parent's. */
export type Matrix = Transform;

export const IDENTITY_MATRIX: Matrix = { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 };

/** `inner` then `outer`: maps a point of the inner space to the outer's parent space. */
export function compose(inner: Matrix, outer: Matrix): Matrix {
  return {
    a: inner.a * outer.a + inner.b * outer.c,
    b: inner.a * outer.b + inner.b * outer.d,
    c: inner.c * outer.a + inner.d * outer.c,
    d: inner.c * outer.b + inner.d * outer.d,
    e: inner.e * outer.a + inner.f * outer.c + outer.e,
    f: inner.e * outer.b + inner.f * outer.d + outer.f,
  };
}

/**
 * The points of each path of an object's clip (the clip is where they all overlap), mapped by
 * `map` from the space they are given in (the object's parent's); none when it has no clip.
 */
export function clipPaths(lib: WrappedPdfiumModule, object: number, map: (x: number, y: number) => [number, number], scratch: Scratch): [number, number][][] {
  const path = lib.FPDFPageObj_GetClipPath(object);
  if (!path) return [];
  const paths: [number, number][][] = [];
  for (let p = 0, count = lib.FPDFClipPath_CountPaths(path); p < count; p++) {
    const points: [number, number][] = [];
    for (let i = 0, segments = lib.FPDFClipPath_CountPathSegments(path, p); i < segments; i++) {
      const segment = lib.FPDFClipPath_GetPathSegment(path, p, i);
      if (segment && native(lib).FPDFPathSegment_GetPoint(segment, scratch.ptr, scratch.ptr + 4)) points.push(map(scratch.f32(0), scratch.f32(1)));
    }
    paths.push(points);
  }
  return paths;
}

/**
 * The bounds of an object's clip on the page (where its paths overlap, each mapped by `map`), or
 * null when it has none; an empty box when they do not overlap.
 */
export function clipBounds(lib: WrappedPdfiumModule, object: number, map: (x: number, y: number) => [number, number], scratch: Scratch): Box | null {
  let bounds: Box | null = null;
  for (const points of clipPaths(lib, object, map, scratch)) {
    if (points.length < 2) continue;
    const box = boundsOf(points);
    bounds = bounds ? (clip(bounds, box) ?? { x0: 0, y0: 0, x1: 0, y1: 0 }) : box;
  }
  return bounds;
}

export function boundsOf(points: [number, number][]): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of points) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return { x0, y0, x1, y1 };
}

/** The part of `box` inside `bounds`, or null when they do not meet. */
export function clip(box: Box, bounds: Box): Box | null {
  const clipped = {
    x0: Math.max(box.x0, bounds.x0),
    y0: Math.max(box.y0, bounds.y0),
    x1: Math.min(box.x1, bounds.x1),
    y1: Math.min(box.y1, bounds.y1),
  };
  return clipped.x1 >= clipped.x0 && clipped.y1 >= clipped.y0 ? clipped : null;
}

export function objectMatrix(lib: WrappedPdfiumModule, object: number, scratch: Scratch): Matrix {
  if (!native(lib).FPDFPageObj_GetMatrix(object, scratch.ptr)) return IDENTITY_MATRIX;
  return { a: scratch.f32(0), b: scratch.f32(1), c: scratch.f32(2), d: scratch.f32(3), e: scratch.f32(4), f: scratch.f32(5) };
}

/**
 * Derives the page's user-space-to-display transform (crop box offset and /Rotate included) from
 * PDFium itself, by mapping three points through FPDF_PageToDevice at 1/64 pt precision.
 */
export function pageTransform(lib: WrappedPdfiumModule, page: number, width: number, height: number, scratch: Scratch): Transform {
  const K = 64;
  const sizeX = Math.max(1, Math.round(width * K));
  const sizeY = Math.max(1, Math.round(height * K));
  const map = (x: number, y: number): [number, number] => {
    lib.FPDF_PageToDevice(page, 0, 0, sizeX, sizeY, 0, x, y, scratch.ptr, scratch.ptr + 4);
    return [scratch.i32(0) / K, scratch.i32(1) / K];
  };
  const [e, f] = map(0, 0);
  const [ax, bx] = map(1000, 0);
  const [cx, dy] = map(0, 1000);
  return { a: (ax - e) / 1000, b: (bx - f) / 1000, c: (cx - e) / 1000, d: (dy - f) / 1000, e, f };
}

/** A code PDFium's text API reports that is a space, a line break or no character at all: no glyph of a word. */
export function isBreakingSpace(code: number): boolean {
  return (
    code <= 0x20 ||
    code === 0xa0 ||
    code === 0x3000 ||
    (code >= 0x2000 && code <= 0x200b) ||
    code === 0xfeff ||
    code === 0xfffe ||
    code === 0xffff
  );
}

/** Positions read from a PDF are kept to a hundredth of a point. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export function roundBox(box: Box): Box {
  box.x0 = round2(box.x0);
  box.y0 = round2(box.y0);
  box.x1 = round2(box.x1);
  box.y1 = round2(box.y1);
  return box;
}
