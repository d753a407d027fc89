// PDF pages drawn as pictures by PDFium: regions for figure and page pictures (turned as the page
// model is, a scan straightened after OCR), and whole pages in grey levels for OCR.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import sharp from 'sharp';
import type { Box, RawPage } from '../page-model.js';
import { heaps, openPdf } from './pdfium.js';
import { scannedPicture, type GreyPicture } from './pdf-scan-picture.js';
import { copyRows, sketchOf, type Pixels, type Sketch } from './page-sketch.js';

export interface RenderedBitmap {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, rows without padding. */
  rgba: Buffer;
}

const RENDER_ANNOTATIONS = 0x01;
const RENDER_RGBA_ORDER = 0x10;

export interface RenderRequest {
  page: number;
  /** Region in page units of the turned page; null for the whole page. */
  region: Box | null;
  /** Clockwise turn of the page model's frame (RawPage.rotation), rendered the same way. */
  rotation: RawPage['rotation'];
  /** Straightening turn of a scanned page (RawPage.skew), applied after rendering. */
  skew: number;
  /** Most pixels per point. */
  maxScale: number;
}

/**
 * Renders pages or regions of them, one at a time with the document kept open, so that the long
 * side is at most `maxSide` pixels. The caller consumes each bitmap before the next is made.
 */
export async function* renderPdfRegions(bytes: Uint8Array, requests: RenderRequest[], maxSide: number, key?: string): AsyncGenerator<RenderedBitmap> {
  const { doc, release } = await openPdf(bytes, new Set(requests.map((request) => request.page)).size, key);
  const { lib } = doc;
  // Consecutive requests for one page (its figures) share the loaded page.
  let openNumber = -1;
  let openHandle = 0;
  try {
    for (const request of requests) {
      if (openNumber !== request.page) {
        if (openHandle) lib.FPDF_ClosePage(openHandle);
        openHandle = lib.FPDF_LoadPage(doc.handle, request.page - 1);
        openNumber = request.page;
        if (!openHandle) throw new Error(`page ${request.page} could not be loaded`);
      }
      yield request.skew === 0 ? renderOne(lib, openHandle, request, maxSide) : await renderStraightened(lib, openHandle, request, maxSide);
    }
  } finally {
    if (openHandle) lib.FPDF_ClosePage(openHandle);
    release();
  }
}

/**
 * A scanned page straightened after OCR: rendered whole and turned by its skew with sharp, then
 * the region cut from the straightened frame (whose size is the turned page's bounding box).
 */
