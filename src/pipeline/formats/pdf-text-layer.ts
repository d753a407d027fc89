// A text layer drawn invisibly (text render mode 3 or 7) is what scanners' OCR writes over the
// page picture: the page's text, read for free, when it belongs to the picture. A layer word that
// lies on blank paper does not: the picture under it was changed after the layer was written (a
// line painted out to redact it, a page replaced) or the layer was written for another picture.
// Such words are left out; a layer most of whose words lie on blank paper is not the page's text at
// all, and the page is read by OCR instead. Whether a word lies on ink is measured on the page
// drawn at a low resolution, as it shows: an invisible layer paints nothing, so the ink is the
// picture's. A page whose layer is its text has its ruling lines found in the picture too, as a
// scan read by OCR has. Some OCR programs write the layer in ink under the picture instead of
// invisibly over it: text that an opaque picture drawn after it covers shows no more than an
// invisible layer does, and is read as one (textUnderPictures).
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import type { Box, RawPage, Rect, Segment, Word } from '../page-model.js';
import { tableRulings } from '../scans/measure.js';
import { tintedFills } from '../scans/fills.js';
import { checkBoxText, findCheckBoxes, withCheckBoxes } from '../scans/check-boxes.js';
import { drawnGrey } from './pdf-render.js';
import { clip, clipBounds, native, type Scratch } from './pdfium.js';

const OBJECT_TEXT = 1;
const OBJECT_IMAGE = 3;

/** Pages whose characters are at least this share invisible are checked; a stray hidden word is not a layer. */
const LAYER_SHARE = 0.5;
/** Resolution the page is drawn at for the check: 10-point text is 7 pixels tall, enough to see ink, cheap to draw. */
const CHECK_DPI = 50;
/** A word lies on ink when at least this share of the pixels in its box are ink. */
const INK_SHARE = 0.02;
/** A layer fewer than this share of whose characters lie on ink is not the page's text. */
const PLAUSIBLE_SHARE = 0.5;
/** Resolution a scanner's page is drawn at to find its rulings: a half-point rule is a pixel thick. */
const RULING_DPI = 150;

/**
 * The page's text objects that an opaque picture drawn after them covers (the middle of the
 * text's bounds lies within the picture's, as its clip leaves it), in PDF user space. Only the
 * page's own objects are looked at: a layer is written there, not inside a form.
 */
export function textUnderPictures(lib: WrappedPdfiumModule, page: number, scratch: Scratch): Set<number> {
  const count = native(lib).FPDFPage_CountObjects(page);
  const pictures: { index: number; box: Box }[] = [];
  for (let i = 0; i < count; i++) {
    const object = native(lib).FPDFPage_GetObject(page, i);
    if (!object || native(lib).FPDFPageObj_GetType(object) !== OBJECT_IMAGE || lib.FPDFPageObj_HasTransparency(object)) continue;
    const drawn = bounds(lib, object, scratch);
    const frame = clipBounds(lib, object, (x, y) => [x, y], scratch);
    const box = drawn && frame ? clip(drawn, frame) : drawn;
    if (box && box.x1 > box.x0 && box.y1 > box.y0) pictures.push({ index: i, box });
  }
  const hidden = new Set<number>();
  if (pictures.length === 0) return hidden;
  const lastPicture = pictures[pictures.length - 1].index;
  for (let i = 0; i < lastPicture; i++) {
    const object = native(lib).FPDFPage_GetObject(page, i);
    if (!object || native(lib).FPDFPageObj_GetType(object) !== OBJECT_TEXT) continue;
    const box = bounds(lib, object, scratch);
    if (!box) continue;
    const x = (box.x0 + box.x1) / 2;
    const y = (box.y0 + box.y1) / 2;
    if (pictures.some((p) => p.index > i && x >= p.box.x0 && x <= p.box.x1 && y >= p.box.y0 && y <= p.box.y1)) hidden.add(object);
  }
  return hidden;
}

/** An object's bounds in user space (y up); asked of each text object under a picture, so through the raw export. */
function bounds(lib: WrappedPdfiumModule, object: number, scratch: Scratch): Box | null {
  const p = scratch.ptr;
  if (!native(lib).FPDFPageObj_GetBounds(object, p, p + 4, p + 8, p + 12)) return null;
  return { x0: scratch.f32(0), y0: scratch.f32(1), x1: scratch.f32(2), y1: scratch.f32(3) };
}

export interface LayerCheck {
  /** The page's words without the invisible ones that lie on blank paper. */
  words: Word[];
  /** The invisible layer as a whole does not belong to the page: read the page by OCR. */
  implausible: boolean;
  /** A scanner's page read from its layer: the ruling lines of its picture, in the page's units. */
  rulings: Segment[];
  /** And the tinted cell backgrounds of its picture (scans/fills.ts), in the page's units. */
  fills: Rect[];
}

