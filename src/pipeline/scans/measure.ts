// Measurements on a scanned page before and after OCR, all on a one-channel picture: which way its
// text lines run, how far they lean, how tall they are, and the ruling lines drawn on it (table
// borders). Written
// here because they are a few loops over pixels that no image library offers as such: projection
// profiles (Baird's method for skew, the classic test for line direction) and long dark runs.
import type { GrayImage } from '../../models/ocr/engine.js';
import type { Segment } from '../page-model.js';

/** A smaller copy, each pixel the mean of the block it covers. */
export function downscale(image: GrayImage, maxSide: number): { image: GrayImage; factor: number } {
  const factor = Math.max(1, Math.ceil(Math.max(image.width, image.height) / maxSide));
  if (factor === 1) return { image, factor };
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const data = new Uint8Array(width * height);
  const area = factor * factor;
  const source = image.data;
  // Block sums of one output row, gathered row by row of the source: reading the picture in its
  // own order is several times faster than walking each block.
  const sums = new Uint32Array(width);
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    for (let dy = 0; dy < factor; dy++) {
      let at = (y * factor + dy) * image.width;
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let dx = 0; dx < factor; dx++) sum += source[at++];
        sums[x] += sum;
      }
    }
    for (let x = 0, row = y * width; x < width; x++) data[row + x] = sums[x] / area;
  }
  return { image: { width, height, data }, factor };
}

/**
 * Otsu's threshold, as the first grey level of paper: pixels below it (`v < otsu(image)`) are
 * ink. Otsu's dark class is [0, t]; returning t + 1 keeps a two-level scan's black (0) as ink.
 */
export function otsu(image: GrayImage): number {
  const histogram = greyHistogram(image.data);
  const total = image.data.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * histogram[i];
  let background = 0;
  let sumBackground = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    background += histogram[t];
    if (background === 0) continue;
    const foreground = total - background;
    if (foreground === 0) break;
    sumBackground += t * histogram[t];
    const meanBackground = sumBackground / background;
    const meanForeground = (sum - sumBackground) / foreground;
    const between = background * foreground * (meanBackground - meanForeground) ** 2;
    if (between > best) {
      best = between;
      threshold = t + 1;
    }
  }
  return threshold;
}

/**
 * Typical height in pixels of the page's text lines (ascenders to descenders), from the runs of
 * pixel rows that hold ink in the horizontal projection profile of an upright page; null when the
 * page shows fewer than three such runs.
 */
export function textLineHeight(image: GrayImage): number | null {
  const threshold = otsu(image);
  const { width, height, data } = image;
  // A row is part of a text line when a little of it is ink: a short line of a receipt counts, a
  // speck of noise does not.
  const minInk = Math.max(2, Math.round(width * 0.005));
  const runs: number[] = [];
  let run = 0;
  for (let y = 0; y <= height; y++) {
    let ink = 0;
    if (y < height) {
      const row = y * width;
      for (let x = 0; x < width && ink < minInk; x++) if (data[row + x] < threshold) ink++;
    }
    if (ink >= minInk) run++;
    else {
      if (run >= 3) runs.push(run);
      run = 0;
    }
  }
  if (runs.length < 3) return null;
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)];
}

/**
 * Whether a picture holds any ink: pixels an eighth of the grey scale darker than its paper (its
 * 90th percentile grey) on at least 1 in 2,000 of its pixels, about one short line of print on a
 * page at 300 dpi. Unlike a threshold over the whole picture, this sees print in the shadowed part
 * of a photograph as ink, and finds none in an empty page's even grain.
 */
export function hasInk(image: GrayImage): boolean {
  const histogram = greyHistogram(image.data);
  const paper = paperLevel(image);
  let dark = 0;
  for (let v = 0; v < paper - 32; v++) dark += histogram[v];
  return dark >= image.data.length / 2000;
}

/** The paper's grey: the level nine pixels in ten are no lighter than. */
export function paperLevel(image: GrayImage): number {
  const histogram = greyHistogram(image.data);
  for (let v = 255, above = 0; v >= 0; v--) {
    above += histogram[v];
    if (above >= image.data.length * 0.1) return v;
  }
  return 255;
}

