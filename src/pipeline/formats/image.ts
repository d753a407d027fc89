// Image reader: PNG, JPEG (EXIF orientation applied), TIFF (one page per frame, any compression
// libtiff reads, bilevel G4 included), BMP and HEIF. Each frame becomes a page measured in pixels
// whose words come from OCR. sharp (libvips) decodes what it can; BMP, which libvips lacks, goes
// through bmp-js, and HEIF with HEVC pictures, which sharp's libheif build cannot decode, through
// heic-decode (libheif in WebAssembly). Declared dimensions are checked before anything is
// decoded, so a small file that claims a gigantic picture (a decompression bomb) is refused
// without allocating it.
import { createRequire } from 'node:module';
import sharp, { type Sharp } from 'sharp';
import type { GrayImage } from '../../models/ocr/engine.js';
import { NO_GRAPHICS, type Box, type PageSpan, type RawPage } from '../page-model.js';
import { tiffDirectories } from './tiff-directories.js';

/** The largest picture read: 60 megapixels (A3 at 500 dpi), at most 40,000 pixels a side. */
export const MAX_PIXELS = 60_000_000;
const MAX_SIDE = 40_000;

type ImageType = 'image/png' | 'image/jpeg' | 'image/tiff' | 'image/bmp' | 'image/heic' | 'image/heif';

export class ImageReadError extends Error {}

const require = createRequire(import.meta.url);

interface Frame {
  /** From 1, in file order. */
  number: number;
  width: number;
  height: number;
  /** As the file states it; null when it states none or a screen resolution. */
  dpi: number | null;
}

function checkSize(width: number, height: number): void {
  if (!(width > 0 && height > 0)) throw new ImageReadError('the picture has no size; the file is damaged');
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) {
    throw new ImageReadError(`the picture declares ${width} x ${height} pixels, more than the ${MAX_PIXELS / 1e6} megapixels Folio reads`);
  }
}

function plausibleDpi(density: number | undefined): number | null {
  return density !== undefined && density >= 100 && density <= 1200 ? density : null;
}

/** A frame as displayed: EXIF and TIFF orientations 5-8 turn the picture a quarter. */
function displayed(number: number, width: number, height: number, orientation: number, density: number | null): Frame {
  const turned = orientation >= 5;
  return { number, width: turned ? height : width, height: turned ? width : height, dpi: plausibleDpi(density ?? undefined) };
}

/** A sharp pipeline that refuses oversized input and keeps going past minor corruption no further. */
function open(bytes: Uint8Array, page?: number): Sharp {
  return sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error', ...(page !== undefined ? { page } : {}) });
}

/**
 * Frames of the file with their sizes as displayed (EXIF orientation applied): those of `range`,
 * or all of them. Each frame read is checked against the size limits.
 */
async function frames(bytes: Uint8Array, type: ImageType, range?: PageSpan): Promise<Frame[]> {
  const inRange = (number: number) => !range || (number >= range.first && number <= range.last);
  try {
    switch (type) {
      case 'image/bmp': {
        const { width, height } = bmpHeader(bytes);
        checkSize(width, height);
        return [{ number: 1, width, height, dpi: null }].filter((frame) => inRange(frame.number));
      }
      case 'image/heic':
      case 'image/heif': {
        const images = await heifImages(bytes);
        return images
          .map((image, i) => ({ number: i + 1, width: image.width, height: image.height, dpi: null }))
          .filter((frame) => {
            if (inRange(frame.number)) checkSize(frame.width, frame.height);
            return inRange(frame.number);
          });
      }
      case 'image/tiff': {
        // One walk along the directories, to the last frame asked for (tiff-directories.ts).
        const { frames: found } = tiffDirectories(bytes, range?.last);
        return found.flatMap((frame, i) => {
          if (!inRange(i + 1)) return [];
          checkSize(frame.width, frame.height);
          return [displayed(i + 1, frame.width, frame.height, frame.orientation, frame.dpi)];
        });
      }
      default: {
        const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
        checkSize(meta.width ?? 0, meta.height ?? 0);
        return [displayed(1, meta.width!, meta.height!, meta.orientation ?? 1, meta.density ?? null)].filter((frame) => inRange(frame.number));
      }
    }
  } catch (error) {
    if (error instanceof ImageReadError) throw error;
    throw new ImageReadError('the picture could not be read; the file is damaged or not a picture of its declared type', { cause: error });
  }
}

/**
 * The frames of the file; past `stopAfter`, only that there are more (stopAfter + 1), since a
 * count over the plan's page limit is refused whatever it is.
 */
