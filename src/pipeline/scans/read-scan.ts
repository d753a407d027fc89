// Reading a scanned page: turn it upright, straighten it, OCR it, and find its ruling lines and cell fills; the
// words come back as page-model words in the page's own units. Which quarter turn is upright is
// guessed from the shape of the ink (lines running across or up and down) and checked by the OCR
// itself: words taller than wide mean the lines still run up and down, and a page read upside
// down gives words the engine is unsure of; either way the page is read again turned, and the
// better reading kept.
//
// A page read with doubt throughout may be printed in another script than the page languages
// (Greek, Cyrillic, Arabic, Hebrew), which their models read as garbage: its longest lines are read
// with each script's models, and the page again with the models that read them most surely.
//
// A page is read once when the first reading is sure of it. A second reading is spent where the
// first was in doubt, and only there: the text lines holding a word read with doubt are cut out,
// stacked into one small picture and read again, enlarged when their print is small for the
// engine's models, else with the other threshold (a local, Sauvola, one after the global), and
// each line keeps whichever reading read it more surely. Only a page read with doubt broadly, or with much of its ink left unread (a receipt in a
// shadow, thermal print fading across the slip, where the global threshold loses faint words and
// whole columns, which no line shows), is read again whole with the local threshold, its lines
// merged the same way, and whole and enlarged when its print is small. A page that still
// reads as almost nothing though it holds lines of ink is tried further ways (one block of text,
// each quarter turn) before it is given up, within a budget of readings and of time.
//
// Words whose ink lies barely below the paper are not print (the back of the sheet showing through,
// which the engine reads as words, paper grain) and are left out. A page that holds ink but that no
// way reads surely (handwriting, scribbles, a photograph) is illegible: only the words read surely
// are kept, so noise is not passed off as text, and the page says so (ScanReading.illegible).
import { DEFAULT_MODE, type GrayImage, type OcrEngine, type OcrWord, type ReadingMode } from '../../models/ocr/engine.js';
import { SURE_CONFIDENCE, type RawPage, type Rect, type Segment, type Word } from '../page-model.js';
import { checkBoxText, findCheckBoxes, withCheckBoxes } from './check-boxes.js';
import { tintedFills } from './fills.js';
import { enlarge, turn } from './grey-pictures.js';
import { lineSheet, textLines, wordsFromSheet, type TextLine } from './line-sheet.js';
import { toWords, withoutRulingGlyphs } from './scan-words.js';
import { hasInk, inkDepths, linesRunVertically, MIN_SKEW, skewAngle, tableRulings, textLineHeight, unreadInkShare } from './measure.js';

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
  /** Tinted cell backgrounds found in the picture (fills.ts), in the page's units. */
  fills: Rect[];
  /** Resolution the page was read at (measured from its text when the file did not say). */
  dpi: number;
  /** Every reading made of the page, in order, and the one kept (as `describe` names them). */
  readings: string[];
  kept: string;
  /** The first reading found almost nothing, and another way of reading found the text. */
  recovered: boolean;
  /** The page holds ink, but no way of reading it read more than a word or two surely, and what it read with doubt was left out. */
  illegible: boolean;
}

/**
 * A reading below this mean confidence is tried the other way up too: text read upside down can
 * still get confidences in the 70s on short pages, while upright print reads in the 90s.
 */
const DOUBTFUL = 85;
const SURE = SURE_CONFIDENCE;
/**
 * A page on which more than this share of the words are read with less than SURE confidence, or
 * more than UNREAD_SHARE of the ink lies outside every word and ruling read, is read again whole
 * with a local threshold; otherwise only its doubtful lines are. Clean scans and renderings have
 * none or one in twenty doubtful and under a tenth of their ink unread (the corpus' multicolumn
 * pages at 150 dpi: 0-5% and 3-9%, figures included); receipts photographed or printed on thermal
 * paper, where the global threshold loses faint words and whole columns of amounts, 5-71% doubtful
 * and 3-44% unread, all but three of the 18 visible ones past one or the other.
 */
const DOUBTFUL_SHARE = 0.1;
const UNREAD_SHARE = 0.1;
/** A reading that found at least this many words found the page's text, right or wrong: turning it or reading it as one block finds nothing more. */
const READ_THROUGH = 10;
/**
 * Readings beyond the first stop once they have taken this many times the first reading's time
 * (at least MIN_EXTRA_MS): a page costs at most (1 + this) first readings, whatever it holds.
 */
