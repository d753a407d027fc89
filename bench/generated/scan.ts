// Scanned and photographed variants of a produced PDF: each page rasterized by poppler's pdftoppm
// (not Folio's renderer) at the scan's resolution in grey, then spoiled as scanners and phones
// spoil pages (skew, blur, noise, low contrast, light falling off to one side, JPEG artefacts),
// all drawn from the document's seed so the same seed gives the same pixels, and packed as a PDF
// of page pictures (whole or in strips, with or without a text layer as scanners' OCR writes one), a
// multi-frame TIFF, or a PNG or JPEG of the first page.
import { beginText, endText, PDFDocument, rgb, type PDFFont, type PDFPage, setCharacterSqueeze, setFontAndSize, setTextMatrix, setTextRenderingMode, showText, StandardFonts, TextRenderingMode } from 'pdf-lib';
import sharp from 'sharp';
import { popplerWords, rasterize, type PopplerPage, type PopplerWord } from './poppler.js';
import { Random } from './random.js';
import type { DocSpec, ScanSpec } from './spec.js';

export interface Scanned {
  bytes: Buffer;
  mediaType: string;
  extension: string;
  /** The pages it holds: all, or the first for a picture of one page. */
  pages: number;
  /** Each page's picture as it is in the file (PNG or JPEG), for reading by another OCR program. */
  pictures: Buffer[];
  /** The container it was stored in: the spec's, or a TIFF for more pages than a picture holds (see scanVariant). */
  container: ScanSpec['container'];
}

