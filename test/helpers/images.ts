// Pictures of text for OCR tests, made without any system font: the text is set in a PDF with
// pdf-lib's standard Helvetica and rendered by Folio's own PDF renderer, then encoded by sharp (or,
// for BMP, which sharp cannot write, by the small encoder below).
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp, { type Sharp } from 'sharp';
import { scanPdfPage } from '../../src/pipeline/formats/pdf-render.js';

export interface GreyPicture {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Lines of text on a page of `widthPt` x `heightPt` points, rendered at 300 dpi in grey. */
export async function textPicture(lines: string[], options: { widthPt?: number; heightPt?: number; size?: number; ruledTable?: string[][] } = {}): Promise<GreyPicture> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const width = options.widthPt ?? 420;
  const height = options.heightPt ?? 200;
  const size = options.size ?? 14;
  const page = doc.addPage([width, height]);
  lines.forEach((line, i) => page.drawText(line, { x: 24, y: height - 36 - i * size * 1.6, size, font }));
  if (options.ruledTable) {
    const rows = options.ruledTable;
    const top = height - 40 - lines.length * size * 1.6;
    const cw = 110;
    const rh = 26;
    rows.forEach((cells, r) => cells.forEach((text, c) => page.drawText(text, { x: 30 + c * cw, y: top - r * rh - 18, size: 12, font })));
    for (let r = 0; r <= rows.length; r++) page.drawLine({ start: { x: 24, y: top - r * rh }, end: { x: 24 + cw * rows[0].length, y: top - r * rh }, thickness: 1.2 });
    for (let c = 0; c <= rows[0].length; c++) page.drawLine({ start: { x: 24 + c * cw, y: top }, end: { x: 24 + c * cw, y: top - rows.length * rh }, thickness: 1.2 });
  }
  const { image } = await scanPdfPage(await doc.save(), 1, 0);
  return image;
}

export function toSharp(picture: GreyPicture): Sharp {
  return sharp(Buffer.from(picture.data), { raw: { width: picture.width, height: picture.height, channels: 1 } });
}

/** A PDF page holding only a picture (a scan without text layer). */
export async function scannedPdf(picture: GreyPicture, widthPt: number, heightPt: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([widthPt, heightPt]);
  const png = await doc.embedPng(await toSharp(picture).png().toBuffer());
  page.drawImage(png, { x: 0, y: 0, width: widthPt, height: heightPt });
  return doc.save();
}

/**
 * An 8-bit paletted (grey) BMP, optionally RLE8-compressed: the two layouts of BMP that sharp
 * cannot read and Folio's BMP reader must.
 */
export function greyBmp(picture: GreyPicture, rle: boolean): Buffer {
  const { width, height, data } = picture;
  const rows: Buffer[] = [];
  for (let y = height - 1; y >= 0; y--) {
    const row = data.subarray(y * width, (y + 1) * width);
    if (!rle) {
      const padded = Buffer.alloc(Math.ceil(width / 4) * 4);
      padded.set(row);
      rows.push(padded);
      continue;
    }
    const out: number[] = [];
    for (let x = 0; x < width; ) {
      let run = 1;
      while (x + run < width && run < 255 && row[x + run] === row[x]) run++;
      out.push(run, row[x]);
      x += run;
    }
    out.push(0, 0); // end of line
    rows.push(Buffer.from(out));
  }
  if (rle) rows.push(Buffer.from([0, 1])); // end of bitmap
  const pixels = Buffer.concat(rows);
  const palette = Buffer.alloc(256 * 4);
  for (let i = 0; i < 256; i++) palette.set([i, i, i, 0], i * 4);
  const header = Buffer.alloc(54);
  const offset = 54 + palette.length;
  header.write('BM', 0, 'ascii');
  header.writeUInt32LE(offset + pixels.length, 2);
  header.writeUInt32LE(offset, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(8, 28);
  header.writeUInt32LE(rle ? 1 : 0, 30);
  header.writeUInt32LE(pixels.length, 34);
  header.writeInt32LE(11811, 38);
  header.writeInt32LE(11811, 42);
  header.writeUInt32LE(256, 46);
  return Buffer.concat([header, palette, pixels]);
}

/** A PNG whose header declares `width` x `height` pixels, with one tiny compressed row after it. */
export async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const small = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } }).png().toBuffer();
  const out = Buffer.from(small);
  // IHDR data starts at byte 16: width, height (big-endian); its CRC must be fixed after.
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * Lines of text in any script, set by the system's fonts (librsvg through sharp, DejaVu Sans from
 * Debian's fonts-dejavu-core, which .ci/run installs) at 300 dpi in grey: pdf-lib's standard fonts
 * hold Latin letters only.
 */
export async function scriptPicture(lines: string[], options: { size?: number; widthPx?: number; paper?: string; ink?: string } = {}): Promise<GreyPicture> {
  const size = options.size ?? 50;
  const width = options.widthPx ?? 1800;
  const height = Math.round(100 + lines.length * size * 1.6);
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const text = lines.map((line, i) => `<text x="60" y="${Math.round(80 + i * size * 1.6)}" font-family="DejaVu Sans" font-size="${size}" fill="${options.ink ?? 'black'}">${escape(line)}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${options.paper ?? 'white'}"/>${text}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}