const EXTRA_TIME = 3;
const MIN_EXTRA_MS = 2000;
/** Fewer words than this read surely from a page with lines of ink is almost nothing. */
const ALMOST_NOTHING = 3;
/** At most this many readings of one page: a page of noise is given up, not read every way. */
const MAX_READINGS = 8;
/**
 * Ink shallower than this below the paper (a fifth of the grey scale) is not print: the back of the
 * sheet showing through (mirrored print the engine reads as words, 25-40 levels deep on generated
 * pages), paper grain, a pencil ghost. The faintest print of the 18 visible receipts lies 75 deep
 * (a photograph in dim light), most 110 and more.
 */
const MIN_PRINT_DEPTH = 48;
/** Nor is ink less than this share as deep as the page's own print (its deepest tenth of words): show-through under dark print. */
const PRINT_SHARE = 0.25;
/**
 * Doubtful text lines shorter than this (pixels, ascender to descender) are read again enlarged
 * twice: the LSTM models are trained on text about 30 to 40 pixels tall (a 10-point line at 300
 * dpi is about 42), and small print, such as a 150 dpi scan or a form photographed at 600 pixels
 * across, loses letters and digits at its own size. Enlarging is not always better (it blurs some
 * thermal-printed receipts), hence the line-by-line comparison with the first reading.
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
  const started = performance.now();
  let best = await turned(linesRunVertically(image) ? 90 : 0, DEFAULT_MODE);
  const first = best;
  // Readings beyond the first share one budget of time, so no page costs more than a few readings.
  let deadline = performance.now() + Math.max(MIN_EXTRA_MS, (performance.now() - started) * EXTRA_TIME);
  const inTime = () => performance.now() < deadline;
  // Table borders, found once per picture, for the ink left unread here and for the page's rulings at the end.
  const rulings = new Map<GrayImage, Segment[]>();
  const rulingsOf = (picture: GrayImage, resolution: number) => rulings.get(picture) ?? rulings.set(picture, tableRulings(picture, resolution)).get(picture)!;
  // Words taller than wide mean the lines still run up and down: a quarter turn was missed (the
  // shape of the ink misleads on narrow pages such as receipts, whose columns of figures look
  // like vertical bands, and on tables whose columns do). Settled first: every later reading, and
  // the lines cut out to try other scripts, need the page's lines running across.
  const upright = uprightShare(best.words);
  if (upright !== null && upright < 0.5 && inTime()) {
    const other = await turned(best.rotation === 0 ? 90 : 0, best.mode);
    if ((uprightShare(other.words) ?? 0) > upright) best = other;
  }
  // A page in another script than the page languages' reads as doubtful garbage: it is read again
  // with the models of the script its longest lines read most surely with. First, before the
  // readings that would spend the page's time budget on models that cannot read it.
  if (broadlyDoubtful(best) && Object.keys(engine.scriptModels).length > 0 && inTime()) {
    const trialStarted = performance.now();
    const inItsScript = await readInItsScript(engine, best, assumed, readings, signal);
    if (inItsScript) best = inItsScript;
    // A trial that found no other script costs the page's budget nothing: on a loaded machine it
    // would otherwise leave no time to turn a page read upside down.
    else deadline += performance.now() - trialStarted;
  }
  const broad = broadlyDoubtful(best) || unreadInk(best, rulingsOf(best.image, dpi ?? measuredDpi(best.words) ?? 300)) > UNREAD_SHARE;
  if (broad) {
    const local = noted(readings, await readAgain(engine, best, { ...best.mode, binarization: 'sauvola' }, assumed, signal));
    // The surer reading of the page, each of its lines taken from whichever reading read it more surely.
    const [base, other] = local.sure > best.sure ? [local, best] : [best, local];
    const merged = surerLines(base.words, other.words);
    best = reading(base, base.mode, merged.words, merged.taken);
  }
  // Upside down, most words are read with doubt; a page read surely for the most part is upright,
  // and one read with doubt is read turned over only when a few of its lines read better so.
  if (best.quality < DOUBTFUL && sureWords(best.words) >= ALMOST_NOTHING && sureWords(best.words) < realWords(best.words).length / 2 && inTime() && (await readsBetterTurnedOver(engine, best, assumed, signal))) {
    const flipped = await turned(((best.rotation + 180) % 360) as Reading['rotation'], best.mode);
    if (flipped.quality > best.quality) best = flipped;
  }
  // Which way is up is settled; the lines still read with doubt are read again, and only they.
  // A page read with doubt broadly is read again whole, enlarged, when its print is small.
  if (inTime()) best = broad ? await readSmallPrint(engine, best, assumed, readings, signal) : await rereadDoubtfulLines(engine, best, assumed, readings, signal);
  if (sureWords(best.words) < ALMOST_NOTHING && realWords(best.words).length < READ_THROUGH && hasInk(image)) {
    // One block of text (Tesseract's layout analysis can take a whole page for a picture), with
    // either threshold, then the quarter turns not tried yet; the first that reads some words
    // surely ends the search. Readings of noise, garbage read with doubt, are not kept.
    const ways: { rotation: Reading['rotation']; mode: ReadingMode }[] = [
      { rotation: best.rotation, mode: { ...best.mode, segmentation: 'auto', binarization: 'sauvola' } },
      { rotation: best.rotation, mode: { ...best.mode, segmentation: 'block', binarization: 'otsu' } },
      { rotation: best.rotation, mode: { ...best.mode, segmentation: 'block', binarization: 'sauvola' } },
      ...([90, 180, 270] as const).flatMap((quarter) => (['otsu', 'sauvola'] as const).map((binarization) => ({ rotation: ((best.rotation + quarter) % 360) as Reading['rotation'], mode: { ...best.mode, segmentation: 'auto' as const, binarization } }))),
    ];
    for (const way of ways) {
      if (sureWords(best.words) >= ALMOST_NOTHING || readings.length >= MAX_READINGS || !inTime()) break;
      if (readings.includes(describe(way))) continue;
      const reading = way.rotation === best.rotation ? noted(readings, await readAgain(engine, best, way.mode, assumed, signal)) : await turned(way.rotation, way.mode);
      if (sureWords(reading.words) >= ALMOST_NOTHING && reading.sure > best.sure) best = reading;
    }
  }
  // Ink that no way read surely is not text the engine can read: only what it read surely stays.
  const sure = surelyRead(best.words);
  const illegible = sure.length < ALMOST_NOTHING && sure.length < best.words.length && hasInk(best.image);
  if (illegible) best = { ...best, words: sure };
  const resolution = dpi ?? measuredDpi(best.words) ?? 300;
  const drawn = drawnOnPage(best.image, resolution, best.words, rulingsOf(best.image, resolution));
  const scale = (v: number) => Math.round(v * unitsPerPixel * 100) / 100;
  return {
    words: toWords(drawn.words, scale),
    rotation: best.rotation,
    skew: best.skew,
    width: best.image.width * unitsPerPixel,
    height: best.image.height * unitsPerPixel,
    segments: drawn.segments.map((s) => ({ x0: scale(s.x0), y0: scale(s.y0), x1: scale(s.x1), y1: scale(s.y1) })),
    fills: drawn.fills.map((f) => ({ ...f, box: { x0: scale(f.box.x0), y0: scale(f.box.y0), x1: scale(f.box.x1), y1: scale(f.box.y1) } })),
    dpi: resolution,
    readings,
    kept: describe(best),
    recovered: sureWords(first.words) < ALMOST_NOTHING && sureWords(best.words) >= ALMOST_NOTHING,
    illegible,
  };
}

/**
 * What the straightened picture of a read page shows besides its words, in its pixels: its table
 * rulings (bars the engine read from them taken off the words), its cell fills, and its check
 * boxes among the words. `rulings` when found already. Kept apart from the reading so that a
 * change to these measurements is judged on pages read before, without reading them again
 * (bench/generated/remeasure.ts).
 */
