// Which way a PDF page's text runs: each text object's baseline on the displayed page, the
// quarter turn that makes most of the page read left to right, and the display transform turned
// to match, so words and lines are read in the frame where the text runs rightwards.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import type { RawPage, Word } from '../page-model.js';
import { isBreakingSpace, native, type Scratch, type Transform } from './pdfium.js';

/**
 * The clockwise quarter turns that make the page's text read left to right: the direction of
 * most characters' baselines on the displayed page decides (a landscape table printed sideways on
 * a portrait page is read turned, as a person would turn the paper).
 */
export function uprightRotation(lib: WrappedPdfiumModule, textPage: number, display: Transform, scratch: Scratch): RawPage['rotation'] {
  const votes = [0, 0, 0, 0];
  const count = native(lib).FPDFText_CountChars(textPage);
  let lastObject = -1;
  let direction = 0;
  for (let i = 0; i < count; i++) {
    const object = native(lib).FPDFText_GetTextObject(textPage, i);
    if (object !== lastObject) {
      lastObject = object;
      direction = baselineDirection(lib, textPage, i, display, scratch);
    }
    if (direction >= 0 && !isBreakingSpace(native(lib).FPDFText_GetUnicode(textPage, i))) votes[direction]++;
  }
  const total = votes.reduce((a, b) => a + b, 0);
  const best = votes.indexOf(Math.max(...votes));
  // Only a clear majority turns the page; mixed pages stay as displayed.
  if (best === 0 || total < 20 || votes[best] < total * 0.6) return 0;
  return ([0, 90, 180, 270] as const)[best];
}

/** The turn that makes text of each baseline direction read rightwards; unknown directions stay as they are. */
export const TURNS: Record<number, Word['turn']> = { [-1]: undefined, 0: undefined, 1: 90, 2: 180, 3: 270 };

/** 0: reads rightwards, 1: upwards, 2: leftwards, 3: downwards on the displayed page; -1 unknown. */
export function baselineDirection(lib: WrappedPdfiumModule, textPage: number, index: number, t: Transform, scratch: Scratch): number {
  if (!native(lib).FPDFText_GetMatrix(textPage, index, scratch.ptr + 16)) return -1;
  const a = scratch.f32(4);
  const b = scratch.f32(5);
  // The baseline vector through the linear part of the display transform (y grows downwards).
  const dx = t.a * a + t.c * b;
  const dy = t.b * a + t.d * b;
  if (Math.hypot(dx, dy) < 1e-6) return -1;
  if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? 0 : 2;
  return dy < 0 ? 1 : 3;
}

/** The display transform followed by a clockwise turn of the page, and the turned page's size. */
export function turned(t: Transform, rotation: RawPage['rotation'], width: number, height: number): { transform: Transform; width: number; height: number } {
  // Clockwise turns on a y-down page: 90 maps (x, y) to (H - y, x); 180 to (W - x, H - y); 270 to (y, W - x).
  const then = (p: [number, number, number, number, number, number]): Transform => ({
    a: p[0] * t.a + p[1] * t.b,
    b: p[2] * t.a + p[3] * t.b,
    c: p[0] * t.c + p[1] * t.d,
    d: p[2] * t.c + p[3] * t.d,
    e: p[0] * t.e + p[1] * t.f + p[4],
    f: p[2] * t.e + p[3] * t.f + p[5],
  });
  switch (rotation) {
    case 90:
      return { transform: then([0, -1, 1, 0, height, 0]), width: height, height: width };
    case 180:
      return { transform: then([-1, 0, 0, -1, width, height]), width, height };
    case 270:
      return { transform: then([0, 1, -1, 0, 0, width]), width: height, height: width };
    default:
      return { transform: t, width, height };
  }
}
