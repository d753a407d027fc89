// One reader per input type, chosen by the media type that byte sniffing found. Every reader
// produces RawPages of the shared page model; pages whose text must come from OCR are marked
// (textSource 'ocr') and handed out as grey pictures by `scan`. Readers never run OCR themselves.
import type { GrayImage } from '../../models/ocr/engine.js';
import type { SupportedMediaType } from '../../domain/media-types.js';
import type { Page, PageSpan, RawPage } from '../page-model.js';
import { office } from './office/index.js';
import { countImagePages, decodeImagePage, readImage, renderImageRegions } from './image.js';
import { countPdfPages, readPdf } from './pdf.js';
import type { Sketch } from './page-sketch.js';
import { renderPdfRegions, scanPdfPage, type RenderedBitmap, type RenderRequest } from './pdf-render.js';

export interface Scan {
  image: GrayImage;
  /** The picture's resolution, when known. */
  dpi: number | null;
  /** Page units per pixel of the picture. */
  unitsPerPixel: number;
  /** The page in colour at the size of its page picture, in the frame of `image`, when asked for (page-sketch.ts). */
  sketch?: Sketch;
}

export interface FormatReader {
  /**
   * The file's pages. Readers that walk the file page by page (TIFF) stop past `stopAfter` and
   * answer stopAfter + 1 for "more"; the others answer the count their format states.
   */
  countPages(bytes: Uint8Array, stopAfter?: number): Promise<number>;
  /**
   * The raw pages of `range`, or of the whole document. `key` names the file for readers that
   * keep it open in their thread between tasks on it (PDF), here and in `scan` and `render`.
   */
  read(bytes: Uint8Array, range?: PageSpan, key?: string): Promise<RawPage[]>;
  /**
   * For formats that know their own structure (Office): the analysed pages at once, instead of
   * raw pages for layout analysis.
   */
  readStructured?(bytes: Uint8Array, analysis: 'layout' | 'read'): Promise<Page[]>;
  /**
   * A page to be read by OCR, in grey levels; with its sketch fitting `sketchSide` when the
   * reader can make one without decoding the page again (PDF).
   */
  scan(bytes: Uint8Array, page: RawPage, key?: string, sketchSide?: number): Promise<Scan>;
  /**
   * Renders pages or regions of them (pictures, page previews); absent for types with no drawing
   * of their own (Office). Which pictures a type gets is docs/api.md's rule, kept in pictures.ts.
   */
  render?(bytes: Uint8Array, requests: RenderRequest[], maxSide: number, key?: string): AsyncIterable<RenderedBitmap>;
}

const pdf: FormatReader = {
  countPages: countPdfPages,
  read: readPdf,
  scan: async (bytes, page, key, sketchSide) => {
    const { image, dpi, sketch } = await scanPdfPage(bytes, page.number, page.rotation, key, sketchSide);
    return { image, dpi, unitsPerPixel: 72 / dpi, ...(sketch ? { sketch } : {}) };
  },
  render: renderPdfRegions,
};

type ImageType = 'image/png' | 'image/jpeg' | 'image/tiff' | 'image/bmp' | 'image/heic' | 'image/heif';

function imageReader(type: ImageType): FormatReader {
  return {
    countPages: (bytes, stopAfter) => countImagePages(bytes, type, stopAfter),
    read: (bytes, range) => readImage(bytes, type, range),
    scan: async (bytes, page) => ({ image: await decodeImagePage(bytes, type, page.number), dpi: page.dpi ?? null, unitsPerPixel: 1 }),
    render: (bytes, requests, maxSide) => renderImageRegions(bytes, type, requests, maxSide),
  };
}

function officeReader(kind: keyof typeof office): FormatReader {
  return {
    countPages: office[kind].count,
    read: async () => {
      throw new Error('Office files are read with their structure');
    },
    readStructured: office[kind].read,
    scan: async () => {
      throw new Error('Office files have no scanned pages');
    },
  };
}

const READERS: Record<SupportedMediaType, FormatReader> = {
  'application/pdf': pdf,
  'image/png': imageReader('image/png'),
  'image/jpeg': imageReader('image/jpeg'),
  'image/tiff': imageReader('image/tiff'),
  'image/bmp': imageReader('image/bmp'),
  'image/heic': imageReader('image/heic'),
  'image/heif': imageReader('image/heif'),
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': officeReader('docx'),
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': officeReader('xlsx'),
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': officeReader('pptx'),
};

export function readerFor(mediaType: SupportedMediaType): FormatReader {
  return READERS[mediaType];
}

export type { RenderedBitmap, RenderRequest };