/** One page spoiled as `scan` says, with noise from `random`. */
async function spoil(png: Buffer, scan: ScanSpec, random: Random): Promise<{ data: Buffer; width: number; height: number }> {
  let image = sharp(png).greyscale();
  if (scan.skew) {
    // A page lying askew on the glass: the scan keeps the glass's size (and square pixels), so the
    // turned page is cut back to the size it had, about its middle.
    const { width = 0, height = 0 } = await sharp(png).metadata();
    const turned = await image.rotate(scan.skew, { background: '#ffffff' }).png().toBuffer({ resolveWithObject: true });
    const left = Math.floor((turned.info.width - width) / 2);
    const top = Math.floor((turned.info.height - height) / 2);
    image = sharp(turned.data).extract({ left, top, width, height });
  }
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

/**
 * The document as a scan. `pagesKnown`: whether the producer knows on which page each part of the
 * truth lies. A picture file holds one page; where the producer does not know its pages (TeX,
 * Writer: their truth is on page 0) and the document ran over one, the truth cannot be cut to the
 * first page, so the pages go into a TIFF instead, JPEG-compressed where the picture was a JPEG.
 */
export async function scanVariant(doc: DocSpec, pdf: Uint8Array, pagesKnown: boolean): Promise<Scanned> {
  const random = Random.forDocument(doc.seed ^ 0x5ca11ed, doc.index);
  const asked = doc.scan!;
  const rasters = await rasterize(pdf, asked.dpi);
  const onePicture = (container: ScanSpec['container']) => container === 'png' || container === 'jpeg';
  const asTiff = onePicture(asked.container) && !pagesKnown && rasters.length > 1;
  const scan = asTiff ? { ...asked, container: 'tiff' as const, jpegQuality: asked.jpegQuality ?? (asked.container === 'jpeg' ? 85 : null) } : asked;
  const pages = onePicture(scan.container) ? rasters.slice(0, 1) : rasters;
  const encoded: Buffer[] = [];
  const verso = scan.showThrough ? await versoPage(doc, scan.dpi, random) : null;
  for (const page of pages) {
    let raster = page;
    if (scan.scribbles) raster = await scribbled(raster, scan.dpi, random);
    if (verso) raster = await showingThrough(raster, verso, scan.showThrough);
    const { data, width, height } = await spoil(raster, scan, random);
    const picture = sharp(data, { raw: { width, height, channels: 1 } }).withMetadata({ density: scan.dpi });
    encoded.push(scan.jpegQuality !== null || scan.container === 'jpeg' ? await picture.jpeg({ quality: scan.jpegQuality ?? 85 }).toBuffer() : await picture.png().toBuffer());
  }
  switch (scan.container) {
    case 'png':
      return { bytes: await sharp(encoded[0]).withMetadata({ density: scan.dpi }).png().toBuffer(), mediaType: 'image/png', extension: 'png', pages: 1, pictures: encoded, container: 'png' };
    case 'jpeg':
      return { bytes: encoded[0], mediaType: 'image/jpeg', extension: 'jpg', pages: 1, pictures: encoded, container: 'jpeg' };
    case 'tiff': {
      const joined = encoded.length > 1 ? sharp(encoded, { join: { animated: true } }) : sharp(encoded[0]);
      const bytes = await joined.withMetadata({ density: scan.dpi }).tiff({ compression: scan.jpegQuality !== null ? 'jpeg' : 'lzw', quality: scan.jpegQuality ?? 85, xres: scan.dpi / 25.4, yres: scan.dpi / 25.4 }).toBuffer();
      return { bytes, mediaType: 'image/tiff', extension: 'tif', pages: encoded.length, pictures: encoded, container: 'tiff' };
    }
    case 'pdf': {
      const out = await PDFDocument.create();
      const layer = scan.textLayer === 'none' ? [] : await popplerWords(pdf);
      const font = await out.embedFont(StandardFonts.Helvetica);
      for (const [index, picture] of encoded.entries()) {
        const page = out.addPage([doc.page.width, doc.page.height]);
        if (scan.textLayer === 'under-picture') drawLayer(page, font, layer[index], TextRenderingMode.Fill);
        for (const strip of await strips(picture, scan.strips, scan.jpegQuality)) {
          const embedded = scan.jpegQuality !== null ? await out.embedJpg(strip.bytes) : await out.embedPng(strip.bytes);
          const top = strip.top * doc.page.height;
          const height = strip.height * doc.page.height;
          page.drawImage(embedded, { x: 0, y: doc.page.height - top - height, width: doc.page.width, height });
        }
        if (scan.textLayer === 'invisible') drawLayer(page, font, layer[index], TextRenderingMode.Invisible);
      }
      return { bytes: Buffer.from(await out.save({ useObjectStreams: false })), mediaType: 'application/pdf', extension: 'pdf', pages: encoded.length, pictures: encoded, container: 'pdf' };
    }
  }
}

/**
 * Each word set where it was printed, squeezed to its box, as OCR programs write their layer: in
 * ink (to be covered by the picture) or invisible (render mode 3, over it). The words of a line
 * read along the page's height (a stamp, a side tab) are set turned, as those programs set them.
 */
function drawLayer(page: PDFPage, font: PDFFont, layer: PopplerPage | undefined, mode: TextRenderingMode): void {
  if (!layer) return;
  const { width, height } = page.getSize();
  const sx = width / layer.width;
  const sy = height / layer.height;
  const name = page.node.newFontDictionary(font.name, font.ref);
  const operators = [beginText(), setTextRenderingMode(mode)];
  const turns = verticalLines(layer.words);
  layer.words.forEach((word, i) => {
    const text = [...word.text].filter((c) => font.getCharacterSet().includes(c.codePointAt(0)!)).join('');
    if (!text) return;
    const boxWidth = (word.x1 - word.x0) * sx;
    const boxHeight = (word.y1 - word.y0) * sy;
    const turn = turns.get(i);
    // Across the line the box is the type's height; along it, the word's length.
    const size = (turn ? boxWidth : boxHeight) * 0.85;
    const natural = font.widthOfTextAtSize(text, size);
    operators.push(setFontAndSize(name, size), setCharacterSqueeze(natural > 0 ? (100 * (turn ? boxHeight : boxWidth)) / natural : 100));
    if (turn === 'down') operators.push(setTextMatrix(0, -1, 1, 0, word.x0 * sx + boxWidth * 0.2, height - word.y0 * sy));
    else if (turn === 'up') operators.push(setTextMatrix(0, 1, -1, 0, word.x1 * sx - boxWidth * 0.2, height - word.y1 * sy));
    else operators.push(setTextMatrix(1, 0, 0, 1, word.x0 * sx, height - word.y1 * sy + boxHeight * 0.2));
    operators.push(showText(font.encodeText(text)));
  });
  operators.push(endText());
  page.pushOperators(...operators);
}

/**
 * The words on lines read along the page's height, and which way each line reads. Such a line
 * holds a word of three characters or more half again as tall as wide and as the page's lines;
 * its other words are its neighbours in reading order stacked over or under it in its column.
 * It reads down when its second word stands below its first, else up (a single word: up).
 */
export function verticalLines(words: PopplerWord[]): Map<number, 'up' | 'down'> {
  const heights = words.map((w) => w.y1 - w.y0).sort((a, b) => a - b);
  const lineHeight = heights[heights.length >> 1] ?? 0;
  const tall = (w: PopplerWord) => [...w.text].length >= 3 && w.y1 - w.y0 >= 1.5 * Math.max(w.x1 - w.x0, lineHeight);
  const stacked = (a: PopplerWord, b: PopplerWord) =>
    Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) >= 0.5 * Math.min(a.x1 - a.x0, b.x1 - b.x0) && (a.y1 <= b.y0 || b.y1 <= a.y0);
  const out = new Map<number, 'up' | 'down'>();
  for (let i = 0; i < words.length; i++) {
    if (out.has(i) || !tall(words[i])) continue;
    let first = i;
    while (first > 0 && stacked(words[first - 1], words[first])) first--;
    let last = i;
    while (last + 1 < words.length && stacked(words[last], words[last + 1])) last++;
    const way = last > first && words[first + 1].y0 > words[first].y0 ? 'down' : 'up';
    for (let k = first; k <= last; k++) out.set(k, way);
  }
  return out;
}