export function drawnOnPage(image: GrayImage, resolution: number, words: OcrWord[], rulings = tableRulings(image, resolution)): { words: OcrWord[]; segments: Segment[]; fills: Rect[] } {
  const read = withoutRulingGlyphs(words, rulings);
  return { words: withDrawnCheckBoxes(image, read.words), segments: read.segments, fills: tintedFills(image, resolution, read.segments) };
}

/** The words with the check boxes drawn on their lines (check-boxes.ts), each a word of the line it stands on. */
function withDrawnCheckBoxes(image: GrayImage, words: OcrWord[]): OcrWord[] {
  const boxes = findCheckBoxes(image, textLines(words).map((line) => line.box));
  return withCheckBoxes(words, boxes, (box, neighbour) => ({ text: checkBoxText(box), x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1, confidence: 90, paragraph: neighbour.paragraph, line: neighbour.line }));
}

/** The page as its reading found it: its words, frame and rulings replace what the file held. */
export function readInto(page: RawPage, reading: ScanReading): void {
  Object.assign(page, {
    ...(reading.recovered ? { ocrRecovered: reading.kept } : {}),
    ...(reading.illegible ? { ocrIllegible: true } : {}),
    words: reading.words,
    width: reading.width,
    height: reading.height,
    rotation: reading.rotation,
    skew: reading.skew,
    // What is drawn on a scan is in its pixels: the rulings and fills found there replace any
    // vector drawing, which would sit in the frame before turning and straightening.
    graphics: { segments: reading.segments, rects: reading.fills, shapes: [], images: [], rulingsFromPicture: true },
    ...(page.unit === 'px' ? { dpi: reading.dpi } : {}),
  });
}

