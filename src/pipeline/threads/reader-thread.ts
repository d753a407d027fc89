// Runs in a worker thread: reading, layout analysis and rendering are CPU work, kept off the
// event loop that serves the API. Results are plain data; failures come back as values so their
// kind survives the thread boundary.
import sharp from 'sharp';
import type { SupportedMediaType } from '../../domain/media-types.js';
import { readerFor, type Scan } from '../formats/index.js';
import type { RenderedBitmap } from '../formats/pdf-render.js';
import { ImageReadError } from '../formats/image.js';
import { OfficeReadError, OfficeTooLarge } from '../formats/office/index.js';
import { PdfOpenError } from '../formats/pdfium.js';
import { analyzePage } from '../analysis/analyze-page.js';
import { pageTally, type DocumentStats } from '../analysis/document-stats.js';
import type { PageSpan, RawPage } from '../page-model.js';
import { pageBatch, type BatchOptions, type PageBatch } from '../outputs/page-batch.js';
import { readSpooled, spoolPages, type SpoolPlace } from './page-spool.js';
import { isBlank, MAX_FIGURE_SCALE, MAX_PICTURE_SIDE, type PictureRequest } from '../outputs/pictures.js';
import { PAGE_JPEG_QUALITY } from '../formats/page-sketch.js';

export type Analysis = 'layout' | 'read';

export type ReaderTask =
  | { kind: 'readRange'; mediaType: SupportedMediaType; bytes: Uint8Array; range: PageSpan; spool: string; key?: string }
  | { kind: 'analyze'; pages: SpoolPlace[]; stats: DocumentStats; analysis: Analysis; batch: BatchOptions }
  | { kind: 'readStructured'; mediaType: SupportedMediaType; bytes: Uint8Array; analysis: Analysis; batch: BatchOptions }
  | { kind: 'scan'; mediaType: SupportedMediaType; bytes: Uint8Array; page: RawPage; key?: string; sketchSide?: number }
  | { kind: 'render'; mediaType: SupportedMediaType; bytes: Uint8Array; requests: PictureRequest[]; key?: string }
  | { kind: 'preview'; mediaType: SupportedMediaType; bytes: Uint8Array; page: PreviewRequest }
  | { kind: 'count'; mediaType: SupportedMediaType; bytes: Uint8Array };

/** A whole page to look at, turned and straightened as its page model was. */
export interface PreviewRequest {
  page: number;
  rotation: RawPage['rotation'];
  skew: number;
  /** Long side in pixels. */
  size: number;
}


export interface RenderedPicture {
  request: PictureRequest;
  /** The request's place in the task (blank pictures are left out). */
  index: number;
  mediaType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  bytes: Uint8Array;
}

/** `message` is the client's, in Folio's words; `detail` is the engine's own, for the log. */
export type ReaderFailure = { ok: false; errorType: 'analysis_failed' | 'processing_failed' | 'document_too_large'; message: string; detail?: string };
export type ReaderOutcome<T> = { ok: true; value: T } | ReaderFailure;

export default async function run(task: ReaderTask): Promise<ReaderOutcome<unknown>> {
  try {
    switch (task.kind) {
      case 'readRange': {
        const raw = await readerFor(task.mediaType).read(task.bytes, task.range, task.key);
        return { ok: true, value: spoolPages(task.spool, raw, pageTally) };
      }
      case 'analyze': {
        const pages = readSpooled(task.pages).map((raw) => analyzePage(raw, task.stats, task.analysis));
        return { ok: true, value: pageBatch(pages, task.batch) satisfies PageBatch };
      }
      case 'readStructured': {
        const reader = readerFor(task.mediaType);
        if (!reader.readStructured) throw new Error(`${task.mediaType} files are read page by page`);
        return { ok: true, value: pageBatch(await reader.readStructured(task.bytes, task.analysis), task.batch) satisfies PageBatch };
      }
      case 'scan': {
        const scan: Scan = await readerFor(task.mediaType).scan(task.bytes, task.page, task.key, task.sketchSide);
        return { ok: true, value: scan };
      }
      case 'render':
        return { ok: true, value: await renderPictures(task) };
      case 'preview':
        return { ok: true, value: await renderPreview(task) };
      case 'count':
        return { ok: true, value: await readerFor(task.mediaType).countPages(task.bytes) };
    }
  } catch (error) {
    if (error instanceof OfficeTooLarge) return { ok: false, errorType: 'document_too_large', message: error.message };
    if (error instanceof PdfOpenError || error instanceof ImageReadError || error instanceof OfficeReadError) {
      return { ok: false, errorType: 'analysis_failed', message: `The document could not be read: ${error.message}.`, detail: describeError(error.cause) };
    }
    // Anything else is an engine's or Folio's own fault, not something to tell the client about.
    return { ok: false, errorType: 'analysis_failed', message: 'The document could not be read: its contents broke the reader. Quote the document id when you report it.', detail: describeError(error) };
  }
}

/** An error as the log should keep it: its name, message and the top of its stack. */
function describeError(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  if (!(error instanceof Error)) return String(error);
  return (error.stack ?? `${error.name}: ${error.message}`).split('\n').slice(0, 6).join('\n');
}

/** A JPEG of the whole page (the caller has checked that the type has a drawing: isOffice). */
async function renderPreview(task: Extract<ReaderTask, { kind: 'preview' }>): Promise<Uint8Array> {
  const reader = readerFor(task.mediaType);
  if (!reader.render) throw new Error(`${task.mediaType} files have no drawing of their own`);
  const { page, rotation, skew, size } = task.page;
  for await (const bitmap of reader.render(task.bytes, [{ page, rotation, skew, region: null, maxScale: Number.POSITIVE_INFINITY }], size)) {
    return encode(bitmap, 'image/jpeg');
  }
  throw new Error(`page ${page} was not rendered`);
}

/** A rendering as PNG (figures: sharp lines and flat colours) or JPEG (whole pages). */
async function encode(bitmap: RenderedBitmap, mediaType: 'image/png' | 'image/jpeg'): Promise<Uint8Array> {
  const image = sharp(bitmap.rgba, { raw: { width: bitmap.width, height: bitmap.height, channels: 4 } }).removeAlpha();
  const bytes = mediaType === 'image/png' ? await image.png({ compressionLevel: 4 }).toBuffer() : await image.jpeg({ quality: PAGE_JPEG_QUALITY }).toBuffer();
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function renderPictures(task: Extract<ReaderTask, { kind: 'render' }>): Promise<RenderedPicture[]> {
  const reader = readerFor(task.mediaType);
  if (!reader.render || task.requests.length === 0) return [];
  const out: RenderedPicture[] = [];
  const renders = task.requests.map((request) => ({
    page: request.page,
    region: request.region,
    rotation: request.rotation,
    skew: request.skew,
    maxScale: request.kind === 'figure' ? MAX_FIGURE_SCALE : Number.POSITIVE_INFINITY,
  }));
  let index = 0;
  for await (const bitmap of reader.render(task.bytes, renders, MAX_PICTURE_SIDE, task.key)) {
    const request = task.requests[index++];
    if (!request.hasWords && isBlank(bitmap.rgba)) continue;
    const mediaType = request.kind === 'figure' ? 'image/png' : 'image/jpeg';
    out.push({ request, index: index - 1, mediaType, width: bitmap.width, height: bitmap.height, bytes: await encode(bitmap, mediaType) });
  }
  return out;
}
