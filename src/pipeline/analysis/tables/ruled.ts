// Tables whose cells are drawn: horizontal and vertical rulings (stroked lines, thin bars, the
// edges of boxes and of coloured cell backgrounds) that cross each other form a grid; a missing
// ruling between two neighbouring grid positions merges them into one cell. A table that rules
// only its rows but draws each cell's border or background apart has column borders where the
// pieces meet (jointBorders). Two grids drawn one straight under the other are two tables where
// no inner column border runs on from one into the other (atSeams).
import type { Box, PageGraphics, Rect, Segment } from '../../page-model.js';
import type { CellRegion, GridTable } from './grid.js';

/** Positions closer than this (points or pixels at 72 dpi) are one ruling. */
const SNAP = 2;
/** A ruling must run this far across a cell side to close it. */
const COVERAGE = 0.6;
/** Joined rulings shorter than this are glyph decoration or tick marks, not cell sides. */
const MIN_LENGTH = 8;

export interface Rulings {
  horizontal: Segment[];
  vertical: Segment[];
}

/**
 * All rulings of a page, straightened and joined where collinear pieces touch, with the column
 * borders that rules drawn cell by cell imply (see jointBorders; `words` keeps them out of text).
 * Rulings found in a scan's picture imply none: a rule read from pixels breaks wherever noise, a
 * faint stretch or a shaded row's edge breaks it, not where a cell ends.
 */
export function pageRulings(graphics: PageGraphics, scale = 1, words: Box[] = []): Rulings {
  const horizontal: Segment[] = [];
  const vertical: Segment[] = [];
  const add = (s: Segment) => {
    if (s.y0 === s.y1 && s.x1 > s.x0) horizontal.push({ ...s });
    else if (s.x0 === s.x1 && s.y1 > s.y0) vertical.push({ ...s });
  };
  for (const s of graphics.segments) add(s);
  const fills = graphics.rects.filter((r) => r.filled && !r.stroked);
  for (const rect of graphics.rects) {
    const b = rect.box;
    const edges: [Segment, 'top' | 'bottom' | 'left' | 'right'][] = [
      [{ x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y0 }, 'top'],
      [{ x0: b.x0, y0: b.y1, x1: b.x1, y1: b.y1 }, 'bottom'],
      [{ x0: b.x0, y0: b.y0, x1: b.x0, y1: b.y1 }, 'left'],
      [{ x0: b.x1, y0: b.y0, x1: b.x1, y1: b.y1 }, 'right'],
    ];
    for (const [edge, side] of edges) {
      // Office producers paint one cell's background as several touching pieces (padding, text
      // area); an edge between two pieces of the same colour is not a visible border. Fills found
      // in a picture meet only where a line of paper or a change of tint parted them: a border.
      if (!rect.stroked && !graphics.rulingsFromPicture && hiddenEdge(edge, side, rect.fill, fills, scale)) continue;
      add(edge);
    }
  }
  // Tick marks, bullets and underlines of single letters are shorter than any cell side.
  const min = MIN_LENGTH * scale;
  // The table's own column lines, not the edges of cell fills (Office producers paint a row's
  // background in pieces whose edges need not be cell borders).
  const lines = [
    ...graphics.segments.filter((s) => s.x0 === s.x1 && s.y1 > s.y0),
    ...graphics.rects.filter((r) => r.stroked).flatMap(({ box: b }) => [b.x0, b.x1].map((x) => ({ x0: x, y0: b.y0, x1: x, y1: b.y1 }))),
  ];
  const borders = graphics.rulingsFromPicture ? [] : jointBorders(horizontal, lines, SNAP * scale, min, words);
  return {
    horizontal: join(horizontal, 'h', SNAP * scale).filter((s) => s.x1 - s.x0 >= min),
    vertical: join([...vertical, ...borders], 'v', SNAP * scale).filter((s) => s.y1 - s.y0 >= min),
  };
}