interface Reading {
  rotation: 0 | 90 | 180 | 270;
  skew: number;
  mode: ReadingMode;
  /** Text lines taken from a reading of the whole page with the other threshold (surerLines). */
  linesFromOther: number;
  /** Doubtful lines read again on their own, and how many of those readings were kept (rereadDoubtfulLines). */
  linesReread?: { lines: number; taken: number; enlarged: boolean };
  /** The whole picture was read enlarged twice (readSmallPrint); words are in the picture's own pixels. */
  enlargedPage?: boolean;
  image: GrayImage;
  words: OcrWord[];
  quality: number;
  /** Characters read surely (sureCharacters). */
  sure: number;
}

/** A reading's way, for logs: "turned 90, one block, local threshold, 3 of 5 doubtful lines from reading them again enlarged 2x". */
export function describe(reading: Pick<Reading, 'rotation' | 'mode'> & Partial<Pick<Reading, 'linesFromOther' | 'linesReread' | 'enlargedPage'>>): string {
  const parts = [reading.rotation === 0 ? 'upright' : `turned ${reading.rotation}`];
  parts.push(reading.mode.segmentation === 'auto' ? 'page layout' : 'one block');
  parts.push(reading.mode.binarization === 'otsu' ? 'global threshold' : 'local threshold');
  if (reading.linesFromOther) parts.push(`${reading.linesFromOther} line${reading.linesFromOther === 1 ? '' : 's'} from the ${reading.mode.binarization === 'otsu' ? 'local' : 'global'} threshold`);
  const again = reading.linesReread;
  if (again) parts.push(`${again.taken} of ${again.lines} doubtful line${again.lines === 1 ? '' : 's'} from reading ${again.lines === 1 ? 'it' : 'them'} again${again.enlarged ? ' enlarged 2x' : ''}`);
  if (reading.enlargedPage) parts.push('enlarged 2x');
  if (reading.mode.languages) parts.push(`models ${reading.mode.languages.join('+')}`);
  return parts.join(', ');
}

function noted(readings: string[], reading: Reading): Reading {
  readings.push(describe(reading));
  return reading;
}

/** A reading of the picture: the words it found that are print, and how surely it read them. */
function reading(base: Pick<Reading, 'rotation' | 'skew' | 'image'>, mode: ReadingMode, found: OcrWord[], linesFromOther = 0): Reading {
  const words = printedWords(base.image, found);
  return { ...base, mode, words, linesFromOther, quality: quality(words), sure: sureCharacters(words) };
}

async function readTurned(engine: OcrEngine, image: GrayImage, rotation: Reading['rotation'], dpi: number, mode: ReadingMode, signal?: AbortSignal): Promise<Reading> {
  const upright = rotation === 0 ? image : await turn(image, rotation);
  const lean = skewAngle(upright);
  const skew = Math.abs(lean) >= MIN_SKEW ? -lean : 0;
  const straight = skew === 0 ? upright : await asRead(image, rotation, skew);
  const words = await engine.recognize(straight, dpi, { mode, signal });
  return reading({ rotation, skew, image: straight }, mode, words);
}

/**
 * The picture turned and straightened as a reading of it was: its quarter turn and its skew in one
 * turn from the original, as the page's pictures will be made.
 */
export function asRead(image: GrayImage, rotation: Reading['rotation'], skew: number): Promise<GrayImage> {
  return rotation + skew === 0 ? Promise.resolve(image) : turn(image, rotation + skew);
}

