// The page picture of a page read by OCR, made from the pixels its scan already decoded. Drawing
// the page again for its picture decodes the scanner's picture a second time, in PDFium's
// WebAssembly (about as long as the scan itself, bench/speed's scans), while the engine competes
// for the same cores. So the scan keeps a copy of the page in colour at the picture's size (the
// sketch), and once OCR has settled the page's turn and skew the picture is that copy turned,
// straightened and encoded by libvips, off the event loop.
import sharp, { type Sharp } from 'sharp';

/** JPEG quality of whole-page pictures, drawn (threads/reader-thread.ts) or made from a sketch. */
export const PAGE_JPEG_QUALITY = 82;

/** Pixels of a page, one (grey) or three (RGB) bytes a pixel, rows without padding. */
export interface Sketch {
  width: number;
  height: number;
  channels: 1 | 3;
  data: Uint8Array;
}

/** Pixels as a reader holds them: grey, or colours in RGB or BGR order with or without a fourth byte. */
export interface Pixels {
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  bgr: boolean;
  data: Uint8Array;
}

/** `rows` rows of `rowBytes` from `heap` at `base`, `stride` apart, without their padding: one copy, no pass over pixels in JavaScript. */
export function copyRows(heap: Uint8Array, base: number, stride: number, rowBytes: number, rows: number): Uint8Array {
  const out = new Uint8Array(rowBytes * rows);
  if (stride === rowBytes) out.set(heap.subarray(base, base + rowBytes * rows));
  else for (let y = 0; y < rows; y++) out.set(heap.subarray(base + y * stride, base + y * stride + rowBytes), y * rowBytes);
  return out;
}

/** `pixels` turned clockwise by `turn` (a quarter turn) and shrunk to fit `side` on its long side, in grey or RGB. */
export async function sketchOf(pixels: Pixels, turn: number, side: number): Promise<Sketch> {
  let picture = rawPicture(pixels);
  if (pixels.channels === 4) picture = picture.removeAlpha();
  if (turn !== 0) picture = picture.rotate(turn);
  picture = picture.resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true });
  // Blue and red change places (libvips' recombination, after the shrink: fewer pixels).
  if (pixels.bgr && pixels.channels > 1) picture = picture.recomb([[0, 0, 1], [0, 1, 0], [1, 0, 0]]);
  const { data, info } = await picture.raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: info.channels === 1 ? 1 : 3, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/**
 * The JPEG page picture from a sketch: turned clockwise by `degrees` (OCR's quarter turn and
 * straightening, in one turn as the page's OCR picture was made), white where the turn uncovers
 * the corners, at most `side` pixels on its long side.
 */
export async function pictureFromSketch(sketch: Sketch, degrees: number, side: number): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  let picture = rawPicture(sketch);
  if (degrees !== 0) picture = picture.rotate(degrees, { background: { r: 255, g: 255, b: 255 } });
  // A turn is done before the resize in one pipeline (sharp's order), so a straightened sketch,
  // larger by its corners, comes back within the side.
  const { data, info } = await picture.resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: PAGE_JPEG_QUALITY }).toBuffer({ resolveWithObject: true });
  return { bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** Pixels handed to libvips as they are, without a copy. */
function rawPicture(pixels: Pick<Pixels, 'width' | 'height' | 'channels' | 'data'>): Sharp {
  return sharp(Buffer.from(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength), { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } });
}
