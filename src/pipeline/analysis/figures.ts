// Figures on a page: embedded raster images, and drawings made of vector paths (charts, plots,
// diagrams). A drawing is a cluster of nearby paths holding curves, diagonals or filled shapes;
// plain rulings alone are left to table detection. The words set on or next to a drawing's paths
// or over a picture (axis labels, legends, the labels set on a photo) belong to the figure, not to
// the running text, except words on a band less than three of their sizes tall (a panel behind a
// heading); a picture with running text over it, or covering most of the page, is the page's
// background (a scanned page's text layer lies over its image) and its words stay text.
import { HEADING_SIZE } from './document-stats.js';
import { CAPTION_START } from './markers.js';
import { boxArea, unionBox, verticalOverlap, type Box, type PageGraphics, type Word } from '../page-model.js';

export interface FoundFigure {
  box: Box;
  kind: 'image' | 'drawing';
  /** A picture under the page's text (a scan under its text layer, a full-page backdrop): no figure of the text. */
  background?: boolean;
}

export interface FoundFigures {
  figures: FoundFigure[];
  /** Words that belong to drawings. */
  words: Set<number>;
  /** The page's graphics without the paths that make up drawings. */
  rest: PageGraphics;
}

/** Paths closer than this many points belong to one drawing. */
const LINK = 6;
/** Paths in one grid cell beyond which the cell counts as one dense drawing. */
const DENSE = 48;
/** A cluster needs this many curves, diagonals or filled shapes to be a drawing. */
const MIN_SHAPES = 3;
/** Share of the page from which a picture with words over it is the page's own backdrop (a scan). */
const BACKDROP_SHARE = 0.5;
/** A picture with words over it less tall than this many of their font sizes is a banner behind a line of text, not a picture with labels. */
const BANNER_SIZES = 3;
/** A word within this many of its font sizes of a drawing's path, or of one of its labels, can be one of its labels (a tick's figure under its axis). */
const LABEL_REACH = 1;

/**
 * `scale` is the page's units per point (pixels of a scan); `bodySize` the document's running-text
 * size: type set at a heading's size just outside a drawing is a title or heading set near it (under
 * a masthead, beside a logo), never a label the drawing reaches out for.
 */
