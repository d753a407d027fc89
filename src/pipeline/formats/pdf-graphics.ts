// The drawing on a PDF page that layout analysis needs: straight rulings (table borders,
// separators, underlines), rectangles (cell borders and backgrounds), the outlines of other vector
// shapes (charts and diagrams drawn as paths), and the regions of embedded images. Paths inside
// form XObjects are followed, with their matrices composed.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import { boxArea, intersectionArea, type Box, type PageGraphics, type Rect, type Segment } from '../page-model.js';
import { apply, boundsOf, clip, clipBounds, compose, heaps, IDENTITY_MATRIX, native, objectMatrix, round2, roundBox, type Matrix, type Scratch, type Transform } from './pdfium.js';

const OBJECT_PATH = 2;
const OBJECT_IMAGE = 3;
const OBJECT_FORM = 5;
const SEGMENT_BEZIER = 1;
const SEGMENT_MOVE = 2;

/** How far from exact a horizontal or vertical line may lean, in points. */
const AXIS_TOLERANCE = 1;
/** Corners of a rectangle agree to within this. */
const EXACT = 0.05;
/** A filled rectangle thinner than this is a ruling line drawn as a bar. */
const BAR_THICKNESS = 2.5;
/** Slanted pieces (more than 3 degrees off both axes, however short) from which a stroked polyline is a curve; a polygon has fewer. */
const POLYLINE_CURVE_PIECES = 8;
/** Pages with more path segments than this are maps or plots; the rest is not read. */
const MAX_SEGMENTS = 40_000;
/** Forms nest; deeper than this is a malformed or hostile file. */
const MAX_FORM_DEPTH = 8;

function rgb(lib: WrappedPdfiumModule, object: number, scratch: Scratch, fill: boolean): { color: number; alpha: number } | null {
  const p = scratch.ptr + 32;
  const ok = fill ? native(lib).FPDFPageObj_GetFillColor(object, p, p + 4, p + 8, p + 12) : native(lib).FPDFPageObj_GetStrokeColor(object, p, p + 4, p + 8, p + 12);
  if (!ok) return null;
  const u32 = new Uint32Array(heaps(lib).HEAPU8.buffer, p, 4);
  return { color: (u32[0] << 16) | (u32[1] << 8) | u32[2], alpha: u32[3] };
}

const WHITE = 0xffffff;