/** A page picture cut into `count` horizontal strips, each encoded alone; top and height as shares of the page. */
async function strips(picture: Buffer, count: number, jpegQuality: number | null): Promise<{ bytes: Buffer; top: number; height: number }[]> {
  if (count <= 1) return [{ bytes: picture, top: 0, height: 1 }];
  const { width, height } = await sharp(picture).metadata();
  const rows = Math.ceil(height! / count);
  const out: { bytes: Buffer; top: number; height: number }[] = [];
  for (let top = 0; top < height!; top += rows) {
    const h = Math.min(rows, height! - top);
    const strip = sharp(picture).extract({ left: 0, top, width: width!, height: h });
    out.push({ bytes: jpegQuality !== null ? await strip.jpeg({ quality: jpegQuality }).toBuffer() : await strip.png().toBuffer(), top: top / height!, height: h / height! });
  }
  return out;
}

/** Made-up words for what is printed on the back of a sheet: only their shapes show through. */
function backWords(random: Random, count: number): string {
  const letters = 'etaoinshrdlucmfwypvbgk';
  return Array.from({ length: count }, () => Array.from({ length: random.int(2, 9) }, () => letters[random.int(0, letters.length - 1)]).join('')).join(' ');
}

/** The back of the sheet: a page of 10-point text, rasterized like the front, mirrored as it shows through. */
async function versoPage(doc: DocSpec, dpi: number, random: Random): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  const page = pdf.addPage([doc.page.width, doc.page.height]);
  const margin = doc.page.margin;
  for (let y = doc.page.height - margin - 10; y > margin; y -= 13) {
    let line = backWords(random, 14);
    while (line && font.widthOfTextAtSize(line, 10) > doc.page.width - 2 * margin) line = line.slice(0, line.lastIndexOf(' '));
    page.drawText(line, { x: margin, y, size: 10, font, color: rgb(0, 0, 0) });
  }
  const [raster] = await rasterize(await pdf.save(), dpi);
  return sharp(raster).flop().blur(1.2).png().toBuffer();
}

/** The front with the back's ink showing through the paper at `strength` (0.06: faint, 0.16: plain to see). */
async function showingThrough(front: Buffer, back: Buffer, strength: number): Promise<Buffer> {
  const a = await sharp(front).greyscale().raw().toBuffer({ resolveWithObject: true });
  const b = await sharp(back).greyscale().resize(a.info.width, a.info.height, { fit: 'fill' }).raw().toBuffer();
  const out = Buffer.alloc(a.info.width * a.info.height);
  for (let i = 0; i < out.length; i++) out[i] = a.data[i * a.info.channels] * (1 - strength * (1 - b[i] / 255));
  return sharp(out, { raw: { width: a.info.width, height: a.info.height, channels: 1 } }).png().toBuffer();
}

/**
 * Lines of handwriting nobody can read, in pen: each word a run of connected loops of its own
 * height and slant, as a hurried hand writes. OCR has nothing to read in them; whatever it
 * returns is invented.
 */
async function scribbled(page: Buffer, dpi: number, random: Random): Promise<Buffer> {
  const { width, height } = await sharp(page).metadata();
  const inch = dpi;
  const paths: string[] = [];
  const lines = random.int(4, 18);
  for (let line = 0; line < lines; line++) {
    const baseline = inch * 1.2 + line * inch * random.between(0.32, 0.42);
    if (baseline > height! - inch) break;
    let x = inch * random.between(0.8, 1.1);
    const end = width! - inch * random.between(0.8, 2);
    while (x < end) {
      const wordWidth = inch * random.between(0.25, 1.3);
      const size = inch * random.between(0.08, 0.13);
      const slant = random.between(0.1, 0.35);
      let d = `M ${x.toFixed(1)} ${baseline.toFixed(1)}`;
      for (let px = x; px < Math.min(x + wordWidth, end); ) {
        const step = size * random.between(0.5, 1.1);
        const rise = size * (random.chance(0.2) ? random.between(1.8, 2.6) : random.between(0.8, 1.2));
        const dip = random.chance(0.1) ? size * random.between(0.8, 1.4) : 0;
        d += ` C ${(px + step * 0.2 + rise * slant).toFixed(1)} ${(baseline - rise).toFixed(1)}, ${(px + step * 0.8 + rise * slant).toFixed(1)} ${(baseline - rise).toFixed(1)}, ${(px + step).toFixed(1)} ${(baseline + dip).toFixed(1)}`;
        px += step;
      }
      paths.push(`<path d="${d}"/>`);
      x += wordWidth + inch * random.between(0.1, 0.25);
    }
  }
  const stroke = Math.max(1.5, inch * 0.012).toFixed(1);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><g fill="none" stroke="#1c2451" stroke-width="${stroke}" stroke-linecap="round" stroke-linejoin="round">${paths.join('')}</g></svg>`;
  return sharp(page).composite([{ input: Buffer.from(svg) }]).png().toBuffer();
}
