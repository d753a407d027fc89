// A magazine page made on the fly, to test how OCR reads pages set in columns: a running header,
// a title and byline across the page, body text in two or three justified columns that runs on
// from the foot of one column to the head of the next, a picture across the right-hand columns
// with a caption under it, a pull quote between rules inside the first column, and a page number.
// The text is random English from a seeded generator, so each seed is a different page whose
// source text is known exactly; `scan` renders it at 300 dpi and adds skew and noise.
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { scanPdfPage } from '../../src/pipeline/formats/pdf-render.js';
import { turn } from '../../src/pipeline/scans/grey-pictures.js';
import type { GreyPicture } from './images.js';

export interface MagazineOptions {
  columns: 2 | 3;
  seed: number;
  /** A picture across every column but the first, with a caption under it. */
  figure?: boolean;
  /** A pull quote between rules in the middle of the first column. */
  pullQuote?: boolean;
}

export interface MagazinePage {
  pdf: Uint8Array;
  header: string;
  title: string;
  byline: string;
  /** The running text in reading order, paragraphs separated by blank lines. */
  body: string;
  caption: string | null;
  pullQuote: string | null;
  pageNumber: string;
}

const WIDTH = 595;
const HEIGHT = 842;
const MARGIN = 48;
const GUTTER = 18;
const BODY_SIZE = 9.5;
const LEADING = 11.6;

const VOCABULARY = (
  'the of and to in that is was he for it with as his on be at by had not are but from or have an they which one you were her all she there would ' +
  'their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may ' +
  'then do first any my now such like our over man me even most made after also did many before must through back years where much your way well ' +
  'down should because each just those people how too little state good very make world still own see men work long get here between both life ' +
  'being under never day same another know while last might us great old year off come since against go came right used take three small ' +
  'house table garden river morning letter window market winter summer village teacher doctor harbour island mountain evening kitchen ' +
  'history question answer number family country church school office paper story water light music friend father mother children ' +
  'quietly slowly carefully suddenly finally often always perhaps certainly nearly simply really rather almost together already'
).split(' ');

const NAMES = ['Anna Keller', 'Robert Hale', 'Maria Lund', 'Thomas Wren', 'Clara Voss', 'Daniel Moore'];

/** Mulberry32: a small seeded generator, so a seed always gives the same page. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(random: () => number, min: number, max: number): string {
  const count = min + Math.floor(random() * (max - min + 1));
  const words = Array.from({ length: count }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]);
  if (count > 8 && random() < 0.5) words[Math.floor(count / 2)] += ',';
  const text = words.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** Words into lines no wider than `width` at `size`. */
function wrap(text: string, font: PDFFont, size: number, width: number, indent = 0): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  for (const w of text.split(' ')) {
    const candidate = [...line, w].join(' ');
    const room = width - (lines.length === 0 ? indent : 0);
    if (line.length > 0 && font.widthOfTextAtSize(candidate, size) > room) {
      lines.push(line);
      line = [w];
    } else line.push(w);
  }
  if (line.length) lines.push(line);
  return lines;
}

/** One line set flush left and right (the last line of a paragraph only flush left). */
function drawJustified(page: PDFPage, words: string[], x: number, y: number, width: number, font: PDFFont, size: number, justify: boolean): void {
  const natural = words.reduce((sum, w) => sum + font.widthOfTextAtSize(w, size), 0);
  const space = font.widthOfTextAtSize(' ', size);
  const gap = justify && words.length > 1 ? (width - natural) / (words.length - 1) : space;
  let at = x;
  for (const w of words) {
    page.drawText(w, { x: at, y: HEIGHT - y, size, font });
    at += font.widthOfTextAtSize(w, size) + gap;
  }
}