export function findFigures(words: Word[], graphics: PageGraphics, width: number, height: number, { scale = 1, bodySize = Number.POSITIVE_INFINITY }: { scale?: number; bodySize?: number } = {}): FoundFigures {
  const link = LINK * scale;
  const labelSized = (i: number) => words[i].fontSize < bodySize * HEADING_SIZE;
  const usedShapes = new Set<number>();
  const usedSegments = new Set<number>();
  const usedRects = new Set<number>();
  const claimed = new Set<number>();
  const pageArea = width * height;
  const indexOf = new Map(words.map((w, i) => [w, i]));
  const runOf = textRuns(words, indexOf);
  const figures: FoundFigure[] = graphics.images.map((box) => picture(box, words, pageArea, claimed, runOf));
  // Paths that touch or nearly touch are one drawing: shapes, and the rulings and boxes among them
  // (axes, grid lines, frames).
  const boxes = [...graphics.shapes, ...graphics.segments, ...graphics.rects.map((r) => r.box)];
  const firstSegment = graphics.shapes.length;
  const firstRect = firstSegment + graphics.segments.length;
  for (const members of cluster(boxes, link)) {
    // Specks (joints of rulings, dots) say nothing; shapes of some size do.
    const shapes = members.filter((m) => m < firstSegment && Math.max(boxes[m].x1 - boxes[m].x0, boxes[m].y1 - boxes[m].y0) >= 4 * scale);
    const segments = members.filter((m) => m >= firstSegment && m < firstRect).map((m) => m - firstSegment);
    const rects = members.filter((m) => m >= firstRect).map((m) => m - firstRect);
    // A plot may hold a single curve, but then it has axes with tick marks.
    const ticks = segments.filter((i) => {
      const s = graphics.segments[i];
      return Math.max(s.x1 - s.x0, s.y1 - s.y0) <= 6 * scale;
    }).length;
    // Shapes make a drawing; else framed boxes joined by lines may (asked only then: it costs more).
    const drawn =
      shapes.length >= MIN_SHAPES ||
      (shapes.length >= 1 && ticks >= 4) ||
      joinedBoxes(
        // Framed boxes: a shaded band is a table's row, a speck a ruling's joint.
        rects.filter((i) => graphics.rects[i].stroked).map((i) => graphics.rects[i].box).filter((r) => Math.min(r.x1 - r.x0, r.y1 - r.y0) >= 4 * scale),
        [...segments.map((i) => graphics.segments[i] as Box), ...shapes.map((m) => boxes[m])],
        link,
      );
    if (!drawn) continue;
    let box = unionBox(members.map((m) => boxes[m]));
    // Page-wide decoration (a frame, a background) is not a figure.
    if (boxArea(box) > pageArea * 0.85 || boxArea(box) < pageArea * 0.001) continue;
    // A region holding lines of prose (a callout box with rounded corners, a formula with a
    // drawn brace) is not a drawing.
    if (proseRows(words, wordsIn(words, box, 0)) >= 2) continue;
    // Its labels are the words set on or next to what it draws: within LABEL_REACH of one of its
    // paths or of a path lying at it (a bracket, a tick too small to join it), not every word its
    // box takes in (a rule across a masthead reaches over the text beside it). A word on a band
    // hardly taller than itself is text set on a panel, not a label. Labels stack outwards from
    // there (an axis's name past its ticks', a diagram's letter beside another).
    const own = new Set(members);
    const marks = new BoxIndex(link * 4);
    // The paths, and the labels found so far.
    const reached = new BoxIndex(link * 4);
    const taken = new Set<number>();
    const takeMarks = () => {
      const around = grownBox(box, link);
      boxes.forEach((b, k) => {
        if (!taken.has(k) && (own.has(k) || containsBox(around, b))) {
          taken.add(k);
          marks.add(b);
          reached.add(b);
        }
      });
    };
    takeMarks();
    const onBand = (i: number) => marks.some(words[i].box, 0, (m) => centreIn(words[i].box, m) && isBand(m, words[i], () => runOf(i)));
    const labels = new Set<number>();
    // A label of several words ("(b) 1-Simplex Δ1") is one: its words go with it.
    const addLabel = (i: number) => {
      const run = runOf(i);
      for (const k of isLabel(run) ? [i, ...run.map((w) => indexOf.get(w)!)] : [i]) {
        if (labels.has(k)) continue;
        labels.add(k);
        reached.add(words[k].box);
      }
    };
    const reaches = (i: number, index: BoxIndex) => index.some(words[i].box, words[i].fontSize * LABEL_REACH, (m) => gap(m, words[i].box) <= words[i].fontSize * LABEL_REACH);
    for (const i of wordsIn(words, box, 0)) if (!claimed.has(i) && !onBand(i) && reaches(i, marks)) addLabel(i);
    // The words of a line of running text set close under or beside it (its caption) are no
    // labels, nor a heading's.
    for (let pass = 0; pass < 2; pass++) {
      const near = [...wordsIn(words, box, -1), ...wordsIn(words, box, 0)].filter((i) => !labels.has(i) && !claimed.has(i) && labelSized(i) && !onBand(i) && reaches(i, reached) && isLabel(runOf(i)));
      if (near.length === 0) break;
      for (const i of near) addLabel(i);
      box = unionBox([box, ...[...labels].map((i) => words[i].box)]);
      takeMarks();
    }
    for (const i of labels) claimed.add(i);
    for (const m of shapes) usedShapes.add(m);
    for (const i of segments) usedSegments.add(i);
    for (const i of rects) usedRects.add(i);
    figures.push({ box, kind: 'drawing' });
  }
  const rest: PageGraphics = {
    // What else the graphics say of themselves (rulingsFromPicture) holds for the rest too.
    ...graphics,
    segments: graphics.segments.filter((_, i) => !usedSegments.has(i)),
    rects: graphics.rects.filter((_, i) => !usedRects.has(i)),
    shapes: graphics.shapes.filter((_, i) => !usedShapes.has(i)),
    images: graphics.images,
  };
  return { figures: mergeNested(figures), words: claimed, rest };
}

