// Reading a scanned page: turn it upright, straighten it, OCR it, and find its ruling lines; the
// words come back as page-model words in the page's own units. Which quarter turn is upright is
// guessed from the shape of the ink (lines running across or up and down) and checked by the OCR
// itself: words taller than wide mean the lines still run up and down, and a page read upside
// down gives words the engine is unsure of; either way the page is read again turned, and the
// better reading kept.
//
// A page the engine reads with doubt is read a second way, and the reading that reads more
// characters surely is kept, with each of its text lines replaced by the other reading's where
// that one read the line more surely: Tesseract's global (Otsu) threshold loses faint print on
// uneven paper (a receipt in a shadow, thermal print fading across the slip), where a local
// (Sauvola) threshold keeps it, and on one page each loses different lines. A page that still reads as almost nothing though it holds lines of ink is
// tried further ways (one block of text, each quarter turn) before it is given up as blank.
import sharp, { type Sharp } from 'sharp';
import { DEFAULT_MODE, type GrayImage, type OcrEngine, type OcrWord, type ReadingMode } from '../../models/ocr/engine.js';
import type { Segment, Word } from '../page-model.js';
import { hasInk, linesRunVertically, rulingSegments, skewAngle, textLineHeight } from './measure.js';

export interface ScanReading {
  /** Words in the units of the page (pixels for pictures, points for PDF pages). */
  words: Word[];
  rotation: 0 | 90 | 180 | 270;
  skew: number;
  /** Size of the turned and straightened page, in its units. */
  width: number;
  height: number;
  /** Ruling lines found in the picture, in the page's units. */
  segments: Segment[];
  /** Resolution the page was read at (measured from its text when the file did not say). */
  dpi: number;
  /** Every reading made of the page, in order, and the one kept (as `describe` names them). */
  readings: string[];
  kept: string;
  /** The first reading found almost nothing, and another way of reading found the text. */
  recovered: boolean;
}

/**
 * A reading below this mean confidence is tried the other way up too: text read upside down can
 * still get confidences in the 70s on short pages, while upright print reads in the 90s.
 */
const DOUBTFUL = 85;
/** Words read with this confidence or more are read surely; clean print reads almost all so. */
const SURE = 80;
/**
 * A page on which more than this share of the words are read with less than SURE confidence is
 * read a second time with a local threshold. Clean scans and renderings have none or one in fifty
 * (the corpus' magazine page, letters and papers 0-2%), receipts photographed or printed on
 * thermal paper one in twenty and more (5-71% on the 18 visible receipts).
 */
const DOUBTFUL_SHARE = 0.03;
/** Fewer words than this read surely from a page with lines of ink is almost nothing. */
const ALMOST_NOTHING = 3;
/** At most this many readings of one page: a page of noise is given up, not read every way. */
const MAX_READINGS = 8;
/** Skews smaller than this (degrees) are left alone: straightening would blur more than it helps. */
const MIN_SKEW = 0.3;
/**
 * Text lines shorter than this (pixels, ascender to descender) are read a second time from the
 * picture enlarged twice, and the surer reading kept: the LSTM models are trained on text about 30
 * to 40 pixels tall (a 10-point line at 300 dpi is about 42), and small print, such as a form
 * photographed at 600 pixels across, loses letters and digits at its own size. Enlarging is not
 * always better (it blurs some thermal-printed receipts), hence the comparison; it took the
 * key/values found on doclingeval-keyvalue-multiline from 1/8 to 4/8 with the receipts unchanged
 * (bench/quality, forms_kv).
 */
const SMALL_TEXT_PX = 26;

/**
 * OCR of one scanned page. `dpi` is the picture's resolution (null when unknown); `unitsPerPixel`
 * converts pixels to the page's units (1 for pictures, 72/dpi for PDF pages rendered at dpi).
 */