/**
 * Column borders of a table that rules its rows but not its columns, where it draws each cell's
 * border (or background) apart, as browsers and word processors do: pieces of a horizontal rule
 * that meet end to end mark where one cell ends and the next begins. Two rules of one table run
 * across the same width and break at the same borders (a rule over spanning cells at some of
 * them); between two such rules, each shared joint is a column border wherever it cuts no word,
 * unless the table rules that column's border itself (`drawn` lines) down most of its height but
 * not between these two: there it left the border out on purpose, for a cell spanning it. Rules
 * of two tables, one above the other, differ in width or in their joints, and stay apart.
 */
function jointBorders(pieces: Segment[], drawn: Segment[], snap: number, min: number, words: Box[]): Segment[] {
  const rules: { y: number; x0: number; x1: number; joints: number[] }[] = [];
  const sorted = pieces.filter((p) => p.x1 - p.x0 >= min).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  let start = 0;
  while (start < sorted.length) {
    let end = start + 1;
    while (end < sorted.length && sorted[end].y0 - sorted[start].y0 <= snap) end++;
    const line = sorted.slice(start, end).sort((a, b) => a.x0 - b.x0);
    // Each chain of pieces touching, overlapping or parted by a gutter narrower than any cell
    // (cell backgrounds set a little apart, as TeX's colortbl leaves them in a table stretched to
    // the line) is one rule; a joint is where one piece ends and another begins, inside the rule
    // (a rule drawn over the pieces leaves their joints), in the middle of the gutter between them.
    let chain = [line[0]];
    let reach = line[0].x1;
    const close = () => {
      const joints = positions(
        chain
          .filter((a) => a.x1 < reach - snap)
          .flatMap((a) => {
            const next = chain.find((b) => b !== a && b.x0 >= a.x1 - snap && b.x0 <= a.x1 + min);
            return next ? [next.x0 > a.x1 + snap ? (a.x1 + next.x0) / 2 : a.x1] : [];
          }),
        snap,
      );
      if (joints.length) rules.push({ y: chain[0].y0, x0: chain[0].x0, x1: reach, joints });
    };
    for (const piece of line.slice(1)) {
      if (piece.x0 > reach + min) {
        close();
        chain = [piece];
        reach = piece.x1;
      } else {
        chain.push(piece);
        reach = Math.max(reach, piece.x1);
      }
    }
    close();
    start = end;
  }
  const near = (a: number, b: number) => Math.abs(a - b) <= snap;
  const sameTable = (a: (typeof rules)[number], b: (typeof rules)[number]) => {
    if (!near(a.x0, b.x0) || !near(a.x1, b.x1)) return false;
    const [fewer, more] = a.joints.length <= b.joints.length ? [a, b] : [b, a];
    return fewer.joints.every((j) => more.joints.some((k) => near(j, k)));
  };
  // A word cuts a border that crosses it over half its height (a caption's descenders may touch
  // the table's top rule).
  const cuts = (x: number, y0: number, y1: number) => words.some((w) => w.x0 < x && w.x1 > x && Math.min(w.y1, y1) - Math.max(w.y0, y0) > (w.y1 - w.y0) / 2);
  const borders: Segment[] = [];
  rules.forEach((upper, i) => {
    // The next rule below of the same table; the borders run between the two.
    const lower = rules.slice(i + 1).find((r) => r.y > upper.y + snap && sameTable(upper, r));
    if (!lower) return;
    const table = rules.filter((r) => sameTable(upper, r)).map((r) => r.y);
    const [top, bottom] = [Math.min(...table), Math.max(...table)];
    // How much of [from, to] the table's own borders at x cover.
    const drawnAt = (x: number, from: number, to: number) => drawn.filter((v) => near(v.x0, x)).reduce((sum, v) => sum + Math.max(0, Math.min(v.y1, to) - Math.max(v.y0, from)), 0);
    const leftOut = (x: number, from: number, to: number) => drawnAt(x, top, bottom) >= (bottom - top) / 2 && drawnAt(x, from, to) <= snap;
    for (const x of upper.joints) {
      if (!lower.joints.some((j) => near(j, x))) continue;
      // Rules between the two that cross the joint (under a header, from the second column on)
      // part the border into pieces, each kept where it cuts no word: a header cell spanning the
      // joint above such a rule leaves the body's border below it.
      const between = sorted.filter((p) => p.y0 > upper.y + snap && p.y0 < lower.y - snap && p.x0 <= x + snap && p.x1 >= x - snap).map((p) => p.y0);
      const ys = [upper.y, ...positions(between, snap), lower.y];
      for (let k = 0; k + 1 < ys.length; k++) if (!cuts(x, ys[k], ys[k + 1]) && !leftOut(x, ys[k], ys[k + 1])) borders.push({ x0: x, y0: ys[k], x1: x, y1: ys[k + 1] });
    }
  });
  return borders;
}