/**
 * An embedded picture, and the words over it that are its labels (claimed): the short runs set
 * wholly on it, not a caption's line nor running text. With running text over it (two rows of prose), or
 * covering half the page, it is the page's background and its words stay text; a picture hardly
 * taller than the text over it is a banner behind a heading, whose words stay text too.
 */
function picture(box: Box, words: Word[], pageArea: number, claimed: Set<number>, runOf: (i: number) => Word[]): FoundFigure {
  const over = wordsIn(words, box, 0);
  if (over.length === 0) return { box, kind: 'image' };
  if (boxArea(box) >= pageArea * BACKDROP_SHARE || proseRows(words, over) >= 2) return { box, kind: 'image', background: true };
  const sizes = over.map((i) => words[i].fontSize).sort((a, b) => a - b);
  if (box.y1 - box.y0 < sizes[sizes.length >> 1] * BANNER_SIZES) return { box, kind: 'image' };
  // A run that reaches off the picture is text set across it, not one of its labels.
  const on = new Set(over.map((i) => words[i]));
  for (const i of over) {
    const run = runOf(i);
    if (isLabel(run) && run.every((w) => on.has(w))) claimed.add(i);
  }
  return { box, kind: 'image' };
}

/**
 * Whether framed boxes stand apart from one another, joined by lines: a diagram of boxes and
 * connectors (a flow chart, a block diagram). The cells of a table touch their neighbours; boxes
 * merely set close together (a form's fields) have no line between them.
 */
function joinedBoxes(rects: Box[], connectors: Box[], link: number): boolean {
  if (rects.length < 2) return false;
  for (let i = 0; i < rects.length; i++) {
    for (let j = i + 1; j < rects.length; j++) if (near(rects[i], rects[j], 1)) return false;
  }
  // Pieces of one connector (a line and its arrowhead) touch one another.
  const lines = connectors.filter((c) => !rects.some((r) => contains(r, c)));
  const parent = lines.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < lines.length; i++) for (let j = i + 1; j < lines.length; j++) if (near(lines[i], lines[j], 1)) parent[find(i)] = find(j);
  const ends = new Map<number, Set<number>>();
  lines.forEach((line, i) => {
    const set = ends.get(find(i)) ?? new Set<number>();
    rects.forEach((r, k) => {
      if (near(r, line, link)) set.add(k);
    });
    ends.set(find(i), set);
  });
  return [...ends.values()].some((set) => set.size >= 2);
}

function contains(outer: Box, inner: Box): boolean {
  return inner.x0 >= outer.x0 && inner.x1 <= outer.x1 && inner.y0 >= outer.y0 && inner.y1 <= outer.y1;
}

/**
 * Words in a box: with margin 0 those whose centre is inside; with margin -1 those within one of
 * their own font sizes of it but not inside.
 */
function wordsIn(words: Word[], box: Box, margin: 0 | -1): number[] {
  const out: number[] = [];
  words.forEach((w, i) => {
    const cx = (w.box.x0 + w.box.x1) / 2;
    const cy = (w.box.y0 + w.box.y1) / 2;
    const inside = cx >= box.x0 && cx <= box.x1 && cy >= box.y0 && cy <= box.y1;
    if (margin === 0) {
      if (inside) out.push(i);
      return;
    }
    const m = w.fontSize;
    const near = w.box.x1 >= box.x0 - m && w.box.x0 <= box.x1 + m && w.box.y1 >= box.y0 - m && w.box.y0 <= box.y1 + m;
    if (near && !inside) out.push(i);
  });
  return out;
}

/** How far apart two boxes stand, across or up and down, whichever is more (0 when they touch or overlap). */
function gap(a: Box, b: Box): number {
  return Math.max(a.x0 - b.x1, b.x0 - a.x1, a.y0 - b.y1, b.y0 - a.y1, 0);
}

