// Check boxes in a scan's picture. OCR engines are trained on letters: a box drawn before an option
// ("☐ fund ☒ contract") is dropped or read as a letter or two ("Cl", "O", "X"), and a form or a
// table of choices loses which option was ticked. A check box is found as a shape no letter
// makes: a square outline in a thin line, each of its four sides drawn along nearly its whole
// length, standing on a text line at about the height of the line's letters. Empty inside it
// reads ☐; with a mark inside (a cross, a tick, a scribble) it reads ☒, whichever mark it holds.
// A square filled solid is a bullet or a legend's swatch, not a box. Written here because no library at hand finds
// them: Tesseract has no model for them, and a general shape detector would be a heavy dependency
// for one shape.
import type { GrayImage } from '../../models/ocr/engine.js';
import type { Box } from '../page-model.js';
import { otsu } from './measure.js';

/** A check box found in a picture: its bounds in pixels (x1, y1 past its last pixel, as a word's) and whether it holds a mark. */
export interface CheckBox extends Box {
  marked: boolean;
}

/** A box's side against the height of its line's letters: a box is drawn about as tall as a capital. */
const SIDE_MIN = 0.4;
const SIDE_MAX = 1.3;
/** Its width against its height. */
const SQUARE = 1.25;
/** How much of each side's length must be drawn: letters with straight strokes (H, E, D) leave a side open or curved. */
const SIDE_DRAWN = 0.9;
/** A box's line is at most this share of its side thick (or two pixels). */
const THIN = 0.15;
/** Ink inside a box, as a share of its inside, above which it holds a mark, and above which it is filled solid. */
const MARKED = 0.08;
const SOLID = 0.6;
/** How far beside its line a box may stand, in line heights. */
const REACH = 3;

/** The side of a component in pixels below which no box can be told from a speck. */
const MIN_SIDE_PX = 6;

/**
 * Connected components of ink no larger than `maxSide` either way, as the bounds of their pixels
 * (x1, y1 their last), of eight-neighbourhood. Only components with a pixel on a row `startsOn`
 * are followed: the page's pictures and margins, away from its lines, are not walked.
 */
function smallComponents(image: GrayImage, threshold: number, maxSide: number, startsOn: (y: number) => boolean): Box[] {
  const { width, height, data } = image;
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const out: Box[] = [];
  for (let row = 0; row < height; row++) {
    if (!startsOn(row)) continue;
    for (let start = row * width; start < (row + 1) * width; start++) {
      if (seen[start] || data[start] >= threshold) continue;
      let top = 0;
      stack[top++] = start;
      seen[start] = 1;
      let [x0, y0, x1, y1] = [width, height, -1, -1];
      while (top > 0) {
        const at = stack[--top];
        const x = at % width;
        const y = (at - x) / width;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
        for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++) {
          for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
            const next = ny * width + nx;
            if (!seen[next] && data[next] < threshold) {
              seen[next] = 1;
              stack[top++] = next;
            }
          }
        }
      }
      if (x1 - x0 + 1 <= maxSide && y1 - y0 + 1 <= maxSide && Math.min(x1 - x0, y1 - y0) + 1 >= MIN_SIDE_PX) out.push({ x0, y0, x1, y1 });
    }
  }
  return out;
}

/** The box a component (its pixels' bounds, last ones included) draws, or null when it is no box outline (see the module's comment). */
function asCheckBox(image: GrayImage, threshold: number, c: Box): CheckBox | null {
  const { width, data } = image;
  const w = c.x1 - c.x0 + 1;
  const h = c.y1 - c.y0 + 1;
  if (w > h * SQUARE || h > w * SQUARE) return null;
  const dark = ([x, y]: [number, number]) => data[y * width + x] < threshold;
  // Each side: the pixel `i` along it and `d` in from it, towards the inside.
  const sides = [
    { length: w, pixel: (i: number, d: number): [number, number] => [c.x0 + i, c.y0 + d] },
    { length: w, pixel: (i: number, d: number): [number, number] => [c.x0 + i, c.y1 - d] },
    { length: h, pixel: (i: number, d: number): [number, number] => [c.x0 + d, c.y0 + i] },
    { length: h, pixel: (i: number, d: number): [number, number] => [c.x1 - d, c.y0 + i] },
  ];
  // A side's band: as deep into the box as a fifth of its side, at least a pixel. The side is
  // drawn where the band holds ink.
  const band = Math.max(1, Math.round(Math.min(w, h) * 0.2));
  const drawnShare = ({ length, pixel }: (typeof sides)[number]) => {
    let drawn = 0;
    for (let i = 0; i < length; i++) {
      for (let d = 0; d < band; d++) {
        if (dark(pixel(i, d))) {
          drawn++;
          break;
        }
      }
    }
    return drawn / length;
  };
  if (sides.some((side) => drawnShare(side) < SIDE_DRAWN)) return null;
  // A box is drawn in a thin line; letters whose strokes close a square (a bold "in", its feet
  // joined by serifs) are drawn in thick stems. A side's stroke: its median depth of ink from the
  // edge, over the middle of its length.
  const stroke = ({ length, pixel }: (typeof sides)[number]) => {
    const depths: number[] = [];
    for (let i = Math.floor(length * 0.3); i < Math.ceil(length * 0.7); i++) {
      let d = 0;
      while (d < length / 2 && dark(pixel(i, d))) d++;
      depths.push(d);
    }
    return depths.sort((a, b) => a - b)[depths.length >> 1] ?? 0;
  };
  if (Math.max(...sides.map(stroke)) > Math.max(2, Math.min(w, h) * THIN)) return null;
  let inked = 0;
  let inside = 0;
  for (let y = c.y0 + band + 1; y < c.y1 - band; y++) {
    for (let x = c.x0 + band + 1; x < c.x1 - band; x++) {
      inside++;
      if (dark([x, y])) inked++;
    }
  }
  if (inside === 0) return null;
  const share = inked / inside;
  if (share > SOLID) return null;
  return { x0: c.x0, y0: c.y0, x1: c.x1 + 1, y1: c.y1 + 1, marked: share >= MARKED };
}

