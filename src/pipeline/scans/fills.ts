// Cell fills of a scanned page: the tinted backgrounds of a table's header band, its striped rows
// and its shaded cells, found in the picture as rectangles of one even tint, darker than the
// paper around them. A born-digital page draws them as filled rectangles, which table detection
// reads as cell borders (tables/ruled.ts); a scan gives them the same way. Written here because it
// is a few loops over pixels no image library offers as such.
//
// The picture is cut into blocks of about 1 mm; a block's tint is the grey of its lighter
// quarter of pixels, so the print on a fill (at most a third of a block's pixels in a line of
// text) does not darken it, nor does text on paper make paper look tinted. The paper's own grey is
// taken around each block (the lightest block within a centimetre), as scanners and phones
// light a page unevenly; so a fill more than two centimetres across both ways (a shaded panel, not
// a cell) is not found. Blocks tinted alike and touching form a region; a region that fills its
// bounding rectangle, at least a centimetre wide and 2.5 mm tall, with sharp edges, is a fill,
// parted where a thin line of paper crosses it; but a band down most of the page with nothing
// printed on it, a shadow, is none. Fills level side by side (cells shaded one by one)
// and fills a ruling runs through are left out: their edges, found to a pixel or two, would cut a
// table into cells its text does not hold, where its rulings or alignment tell its cells better.
// So are fills between a table's column rulings that do not run from one to the next: a cell's
// background fills its cell, and a fill that stops short of its borders is a piece of one, cut
// where print or a paler stretch hid the tint, with a side that is no border.
import type { GrayImage } from '../../models/ocr/engine.js';
import type { Box, Rect, Segment } from '../page-model.js';

/** Fills closer than this (inches) side by side are cells shaded one by one. */
const MOSAIC_GAP = 0.1;
/** A ruling this far inside a fill's edge (inches) runs through it. */
const RULED_THROUGH = 0.02;
/** A fill's side this close (inches) to a column ruling lies on it: past a cell's padding. */
const ON_BORDER = 0.1;
/** Blocks per inch: about 1 mm each, larger than a stroke, smaller than a table row. */
const BLOCKS_PER_INCH = 25;
/** A block this many grey levels darker than the paper around it is tinted (the palest fills Office and browsers use, #f2f2f2, lie 13 below white). */
const MIN_TINT = 9;
/** Touching blocks whose tints differ by at most this are one fill; two fills side by side (a header band over a striped row) differ by more. */
const SAME_TINT = 10;
/** How far around a block (inches) the paper's grey is looked for. */
const PAPER_REACH = 0.4;
/** A fill covers at least this share of its bounding rectangle. */
const RECTANGULAR = 0.85;
/** Pixels either side of an edge compared to tell a sharp one: past a scan's blur. */
const EDGE_REACH = 3;
/** Pixels either side of a line of paper inside a fill where the fill is seen: past a gap between two cells. */
const GAP_REACH = 6;
/** Fills narrower than this (inches) are not a cell's background, nor lower than this: a line of 8-point text with no room around it. */
const MIN_WIDTH = 0.4;
const MIN_HEIGHT = 0.1;

/**
 * The filled rectangles of the picture, in its pixels, each with its grey as the fill colour, but
 * those a ruling of the picture (`rulings`, in its pixels) runs through: thin rules leave the
 * blocks on both sides of them tinted alike, so the cells of a ruled table whose rows are shaded
 * join into fills across rows and columns, whose edges would cut the table's own cells.
 */
export function tintedFills(image: GrayImage, dpi: number, rulings: Segment[] = []): Rect[] {
  return bordered(withoutMosaics(unruledFills(findFills(image, dpi), rulings, RULED_THROUGH * dpi), MOSAIC_GAP * dpi), rulings, ON_BORDER * dpi);
}

/**
 * The fills but those that lie between two column rulings (each running along more than half the
 * fill's height) and do not reach them, within `reach`, on both sides.
 */
function bordered(fills: Rect[], rulings: Segment[], reach: number): Rect[] {
  return fills.filter(({ box }) => {
    const alongside = rulings.filter((r) => r.x0 === r.x1 && Math.min(r.y1, box.y1) - Math.max(r.y0, box.y0) > (box.y1 - box.y0) / 2).map((r) => r.x0);
    const left = Math.max(...alongside.filter((x) => x < box.x0 + reach));
    const right = Math.min(...alongside.filter((x) => x > box.x1 - reach));
    if (!Number.isFinite(left) || !Number.isFinite(right)) return true;
    return box.x0 - left <= reach && right - box.x1 <= reach;
  });
}

/**
 * The fills but those set level beside another, a gap narrower than `gap` apart: cells shaded one
 * by one, whose edges, found to a pixel or two in a scan, would cut the table into cells its text
 * does not hold; their table is told by the alignment of its text.
 */
function withoutMosaics(fills: Rect[], gap: number): Rect[] {
  const beside = (a: Rect['box'], b: Rect['box']) => Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 0.5 * Math.min(a.y1 - a.y0, b.y1 - b.y0) && (Math.abs(a.x1 - b.x0) < gap || Math.abs(b.x1 - a.x0) < gap);
  return fills.filter((f) => !fills.some((g) => g !== f && beside(f.box, g.box)));
}

