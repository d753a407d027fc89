// A scanner's page: a PDF page that is nothing but one picture covering it. Drawing such a page for
// OCR decodes its picture and then resamples it onto the drawing's grid; its own pixels are taken
// instead, at their own resolution up to the drawing's (a 150 dpi scan read at 150 dpi, as the same
// scan sent as a PNG is), which is the scan itself, unresampled, in about a third of the time. Any
// other page, or a picture that is clipped, transparent, mirrored, slanted, with pixels not square
// or finer than the drawing's, is left to be drawn.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import type { RawPage } from '../page-model.js';
import { copyRows, type Pixels } from './page-sketch.js';
import { apply, clipPaths, compose, heaps, IDENTITY_MATRIX, native, objectMatrix, pageTransform, Scratch, type Matrix, type Transform } from './pdfium.js';

const OBJECT_IMAGE = 3;
const OBJECT_FORM = 5;
const MAX_FORM_DEPTH = 8;
/** FPDFBitmap_GetFormat: grey levels, and colours without alpha (three or four bytes a pixel). */
const FORMAT_GRAY = 1;
const FORMAT_BGR = 2;
const FORMAT_BGRX = 3;
/** How far (points) the picture's edges or a clip's may lie inside the page's and still cover it. */
const EDGE = 1;