export function readGraphics(lib: WrappedPdfiumModule, page: number, t: Transform, width: number, height: number, scratch: Scratch): PageGraphics {
  const out: PageGraphics = { segments: [], rects: [], shapes: [], images: [] };
  const pageBox: Box = { x0: 0, y0: 0, x1: width, y1: height };
  let budget = MAX_SEGMENTS;
  const toPage = (m: Matrix, x: number, y: number): [number, number] => apply(t, m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f);

  const readPath = (object: number, m: Matrix) => {
    const count = native(lib).FPDFPath_CountSegments(object);
    if (count <= 0 || count > budget) return;
    budget -= count;
    const modePtr = scratch.ptr + 48;
    if (!native(lib).FPDFPath_GetDrawMode(object, modePtr, modePtr + 4)) return;
    const fillMode = scratch.i32(12);
    const stroked = scratch.i32(13) !== 0;
    const fill = fillMode !== 0 ? rgb(lib, object, scratch, true) : null;
    const stroke = stroked ? rgb(lib, object, scratch, false) : null;
    // White lines count: they are the borders between coloured cells. White areas do not: they
    // are the page itself, or erase what is under them.
    const filled = fill !== null && fill.alpha > 0 && fill.color !== WHITE;
    const whiteFill = fill !== null && fill.alpha > 0 && fill.color === WHITE;
    const visibleStroke = stroke !== null && stroke.alpha > 0;
    if (!filled && !visibleStroke && !whiteFill) return;

    let points: [number, number][] = [];
    let curved = false;
    const flush = (closed: boolean) => {
      if (points.length >= 2) addSubpath(points, closed || whiteFill, curved, filled, visibleStroke, fill?.color ?? null);
      points = [];
      curved = false;
    };
    for (let i = 0; i < count; i++) {
      const segment = native(lib).FPDFPath_GetPathSegment(object, i);
      if (!segment) continue;
      const type = native(lib).FPDFPathSegment_GetType(segment);
      if (!native(lib).FPDFPathSegment_GetPoint(segment, scratch.ptr, scratch.ptr + 4)) continue;
      const point = toPage(m, scratch.f32(0), scratch.f32(1));
      if (type === SEGMENT_MOVE) flush(false);
      if (type === SEGMENT_BEZIER) curved = true;
      points.push(point);
      if (native(lib).FPDFPathSegment_GetClose(segment)) {
        points.push(points[0]);
        flush(true);
      }
    }
    flush(false);
  };

  const addSubpath = (points: [number, number][], closed: boolean, curved: boolean, filled: boolean, stroked: boolean, fill: number | null) => {
    const box = clip(boundsOf(points), pageBox);
    if (!box) return;
    if (curved) {
      if ((filled && boxArea(box) > 0) || stroked) out.shapes.push(box);
      return;
    }
    const rect = asRectangle(points, closed || filled);
    if (rect) {
      const w = rect.x1 - rect.x0;
      const h = rect.y1 - rect.y0;
      // Bars drawn as thin filled rectangles are rulings.
      if (!filled && !stroked) {
        // A white rectangle counts only when it is a bar (a white line between coloured cells).
        if (Math.min(w, h) > BAR_THICKNESS) return;
      }
      if (h <= BAR_THICKNESS && w > h * 2) {
        out.segments.push({ x0: rect.x0, y0: (rect.y0 + rect.y1) / 2, x1: rect.x1, y1: (rect.y0 + rect.y1) / 2 });
        return;
      }
      if (w <= BAR_THICKNESS && h > w * 2) {
        out.segments.push({ x0: (rect.x0 + rect.x1) / 2, y0: rect.y0, x1: (rect.x0 + rect.x1) / 2, y1: rect.y1 });
        return;
      }
      // A background behind the whole page is not part of the layout.
      if (boxArea(rect) >= width * height * 0.9) return;
      const clipped = clip(rect, pageBox);
      if (clipped) out.rects.push({ box: clipped, filled, stroked, fill: filled ? fill : null } satisfies Rect);
      return;
    }
    if (filled) {
      out.shapes.push(box);
      return;
    }
    if (!stroked) return;
    // A curve drawn as a polyline of short straight pieces (a sampled plot) is a shape as a whole,
    // where each piece alone may be a speck too small to say anything.
    let slanted = 0;
    for (let i = 1; i < points.length; i++) {
      const dx = Math.abs(points[i][0] - points[i - 1][0]);
      const dy = Math.abs(points[i][1] - points[i - 1][1]);
      if (Math.min(dx, dy) > Math.max(dx, dy) * 0.05) slanted++;
    }
    if (slanted >= POLYLINE_CURVE_PIECES) out.shapes.push(box);
    for (let i = 1; i < points.length; i++) {
      const [xa, ya] = points[i - 1];
      const [xb, yb] = points[i];
      if (Math.abs(ya - yb) <= AXIS_TOLERANCE && Math.abs(xa - xb) > AXIS_TOLERANCE) {
        const y = (ya + yb) / 2;
        out.segments.push({ x0: Math.min(xa, xb), y0: y, x1: Math.max(xa, xb), y1: y });
      } else if (Math.abs(xa - xb) <= AXIS_TOLERANCE && Math.abs(ya - yb) > AXIS_TOLERANCE) {
        const x = (xa + xb) / 2;
        out.segments.push({ x0: x, y0: Math.min(ya, yb), x1: x, y1: Math.max(ya, yb) });
      } else if (Math.abs(xa - xb) > AXIS_TOLERANCE || Math.abs(ya - yb) > AXIS_TOLERANCE) {
        out.shapes.push(boundsOf([points[i - 1], points[i]]));
      }
    }
  };

  // An image is drawn into the unit square of its matrix.
  const imageBox = (m: Matrix): Box | null =>
    clip(boundsOf([toPage(m, 0, 0), toPage(m, 1, 0), toPage(m, 0, 1), toPage(m, 1, 1)]), pageBox);

  const walk = (container: number | null, m: Matrix, depth: number) => {
    const n = container === null ? native(lib).FPDFPage_CountObjects(page) : native(lib).FPDFFormObj_CountObjects(container);
    for (let i = 0; i < n; i++) {
      const object = container === null ? native(lib).FPDFPage_GetObject(page, i) : native(lib).FPDFFormObj_GetObject(container, i);
      if (!object) continue;
      const type = native(lib).FPDFPageObj_GetType(object);
      if (type === OBJECT_PATH) {
        readPath(object, compose(objectMatrix(lib, object, scratch), m));
      } else if (type === OBJECT_IMAGE) {
        const drawn = imageBox(compose(objectMatrix(lib, object, scratch), m));
        // A picture cropped by its frame shows only what the clip leaves of it.
        const frame = clipBounds(lib, object, (x, y) => toPage(m, x, y), scratch);
        const box = drawn && frame ? clip(drawn, frame) : drawn;
        if (box && boxArea(box) >= width * height * 0.001) out.images.push(box);
      } else if (type === OBJECT_FORM && depth < MAX_FORM_DEPTH) {
        walk(object, compose(objectMatrix(lib, object, scratch), m), depth + 1);
      }
    }
  };
  walk(null, IDENTITY_MATRIX, 0);
  out.images = mergeOverlapping(out.images);
  for (const s of out.segments) roundSegment(s);
  for (const r of out.rects) roundBox(r.box);
  for (const b of out.shapes) roundBox(b);
  for (const b of out.images) roundBox(b);
  return out;
}