function grownBox(box: Box, by: number): Box {
  return { x0: box.x0 - by, y0: box.y0 - by, x1: box.x1 + by, y1: box.y1 + by };
}

function containsBox(outer: Box, inner: Box): boolean {
  return inner.x0 >= outer.x0 && inner.x1 <= outer.x1 && inner.y0 >= outer.y0 && inner.y1 <= outer.y1;
}

/** Boxes bucketed on a grid, to ask which come near a box without testing every one (a dense plot holds thousands of paths and labels). */
class BoxIndex {
  private readonly cells = new Map<string, Box[]>();
  constructor(private readonly cell: number) {}

  add(box: Box): void {
    this.each(box, 0, (key) => {
      const list = this.cells.get(key);
      if (list) list.push(box);
      else this.cells.set(key, [box]);
    });
  }

  /** Whether a box within `reach` of `box` passes `test`. */
  some(box: Box, reach: number, test: (m: Box) => boolean): boolean {
    let found = false;
    this.each(box, reach, (key) => {
      if (!found) found = this.cells.get(key)?.some(test) ?? false;
    });
    return found;
  }

  private each(box: Box, reach: number, visit: (key: string) => void): void {
    const x0 = Math.floor((box.x0 - reach) / this.cell);
    const x1 = Math.floor((box.x1 + reach) / this.cell);
    const y0 = Math.floor((box.y0 - reach) / this.cell);
    const y1 = Math.floor((box.y1 + reach) / this.cell);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) visit(`${x},${y}`);
  }
}

/**
 * Whether a drawn shape is a band behind the line of text `run` (a panel behind a heading, a badge
 * behind a number): twice as wide as tall or more, less tall than BANNER_SIZES of the word's font
 * sizes, and filled by the text but for a margin about its height at each side. A square or a ball
 * of a diagram with a letter in it, or a long bar with a value on it, is not.
 */
function isBand(shape: Box, word: Word, runOf: () => Word[]): boolean {
  const height = shape.y1 - shape.y0;
  const width = shape.x1 - shape.x0;
  if (height >= word.fontSize * BANNER_SIZES || width < 2 * height) return false;
  const run = runOf();
  const runWidth = Math.max(...run.map((w) => w.box.x1)) - Math.min(...run.map((w) => w.box.x0));
  return width <= runWidth + 2 * height;
}

function centreIn(box: Box, outer: Box): boolean {
  const cx = (box.x0 + box.x1) / 2;
  const cy = (box.y0 + box.y1) / 2;
  return cx >= outer.x0 && cx <= outer.x1 && cy >= outer.y0 && cy <= outer.y1;
}

/** Rows of at least six words set as running text (word gaps under half a font size). */
function proseRows(words: Word[], inside: number[]): number {
  const sorted = [...inside].sort((a, b) => words[a].box.y0 - words[b].box.y0 || words[a].box.x0 - words[b].box.x0);
  const rows: number[][] = [];
  for (const i of sorted) {
    const row = rows.find((r) => verticalOverlap(words[r[0]].box, words[i].box) > 0.5);
    if (row) row.push(i);
    else rows.push([i]);
  }
  let prose = 0;
  for (const row of rows) {
    row.sort((a, b) => words[a].box.x0 - words[b].box.x0);
    let run = 1;
    let longest = 1;
    for (let k = 1; k < row.length; k++) {
      const gap = words[row[k]].box.x0 - words[row[k - 1]].box.x1;
      run = gap >= 0 && gap < words[row[k]].fontSize * 0.5 ? run + 1 : 1;
      longest = Math.max(longest, run);
    }
    if (longest >= 6) prose++;
  }
  return prose;
}

/**
 * Whether the run of text a word stands in can be a drawing's label: not running text (six words
 * or more) and not a figure caption's line ("Abbildung 2.9: Beispiele für Graphen"), however short.
 */
function isLabel(run: Word[]): boolean {
  if (run.length >= 6) return false;
  return !(run.length >= 2 && /^\d/.test(run[1].text) && CAPTION_START.test(`${run[0].text} ${run[1].text}`));
}