/**
 * The share of a picture's ink (pixels a quarter of the grey scale darker than its paper) that
 * lies outside every box given, each widened by `margin` pixels: print a reading did not read.
 */
export function unreadInkShare(image: GrayImage, boxes: { x0: number; y0: number; x1: number; y1: number }[], margin: number): number {
  const { width, height, data } = image;
  const ink = paperLevel(image) - 64;
  const covered = new Uint8Array(width * height);
  for (const box of boxes) {
    const x0 = Math.max(0, Math.floor(box.x0 - margin));
    const x1 = Math.min(width, Math.ceil(box.x1 + margin));
    for (let y = Math.max(0, Math.floor(box.y0 - margin)), end = Math.min(height, Math.ceil(box.y1 + margin)); y < end; y++) covered.fill(1, y * width + x0, y * width + x1);
  }
  let all = 0;
  let unread = 0;
  for (let i = 0; i < data.length; i++) {
    if (data[i] >= ink) continue;
    all++;
    if (!covered[i]) unread++;
  }
  return all === 0 ? 0 : unread / all;
}

/**
 * How deep each box's ink goes below the paper: the paper's grey minus the grey that one pixel in
 * twenty of the box is darker than (a word's strokes cover a fifth of its box or more, so this is
 * its ink, not the paper between its letters). Boxes in the picture's pixels.
 */
export function inkDepths(image: GrayImage, boxes: { x0: number; y0: number; x1: number; y1: number }[]): number[] {
  const paper = paperLevel(image);
  const counts = new Uint32Array(256);
  return boxes.map((box) => {
    counts.fill(0);
    const x0 = Math.max(0, Math.floor(box.x0));
    const x1 = Math.min(image.width, Math.ceil(box.x1));
    const y0 = Math.max(0, Math.floor(box.y0));
    const y1 = Math.min(image.height, Math.ceil(box.y1));
    let pixels = 0;
    for (let y = y0; y < y1; y++) for (let i = y * image.width + x0, end = y * image.width + x1; i < end; i++, pixels++) counts[image.data[i]]++;
    if (pixels === 0) return 0;
    for (let v = 0, seen = 0; v < 256; v++) if ((seen += counts[v]) >= pixels / 20) return Math.max(0, paper - v);
    return 0;
  });
}

/**
 * How many pixels have each grey level, kept for the picture's pixels: a page's reading asks for
 * its threshold several times (line height, ruling lines, ink), and each count reads every pixel.
 */
function greyHistogram(data: Uint8Array): Float64Array {
  let histogram = histograms.get(data);
  if (histogram) return histogram;
  // Four counts filled in turn and added up: consecutive pixels of one grey level then do not
  // wait on each other's increment. An indexed loop: iterating the array is several times slower.
  const counts = new Uint32Array(256 * 4);
  const end = data.length - (data.length % 4);
  for (let i = 0; i < end; i += 4) {
    counts[data[i]]++;
    counts[256 + data[i + 1]]++;
    counts[512 + data[i + 2]]++;
    counts[768 + data[i + 3]]++;
  }
  for (let i = end; i < data.length; i++) counts[data[i]]++;
  histogram = new Float64Array(256);
  for (let v = 0; v < 256; v++) histogram[v] = counts[v] + counts[256 + v] + counts[512 + v] + counts[768 + v];
  histograms.set(data, histogram);
  return histogram;
}

const histograms = new WeakMap<Uint8Array, Float64Array>();

/** Ink pixel coordinates (x, y pairs) of a picture: the pixels below the threshold. */
function inkPoints(image: GrayImage, threshold: number): Int32Array {
  const histogram = greyHistogram(image.data);
  let count = 0;
  for (let v = 0; v < threshold && v < 256; v++) count += histogram[v];
  const points = new Int32Array(count * 2);
  const { width, height, data } = image;
  let k = 0;
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      if (data[i] < threshold) {
        points[k++] = x;
        points[k++] = y;
      }
    }
  }
  return points;
}