/** The box of a closed four-sided path whose sides are horizontal and vertical, else null. */
function asRectangle(points: [number, number][], closed: boolean): Box | null {
  if (!closed) return null;
  const same = (p: [number, number], q: [number, number]) => Math.abs(p[0] - q[0]) <= EXACT && Math.abs(p[1] - q[1]) <= EXACT;
  // Repeated points and points in the middle of a straight side say nothing about the shape.
  const pts: [number, number][] = [];
  for (const p of points) if (pts.length === 0 || !same(pts[pts.length - 1], p)) pts.push(p);
  while (pts.length > 1 && same(pts[0], pts[pts.length - 1])) pts.pop();
  const corners = pts.filter((p, i) => {
    const prev = pts[(i + pts.length - 1) % pts.length];
    const next = pts[(i + 1) % pts.length];
    const straightX = Math.abs(prev[0] - p[0]) <= EXACT && Math.abs(next[0] - p[0]) <= EXACT;
    const straightY = Math.abs(prev[1] - p[1]) <= EXACT && Math.abs(next[1] - p[1]) <= EXACT;
    return !straightX && !straightY;
  });
  if (corners.length !== 4) return null;
  for (let i = 0; i < 4; i++) {
    const [xa, ya] = corners[i];
    const [xb, yb] = corners[(i + 1) % 4];
    if (Math.abs(xa - xb) > EXACT && Math.abs(ya - yb) > EXACT) return null;
  }
  return boundsOf(corners);
}


/** Touching or overlapping tiles of one picture become one region. */
export function mergeOverlapping(boxes: Box[]): Box[] {
  const merged = boxes.map((b) => ({ ...b }));
  let changed = true;
  while (changed) {
    changed = false;
    outer: for (let i = 0; i < merged.length; i++) {
      for (let j = i + 1; j < merged.length; j++) {
        const a = merged[i];
        const b = merged[j];
        const grown = { x0: a.x0 - 1, y0: a.y0 - 1, x1: a.x1 + 1, y1: a.y1 + 1 };
        if (intersectionArea(grown, b) > 0) {
          merged[i] = { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
          merged.splice(j, 1);
          changed = true;
          break outer;
        }
      }
    }
  }
  return merged;
}

function roundSegment(s: Segment): void {
  s.x0 = round2(s.x0);
  s.y0 = round2(s.y0);
  s.x1 = round2(s.x1);
  s.y1 = round2(s.y1);
}