/**
 * The words set as running text with each word on its line (word gaps under 0.6 font sizes: a
 * list label's gap too), left to right: asked of one word, kept for all of its run.
 */
function textRuns(words: Word[], indexOf: Map<Word, number>): (index: number) => Word[] {
  const runs = new Map<number, Word[]>();
  const byTop = words.map((_, i) => i).sort((a, b) => words[a].box.y0 - words[b].box.y0);
  const tallest = Math.max(0, ...words.map((w) => w.box.y1 - w.box.y0));
  const joined = (a: Word, b: Word) => {
    const gap = b.box.x0 - a.box.x1;
    return gap > -b.fontSize * 0.25 && gap < b.fontSize * 0.6;
  };
  return (index) => {
    const known = runs.get(index);
    if (known) return known;
    const word = words[index];
    // The words whose tops lie within the tallest word's height above this one's, and no lower than its foot.
    let lo = 0;
    let hi = byTop.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (words[byTop[mid]].box.y0 < word.box.y0 - tallest) lo = mid + 1;
      else hi = mid;
    }
    const row: Word[] = [];
    for (let k = lo; k < byTop.length && words[byTop[k]].box.y0 <= word.box.y1; k++) {
      const other = words[byTop[k]];
      if (verticalOverlap(other.box, word.box) > 0.5) row.push(other);
    }
    row.sort((a, b) => a.box.x0 - b.box.x0);
    const at = row.indexOf(word);
    let start = at;
    let end = at;
    while (start > 0 && joined(row[start - 1], row[start])) start--;
    while (end + 1 < row.length && joined(row[end], row[end + 1])) end++;
    const run = row.slice(start, end + 1);
    for (const w of run) runs.set(indexOf.get(w)!, run);
    return run;
  };
}

/** Groups boxes that come within `link` of one another (single linkage, grid-bucketed). */
function cluster(boxes: Box[], link: number): number[][] {
  const parent = boxes.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const cell = Math.max(link * 4, 24);
  const buckets = new Map<string, number[]>();
  boxes.forEach((b, i) => {
    const gx0 = Math.floor((b.x0 - link) / cell);
    const gx1 = Math.floor((b.x1 + link) / cell);
    const gy0 = Math.floor((b.y0 - link) / cell);
    const gy1 = Math.floor((b.y1 + link) / cell);
    // Very long rulings touch everything; they join clusters only through their ends.
    if ((gx1 - gx0 + 1) * (gy1 - gy0 + 1) > 400) return;
    for (let gx = gx0; gx <= gx1; gx++) {
      for (let gy = gy0; gy <= gy1; gy++) {
        const key = `${gx},${gy}`;
        const list = buckets.get(key);
        if (list) {
          // A crowded cell (a dense plot) is one drawing: join its first path instead of testing
          // every pair, which would cost the square of the paths in it.
          if (list.length >= DENSE) parent[find(i)] = find(list[0]);
          else for (const j of list) if (find(i) !== find(j) && near(b, boxes[j], link)) parent[find(i)] = find(j);
          list.push(i);
        } else buckets.set(key, [i]);
      }
    }
  });
  const groups = new Map<number, number[]>();
  boxes.forEach((_, i) => {
    const root = find(i);
    const list = groups.get(root);
    if (list) list.push(i);
    else groups.set(root, [i]);
  });
  return [...groups.values()];
}

function near(a: Box, b: Box, link: number): boolean {
  return a.x0 - link <= b.x1 && b.x0 - link <= a.x1 && a.y0 - link <= b.y1 && b.y0 - link <= a.y1;
}

/** A figure inside another is part of it. */
function mergeNested(figures: FoundFigure[]): FoundFigure[] {
  return figures.filter(
    (f, i) =>
      !figures.some(
        (g, j) => j !== i && g.box.x0 <= f.box.x0 + 0.5 && g.box.y0 <= f.box.y0 + 0.5 && g.box.x1 >= f.box.x1 - 0.5 && g.box.y1 >= f.box.y1 - 0.5 && (boxArea(g.box) > boxArea(f.box) || j < i),
      ),
  );
}