export async function readScan(engine: OcrEngine, image: GrayImage, dpi: number | null, unitsPerPixel: number, signal?: AbortSignal): Promise<ScanReading> {
  const assumed = dpi ?? 300;
  const readings: string[] = [];
  const turned = async (rotation: Reading['rotation'], mode: ReadingMode) => noted(readings, await readTurned(engine, image, rotation, assumed, mode, signal));
  let best = await turned(linesRunVertically(image) ? 90 : 0, DEFAULT_MODE);
  const first = best;
  if (doubtful(best)) {
    const local = noted(readings, await readAgain(engine, best, { ...best.mode, binarization: 'sauvola' }, assumed, signal));
    // The surer reading of the page, each of its lines taken from whichever reading read it more surely.
    const [base, other] = local.sure > best.sure ? [local, best] : [best, local];
    const merged = surerLines(base.words, other.words);
    best = reading(base, base.mode, base.enlarged, merged.words, merged.taken);
  }
  // Words taller than wide mean the lines still run up and down: a quarter turn was missed (the
  // shape of the ink misleads on narrow pages such as receipts, whose columns of figures look
  // like vertical bands).
  const upright = uprightShare(best.words);
  if (upright !== null && upright < 0.5) {
    const other = await turned(best.rotation === 0 ? 90 : 0, best.mode);
    if ((uprightShare(other.words) ?? 0) > upright) best = other;
  }
  if (best.quality < DOUBTFUL) {
    const flipped = await turned(((best.rotation + 180) % 360) as Reading['rotation'], best.mode);
    if (flipped.quality > best.quality) best = flipped;
  }
  // Which way is up is settled at the picture's own size; only the final reading is redone larger.
  best = await readSmallPrint(engine, best, assumed, readings, signal);
  if (sureWords(best.words) < ALMOST_NOTHING && hasInk(image)) {
    // One block of text (Tesseract's layout analysis can take a whole page for a picture), with
    // either threshold, then the quarter turns not tried yet; the first that reads some words
    // surely ends the search. Readings of noise, garbage read with doubt, are not kept.
    const ways: { rotation: Reading['rotation']; mode: ReadingMode }[] = [
      { rotation: best.rotation, mode: { segmentation: 'block', binarization: 'otsu' } },
      { rotation: best.rotation, mode: { segmentation: 'block', binarization: 'sauvola' } },
      ...([90, 180, 270] as const).flatMap((quarter) => (['otsu', 'sauvola'] as const).map((binarization) => ({ rotation: ((best.rotation + quarter) % 360) as Reading['rotation'], mode: { segmentation: 'auto' as const, binarization } }))),
    ];
    for (const way of ways) {
      if (sureWords(best.words) >= ALMOST_NOTHING || readings.length >= MAX_READINGS) break;
      if (readings.includes(describe({ ...way, enlarged: 1 }))) continue;
      const reading = way.rotation === best.rotation ? noted(readings, await readAgain(engine, best, way.mode, assumed, signal)) : await turned(way.rotation, way.mode);
      if (sureWords(reading.words) >= ALMOST_NOTHING && reading.sure > best.sure) best = reading;
    }
  }
  const resolution = dpi ?? measuredDpi(best.words) ?? 300;
  // Table borders: at least a centimetre long, at most half a millimetre thick.
  const segments = rulingSegments(best.image, Math.round(resolution / 2.54), Math.max(2, Math.round(resolution / 50)));
  const scale = (v: number) => Math.round(v * unitsPerPixel * 100) / 100;
  return {
    words: toWords(best.words, scale),
    rotation: best.rotation,
    skew: best.skew,
    width: best.image.width * unitsPerPixel,
    height: best.image.height * unitsPerPixel,
    segments: segments.map((s) => ({ x0: scale(s.x0), y0: scale(s.y0), x1: scale(s.x1), y1: scale(s.y1) })),
    dpi: resolution,
    readings,
    kept: describe(best),
    recovered: sureWords(first.words) < ALMOST_NOTHING && sureWords(best.words) >= ALMOST_NOTHING,
  };
}

interface Reading {
  rotation: 0 | 90 | 180 | 270;
  skew: number;
  mode: ReadingMode;
  /** The picture was read enlarged by this factor (words are in the page picture's pixels). */
  enlarged: number;
  /** Text lines taken from a reading with the other threshold (surerLines). */
  linesFromOther: number;
  image: GrayImage;
  words: OcrWord[];
  quality: number;
  /** Characters read surely (sureCharacters). */
  sure: number;
}

/** A reading's way, for logs: "turned 90, one block, local threshold, enlarged 2x". */
export function describe(reading: Pick<Reading, 'rotation' | 'mode' | 'enlarged'> & { linesFromOther?: number }): string {
  const parts = [reading.rotation === 0 ? 'upright' : `turned ${reading.rotation}`];
  parts.push(reading.mode.segmentation === 'auto' ? 'page layout' : 'one block');
  parts.push(reading.mode.binarization === 'otsu' ? 'global threshold' : 'local threshold');
  if (reading.linesFromOther) parts.push(`${reading.linesFromOther} line${reading.linesFromOther === 1 ? '' : 's'} from the ${reading.mode.binarization === 'otsu' ? 'local' : 'global'} threshold`);
  if (reading.enlarged !== 1) parts.push(`enlarged ${reading.enlarged}x`);
  return parts.join(', ');
}

function noted(readings: string[], reading: Reading): Reading {
  readings.push(describe(reading));
  return reading;
}