/** The fills no ruling runs through, more than `inset` inside their edges and across half their width or height. */
function unruledFills(fills: Rect[], rulings: Segment[], inset: number): Rect[] {
  return fills.filter(({ box }) =>
    !rulings.some((r) =>
      r.y0 === r.y1
        ? r.y0 > box.y0 + inset && r.y0 < box.y1 - inset && Math.min(r.x1, box.x1) - Math.max(r.x0, box.x0) > (box.x1 - box.x0) / 2
        : r.x0 > box.x0 + inset && r.x0 < box.x1 - inset && Math.min(r.y1, box.y1) - Math.max(r.y0, box.y0) > (box.y1 - box.y0) / 2,
    ),
  );
}

function findFills(image: GrayImage, dpi: number): Rect[] {
  const block = Math.max(2, Math.round(dpi / BLOCKS_PER_INCH));
  const columns = Math.floor(image.width / block);
  const rows = Math.floor(image.height / block);
  if (columns < 3 || rows < 3) return [];
  const tint = blockTints(image, block, columns, rows);
  const paper = localMax(tint, columns, rows, Math.max(2, Math.round((PAPER_REACH * dpi) / block)));
  const tinted = new Uint8Array(columns * rows);
  for (let i = 0; i < tinted.length; i++) tinted[i] = paper[i] - tint[i] >= MIN_TINT ? 1 : 0;
  const fills: Rect[] = [];
  const seen = new Uint8Array(columns * rows);
  const stack: number[] = [];
  for (let start = 0; start < tinted.length; start++) {
    if (!tinted[start] || seen[start]) continue;
    // The region of touching tinted blocks whose tint stays near that of the block it grew from.
    let [x0, y0, x1, y1, count, sum, depth] = [columns, rows, -1, -1, 0, 0, 0];
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const at = stack.pop()!;
      const x = at % columns;
      const y = (at - x) / columns;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      count++;
      sum += tint[at];
      depth += paper[at] - tint[at];
      for (const next of [x > 0 ? at - 1 : -1, x + 1 < columns ? at + 1 : -1, y > 0 ? at - columns : -1, y + 1 < rows ? at + columns : -1]) {
        if (next < 0 || seen[next] || !tinted[next] || Math.abs(tint[next] - tint[at]) > SAME_TINT) continue;
        seen[next] = 1;
        stack.push(next);
      }
    }
    const [w, h] = [x1 - x0 + 1, y1 - y0 + 1];
    if (h < 2 || w * block < MIN_WIDTH * dpi || count < w * h * RECTANGULAR) continue;
    const grey = Math.round(sum / count);
    const box = sharpEdges(image, { x0: x0 * block, y0: y0 * block, x1: (x1 + 1) * block, y1: (y1 + 1) * block }, block, depth / count);
    if (!box || box.y1 - box.y0 < MIN_HEIGHT * dpi) continue;
    // A band running down most of the page with nothing printed on it is a shadow along the
    // page's side or its fold, or the scanner's lid beyond a page lying askew: a table's shaded
    // column that tall holds its cells' text.
    if (box.y1 - box.y0 > image.height / 2 && !printed(image, box, grey)) continue;
    for (const piece of partedAtPaper(image, box, depth / count)) {
      if (piece.y1 - piece.y0 >= MIN_HEIGHT * dpi && piece.x1 - piece.x0 >= MIN_HEIGHT * dpi) fills.push({ box: piece, filled: true, stroked: false, fill: (grey << 16) | (grey << 8) | grey });
    }
  }
  return fills;
}

/** Whether print lies on the fill of grey `grey` in `box`: one pixel in a thousand as dark as print (two thirds of the fill's grey or darker), past its noise. */
function printed(image: GrayImage, box: Box, grey: number): boolean {
  const dark = (grey * 2) / 3;
  let count = 0;
  for (let y = Math.ceil(box.y0); y < Math.floor(box.y1); y++) {
    const row = y * image.width;
    for (let x = Math.ceil(box.x0); x < Math.floor(box.x1); x++) if (image.data[row + x] < dark) count++;
  }
  return count * 1000 > (box.x1 - box.x0) * (box.y1 - box.y0);
}

/** Each block's grey at the lighter quarter of its pixels. */
function blockTints(image: GrayImage, block: number, columns: number, rows: number): Uint8Array {
  const tints = new Uint8Array(columns * rows);
  const histogram = new Uint16Array(256);
  const quarter = Math.floor((block * block) / 4);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < columns; bx++) {
      histogram.fill(0);
      for (let y = by * block; y < (by + 1) * block; y++) {
        const row = y * image.width;
        for (let x = bx * block; x < (bx + 1) * block; x++) histogram[image.data[row + x]]++;
      }
      let seen = 0;
      let level = 255;
      while (level > 0 && seen + histogram[level] <= quarter) seen += histogram[level--];
      tints[by * columns + bx] = level;
    }
  }
  return tints;
}