export async function magazinePage(options: MagazineOptions): Promise<MagazinePage> {
  const random = seeded(options.seed);
  const doc = await PDFDocument.create();
  const page = doc.addPage([WIDTH, HEIGHT]);
  const times = await doc.embedFont(StandardFonts.TimesRoman);
  const timesBold = await doc.embedFont(StandardFonts.TimesRomanBold);
  const timesItalic = await doc.embedFont(StandardFonts.TimesRomanItalic);
  const helvetica = await doc.embedFont(StandardFonts.Helvetica);
  const helveticaOblique = await doc.embedFont(StandardFonts.HelveticaOblique);

  const header = 'THE QUARTERLY REVIEW';
  const headerRight = `Spring issue ${1 + Math.floor(random() * 11)}`;
  page.drawText(header, { x: MARGIN, y: HEIGHT - 30, size: 8, font: helvetica });
  page.drawText(headerRight, { x: WIDTH - MARGIN - helvetica.widthOfTextAtSize(headerRight, 8), y: HEIGHT - 30, size: 8, font: helvetica });
  page.drawLine({ start: { x: MARGIN, y: HEIGHT - 36 }, end: { x: WIDTH - MARGIN, y: HEIGHT - 36 }, thickness: 0.6 });

  const title = sentence(random, 4, 6).replace(/[.,]/g, '');
  page.drawText(title, { x: MARGIN, y: HEIGHT - 72, size: 22, font: timesBold });
  const byline = `By ${NAMES[Math.floor(random() * NAMES.length)]}`;
  page.drawText(byline, { x: MARGIN, y: HEIGHT - 92, size: 9, font: helvetica });

  const columnWidth = (WIDTH - 2 * MARGIN - (options.columns - 1) * GUTTER) / options.columns;
  const columnX = (c: number) => MARGIN + c * (columnWidth + GUTTER);
  const bodyTop = 118;
  const bodyBottom = 790;
  // Bands of each column that hold no running text: [top, bottom] in points from the page top.
  const blocked: [number, number][][] = Array.from({ length: options.columns }, () => []);

  let caption: string | null = null;
  if (options.figure) {
    const x0 = columnX(1);
    const x1 = WIDTH - MARGIN;
    const top = bodyTop;
    const bottom = bodyTop + 170;
    // A photograph: bands of grey with darker shapes.
    for (let i = 0; i < 17; i++) {
      page.drawRectangle({ x: x0, y: HEIGHT - top - (i + 1) * 10, width: x1 - x0, height: 10, color: rgb(0.45 + 0.02 * i, 0.45 + 0.02 * i, 0.47 + 0.02 * i) });
    }
    page.drawEllipse({ x: x0 + (x1 - x0) * 0.35, y: HEIGHT - top - 95, xScale: 45, yScale: 60, color: rgb(0.2, 0.2, 0.22) });
    page.drawRectangle({ x: x0 + (x1 - x0) * 0.6, y: HEIGHT - bottom, width: 60, height: 110, color: rgb(0.15, 0.15, 0.15) });
    caption = `${sentence(random, 10, 14)} ${sentence(random, 5, 8)}`;
    const lines = wrap(caption, helveticaOblique, 8, x1 - x0);
    lines.forEach((words, i) => page.drawText(words.join(' '), { x: x0, y: HEIGHT - (bottom + 14 + i * 10), size: 8, font: helveticaOblique }));
    const end = bottom + 14 + lines.length * 10 + 8;
    for (let c = 1; c < options.columns; c++) blocked[c].push([top, end]);
  }

  let pullQuote: string | null = null;
  if (options.pullQuote) {
    pullQuote = sentence(random, 9, 12);
    const lines = wrap(pullQuote, timesItalic, 13, columnWidth - 8);
    const top = 380;
    const bottom = top + 16 + lines.length * 16;
    page.drawLine({ start: { x: columnX(0), y: HEIGHT - top }, end: { x: columnX(0) + columnWidth, y: HEIGHT - top }, thickness: 1.2 });
    lines.forEach((words, i) => page.drawText(words.join(' '), { x: columnX(0) + 4, y: HEIGHT - (top + 20 + i * 16), size: 13, font: timesItalic }));
    page.drawLine({ start: { x: columnX(0), y: HEIGHT - bottom - 6 }, end: { x: columnX(0) + columnWidth, y: HEIGHT - bottom - 6 }, thickness: 1.2 });
    blocked[0].push([top - 6, bottom + 14]);
  }

  // Running text: paragraphs flowing down the first column, then the next, around the blocked bands.
  const paragraphs: string[] = [];
  let column = 0;
  let y = bodyTop + BODY_SIZE;
  const advance = (): boolean => {
    for (;;) {
      const band = blocked[column].find(([top, bottom]) => y > top - 2 && y - BODY_SIZE < bottom);
      if (band) y = band[1] + BODY_SIZE;
      else if (y > bodyBottom) {
        column++;
        if (column >= options.columns) return false;
        y = bodyTop + BODY_SIZE;
      } else return true;
    }
  };
  let full = false;
  while (!full) {
    const text = Array.from({ length: 3 + Math.floor(random() * 3) }, () => sentence(random, 8, 16)).join(' ');
    const lines = wrap(text, times, BODY_SIZE, columnWidth, 10);
    const set: string[][] = [];
    for (let i = 0; i < lines.length; i++) {
      if (!advance()) {
        full = true;
        break;
      }
      const indent = i === 0 ? 10 : 0;
      drawJustified(page, lines[i], columnX(column) + indent, y, columnWidth - indent, times, BODY_SIZE, i < lines.length - 1);
      set.push(lines[i]);
      y += LEADING;
    }
    if (set.length) paragraphs.push(set.map((l) => l.join(' ')).join(' '));
    y += 2;
  }

  const pageNumber = String(10 + Math.floor(random() * 80));
  page.drawText(pageNumber, { x: WIDTH / 2 - 5, y: 24, size: 8, font: helvetica });
  return { pdf: await doc.save(), header: `${header} ${headerRight}`, title, byline, body: paragraphs.join('\n\n'), caption, pullQuote, pageNumber };
}

export interface ScanOptions {
  /** Degrees clockwise. */
  skew?: number;
  /** Standard deviation of the grey noise added to every pixel (0-255 scale). */
  noise?: number;
  /** Share of pixels turned into black or white specks. */
  specks?: number;
  seed?: number;
}

/** The page rendered at 300 dpi in grey, turned by `skew`, with noise and specks. */
export async function scan(pdf: Uint8Array, options: ScanOptions = {}): Promise<GreyPicture> {
  let { image } = await scanPdfPage(pdf, 1, 0);
  if (options.skew) image = await turn(image, options.skew);
  const random = seeded(options.seed ?? 1);
  const data = new Uint8Array(image.data);
  const sigma = options.noise ?? 0;
  const specks = options.specks ?? 0;
  for (let i = 0; i < data.length; i++) {
    // The sum of three uniforms: close enough to Gaussian for scanner noise.
    let v = data[i] + (sigma > 0 ? (random() + random() + random() - 1.5) * 2 * sigma : 0);
    if (specks > 0 && random() < specks) v = random() < 0.5 ? 0 : 255;
    data[i] = Math.max(0, Math.min(255, Math.round(v)));
  }
  return { width: image.width, height: image.height, data };
}