function reading(base: Pick<Reading, 'rotation' | 'skew' | 'image'>, mode: ReadingMode, enlarged: number, words: OcrWord[], linesFromOther = 0): Reading {
  return { ...base, mode, enlarged, words, linesFromOther, quality: quality(words), sure: sureCharacters(words) };
}

async function readTurned(engine: OcrEngine, image: GrayImage, rotation: Reading['rotation'], dpi: number, mode: ReadingMode, signal?: AbortSignal): Promise<Reading> {
  const upright = rotation === 0 ? image : await turn(image, rotation);
  const lean = skewAngle(upright);
  const skew = Math.abs(lean) >= MIN_SKEW ? -lean : 0;
  // One turn from the original picture, as the page's pictures will be made.
  const straight = skew === 0 ? upright : await turn(image, rotation + skew);
  const words = await engine.recognize(straight, dpi, { mode, signal });
  return reading({ rotation, skew, image: straight }, mode, 1, words);
}

/** The same turned and straightened picture, read another way. */
async function readAgain(engine: OcrEngine, base: Reading, mode: ReadingMode, dpi: number, signal?: AbortSignal): Promise<Reading> {
  return reading(base, mode, 1, await engine.recognize(base.image, dpi, { mode, signal }));
}

/** The reading of a page of small print, done again on the picture enlarged twice; the surer one. */
async function readSmallPrint(engine: OcrEngine, base: Reading, dpi: number, readings: string[], signal?: AbortSignal): Promise<Reading> {
  const lineHeight = textLineHeight(base.image);
  if (lineHeight === null || lineHeight >= SMALL_TEXT_PX) return base;
  const words = (await engine.recognize(await enlarge(base.image, 2), dpi * 2, { mode: base.mode, signal })).map((w) => ({ ...w, x0: w.x0 / 2, y0: w.y0 / 2, x1: w.x1 / 2, y1: w.y1 / 2 }));
  const larger = noted(readings, reading(base, base.mode, 2, words));
  return larger.quality > base.quality ? larger : base;
}

/** Turns a picture clockwise by `degrees`, filling the corners a slanted turn uncovers with white. */
export function turn(image: GrayImage, degrees: number): Promise<GrayImage> {
  return transform(image, (picture) => picture.rotate(degrees, { background: { r: 255, g: 255, b: 255 } }));
}

/** The picture `factor` times larger (Lanczos), for reading small print. */
function enlarge(image: GrayImage, factor: number): Promise<GrayImage> {
  return transform(image, (picture) => picture.resize({ width: image.width * factor, height: image.height * factor, kernel: 'lanczos3' }));
}

/** A grey picture through a sharp operation, back as a grey picture. */
async function transform(image: GrayImage, operation: (picture: Sharp) => Sharp): Promise<GrayImage> {
  const input = sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), { raw: { width: image.width, height: image.height, channels: 1 } });
  const { data, info } = await operation(input).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/**
 * Share of the words of three or more characters that are wider than tall; null when there are
 * none, which says nothing either way: a reading that finds nothing must not look upright.
 */
function uprightShare(words: OcrWord[]): number | null {
  const long = words.filter((w) => w.text.length >= 3);
  if (long.length === 0) return null;
  return long.filter((w) => w.x1 - w.x0 > w.y1 - w.y0).length / long.length;
}

/** Words that look like words: two or more letters or digits. */
function realWords(words: OcrWord[]): OcrWord[] {
  return words.filter((w) => (w.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 2);
}

/** Mean confidence of the words that look like words. */
function quality(words: OcrWord[]): number {
  const real = realWords(words);
  if (real.length < 3) return 0;
  return real.reduce((sum, w) => sum + w.confidence, 0) / real.length;
}

/**
 * The characters of the words read surely: what decides between two readings of one page. Mean
 * confidence alone prefers a reading that skipped the faint part of a page (a column of amounts
 * its threshold lost) to one that read it all; a plain count of words prefers the noise a bad
 * threshold turns into garbage, which the engine reads with low confidence.
 */
export function sureCharacters(words: OcrWord[]): number {
  return realWords(words).reduce((sum, w) => sum + (w.confidence >= SURE ? w.text.length : 0), 0);
}

function sureWords(words: OcrWord[]): number {
  return realWords(words).filter((w) => w.confidence >= SURE).length;
}

/** Whether more than DOUBTFUL_SHARE of the words were read with doubt, or almost none surely. */
function doubtful(reading: Reading): boolean {
  const real = realWords(reading.words);
  if (sureWords(reading.words) < ALMOST_NOTHING) return hasInk(reading.image);
  return real.filter((w) => w.confidence < SURE).length > real.length * DOUBTFUL_SHARE;
}

/** Resolution from the text: body text is about 10 points tall from ascender to descender. */
function measuredDpi(words: OcrWord[]): number | null {
  const heights = words.filter((w) => /[\p{L}]{3}/u.test(w.text)).map((w) => w.y1 - w.y0);
  if (heights.length < 20) return null;
  heights.sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)];
  return Math.min(1200, Math.max(100, Math.round((median / 10) * 72)));
}