/**
 * The check boxes standing on the page's text lines (`lines`, in the picture's pixels): square
 * outlines about as tall as the line's letters, within REACH line heights of it along the line.
 */
export function findCheckBoxes(image: GrayImage, lines: Box[]): CheckBox[] {
  if (lines.length === 0) return [];
  const tallest = Math.max(...lines.map((l) => l.y1 - l.y0));
  const maxSide = Math.ceil(tallest * SIDE_MAX);
  // A box's first row lies at most its side above the line whose middle it stands on.
  const nearLine = new Uint8Array(image.height);
  for (const l of lines) nearLine.fill(1, Math.max(0, Math.floor(l.y0) - maxSide), Math.min(image.height, Math.ceil(l.y1) + 1));
  const threshold = Math.min(otsu(image), 160);
  const found: CheckBox[] = [];
  for (const component of smallComponents(image, threshold, maxSide, (y) => nearLine[y] === 1)) {
    const side = Math.max(component.x1 - component.x0, component.y1 - component.y0) + 1;
    const middle = (component.y0 + component.y1) / 2;
    const onLine = lines.some((l) => {
      const height = l.y1 - l.y0;
      return middle > l.y0 && middle < l.y1 && side >= height * SIDE_MIN && side <= height * SIDE_MAX && component.x1 > l.x0 - height * REACH && component.x0 < l.x1 + height * REACH;
    });
    if (!onLine) continue;
    const box = asCheckBox(image, threshold, component);
    if (box) found.push(box);
  }
  return found;
}

/** The text a check box reads as. */
export function checkBoxText(box: CheckBox): string {
  return box.marked ? '☒' : '☐';
}

/** What a box replaces and where it goes among a page's words, in the words' own units. */
interface Placed extends Box {
  text: string;
}

/**
 * The page's words with its check boxes among them: each box as a word of its own, set before the
 * word that follows it on its line (or after the line's last), made by `make` from that neighbour;
 * a short word the engine read from the box itself (mostly across it, three characters at most)
 * is dropped; a box a word of the page already holds (a text layer that knows it), or that lies
 * inside a word as one of its letters, is left, and so is one with no word level with it (a column
 * of ticks with nothing beside them): no line of the page's reading takes it.
 */
export function withCheckBoxes<W extends Placed>(words: W[], boxes: CheckBox[], make: (box: CheckBox, neighbour: W) => W): W[] {
  if (boxes.length === 0) return words;
  let out = [...words];
  for (const box of boxes) {
    const middle = (box.y0 + box.y1) / 2;
    const width = (w: Placed) => Math.min(w.x1, box.x1) - Math.max(w.x0, box.x0);
    const touched = out.filter((w) => w.y0 < middle && w.y1 > middle && width(w) > (box.x1 - box.x0) * 0.3);
    // A word the engine read from the box itself is short and lies mostly across it; any other
    // word the box stands in holds it as one of its letters (an "o" a few pixels tall, a "d"
    // whose bowl bold type closed).
    const readFromBox = (w: Placed) => [...w.text].length <= 3 && width(w) >= (w.x1 - w.x0) * 0.5;
    if (touched.some((w) => !readFromBox(w) || /[☐☑☒□■]/u.test(w.text))) continue;
    const rest = out.filter((w) => !touched.includes(w));
    const level = rest.filter((w) => w.y0 < middle && w.y1 > middle);
    // The nearest word after it on its line, else the nearest before it.
    const after = level.filter((w) => w.x0 >= box.x1 - 1).sort((a, b) => a.x0 - b.x0)[0];
    const before = level.filter((w) => w.x1 <= box.x0 + 1).sort((a, b) => b.x1 - a.x1)[0];
    const neighbour = after ?? before;
    if (!neighbour) continue;
    rest.splice(rest.indexOf(neighbour) + (after ? 0 : 1), 0, make(box, neighbour));
    out = rest;
  }
  return out;
}