function hiddenEdge(edge: Segment, side: 'top' | 'bottom' | 'left' | 'right', fill: number | null, fills: Rect[], scale: number): boolean {
  const touch = 0.6 * scale;
  const horizontal = side === 'top' || side === 'bottom';
  const length = horizontal ? edge.x1 - edge.x0 : edge.y1 - edge.y0;
  if (length <= 0) return false;
  let covered = 0;
  for (const other of fills) {
    if (other.fill !== fill) continue;
    const o = other.box;
    const facing =
      side === 'top' ? Math.abs(o.y1 - edge.y0) <= touch : side === 'bottom' ? Math.abs(o.y0 - edge.y0) <= touch : side === 'left' ? Math.abs(o.x1 - edge.x0) <= touch : Math.abs(o.x0 - edge.x0) <= touch;
    if (!facing) continue;
    const from = horizontal ? Math.max(edge.x0, o.x0) : Math.max(edge.y0, o.y0);
    const to = horizontal ? Math.min(edge.x1, o.x1) : Math.min(edge.y1, o.y1);
    if (to > from) covered += to - from;
  }
  return covered >= length * 0.8;
}

/** Collinear rulings (within `snap`) that overlap or nearly touch become one. */
function join(segments: Segment[], axis: 'h' | 'v', snap: number): Segment[] {
  const at = (s: Segment) => (axis === 'h' ? s.y0 : s.x0);
  const from = (s: Segment) => (axis === 'h' ? s.x0 : s.y0);
  const to = (s: Segment) => (axis === 'h' ? s.x1 : s.y1);
  const sorted = [...segments].sort((a, b) => at(a) - at(b));
  const out: Segment[] = [];
  let group: Segment[] = [];
  const flush = () => {
    if (group.length === 0) return;
    // Where the group runs, weighted by length: a long ruling, not the slivers beside it.
    const length = (s: Segment) => Math.max(to(s) - from(s), 0.01);
    const position = group.reduce((sum, s) => sum + at(s) * length(s), 0) / group.reduce((sum, s) => sum + length(s), 0);
    group.sort((a, b) => from(a) - from(b));
    let start = from(group[0]);
    let end = to(group[0]);
    const emit = () => out.push(axis === 'h' ? { x0: start, y0: position, x1: end, y1: position } : { x0: position, y0: start, x1: position, y1: end });
    for (const s of group.slice(1)) {
      if (from(s) <= end + snap) end = Math.max(end, to(s));
      else {
        emit();
        start = from(s);
        end = to(s);
      }
    }
    emit();
    group = [];
  };
  // A group holds the rulings within `snap` of its first: chaining each to the one before would
  // let a row of dots (a dotted leader drawn as many slivers) join rulings far apart into one.
  for (const s of sorted) {
    if (group.length > 0 && at(s) - at(group[0]) > snap) flush();
    group.push(s);
  }
  flush();
  return out;
}

function crosses(h: Segment, v: Segment, tolerance: number): boolean {
  return v.x0 >= h.x0 - tolerance && v.x0 <= h.x1 + tolerance && h.y0 >= v.y0 - tolerance && h.y0 <= v.y1 + tolerance;
}