/** The largest value within `reach` blocks each way (a square window: along the rows, then down the columns). */
function localMax(values: Uint8Array, columns: number, rows: number, reach: number): Uint8Array {
  const across = new Uint8Array(values.length);
  maxAlong(values, across, rows, columns, columns, 1, reach);
  const out = new Uint8Array(values.length);
  maxAlong(across, out, columns, rows, 1, columns, reach);
  return out;
}

/** For each of `lines` lines of `length` values (`lineStep` apart, their values `step` apart), the largest within `reach` of each. */
function maxAlong(values: Uint8Array, out: Uint8Array, lines: number, length: number, lineStep: number, step: number, reach: number): void {
  for (let line = 0; line < lines; line++) {
    const base = line * lineStep;
    for (let i = 0; i < length; i++) {
      let max = 0;
      for (let k = Math.max(0, i - reach); k <= Math.min(length - 1, i + reach); k++) max = Math.max(max, values[base + k * step]);
      out[base + i * step] = max;
    }
  }
}

/**
 * The fill's edges to the pixel, or null when they are not sharp. Each side moves, within a block
 * either way, to where the lighter quarter of the pixels along it changes most from one line of
 * pixels to the next; there, the lines a few pixels outside and inside must differ by at least
 * half the fill's depth. A printed fill's edge is a step from paper to tint; the back of the sheet
 * showing through darkens blocks in blotches with no edge, the lighter pixels on either side paper.
 */
function sharpEdges(image: GrayImage, box: { x0: number; y0: number; x1: number; y1: number }, block: number, depth: number): { x0: number; y0: number; x1: number; y1: number } | null {
  const line = (horizontal: boolean, at: number, from: number, to: number) => lineLevel(image, horizontal, at, from, to);
  let sharp = true;
  const best = (horizontal: boolean, edge: number, from: number, to: number, limit: number) => {
    let [where, change] = [edge, -1];
    for (let at = Math.max(1, edge - block); at <= Math.min(limit - 1, edge + block); at++) {
      const step = Math.abs(line(horizontal, at, from, to) - line(horizontal, at - 1, from, to));
      if (step > change) [where, change] = [at, step];
    }
    if (Math.abs(line(horizontal, where - EDGE_REACH, from, to) - line(horizontal, where + EDGE_REACH - 1, from, to)) < depth / 2) sharp = false;
    return where;
  };
  const inset = (a: number, b: number) => [a + block, Math.max(a + block + 1, b - block)] as const;
  const [xa, xb] = inset(box.x0, box.x1);
  const [ya, yb] = inset(box.y0, box.y1);
  const found = {
    x0: best(false, box.x0, ya, yb, image.width),
    y0: best(true, box.y0, xa, xb, image.height),
    x1: best(false, box.x1, ya, yb, image.width),
    y1: best(true, box.y1, xa, xb, image.height),
  };
  return sharp ? found : null;
}

/** The grey of the lighter quarter of the pixels along a row (`horizontal`) or column of pixels at `at`, from `from` to `to`. */
function lineLevel(image: GrayImage, horizontal: boolean, at: number, from: number, to: number): number {
  const limit = horizontal ? image.height : image.width;
  const clamped = Math.max(0, Math.min(limit - 1, at));
  const values: number[] = [];
  for (let i = Math.max(0, from); i < Math.min(horizontal ? image.width : image.height, to); i += 2) values.push(horizontal ? image.data[clamped * image.width + i] : image.data[i * image.width + clamped]);
  values.sort((a, b) => b - a);
  return values[Math.floor(values.length / 4)] ?? 255;
}

/**
 * The fill in pieces, parted where a line of paper runs across it from edge to edge: the white
 * gap between two shaded cells, narrower than a block, that the blocks' tints ran over.
 */
function partedAtPaper(image: GrayImage, box: Box, depth: number): Box[] {
  const spans = (horizontal: boolean, from: number, to: number, across: [number, number]): [number, number][] => {
    // Each line's level once, from..to-1; a line lighter than the fill a few pixels to either side
    // by half the fill's depth is paper: compared there, not with the fill's mean, as the light on
    // a page changes across a wide fill.
    const levels = Array.from({ length: to - from }, (_, k) => lineLevel(image, horizontal, from + k, ...across));
    const paperAt = (at: number) => levels[at - from] - Math.max(levels[at - from - GAP_REACH], levels[at - from + GAP_REACH]) >= depth / 2;
    const out: [number, number][] = [];
    let start = from;
    for (let at = from + GAP_REACH; at < to - GAP_REACH; at++) {
      if (!paperAt(at)) continue;
      let end = at;
      while (end < to - GAP_REACH && paperAt(end)) end++;
      out.push([start, at]);
      start = end;
      at = end;
    }
    out.push([start, to]);
    return out;
  };
  const rows = spans(true, box.y0, box.y1, [box.x0, box.x1]);
  const columns = spans(false, box.x0, box.x1, [box.y0, box.y1]);
  return rows.flatMap(([y0, y1]) => columns.map(([x0, x1]) => ({ x0, y0, x1, y1 })));
}
