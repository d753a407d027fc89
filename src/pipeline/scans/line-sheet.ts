// Some text lines of a page read again, and nothing else: the lines are cut out of the page's
// picture, stacked one under another on the page's own paper, a (typical) line's height apart, and
// the stack (a "sheet", a fraction of the page) is read in one call to the engine; each word it
// finds goes back to the line it was cut from, in the page's pixels. One call, not one per line,
// because every call to the engine pays for loading its models; a sheet of ten lines costs little
// more than one line.
import type { GrayImage, OcrWord } from '../../models/ocr/engine.js';
import { enlarge } from './grey-pictures.js';

interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One text line of a reading: its words (in the engine's order) and the box around them. */
export interface TextLine {
  words: OcrWord[];
  box: PixelBox;
}

/** The lines of a reading in the order the engine gave them, each its words under one `line` key. */
export function textLines(words: OcrWord[]): TextLine[] {
  const lines = new Map<string, OcrWord[]>();
  for (const w of words) (lines.get(w.line) ?? lines.set(w.line, []).get(w.line)!).push(w);
  return [...lines.values()].map((ws) => ({ words: ws, box: { x0: Math.min(...ws.map((w) => w.x0)), y0: Math.min(...ws.map((w) => w.y0)), x1: Math.max(...ws.map((w) => w.x1)), y1: Math.max(...ws.map((w) => w.y1)) } }));
}

/** Where one line was cut from (page pixels) and where it sits on the sheet (sheet pixels, before enlarging). */
interface Slot {
  crop: PixelBox;
  top: number;
  left: number;
}

export interface LineSheet {
  image: GrayImage;
  /** How much the sheet was enlarged after stacking. */
  factor: number;
  slots: Slot[];
}

/** Around a line's box, this share of its height is cut out with it: its accents and descenders, not its neighbours' print. */
const PAD = 0.3;

/**
 * The lines cut from `page`, stacked a line apart on the tone of their paper, the whole `factor`
 * times larger (Lanczos). Not on white: on a tinted page, strips of grey paper between bands of
 * white split a global threshold between paper and white, and the engine reads the strips as ink.
 */
export async function lineSheet(page: GrayImage, lines: TextLine[], factor: number): Promise<LineSheet> {
  const slots: Slot[] = [];
  const heights = lines.map((l) => l.box.y1 - l.box.y0).sort((a, b) => a - b);
  const gap = Math.max(8, Math.round(heights[heights.length >> 1]));
  let top = gap;
  let width = 0;
  for (const line of lines) {
    const pad = Math.ceil((line.box.y1 - line.box.y0) * PAD);
    const crop = { x0: Math.max(0, line.box.x0 - pad), y0: Math.max(0, line.box.y0 - pad), x1: Math.min(page.width, line.box.x1 + pad), y1: Math.min(page.height, line.box.y1 + pad) };
    slots.push({ crop, top, left: gap });
    top += crop.y1 - crop.y0 + gap;
    width = Math.max(width, crop.x1 - crop.x0 + 2 * gap);
  }
  const data = new Uint8Array(width * top).fill(paperTone(page, slots.map((slot) => slot.crop)));
  for (const { crop, top: y, left } of slots) {
    const cropWidth = crop.x1 - crop.x0;
    for (let row = crop.y0; row < crop.y1; row++) data.set(page.data.subarray(row * page.width + crop.x0, row * page.width + crop.x0 + cropWidth), (y + row - crop.y0) * width + left);
  }
  const sheet = { width, height: top, data };
  if (factor === 1) return { image: sheet, factor, slots };
  return { image: await enlarge(sheet, factor), factor, slots };
}

/** The middle grey of the crops' pixels: most of a text line's box is its paper. */
function paperTone(page: GrayImage, crops: PixelBox[]): number {
  const counts = new Array<number>(256).fill(0);
  let total = 0;
  for (const crop of crops) {
    for (let row = crop.y0; row < crop.y1; row++) {
      for (let i = row * page.width + crop.x0; i < row * page.width + crop.x1; i++) counts[page.data[i]]++;
      total += crop.x1 - crop.x0;
    }
  }
  if (total === 0) return 255;
  let seen = 0;
  for (let tone = 0; tone < 256; tone++) {
    seen += counts[tone];
    if (seen * 2 >= total) return tone;
  }
  return 255;
}

/**
 * The sheet's words, back on the page: for each line cut out (in the order given to lineSheet),
 * the words read on its slot whose middle lies on the line itself, not in the padding around it
 * (a neighbour's descenders read as a word of their own), in page pixels.
 */
export function wordsFromSheet(words: OcrWord[], sheet: LineSheet, lines: TextLine[]): OcrWord[][] {
  const out: OcrWord[][] = lines.map(() => []);
  for (const word of words) {
    const x0 = word.x0 / sheet.factor;
    const x1 = word.x1 / sheet.factor;
    const y0 = word.y0 / sheet.factor;
    const y1 = word.y1 / sheet.factor;
    const middle = (y0 + y1) / 2;
    const at = sheet.slots.findIndex((slot) => middle >= slot.top && middle < slot.top + slot.crop.y1 - slot.crop.y0);
    if (at < 0) continue;
    const { crop, top, left } = sheet.slots[at];
    const dx = crop.x0 - left;
    const dy = crop.y0 - top;
    const line = lines[at].box;
    if (middle + dy < line.y0 || middle + dy > line.y1) continue;
    out[at].push({ ...word, x0: x0 + dx, x1: x1 + dx, y0: y0 + dy, y1: y1 + dy });
  }
  return out;
}