/** Groups of rulings that cross one another, each a candidate table frame. */
function frames(rulings: Rulings, tolerance: number): Rulings[] {
  const { horizontal, vertical } = rulings;
  const parent = [...horizontal, ...vertical].map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  horizontal.forEach((h, i) => {
    vertical.forEach((v, j) => {
      if (crosses(h, v, tolerance)) parent[find(i)] = find(horizontal.length + j);
    });
  });
  const groups = new Map<number, Rulings>();
  horizontal.forEach((h, i) => {
    const root = find(i);
    if (!groups.has(root)) groups.set(root, { horizontal: [], vertical: [] });
    groups.get(root)!.horizontal.push(h);
  });
  vertical.forEach((v, j) => {
    const root = find(horizontal.length + j);
    if (!groups.has(root)) groups.set(root, { horizontal: [], vertical: [] });
    groups.get(root)!.vertical.push(v);
  });
  // One vertical ruling makes a frame of a table of two columns ruled across (above, under its
  // header, below), with three rules or more running past it on both sides; an axis that rules
  // start from, as a plot's grid lines do, makes none.
  const across = (g: Rulings) => g.horizontal.filter((h) => h.x0 < g.vertical[0].x0 - tolerance && h.x1 > g.vertical[0].x0 + tolerance).length;
  return [...groups.values()].flatMap((g) => atSeams(g, tolerance)).filter((g) => g.horizontal.length >= 2 && (g.vertical.length >= 2 || (g.vertical.length === 1 && across(g) >= 3)));
}

/**
 * A frame cut where two tables drawn one under the other meet (a word processor sets a table
 * straight under the one before when no paragraph parts them): at a horizontal rule that the
 * inner column borders of the part above end on and those of the part below start from, none of
 * them running through it and none in line with one of the other part's. Only the outer edges
 * may run on through. A table's own row borders are crossed by column borders: a spanning
 * header's group borders run on down between its columns.
 */
function atSeams(group: Rulings, tolerance: number): Rulings[] {
  if (group.vertical.length < 4) return [group];
  const top = Math.min(...group.vertical.map((v) => v.y0));
  const bottom = Math.max(...group.vertical.map((v) => v.y1));
  const inner = (list: Segment[]) => {
    const [left, right] = [Math.min(...list.map((v) => v.x0)), Math.max(...list.map((v) => v.x0))];
    return list.filter((v) => v.x0 > left + tolerance && v.x0 < right - tolerance);
  };
  for (const y of positions(group.horizontal.map((h) => h.y0), tolerance)) {
    if (y <= top + tolerance || y >= bottom - tolerance) continue;
    const above = group.vertical.filter((v) => v.y0 < y - tolerance && v.y1 >= y - tolerance);
    const below = group.vertical.filter((v) => v.y1 > y + tolerance && v.y0 <= y + tolerance);
    const [innerAbove, innerBelow] = [inner(above), inner(below)];
    if (innerAbove.length === 0 || innerBelow.length === 0) continue;
    const through = (v: Segment) => above.includes(v) && below.includes(v);
    if ([...innerAbove, ...innerBelow].some(through) || innerAbove.some((a) => innerBelow.some((b) => Math.abs(a.x0 - b.x0) <= tolerance))) continue;
    // Each part keeps the rules at the seam within its own width.
    const part = (verticals: Segment[], keep: (h: Segment) => boolean): Rulings => {
      const [left, right] = [Math.min(...verticals.map((v) => v.x0)), Math.max(...verticals.map((v) => v.x0))];
      const horizontal = group.horizontal.filter(keep).map((h) => (Math.abs(h.y0 - y) <= tolerance ? { ...h, x0: Math.max(h.x0, left), x1: Math.min(h.x1, right) } : h));
      return { horizontal: horizontal.filter((h) => h.x1 > h.x0), vertical: verticals };
    };
    const upper = part(
      group.vertical.filter((v) => v.y0 < y - tolerance).map((v) => (v.y1 > y ? { ...v, y1: y } : v)),
      (h) => h.y0 <= y + tolerance,
    );
    const lower = part(
      group.vertical.filter((v) => v.y1 > y + tolerance).map((v) => (v.y0 < y ? { ...v, y0: y } : v)),
      (h) => h.y0 >= y - tolerance,
    );
    return [...atSeams(upper, tolerance), ...atSeams(lower, tolerance)];
  }
  return [group];
}