/**
 * How strongly the ink gathers into bands across one axis: the energy of the projection profile.
 * With `shear`, the position along the axis is taken as `along - across * shear`, which lines up
 * lines that lean by atan(shear).
 */
function bandEnergy(points: Int32Array, length: number, axis: 0 | 1, shear = 0): number {
  const offset = length;
  const profile = new Float64Array(length * 3 + 1);
  for (let i = 0; i < points.length; i += 2) {
    const along = points[i + 1 - axis];
    const across = points[i + axis];
    const position = Math.round(along - across * shear) + offset;
    if (position >= 0 && position < profile.length) profile[position]++;
  }
  // Baird's criterion: the sum of squared bin counts peaks when lines fall into single bins.
  let energy = 0;
  for (let i = 0; i < profile.length; i++) energy += profile[i] * profile[i];
  return energy;
}

/**
 * Whether the page's text lines run up and down (a page scanned or photographed sideways): the
 * ink then gathers into vertical bands rather than horizontal ones.
 */
export function linesRunVertically(image: GrayImage): boolean {
  const { image: small } = downscale(image, 1000);
  const points = inkPoints(small, otsu(small));
  if (points.length < 200) return false;
  const length = Math.max(small.height, small.width);
  const ink = points.length / 2;
  // Each direction at its best lean, so a skewed page is judged by its lines, not by its skew. The
  // energy is taken relative to that of the same ink spread evenly over the page's extent along
  // the axis (ink² / extent): a profile over fewer bins has more energy whatever its banding, so a
  // narrow page (a receipt) would otherwise always look banded across its width.
  const best = (axis: 0 | 1) => {
    let top = 0;
    for (let d = -8; d <= 8; d += 1) top = Math.max(top, bandEnergy(points, length, axis, Math.tan((d * Math.PI) / 180)));
    return (top * (axis === 0 ? small.height : small.width)) / (ink * ink);
  };
  return best(1) > best(0) * 1.1;
}

/**
 * The angle in degrees by which the text lines lean, positive when they descend to the right
 * (turn the picture by its negative to straighten it), found where the row profile of the
 * sheared ink is sharpest, within ±`range` degrees; 0 for too little ink.
 */
export function skewAngle(image: GrayImage, range = 6): number {
  const { image: small } = downscale(image, 1200);
  const points = inkPoints(small, otsu(small));
  if (points.length < 500) return 0;
  const score = (degrees: number) => bandEnergy(points, Math.max(small.height, small.width), 0, Math.tan((degrees * Math.PI) / 180));
  let best = 0;
  let bestScore = score(0);
  for (let d = -range; d <= range; d += 0.5) {
    const s = score(d);
    if (s > bestScore) [best, bestScore] = [d, s];
  }
  for (let d = best - 0.4; d <= best + 0.4; d += 0.1) {
    const s = score(d);
    if (s > bestScore) [best, bestScore] = [d, s];
  }
  return Math.round(best * 10) / 10;
}

/** Skews smaller than this (degrees) are left alone: straightening would blur more than it helps. */
export const MIN_SKEW = 0.3;

/** A table's borders in a picture at `dpi`: at least a centimetre long, at most half a millimetre thick where they are (rulingSegments). */
export function tableRulings(image: GrayImage, dpi: number): Segment[] {
  return rulingSegments(image, Math.round(dpi / 2.54), Math.max(2, Math.round(dpi / 50)));
}

/**
 * Horizontal and vertical ruling lines of a scanned page, as long straight runs of ink: at least
 * `minLength` pixels and at most `maxThickness` thick, plus the pixel lines a rule steps across
 * along its length on a page leaning less than MIN_SKEW, which is not straightened. Runs of
 * neighbouring rows (columns) that overlap join into one line, so a line a few pixels thick or
 * slightly broken is one segment.
 * A thin line drawn between two rows of pixels (at a low resolution, or blurred) leaves part of
 * its ink in each, neither dark enough alone; it is found where the two rows' ink together is,
 * as one row's would be, and added where the rows one by one found no line along all its length.
 */