function invisibleShare(words: Word[]): number {
  let all = 0;
  let invisible = 0;
  for (const word of words) {
    all += word.text.length;
    if (word.invisible) invisible += word.text.length;
  }
  return all === 0 ? 0 : invisible / all;
}

/** Checks a page's invisible text layer against the ink of the page as drawn; pages without one pass unchanged. */
export function checkTextLayer(lib: WrappedPdfiumModule, page: number, rotation: RawPage['rotation'], words: Word[]): LayerCheck {
  if (invisibleShare(words) < LAYER_SHARE) return { words, implausible: false, rulings: [], fills: [] };
  const grey = drawnGrey(lib, page, rotation, CHECK_DPI / 72);
  const onInk = wordsOnInk(grey, CHECK_DPI / 72, words);
  let layer = 0;
  let inked = 0;
  const kept = words.filter((word, i) => {
    if (!word.invisible) return true;
    layer += word.text.length;
    if (onInk[i]) inked += word.text.length;
    return onInk[i];
  });
  const implausible = inked < layer * PLAUSIBLE_SHARE;
  return { implausible, ...(implausible ? { words: kept, rulings: [], fills: [] } : pictureDrawing(lib, page, rotation, kept)) };
}

/**
 * The ruling lines and cell fills of a scanner's page, found in its picture as OCR finds a scan's
 * (scans/measure.ts, scans/fills.ts): its text comes from the layer, but its tables' rules and
 * shading are only in the pixels, and without them a table ruled only by lines, a grid or a table
 * of shaded rows is told by alignment alone. So are the check boxes beside its words
 * (scans/check-boxes.ts), which an OCR program's layer leaves out as its engine does.
 */
function pictureDrawing(lib: WrappedPdfiumModule, page: number, rotation: RawPage['rotation'], words: Word[]): { words: Word[]; rulings: Segment[]; fills: Rect[] } {
  const grey = drawnGrey(lib, page, rotation, RULING_DPI / 72);
  const toPoints = (v: number) => Math.round(((v * 72) / RULING_DPI) * 100) / 100;
  const toPixels = (v: number) => (v * RULING_DPI) / 72;
  const inPoints = <T extends { x0: number; y0: number; x1: number; y1: number }>(b: T) => ({ ...b, x0: toPoints(b.x0), y0: toPoints(b.y0), x1: toPoints(b.x1), y1: toPoints(b.y1) });
  const rulings = tableRulings(grey, RULING_DPI);
  const placed = words.map((word) => ({ x0: toPixels(word.box.x0), y0: toPixels(word.box.y0), x1: toPixels(word.box.x1), y1: toPixels(word.box.y1), text: word.text, word }));
  const boxes = findCheckBoxes(grey, placed);
  const withBoxes = withCheckBoxes(placed, boxes, (box, neighbour) => {
    const text = checkBoxText(box);
    const { x0, y0, x1, y1 } = box;
    return { x0, y0, x1, y1, text, word: { ...neighbour.word, text, box: inPoints({ x0, y0, x1, y1 }), hyphenated: false } };
  });
  return { words: withBoxes.map((p) => p.word), rulings: rulings.map(inPoints), fills: tintedFills(grey, RULING_DPI, rulings).map((f) => ({ ...f, box: inPoints(f.box) })) };
}

/**
 * For each word, whether its box on the grey picture (`scale` pixels per page unit) holds ink:
 * pixels darker than the paper by more than a third of the way to the darkest ink on the page.
 * Paper and ink are the page's own (its 90th and 1st percentile grey), so a grey scan, faint
 * print or a dark page are judged alike.
 */
export function wordsOnInk(grey: { width: number; height: number; data: Uint8Array }, scale: number, words: Word[]): boolean[] {
  const histogram = new Uint32Array(256);
  for (const v of grey.data) histogram[v]++;
  const level = (share: number) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) if ((seen += histogram[v]) >= grey.data.length * share) return v;
    return 255;
  };
  const paper = level(0.9);
  const darkest = level(0.01);
  // A page with no ink at all (blank paper, or one flat tone) has none under any word.
  if (paper - darkest < 32) return words.map(() => false);
  const ink = paper - (paper - darkest) / 3;
  return words.map((word) => {
    const x0 = Math.max(0, Math.floor(word.box.x0 * scale));
    const x1 = Math.min(grey.width, Math.ceil(word.box.x1 * scale));
    const y0 = Math.max(0, Math.floor(word.box.y0 * scale));
    const y1 = Math.min(grey.height, Math.ceil(word.box.y1 * scale));
    let pixels = 0;
    let dark = 0;
    for (let y = y0; y < y1; y++) {
      for (let x = x0, i = y * grey.width + x0; x < x1; x++, i++) {
        pixels++;
        if (grey.data[i] < ink) dark++;
      }
    }
    return pixels > 0 && dark >= Math.max(1, pixels * INK_SHARE);
  });
}