/** Grey levels, one byte a pixel, rows without padding. */
export interface GreyPicture {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * The page's own picture in grey levels, as the page turned by `rotation` would be drawn at its
 * own resolution, with its quarter turn still to make (`turn`, clockwise), and that resolution:
 * the picture's pixels per inch on the page, when they are square and no more than `maxDpi`
 * (a finer scan is drawn at `maxDpi` instead); with `colour`, its pixels as they are too (grey or
 * RGB, for the page's sketch). Null when the page must be drawn.
 */
export function scannedPicture(lib: WrappedPdfiumModule, page: number, rotation: RawPage['rotation'], maxDpi: number, colour = false): { picture: GreyPicture; colours?: Pixels; turn: number; dpi: number } | null {
  const scratch = new Scratch(lib, 64);
  try {
    const width = lib.FPDF_GetPageWidthF(page);
    const height = lib.FPDF_GetPageHeightF(page);
    const display = pageTransform(lib, page, width, height, scratch);
    const found = onlyPicture(lib, page, display, width, height, scratch);
    if (!found) return null;
    const turn = pictureTurn(display, found.matrix);
    if (turn === null) return null;
    const total = (turn + rotation) % 360;
    const bitmap = lib.FPDFImageObj_GetBitmap(found.object);
    if (!bitmap) return null;
    try {
      const w = lib.FPDFBitmap_GetWidth(bitmap);
      const h = lib.FPDFBitmap_GetHeight(bitmap);
      // The page as it will be drawn (pdf-render.ts renderBitmap), and the picture's pixels across and down it.
      const sideways = rotation === 90 || rotation === 270;
      const [pageWidth, pageHeight] = sideways ? [height, width] : [width, height];
      const [turnedWidth, turnedHeight] = total === 90 || total === 270 ? [h, w] : [w, h];
      // Within a pixel of rounding of the drawing's grid, that grid; finer, the page is drawn smaller.
      const drawnWidth = Math.round((pageWidth * maxDpi) / 72);
      if (turnedWidth > drawnWidth + 1) return null;
      const dpi = Math.abs(turnedWidth - drawnWidth) <= 1 ? maxDpi : (turnedWidth * 72) / pageWidth;
      // Square pixels, within a pixel of rounding.
      if (Math.abs(turnedHeight - (pageHeight * dpi) / 72) > 1) return null;
      const levels = greyLevels(lib, bitmap, w, h, colour);
      if (!levels) return null;
      return { picture: { width: w, height: h, data: levels.grey }, ...(levels.colours ? { colours: levels.colours } : {}), turn: total, dpi };
    } finally {
      lib.FPDFBitmap_Destroy(bitmap);
    }
  } finally {
    scratch.free();
  }
}

/** The page's one picture and its matrix to user space, when nothing else is drawn and nothing clips it off the page. */
function onlyPicture(lib: WrappedPdfiumModule, page: number, display: Transform, width: number, height: number, scratch: Scratch): { object: number; matrix: Matrix } | null {
  let picture: { object: number; matrix: Matrix } | null = null;
  const covers = (points: [number, number][]) => {
    const xs = points.map(([x]) => x);
    const ys = points.map(([, y]) => y);
    return Math.min(...xs) <= EDGE && Math.min(...ys) <= EDGE && Math.max(...xs) >= width - EDGE && Math.max(...ys) >= height - EDGE;
  };
  const toDisplay = (m: Matrix, x: number, y: number) => apply(display, m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f);
  // A clip path of an object lies in its parent's space: each of its paths must cover the page.
  const unclipped = (object: number, parent: Matrix) =>
    clipPaths(lib, object, (x, y) => toDisplay(parent, x, y), scratch).every((points) => points.length === 0 || covers(points));
  const walk = (container: number | null, parent: Matrix, depth: number): boolean => {
    const count = container === null ? native(lib).FPDFPage_CountObjects(page) : native(lib).FPDFFormObj_CountObjects(container);
    for (let i = 0; i < count; i++) {
      const object = container === null ? native(lib).FPDFPage_GetObject(page, i) : native(lib).FPDFFormObj_GetObject(container, i);
      if (!object) continue;
      const type = native(lib).FPDFPageObj_GetType(object);
      if (!unclipped(object, parent)) return false;
      const matrix = compose(objectMatrix(lib, object, scratch), parent);
      if (type === OBJECT_FORM && depth < MAX_FORM_DEPTH) {
        if (!walk(object, matrix, depth + 1)) return false;
      } else if (type === OBJECT_IMAGE && !picture && !lib.FPDFPageObj_HasTransparency(object)) {
        picture = { object, matrix };
      } else {
        // Text, paths, shadings, a second picture, a transparent one: the page is more than a scan.
        return false;
      }
    }
    return true;
  };
  if (!walk(null, IDENTITY_MATRIX, 0) || !picture) return null;
  const { matrix } = picture as { object: number; matrix: Matrix };
  return covers([toDisplay(matrix, 0, 0), toDisplay(matrix, 1, 0), toDisplay(matrix, 0, 1), toDisplay(matrix, 1, 1)]) ? picture : null;
}

/**
 * The clockwise quarter turn that shows the picture's rows as the page shows them, from where its
 * unit square's axes land on the page: a picture's columns run along its matrix's x axis and its
 * rows from the top (y = 1) down. Null for a mirrored or slanted picture.
 */
function pictureTurn(display: Transform, m: Matrix): number | null {
  const along = (x: number, y: number): [number, number] => {
    const [x0, y0] = apply(display, m.e, m.f);
    const [x1, y1] = apply(display, m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f);
    return [x1 - x0, y1 - y0];
  };
  const [cx, cy] = along(1, 0);
  const [vx, vy] = along(0, 1);
  // Direction in which the picture's rows advance on the page (its y axis reversed).
  const [rx, ry] = [-vx, -vy];
  const axis = (dx: number, dy: number) => (Math.abs(dx) > Math.abs(dy) * 1000 ? (dx > 0 ? 'right' : 'left') : Math.abs(dy) > Math.abs(dx) * 1000 ? (dy > 0 ? 'down' : 'up') : null);
  const columns = axis(cx, cy);
  const rows = axis(rx, ry);
  if (columns === 'right' && rows === 'down') return 0;
  if (columns === 'down' && rows === 'left') return 90;
  if (columns === 'left' && rows === 'up') return 180;
  if (columns === 'up' && rows === 'right') return 270;
  return null;
}

/**
 * The bitmap's pixels in grey levels (Rec. 601 luma, as a drawn page's), and with `colour` its
 * pixels as they are too, copied row by row; null for a format with alpha or a palette.
 */
function greyLevels(lib: WrappedPdfiumModule, bitmap: number, width: number, height: number, colour: boolean): { grey: Uint8Array; colours?: Pixels } | null {
  const format = lib.FPDFBitmap_GetFormat(bitmap);
  const bytes = format === FORMAT_GRAY ? 1 : format === FORMAT_BGR ? 3 : format === FORMAT_BGRX ? 4 : 0;
  if (bytes === 0) return null;
  const heap = heaps(lib).HEAPU8;
  const base = lib.FPDFBitmap_GetBuffer(bitmap);
  const stride = lib.FPDFBitmap_GetStride(bitmap);
  const data = new Uint8Array(width * height);
  for (let y = 0, j = 0; y < height; y++) {
    const row = base + y * stride;
    if (bytes === 1) {
      data.set(heap.subarray(row, row + width), j);
      j += width;
      continue;
    }
    for (let i = row, end = row + width * bytes; i < end; i += bytes, j++) data[j] = (heap[i + 2] * 299 + heap[i + 1] * 587 + heap[i] * 114) / 1000;
  }
  if (!colour) return { grey: data };
  if (bytes === 1) return { grey: data, colours: { width, height, channels: 1, bgr: false, data } };
  return { grey: data, colours: { width, height, channels: bytes, bgr: true, data: copyRows(heap, base, stride, width * bytes, height) } };
}