export async function countImagePages(bytes: Uint8Array, type: ImageType, stopAfter = Number.POSITIVE_INFINITY): Promise<number> {
  if (type === 'image/tiff') {
    try {
      const { frames: found, more } = tiffDirectories(bytes, stopAfter);
      return found.length + (more ? 1 : 0);
    } catch (error) {
      throw new ImageReadError('the picture could not be read; the file is damaged or not a picture of its declared type', { cause: error });
    }
  }
  return (await frames(bytes, type)).length;
}

/** One page per frame (of `range`, or all), with no words yet: every page of a picture is read by OCR. */
export async function readImage(bytes: Uint8Array, type: ImageType, range?: PageSpan): Promise<RawPage[]> {
  return (await frames(bytes, type, range)).map((frame) => ({
    number: frame.number,
    width: frame.width,
    height: frame.height,
    unit: 'px',
    ...(frame.dpi !== null ? { dpi: frame.dpi } : {}),
    rotation: 0,
    skew: 0,
    words: [],
    graphics: NO_GRAPHICS,
    formFields: [],
    textSource: 'ocr',
  }));
}

/** A frame as grey levels, upright as displayed. */
export async function decodeImagePage(bytes: Uint8Array, type: ImageType, page: number): Promise<GrayImage> {
  await frames(bytes, type, { first: page, last: page });
  try {
    const pipeline = await decodedPipeline(bytes, type, page - 1);
    const { data, info } = await pipeline.greyscale().raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (error) {
    throw new ImageReadError('the picture could not be decoded; the file may be truncated or damaged', { cause: error });
  }
}

/** A sharp pipeline over the decoded frame, EXIF orientation applied. */
export async function decodedPipeline(bytes: Uint8Array, type: ImageType, frame: number): Promise<Sharp> {
  switch (type) {
    case 'image/bmp': {
      const bmp = require('bmp-js') as { decode(buffer: Buffer): { width: number; height: number; data: Buffer } };
      const decoded = bmp.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      // bmp-js gives ABGR with an alpha of 0; reorder to RGB.
      const rgb = Buffer.allocUnsafe(decoded.width * decoded.height * 3);
      for (let i = 0, j = 0; i < decoded.data.length; i += 4, j += 3) {
        rgb[j] = decoded.data[i + 3];
        rgb[j + 1] = decoded.data[i + 2];
        rgb[j + 2] = decoded.data[i + 1];
      }
      return sharp(rgb, { raw: { width: decoded.width, height: decoded.height, channels: 3 } });
    }
    case 'image/heic':
    case 'image/heif': {
      const images = await heifImages(bytes);
      const image = images[frame];
      if (!image) throw new Error(`no picture ${frame + 1} in the file`);
      const decoded = await image.decode();
      return sharp(Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), { raw: { width: decoded.width, height: decoded.height, channels: 4 } }).removeAlpha();
    }
    default:
      return open(bytes, type === 'image/tiff' ? frame : undefined).rotate();
  }
}

interface HeifImage {
  width: number;
  height: number;
  decode(): Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
}

async function heifImages(bytes: Uint8Array): Promise<HeifImage[]> {
  const decode = require('heic-decode') as { all(input: { buffer: Uint8Array }): Promise<HeifImage[]> };
  return decode.all({ buffer: bytes });
}

/** Width and height from a BMP's DIB header (BITMAPCOREHEADER or BITMAPINFOHEADER and later). */
function bmpHeader(bytes: Uint8Array): { width: number; height: number } {
  if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) throw new ImageReadError('not a BMP file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerSize = view.getUint32(14, true);
  if (headerSize === 12) return { width: view.getUint16(18, true), height: view.getUint16(20, true) };
  return { width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) };
}

/** A picture request on an image page: the page turned and straightened like its page model. */
export interface ImageRenderRequest {
  page: number;
  region: Box | null;
  rotation: RawPage['rotation'];
  skew: number;
}

/** Pictures of image pages: each page turned as the page model is, cropped, fitted to maxSide. */
export async function* renderImageRegions(bytes: Uint8Array, type: ImageType, requests: ImageRenderRequest[], maxSide: number): AsyncGenerator<{ width: number; height: number; rgba: Buffer }> {
  for (const request of requests) {
    let { data, info } = await (await decodedPipeline(bytes, type, request.page - 1)).raw().toBuffer({ resolveWithObject: true });
    const turn = request.rotation + request.skew;
    if (turn !== 0) {
      ({ data, info } = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
        .rotate(turn, { background: { r: 255, g: 255, b: 255 } })
        .raw()
        .toBuffer({ resolveWithObject: true }));
    }
    let image = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    if (request.region) {
      const r = request.region;
      image = image.extract({ left: Math.round(r.x0), top: Math.round(r.y0), width: Math.max(1, Math.round(r.x1 - r.x0)), height: Math.max(1, Math.round(r.y1 - r.y0)) });
    }
    const out = await image.resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    yield { width: out.info.width, height: out.info.height, rgba: out.data };
  }
}