async function renderStraightened(lib: WrappedPdfiumModule, page: number, request: RenderRequest, maxSide: number): Promise<RenderedBitmap> {
  const sideways = request.rotation === 90 || request.rotation === 270;
  const width = sideways ? lib.FPDF_GetPageHeightF(page) : lib.FPDF_GetPageWidthF(page);
  const height = sideways ? lib.FPDF_GetPageWidthF(page) : lib.FPDF_GetPageHeightF(page);
  const angle = (Math.abs(request.skew) * Math.PI) / 180;
  const frame = { x0: 0, y0: 0, x1: width * Math.cos(angle) + height * Math.sin(angle), y1: width * Math.sin(angle) + height * Math.cos(angle) };
  const region = request.region ?? frame;
  const scale = Math.min(request.maxScale, maxSide / Math.max(region.x1 - region.x0, region.y1 - region.y0));
  const whole = renderOne(lib, page, { ...request, region: null, skew: 0, maxScale: scale }, Number.MAX_SAFE_INTEGER);
  const turned = await sharp(whole.rgba, { raw: { width: whole.width, height: whole.height, channels: 4 } })
    .rotate(request.skew, { background: { r: 255, g: 255, b: 255, alpha: 1 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const left = Math.max(0, Math.min(turned.info.width - 1, Math.round(region.x0 * scale)));
  const top = Math.max(0, Math.min(turned.info.height - 1, Math.round(region.y0 * scale)));
  const cut = await sharp(turned.data, { raw: { width: turned.info.width, height: turned.info.height, channels: 4 } })
    .extract({
      left,
      top,
      width: Math.max(1, Math.min(turned.info.width - left, Math.round((region.x1 - region.x0) * scale))),
      height: Math.max(1, Math.min(turned.info.height - top, Math.round((region.y1 - region.y0) * scale))),
    })
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: cut.info.width, height: cut.info.height, rgba: cut.data };
}

/** The highest resolution at which pages are rendered for OCR, and the pixel budget of one page. */
export const SCAN_DPI = 300;
const SCAN_MAX_PIXELS = 40_000_000;

/**
 * A page in grey levels for OCR, turned as the page model is, and its resolution: the page's own
 * picture when it is a scanner's page already on the drawing's grid (pdf-scan-picture.ts), else
 * drawn. With `sketchSide`, the same pixels in colour fitting that side (page-sketch.ts).
 */
export async function scanPdfPage(
  bytes: Uint8Array,
  pageNumber: number,
  rotation: RawPage['rotation'],
  key?: string,
  sketchSide?: number,
): Promise<{ image: { width: number; height: number; data: Uint8Array }; dpi: number; sketch?: Sketch }> {
  const { doc, release } = await openPdf(bytes, 1, key);
  const { lib } = doc;
  const colour = sketchSide !== undefined;
  let scan: { picture: GreyPicture; colours?: Pixels; turn: number };
  let dpi: number;
  try {
    const page = lib.FPDF_LoadPage(doc.handle, pageNumber - 1);
    if (!page) throw new Error(`page ${pageNumber} could not be loaded`);
    try {
      const area = lib.FPDF_GetPageWidthF(page) * lib.FPDF_GetPageHeightF(page);
      const maxDpi = Math.min(SCAN_DPI, Math.floor(72 * Math.sqrt(SCAN_MAX_PIXELS / Math.max(1, area))));
      const own = scannedPicture(lib, page, rotation, maxDpi, colour);
      dpi = own?.dpi ?? maxDpi;
      // Drawn, the page comes out already turned.
      scan = own ?? { ...drawnForScan(lib, page, { page: pageNumber, region: null, rotation, skew: 0, maxScale: dpi / 72 }, colour), turn: 0 };
    } finally {
      lib.FPDF_ClosePage(page);
    }
  } finally {
    release();
  }
  // The pixels are the thread's own from here: PDFium's document is released before libvips works.
  const { picture, colours, turn } = scan;
  const sketch = colours ? await sketchOf(colours, turn, sketchSide!) : undefined;
  if (turn === 0) return { image: picture, dpi, ...(sketch ? { sketch } : {}) };
  const turned = await sharp(Buffer.from(picture.data.buffer, picture.data.byteOffset, picture.data.byteLength), { raw: { width: picture.width, height: picture.height, channels: 1 } })
    .rotate(turn)
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { image: { width: turned.info.width, height: turned.info.height, data: new Uint8Array(turned.data.buffer, turned.data.byteOffset, turned.data.byteLength) }, dpi, ...(sketch ? { sketch } : {}) };
}

/** The page drawn in grey levels at `scale` pixels per point, turned by `rotation`, in the page model's frame. */
export function drawnGrey(lib: WrappedPdfiumModule, page: number, rotation: RawPage['rotation'], scale: number): GreyPicture {
  return drawnForScan(lib, page, { page: 0, region: null, rotation, skew: 0, maxScale: scale }, false).picture;
}

/**
 * The page drawn for OCR in grey levels, taken straight from PDFium's bitmap, with a copy of its
 * colours only when a sketch is asked for.
 */
function drawnForScan(lib: WrappedPdfiumModule, page: number, request: RenderRequest, colour: boolean): { picture: GreyPicture; colours?: Pixels } {
  return renderBitmap(lib, page, request, Number.MAX_SAFE_INTEGER, (heap, base, stride, width, height) => {
    const data = new Uint8Array(width * height);
    for (let y = 0, j = 0; y < height; y++) {
      for (let i = base + y * stride, end = i + width * 4; i < end; i += 4, j++) {
        // Rec. 601 luma from RGBA.
        data[j] = (heap[i] * 299 + heap[i + 1] * 587 + heap[i + 2] * 114) / 1000;
      }
    }
    const picture = { width, height, data };
    return colour ? { picture, colours: { width, height, channels: 4, bgr: false, data: copyRows(heap, base, stride, width * 4, height) } } : { picture };
  });
}

function renderOne(lib: WrappedPdfiumModule, page: number, request: RenderRequest, maxSide: number): RenderedBitmap {
  return renderBitmap(lib, page, request, maxSide, (heap, base, stride, width, height) => {
    const rgba = Buffer.allocUnsafe(width * height * 4);
    for (let y = 0; y < height; y++) rgba.set(heap.subarray(base + y * stride, base + y * stride + width * 4), y * width * 4);
    return { width, height, rgba };
  });
}

/** Draws the request into a PDFium bitmap (RGBA) and hands its pixels, in PDFium's memory, to `take`. */
function renderBitmap<T>(
  lib: WrappedPdfiumModule,
  page: number,
  request: RenderRequest,
  maxSide: number,
  take: (heap: Uint8Array, base: number, stride: number, width: number, height: number) => T,
): T {
  const sideways = request.rotation === 90 || request.rotation === 270;
  const width = sideways ? lib.FPDF_GetPageHeightF(page) : lib.FPDF_GetPageWidthF(page);
  const height = sideways ? lib.FPDF_GetPageWidthF(page) : lib.FPDF_GetPageHeightF(page);
  const region = request.region ?? { x0: 0, y0: 0, x1: width, y1: height };
  const regionWidth = region.x1 - region.x0;
  const regionHeight = region.y1 - region.y0;
  const scale = Math.min(request.maxScale, maxSide / Math.max(regionWidth, regionHeight));
  const bw = Math.max(1, Math.min(maxSide, Math.round(regionWidth * scale)));
  const bh = Math.max(1, Math.min(maxSide, Math.round(regionHeight * scale)));
  const bitmap = lib.FPDFBitmap_Create(bw, bh, 0);
  if (!bitmap) throw new Error('out of memory rendering a page');
  try {
    lib.FPDFBitmap_FillRect(bitmap, 0, 0, bw, bh, 0xffffffff);
    lib.FPDF_RenderPageBitmap(
      bitmap,
      page,
      -Math.round(region.x0 * scale),
      -Math.round(region.y0 * scale),
      Math.round(width * scale),
      Math.round(height * scale),
      request.rotation / 90,
      RENDER_ANNOTATIONS | RENDER_RGBA_ORDER,
    );
    return take(heaps(lib).HEAPU8, lib.FPDFBitmap_GetBuffer(bitmap), lib.FPDFBitmap_GetStride(bitmap), bw, bh);
  } finally {
    lib.FPDFBitmap_Destroy(bitmap);
  }
}