/**
 * Engine words to page-model words: the font size of a line taken from its tallest word, and a
 * hyphen that ends a line marked as a break inside a word, as the PDF reader marks soft hyphens.
 */
function toWords(words: OcrWord[], scale: (v: number) => number): Word[] {
  const lineHeight = new Map<string, number>();
  const lineNumber = new Map<string, number>();
  const paragraphNumber = new Map<string, number>();
  const number = (keys: Map<string, number>, key: string) => keys.get(key) ?? keys.set(key, keys.size).get(key)!;
  for (const w of words) {
    lineHeight.set(w.line, Math.max(lineHeight.get(w.line) ?? 0, w.y1 - w.y0));
    number(lineNumber, w.line);
    number(paragraphNumber, w.paragraph);
  }
  return words.map((w, i) => {
    const endsLine = words[i + 1]?.line !== w.line;
    const hyphenated = endsLine && i + 1 < words.length && /\p{L}[-‐]$/u.test(w.text);
    return {
      text: hyphenated ? w.text.slice(0, -1) : w.text,
      box: { x0: scale(w.x0), y0: scale(w.y0), x1: scale(w.x1), y1: scale(w.y1) },
      fontName: '',
      fontSize: scale((lineHeight.get(w.line) ?? w.y1 - w.y0) * 0.95),
      bold: false,
      italic: false,
      confidence: Math.round(w.confidence),
      hyphenated,
      ocrLine: lineNumber.get(w.line),
      ocrParagraph: paragraphNumber.get(w.paragraph),
    };
  });
}

/**
 * The words of `base` with each of its text lines replaced by what `other` read in the same place
 * where `other` read it more surely: two readings of one picture (global and local threshold) each
 * lose different lines (faint print, a shadow), and the surer reading of each line is the better
 * guess of it. Lines are matched when they share most of their height and some of their width;
 * a group of lines matched to one another is taken whole from one reading, under the base's line
 * and paragraph, so the base's segmentation and order stay.
 */
export function surerLines(base: OcrWord[], other: OcrWord[]): { words: OcrWord[]; taken: number } {
  const group = (words: OcrWord[]) => {
    const lines = new Map<string, OcrWord[]>();
    for (const w of words) (lines.get(w.line) ?? lines.set(w.line, []).get(w.line)!).push(w);
    return [...lines.values()].map((ws) => ({ words: ws, x0: Math.min(...ws.map((w) => w.x0)), x1: Math.max(...ws.map((w) => w.x1)), y0: Math.min(...ws.map((w) => w.y0)), y1: Math.max(...ws.map((w) => w.y1)) }));
  };
  const mine = group(base);
  const theirs = group(other);
  const matches = (a: (typeof mine)[number], b: (typeof mine)[number]) => {
    const high = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
    const wide = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
    return high > 0.5 * Math.min(a.y1 - a.y0, b.y1 - b.y0) && wide > 0;
  };
  const replaced = new Map<OcrWord[], OcrWord[]>();
  const used = new Set<number>();
  let taken = 0;
  for (let i = 0; i < mine.length; i++) {
    if (replaced.has(mine[i].words)) continue;
    // The group: base lines and other lines connected by matches.
    const ours = new Set<number>([i]);
    const others = new Set<number>();
    for (let grew = true; grew; ) {
      grew = false;
      for (const a of ours) theirs.forEach((b, j) => !others.has(j) && !used.has(j) && matches(mine[a], b) && (others.add(j), (grew = true)));
      for (const b of others) mine.forEach((a, k) => !ours.has(k) && !replaced.has(a.words) && matches(a, theirs[b]) && (ours.add(k), (grew = true)));
    }
    const oursWords = [...ours].sort((a, b) => a - b).flatMap((k) => mine[k].words);
    const othersWords = [...others].sort((a, b) => a - b).flatMap((j) => theirs[j].words);
    for (const j of others) used.add(j);
    const first = mine[Math.min(...ours)].words[0];
    const take = othersWords.length > 0 && sureCharacters(othersWords) > sureCharacters(oursWords);
    if (take) taken += others.size;
    const kept = take ? othersWords.map((w) => ({ ...w, line: first.line, paragraph: first.paragraph })) : oursWords;
    for (const k of ours) replaced.set(mine[k].words, k === Math.min(...ours) ? kept : []);
  }
  return { words: mine.flatMap((line) => replaced.get(line.words) ?? line.words), taken };
}