/** The same turned and straightened picture, read another way. */
async function readAgain(engine: OcrEngine, base: Reading, mode: ReadingMode, dpi: number, signal?: AbortSignal): Promise<Reading> {
  return reading(base, mode, await engine.recognize(base.image, dpi, { mode, signal }));
}

/** A page of small print read with doubt broadly, read again whole on the picture enlarged twice; the surer reading. */
async function readSmallPrint(engine: OcrEngine, base: Reading, dpi: number, readings: string[], signal?: AbortSignal): Promise<Reading> {
  const lineHeight = textLineHeight(base.image);
  if (lineHeight === null || lineHeight >= SMALL_TEXT_PX) return base;
  const words = (await engine.recognize(await enlarge(base.image, 2), dpi * 2, { mode: base.mode, signal })).map((w) => ({ ...w, x0: w.x0 / 2, y0: w.y0 / 2, x1: w.x1 / 2, y1: w.y1 / 2 }));
  const larger = noted(readings, { ...reading(base, base.mode, words), enlargedPage: true });
  return larger.quality > base.quality ? larger : base;
}

/** Lines sampled to tell whether a page is upside down, or which script it is in: its longest. */
const SAMPLE_LINES = 6;

function longestLines(words: OcrWord[]): TextLine[] {
  const length = (line: TextLine) => line.words.reduce((n, w) => n + w.text.length, 0);
  return textLines(words)
    .sort((a, b) => length(b) - length(a))
    .slice(0, SAMPLE_LINES);
}

/**
 * The page read again with the models of the script its longest lines read most surely with, when
 * those read them more surely than the page languages did and the whole page reads more surely so;
 * null otherwise. Each script's models read the same few lines: which letters the engine is sure
 * of tells the script better than its own script detection, which takes blurred Greek for
 * Arabic or Cyrillic.
 */
async function readInItsScript(engine: OcrEngine, base: Reading, dpi: number, readings: string[], signal?: AbortSignal): Promise<Reading | null> {
  const sample = longestLines(base.words);
  if (sample.length === 0) return null;
  // Small print is read enlarged, as when doubtful lines are read again (rereadDoubtfulLines).
  const factor = smallPrint(sample) ? 2 : 1;
  const sheet = await lineSheet(base.image, sample, factor);
  let surest: { languages?: string[]; sure: number } = { sure: sureCharacters(sample.flatMap((line) => line.words)) };
  for (const languages of Object.values(engine.scriptModels)) {
    // All of the script's models, English too: a page's longest lines often hold Latin names.
    const words = await engine.recognize(sheet.image, dpi * factor, { mode: { ...base.mode, segmentation: 'block', languages }, signal });
    const sure = sureCharacters(words);
    if (sure > surest.sure) surest = { languages, sure };
  }
  if (!surest.languages) return null;
  // Upside down, Latin print reads more surely with the Cyrillic models than with the Latin ones:
  // a script is taken only when it beats the page languages reading the lines turned over too.
  if ((await sureTurnedOver(engine, sheet.image, dpi * factor, base.mode, signal)) >= surest.sure) return null;
  const other = noted(readings, await readAgain(engine, base, { ...base.mode, languages: surest.languages }, dpi, signal));
  return other.sure > base.sure ? other : null;
}

/**
 * Whether the page's longest lines, cut out and turned over, read more surely than they did:
 * a tenth of a page read to decide whether the whole is read again upside down.
 */
async function readsBetterTurnedOver(engine: OcrEngine, base: Reading, dpi: number, signal?: AbortSignal): Promise<boolean> {
  const sample = longestLines(base.words);
  const sheet = await lineSheet(base.image, sample, 1);
  return (await sureTurnedOver(engine, sheet.image, dpi, base.mode, signal)) > sureCharacters(sample.flatMap((line) => line.words));
}

/** The characters a sheet of lines reads surely turned over, read as one block with the models of `mode`. */
async function sureTurnedOver(engine: OcrEngine, sheet: GrayImage, dpi: number, mode: ReadingMode, signal?: AbortSignal): Promise<number> {
  return sureCharacters(await engine.recognize(await turn(sheet, 180), dpi, { mode: { ...mode, segmentation: 'block' }, signal }));
}