export function rulingSegments(image: GrayImage, minLength: number, maxThickness: number): Segment[] {
  const threshold = Math.min(otsu(image), 160);
  const along = (axis: 'h' | 'v') => {
    const whole = linesAlong(image, 0, axis, threshold, minLength, maxThickness);
    // A line of a pair of pixel lines sits half a pixel past the first of them.
    const split = linesAlong(sharedInk(image, axis, threshold), 0.5, axis, threshold, minLength, maxThickness);
    const position = (s: Segment): [number, number, number] => (axis === 'h' ? [s.y0, s.x0, s.x1] : [s.x0, s.y0, s.y1]);
    // A line of the pair is new where the lines found one by one beside it leave part of its
    // length uncovered: a faint stretch of a rule, found only in the pair, joins its pieces.
    const wholeAt = whole.map(position);
    const covered = (line: Segment) => {
      const [at, from, to] = position(line);
      const pieces = wholeAt
        .filter(([foundAt, foundFrom, foundTo]) => Math.abs(at - foundAt) <= maxThickness && foundTo > from && foundFrom < to)
        .sort((a, b) => a[1] - b[1]);
      let reached = from;
      for (const [, foundFrom, foundTo] of pieces) {
        if (foundFrom > reached + maxThickness) return false;
        reached = Math.max(reached, foundTo);
      }
      return reached >= to - maxThickness;
    };
    return [...whole, ...split.filter((line) => !covered(line))];
  };
  return [...along('h'), ...along('v')];
}

/** How much lighter than a pair's darker pixel the pixels beside the pair must be (grey levels; above a scan's noise). */
const FLANK = 16;

/**
 * Each pixel's ink together with its neighbour's across lines along `axis` (below it for
 * horizontal lines, right of it for vertical ones), as a grey level: the paper's white less both
 * pixels' darkness, where the pixels on either side of the pair are clearly lighter than its
 * darker one, or ink (where a rule crosses the line). A thin line split between two pixel lines
 * has paper, or its own fainter edge, on both sides; a shaded cell or band, whose pixels are each
 * a little dark, has its own shade, and would otherwise read as ink all over, joining the rules
 * that cross it into one broad run.
 */
function sharedInk(image: GrayImage, axis: 'h' | 'v', threshold: number): GrayImage {
  const { width, height, data } = image;
  const out = new Uint8Array(width * height).fill(255);
  const step = axis === 'h' ? width : 1;
  for (let y = axis === 'h' ? 1 : 0; y < height - (axis === 'h' ? 2 : 0); y++) {
    for (let x = axis === 'v' ? 1 : 0, i = y * width + x; x < width - (axis === 'v' ? 2 : 0); x++, i++) {
      const darker = Math.min(data[i], data[i + step]);
      const apart = (flank: number) => flank > darker + FLANK || flank < threshold;
      if (apart(data[i - step]) && apart(data[i + 2 * step])) out[i] = Math.max(0, data[i] + data[i + step] - 255);
    }
  }
  return { width, height, data: out };
}

/**
 * The ruling lines along `axis`: runs of pixels of `runsIn` (the picture, or its pixels' ink
 * shared with their neighbours) darker than `threshold`, with the pixels three beside them mostly
 * light in the same terms (a dark stretch of the picture, its edge in a shadow, is dark there);
 * each line's position moved by `offset` pixels across it.
 */