/** Sorted distinct positions, merging those within `snap`. */
function positions(values: number[], snap: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[] = [];
  for (const v of sorted) {
    if (out.length > 0 && v - out[out.length - 1] <= snap) continue;
    out.push(v);
  }
  return out;
}

/** How much of [from, to] the rulings at `position` cover (0-1). */
function covered(segments: Segment[], axis: 'h' | 'v', position: number, from: number, to: number, snap: number): number {
  let total = 0;
  for (const s of segments) {
    const at = axis === 'h' ? s.y0 : s.x0;
    if (Math.abs(at - position) > snap) continue;
    const a = Math.max(from, axis === 'h' ? s.x0 : s.y0);
    const b = Math.min(to, axis === 'h' ? s.x1 : s.y1);
    if (b > a) total += b - a;
  }
  return to > from ? total / (to - from) : 0;
}

/**
 * Groups of crossing rulings on a page, each a candidate table frame. A frame with small marks
 * set on its lines (arrowheads at the end of an axis, dots where a diagram's lines meet) is a
 * drawing, not a table: no table in the corpus has any, while the plots and diagrams that drew
 * grids of empty cells in the GeoTopo book all do.
 */
export function ruledFrames(rulings: Rulings, shapes: Box[], scale = 1): Rulings[] {
  return frames(rulings, SNAP * scale * 1.5).filter((frame) => !hasMarks(frame, shapes, scale));
}

/** Marks are 1.5 to 6 points each way: smaller pieces are slivers where two rulings join. */
const MARK_SIZE: [number, number] = [1.5, 6];

function hasMarks(frame: Rulings, shapes: Box[], scale: number): boolean {
  const near = 3 * scale;
  return shapes.some((s) => {
    const small = Math.min(s.x1 - s.x0, s.y1 - s.y0);
    const large = Math.max(s.x1 - s.x0, s.y1 - s.y0);
    if (small < MARK_SIZE[0] * scale || large > MARK_SIZE[1] * scale) return false;
    const cx = (s.x0 + s.x1) / 2;
    const cy = (s.y0 + s.y1) / 2;
    return (
      frame.horizontal.some((h) => Math.abs(cy - h.y0) <= near && cx >= h.x0 - near && cx <= h.x1 + near) ||
      frame.vertical.some((v) => Math.abs(cx - v.x0) <= near && cy >= v.y0 - near && cy <= v.y1 + near)
    );
  });
}

/** A grid line: where it runs, how far from there its rulings may lie, and whether it is drawn. */
interface GridLine {
  at: number;
  reach: number;
  drawn: boolean;
}

/**
 * Grid lines from ruling positions: positions within `snap` are one line, and so are the two
 * sides of a strip narrower than the shortest cell side (MIN_LENGTH) that holds no text, which is
 * the padding between a cell's shaded box and its border or the gutter between two cell boxes,
 * not a row or column of its own.
 */
function gridLines(values: number[], snap: number, narrow: number, holdsText: (from: number, to: number) => boolean): GridLine[] {
  const lines: { from: number; to: number }[] = [];
  for (const v of positions(values, snap)) {
    const last = lines[lines.length - 1];
    if (last && v - last.to < narrow && !holdsText(last.to, v)) last.to = v;
    else lines.push({ from: v, to: v });
  }
  return lines.map(({ from, to }) => ({ at: (from + to) / 2, reach: (to - from) / 2 + snap, drawn: true }));
}

/**
 * The grid a frame draws. `scale` is the page's units per point (1 for PDF points, dpi/72 for
 * scanned pixels), so tolerances keep their physical size; `words` are the boxes of the words on
 * the page. Null when it is not a grid of cells.
 */
