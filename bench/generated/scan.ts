// Scanned and photographed variants of a produced PDF: each page rasterized by poppler's pdftoppm
// (not Folio's renderer) at the scan's resolution in grey, then spoiled as scanners and phones
// spoil pages (skew, blur, noise, low contrast, light falling off to one side, JPEG artefacts),
// all drawn from the document's seed so the same seed gives the same pixels, and packed as a PDF
// of page pictures, a multi-frame TIFF, or a PNG or JPEG of the first page.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { Random } from './random.js';
import type { DocSpec, ScanSpec } from './spec.js';

const exec = promisify(execFile);

export interface Scanned {
  bytes: Buffer;
  mediaType: string;
  extension: string;
  /** The pages it holds: all, or the first for a picture of one page. */
  pages: number;
}

/** The pages of `pdf` as grey pixels at `dpi`, by pdftoppm. */
async function rasterize(pdf: Uint8Array, dpi: number): Promise<Buffer[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'folio-scan-'));
  try {
    const input = path.join(dir, 'in.pdf');
    await writeFile(input, pdf);
    await exec('pdftoppm', ['-r', String(dpi), '-gray', '-png', input, path.join(dir, 'page')], { maxBuffer: 1 << 20 });
    const files = (await readdir(dir)).filter((f) => f.startsWith('page') && f.endsWith('.png')).sort((a, b) => Number(/(\d+)\.png$/.exec(a)![1]) - Number(/(\d+)\.png$/.exec(b)![1]));
    // Awaited here: the directory is removed in `finally` as soon as this returns.
    return await Promise.all(files.map((f) => readFile(path.join(dir, f))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One page spoiled as `scan` says, with noise from `random`. */
async function spoil(png: Buffer, scan: ScanSpec, random: Random): Promise<{ data: Buffer; width: number; height: number }> {
  let image = sharp(png).greyscale();
  if (scan.skew) image = sharp(await image.rotate(scan.skew, { background: '#ffffff' }).png().toBuffer());
  if (scan.blur) image = image.blur(scan.blur);
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const out = Buffer.alloc(width * height);
  const seed = random.int(1, 2 ** 31 - 1);
  let state = seed;
  const noise = () => {
    // xorshift32: cheap per-pixel noise, fixed by the document's stream.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 4294967296 - 0.5) * 2;
  };
  // Low contrast: ink lighter, paper a little grey.
  const paper = 0.92 + 0.08 * scan.contrast;
  for (let y = 0; y < height; y++) {
    const light = 1 - scan.unevenLight * (y / height) * 0.6;
    for (let x = 0; x < width; x++) {
      let v = (255 - (255 - data[(y * width + x) * channels]) * scan.contrast) * paper;
      // Light falling off towards the bottom right, as under a lamp or a phone's shadow.
      v *= light * (1 - scan.unevenLight * (x / width) * 0.5);
      if (scan.noise) v += noise() * scan.noise;
      out[y * width + x] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  return { data: out, width, height };
}

export async function scanVariant(doc: DocSpec, pdf: Uint8Array): Promise<Scanned> {
  const scan = doc.scan!;
  const random = Random.forDocument(doc.seed ^ 0x5ca11ed, doc.index);
  const rasters = await rasterize(pdf, scan.dpi);
  const pages = scan.container === 'png' || scan.container === 'jpeg' ? rasters.slice(0, 1) : rasters;
  const encoded: Buffer[] = [];
  for (const raster of pages) {
    const { data, width, height } = await spoil(raster, scan, random);
    const picture = sharp(data, { raw: { width, height, channels: 1 } }).withMetadata({ density: scan.dpi });
    encoded.push(scan.jpegQuality !== null || scan.container === 'jpeg' ? await picture.jpeg({ quality: scan.jpegQuality ?? 85 }).toBuffer() : await picture.png().toBuffer());
  }
  switch (scan.container) {
    case 'png':
      return { bytes: await sharp(encoded[0]).withMetadata({ density: scan.dpi }).png().toBuffer(), mediaType: 'image/png', extension: 'png', pages: 1 };
    case 'jpeg':
      return { bytes: encoded[0], mediaType: 'image/jpeg', extension: 'jpg', pages: 1 };
    case 'tiff': {
      const joined = encoded.length > 1 ? sharp(encoded, { join: { animated: true } }) : sharp(encoded[0]);
      const bytes = await joined.withMetadata({ density: scan.dpi }).tiff({ compression: scan.jpegQuality !== null ? 'jpeg' : 'lzw', quality: scan.jpegQuality ?? 85, xres: scan.dpi / 25.4, yres: scan.dpi / 25.4 }).toBuffer();
      return { bytes, mediaType: 'image/tiff', extension: 'tif', pages: encoded.length };
    }
    case 'pdf': {
      const out = await PDFDocument.create();
      for (const picture of encoded) {
        const embedded = scan.jpegQuality !== null ? await out.embedJpg(picture) : await out.embedPng(picture);
        const page = out.addPage([doc.page.width, doc.page.height]);
        page.drawImage(embedded, { x: 0, y: 0, width: doc.page.width, height: doc.page.height });
      }
      return { bytes: Buffer.from(await out.save({ useObjectStreams: false })), mediaType: 'application/pdf', extension: 'pdf', pages: encoded.length };
    }
  }
}