/** Whether the lines' print is small for the engine's models: their middle height under SMALL_TEXT_PX. */
function smallPrint(lines: TextLine[]): boolean {
  const heights = lines.map((line) => line.box.y1 - line.box.y0).sort((a, b) => a - b);
  return heights[heights.length >> 1] < SMALL_TEXT_PX;
}

/**
 * The lines of a reading that hold a word read with doubt, read again on their own (line-sheet.ts),
 * enlarged twice where their print is small, else with the other threshold, each kept from
 * whichever reading read it more surely, under the first reading's line and paragraph.
 */
async function rereadDoubtfulLines(engine: OcrEngine, base: Reading, dpi: number, readings: string[], signal?: AbortSignal): Promise<Reading> {
  const lines = textLines(base.words);
  const doubtful = lines.filter((line) => realWords(line.words).some((w) => w.confidence < SURE));
  if (doubtful.length === 0) return base;
  const enlarged = smallPrint(doubtful);
  const sheet = await lineSheet(base.image, doubtful, enlarged ? 2 : 1);
  // Small print is read again larger, at the threshold that read the page; print of a good size with the other threshold.
  const binarization = enlarged ? base.mode.binarization : base.mode.binarization === 'otsu' ? 'sauvola' : 'otsu';
  const again = wordsFromSheet(await engine.recognize(sheet.image, dpi * sheet.factor, { mode: { ...base.mode, segmentation: 'block', binarization }, signal }), sheet, doubtful);
  const replaced = new Map<TextLine, OcrWord[]>();
  doubtful.forEach((line, i) => {
    if (again[i].length === 0 || sureCharacters(again[i]) <= sureCharacters(line.words)) return;
    const { line: key, paragraph } = line.words[0];
    replaced.set(line, again[i].map((w) => ({ ...w, line: key, paragraph })));
  });
  const result: Reading = { ...reading(base, base.mode, lines.flatMap((line) => replaced.get(line) ?? line.words), base.linesFromOther), linesReread: { lines: doubtful.length, taken: replaced.size, enlarged } };
  return noted(readings, result);
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

/** The words that look like words and were read surely. */
function surelyRead(words: OcrWord[]): OcrWord[] {
  return realWords(words).filter((w) => w.confidence >= SURE);
}

function sureWords(words: OcrWord[]): number {
  return surelyRead(words).length;
}

/** Whether more than DOUBTFUL_SHARE of the words were read with doubt, or almost none surely though the page holds ink. */
function broadlyDoubtful(reading: Reading): boolean {
  const real = realWords(reading.words);
  if (sureWords(reading.words) < ALMOST_NOTHING) return hasInk(reading.image);
  return real.filter((w) => w.confidence < SURE).length > real.length * DOUBTFUL_SHARE;
}

/** The words whose ink is print (MIN_PRINT_DEPTH, PRINT_SHARE), in the picture they were read from. */
function printedWords(image: GrayImage, words: OcrWord[]): OcrWord[] {
  if (words.length === 0) return words;
  const depths = inkDepths(image, words);
  const sorted = [...depths].sort((a, b) => a - b);
  const floor = Math.max(MIN_PRINT_DEPTH, sorted[Math.floor((sorted.length - 1) * 0.9)] * PRINT_SHARE);
  return words.filter((_, i) => depths[i] >= floor);
}

/** The share of the reading's picture's ink outside its words and its ruling lines, each widened by half a line. */
function unreadInk(reading: Reading, rulings: Segment[]): number {
  const heights = reading.words.map((w) => w.y1 - w.y0).sort((a, b) => a - b);
  if (heights.length === 0) return 0;
  const line = heights[heights.length >> 1];
  return unreadInkShare(reading.image, [...reading.words, ...rulings], line / 2);
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
 * The words of `base` with each of its text lines replaced by what `other` read in the same place
 * where `other` read it more surely: two readings of one picture (global and local threshold) each
 * lose different lines (faint print, a shadow), and the surer reading of each line is the better
 * guess of it. Lines are matched when they share most of their height and some of their width;
 * a group of lines matched to one another is taken whole from one reading, under the base's line
 * and paragraph, so the base's segmentation and order stay.
 */
export function surerLines(base: OcrWord[], other: OcrWord[]): { words: OcrWord[]; taken: number } {
  const mine = textLines(base);
  const theirs = textLines(other);
  const matches = ({ box: a }: TextLine, { box: b }: TextLine) => {
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