export function frameGrid(frame: Rulings, scale = 1, words: Box[] = []): GridTable | null {
  const snap = SNAP * scale;
  const narrow = MIN_LENGTH * scale;
  const [x0, x1] = [Math.min(...frame.horizontal.map((h) => h.x0)), Math.max(...frame.horizontal.map((h) => h.x1))];
  const [y0, y1] = [Math.min(...frame.vertical.map((v) => v.y0)), Math.max(...frame.vertical.map((v) => v.y1))];
  const centres = words.map((b) => ({ x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2 })).filter((c) => c.x > x0 && c.x < x1 && c.y > y0 && c.y < y1);
  const frameXs = gridLines(
    frame.vertical.map((v) => v.x0),
    snap,
    narrow,
    (from, to) => centres.some((c) => c.x > from && c.x < to),
  );
  const frameYs = gridLines(
    frame.horizontal.map((h) => h.y0),
    snap,
    narrow,
    (from, to) => centres.some((c) => c.y > from && c.y < to),
  );
  if (frameXs.length === 0 || frameYs.length === 0) return null;
  const xs = [...frameXs];
  const ys = [...frameYs];
  // Rulings running past the outermost crossing ones close an open side of the table; where a
  // side was closed so, there is no drawn ruling: it counts as present.
  const open = (at: number): GridLine => ({ at, reach: snap, drawn: false });
  if (x0 < xs[0].at - xs[0].reach - snap * 2) xs.unshift(open(x0));
  if (x1 > xs[xs.length - 1].at + xs[xs.length - 1].reach + snap * 2) xs.push(open(x1));
  if (y0 < ys[0].at - ys[0].reach - snap * 2) ys.unshift(open(y0));
  if (y1 > ys[ys.length - 1].at + ys[ys.length - 1].reach + snap * 2) ys.push(open(y1));
  // A table draws two rulings each way at least, counting the sides its rules close (a table of
  // two columns ruled across draws one border between them); the axes of a plot close one
  // region (below).
  if (xs.length < 2 || ys.length < 2 || (xs.length < 3 && ys.length < 3)) return null;
  const rows = ys.length - 1;
  const columns = xs.length - 1;
  const hasVertical = (c: number, r: number) => !xs[c].drawn || covered(frame.vertical, 'v', xs[c].at, ys[r].at, ys[r + 1].at, xs[c].reach) >= COVERAGE;
  const hasHorizontal = (r: number, c: number) => !ys[r].drawn || covered(frame.horizontal, 'h', ys[r].at, xs[c].at, xs[c + 1].at, ys[r].reach) >= COVERAGE;
  const parent = Array.from({ length: rows * columns }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      if (c + 1 < columns && !hasVertical(c + 1, r)) parent[find(r * columns + c)] = find(r * columns + c + 1);
      if (r + 1 < rows && !hasHorizontal(r + 1, c)) parent[find(r * columns + c)] = find((r + 1) * columns + c);
    }
  }
  const regions = new Map<number, { r0: number; r1: number; c0: number; c1: number }>();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const root = find(r * columns + c);
      const region = regions.get(root);
      if (!region) regions.set(root, { r0: r, r1: r, c0: c, c1: c });
      else {
        region.r0 = Math.min(region.r0, r);
        region.r1 = Math.max(region.r1, r);
        region.c0 = Math.min(region.c0, c);
        region.c1 = Math.max(region.c1, c);
      }
    }
  }
  const cells: CellRegion[] = [...regions.values()].map((g) => ({
    row: g.r0,
    column: g.c0,
    rowSpan: g.r1 - g.r0 + 1,
    columnSpan: g.c1 - g.c0 + 1,
    box: { x0: xs[g.c0].at, y0: ys[g.r0].at, x1: xs[g.c1 + 1].at, y1: ys[g.r1 + 1].at },
  }));
  // One region covering everything is a box, not a table.
  if (cells.length < 2) return null;
  const box: Box = { x0: xs[0].at, y0: ys[0].at, x1: xs[xs.length - 1].at, y1: ys[ys.length - 1].at };
  return { box, rowCount: rows, columnCount: columns, cells, source: 'ruled', headerRows: -1 };
}