function linesAlong(runsIn: GrayImage, offset: number, axis: 'h' | 'v', threshold: number, minLength: number, maxThickness: number): Segment[] {
  const { width, height, data } = runsIn;
  const out: Segment[] = [];
  const dark = (x: number, y: number) => data[y * width + x] < threshold;
  const found = axis === 'h' ? rowRuns(runsIn, threshold, minLength) : columnRuns(runsIn, threshold, minLength);
  const lines = axis === 'h' ? height : width;
  // Open runs from the previous line, to be extended by overlapping runs of this one.
  let open: { from: number; to: number; first: number; last: number }[] = [];
  // A ruling is a thin line on paper: the pixels just beside it are mostly light (in a photo or
  // a block of dark print long runs of ink have ink beside them too).
  const lightBeside = (run: { from: number; to: number; first: number; last: number }) => {
    let light = 0;
    let total = 0;
    for (const line of [run.first - 3, run.last + 3]) {
      if (line < 0 || line >= lines) continue;
      for (let i = run.from; i <= run.to; i += 2) {
        total++;
        if (!(axis === 'h' ? dark(i, line) : dark(line, i))) light++;
      }
    }
    return total > 0 && light >= total * 0.75;
  };
  // A page left unstraightened may still lean by up to MIN_SKEW: a long rule then steps across
  // pixel lines along its length, thin wherever it is but spanning more of them end to end.
  const lean = Math.tan((MIN_SKEW * Math.PI) / 180);
  const close = (run: { from: number; to: number; first: number; last: number }) => {
    if (run.last - run.first + 1 > maxThickness + (run.to - run.from) * lean || !lightBeside(run)) return;
    const at = (run.first + run.last) / 2 + offset;
    out.push(axis === 'h' ? { x0: run.from, y0: at, x1: run.to, y1: at } : { x0: at, y0: run.from, x1: at, y1: run.to });
  };
  for (let line = 0; line < lines; line++) {
    const runs = found[line];
    if (!runs && open.length === 0) continue;
    const next: typeof open = [];
    for (const run of runs ?? []) {
      const joined = open.find((o) => Math.min(o.to, run.to) - Math.max(o.from, run.from) > minLength * 0.5);
      if (joined) {
        joined.from = Math.min(joined.from, run.from);
        joined.to = Math.max(joined.to, run.to);
        joined.last = line;
        next.push(joined);
        open = open.filter((o) => o !== joined);
      } else next.push({ ...run, first: line, last: line });
    }
    for (const run of open) close(run);
    open = next;
  }
  for (const run of open) close(run);
  return out;
}

interface Run {
  from: number;
  to: number;
}

/**
 * The runs of ink at least `minLength` long in each pixel row (by row number; rows without any
 * are absent). A gap of up to two pixels does not break a run (scan noise).
 */
function rowRuns(image: GrayImage, threshold: number, minLength: number): Run[][] {
  const { width, height, data } = image;
  const byRow: Run[][] = [];
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let start = -1;
    let gap = 0;
    for (let x = 0; x <= width; x++) {
      if (x < width && data[row + x] < threshold) {
        if (start < 0) start = x;
        gap = 0;
      } else if (start >= 0 && ++gap > 2) {
        const end = x - gap;
        if (end - start + 1 >= minLength) (byRow[y] ??= []).push({ from: start, to: end });
        start = -1;
        gap = 0;
      }
    }
  }
  return byRow;
}

/**
 * The same runs down each pixel column, found in one pass over the rows with every column's run
 * kept open at once: walking down a column pixel by pixel reads memory out of order and cost
 * several times as much on a 300 dpi page.
 */
function columnRuns(image: GrayImage, threshold: number, minLength: number): Run[][] {
  const { width, height, data } = image;
  const byColumn: Run[][] = [];
  // One step past the last row, as a walk down a column takes, ends the runs already followed by
  // a gap; as there, a run reaching the bottom edge is not kept.
  const start = new Int32Array(width).fill(-1);
  const gap = new Int32Array(width);
  for (let y = 0; y <= height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (y < height && data[row + x] < threshold) {
        if (start[x] < 0) start[x] = y;
        gap[x] = 0;
      } else if (start[x] >= 0 && ++gap[x] > 2) {
        const end = y - gap[x];
        if (end - start[x] + 1 >= minLength) (byColumn[x] ??= []).push({ from: start[x], to: end });
        start[x] = -1;
        gap[x] = 0;
      }
    }
  }
  return byColumn;
}
