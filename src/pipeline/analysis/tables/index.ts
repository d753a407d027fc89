// Table detection on one page: grids drawn with rulings first, then grids of aligned text among
// the words no drawn table took. No JavaScript library finds tables in positioned text (the known
// tools, Camelot, pdfplumber and Tabula, are Python and Java), so this is written here, after
// their published methods: lattice (ruling crossings) and stream (column gaps in text rows), with
// two additions: a drawn table whose rows are ruled but whose columns are not (shaded rows, rules
// between rows only) gets its columns from the alignment of its text, and a head drawn over a body
// set without drawing is joined to the body found from its alignment (head-over-body.ts).
import { intersectionArea, verticalOverlap, type Box, type PageGraphics, type Segment, type Table, type Word } from '../../page-model.js';
import { alignedGrids, columnGapsUnderHead, type Row } from './aligned.js';
import { proseLeading, visualRows } from './visual-rows.js';
import { LIST_MARKER, NOTE_LABEL, isCheckBox } from '../markers.js';
import { centerX, centerY } from '../lines.js';
import type { CodeFace } from '../code-and-formulas.js';
import { fillGrid, type GridTable } from './grid.js';
import { frameGrid, pageRulings, ruledFrames, type Rulings } from './ruled.js';
import { withRowsBeside, withTextRows } from './drawn-rows.js';
import { headOverBody } from './head-over-body.js';

export { tableRows } from './grid.js';

export interface FoundTables {
  tables: Table[];
  /** For each table, the indices of the words it holds. */
  words: number[][];
}

/**
 * `codeFace` tells words set in the document's code face: a grid of aligned text set in it is a
 * listing (its line numbers and indentation align), not a table.
 */
export function findTables(
  page: { words: Word[]; width: number; height: number },
  graphics: PageGraphics,
  excluded: Set<number>,
  rightToLeft: boolean,
  scale = 1,
  codeFace: CodeFace = () => false,
): FoundTables {
  const { words } = page;
  const tables: Table[] = [];
  const held: number[][] = [];
  const notes = noteLines(words, excluded);
  const taken = new Set<number>([...excluded, ...notes]);
  const free = () => words.map((_, i) => i).filter((i) => !taken.has(i));
  const grids: GridTable[] = [];
  const keep = (grid: GridTable) => {
    const filled = fillGrid(grid, words, free(), rightToLeft);
    if (!filled) return;
    tables.push(filled.table);
    held.push(filled.claimed);
    grids.push(grid);
    for (const i of filled.claimed) taken.add(i);
  };
  // A table kept, given up for a grid that holds it (its words free again).
  const drop = (t: number) => {
    for (const i of held[t]) taken.delete(i);
    tables.splice(t, 1);
    held.splice(t, 1);
    grids.splice(t, 1);
  };
  const boxes = words.map((w) => w.box);
  const leading = proseLeading(visualRows(words, free()));
  const drawing = withoutListingShades(withoutBleeds(graphics, page.width, page.height, scale), words, codeFace);
  const rulings = pageRulings(drawing, scale, boxes);
  const drawnGrids = ruledFrames(rulings, drawing.shapes, scale)
    .map((drawn) => ({ drawn, drawnGrid: frameGrid(drawn, scale, boxes) }))
    .filter((f): f is { drawn: Rulings; drawnGrid: GridTable } => f.drawnGrid !== null);
  for (const { drawn, drawnGrid } of drawnGrids) {
    const others = drawnGrids.filter((f) => f.drawnGrid !== drawnGrid).map((f) => f.drawnGrid.box);
    const beside = withRowsBeside(drawn, drawnGrid, words, free(), scale, others, codeFace);
    const besideGrid = beside && frameGrid(beside, scale, boxes);
    const [frame, grid] = beside && besideGrid ? [beside, besideGrid] : [drawn, drawnGrid];
    const refined = withTextColumns(frame, grid, words, free(), scale);
    const columned = (refined && frameGrid(refined, scale, boxes)) || grid;
    const rowed = withTextRows(columned === grid ? frame : refined!, columned, words, free(), rightToLeft, leading);
    keep((rowed && frameGrid(rowed, scale, boxes)) || columned);
  }
  let drawnCount = tables.length;
  for (const grid of alignedGrids(words, free(), rulings.horizontal, { width: page.width, height: page.height, leading, notes: notes.map((i) => words[i].box), lines: drawing.segments.filter((s) => s.y0 === s.y1) }, codeFace)) {
    if (tables.some((t) => intersectionArea(t.box, grid.box) > 0)) continue;
    if (holdsDrawing(grid.box, graphics.shapes, words, scale)) continue;
    const inside = wordsInside(grid.box, words);
    if (mostlyCode(inside, codeFace) || measuredListing(inside)) continue;
    // A body under a drawn head whose columns part the head's cells: one table.
    const loose = free();
    const joined = grids.slice(0, drawnCount).flatMap((head, t) => {
      const whole = headOverBody(head, grid, words, [...held[t], ...loose]);
      return whole ? [{ t, whole }] : [];
    })[0];
    if (joined) {
      drop(joined.t);
      drawnCount--;
      keep(joined.whole);
      continue;
    }
    keep(grid);
  }
  return { tables, words: held };
}

/** Words further apart than this many font sizes along a line are not one line of text. */
const LINE_GAP = 3;

/**
 * The lines that open with a note's label ("Note:", "Source:"): a table's note or source under it,
 * never one of its rows nor the wrapped end of one, however its words fall under the columns.
 * A label opens a line when no word stands just before it on its line (`excluded` words, a
 * margin's line numbers, do not count). Its lines are gathered here, word by word: visualRows
 * chains rows through a larger heading's band beside them, and would take a table's last row into
 * a note set level with that heading.
 */
function noteLines(words: Word[], excluded: Set<number>): number[] {
  const out: number[] = [];
  const onLine = (a: Word, b: Word) => verticalOverlap(a.box, b.box) >= 0.5;
  words.forEach((label, i) => {
    if (!NOTE_LABEL.test(label.text)) return;
    const reach = label.fontSize * LINE_GAP;
    if (words.some((w, k) => w !== label && !excluded.has(k) && onLine(w, label) && w.box.x1 <= label.box.x0 + 1 && label.box.x0 - w.box.x1 < reach)) return;
    // The line runs on rightwards word by word; a note whose line breaks mid-sentence runs on to
    // the line right under it that starts where it starts, one run of words (not a table's row).
    const lineFrom = (start: Word, gap: number) => {
      const line = words.map((_, k) => k).filter((k) => onLine(words[k], start) && words[k].box.x0 >= start.box.x0 - 1).sort((a, b) => words[a].box.x0 - words[b].box.x0);
      const taken: number[] = [];
      for (const k of line) {
        if (taken.length > 0 && words[k].box.x0 - words[taken[taken.length - 1]].box.x1 > gap) break;
        taken.push(k);
      }
      return { taken, whole: taken.length === line.length };
    };
    let { taken } = lineFrom(label, reach);
    let above = Number.NEGATIVE_INFINITY;
    while (taken.length > 0) {
      const bottom = Math.max(...taken.map((k) => words[k].box.y1));
      // Each line lies lower than the one before (a speck of a word cannot hold the walk in place).
      if (bottom <= above) break;
      above = bottom;
      out.push(...taken);
      if (/[.!?]$/.test(words[taken[taken.length - 1]].text)) break;
      const next = words.find((w) => w.box.y0 > bottom - 1 && w.box.y0 - bottom < label.fontSize * 0.8 && Math.abs(w.box.x0 - label.box.x0) <= label.fontSize && Math.abs(w.fontSize - label.fontSize) < 0.5);
      const following = next ? lineFrom(next, next.fontSize) : null;
      taken = following?.whole ? following.taken : [];
    }
  });
  return [...new Set(out)];
}

/** How near the sheet's edge, in points, a path reaches that runs off it. */
const BLEED = 1.5;

/**
 * The page's drawing without the paths printed off the sheet: a rule across the whole sheet, from
 * edge to edge, and anything running off its head or foot (a panel down the margin, a band across
 * the top). They are the page's design, as covers, brochures and letterheads print it; taken as
 * rulings, they framed whole pages of prose as one table's cells. A table stands inside the page:
 * one too wide for it runs off one side only, and keeps its rules.
 */
function withoutBleeds(graphics: PageGraphics, width: number, height: number, scale: number): PageGraphics {
  const reach = BLEED * scale;
  const onSheet = (b: Box) => !(b.x0 <= reach && b.x1 >= width - reach) && b.y0 > reach && b.y1 < height - reach;
  const segments = graphics.segments.filter(onSheet);
  const rects = graphics.rects.filter((r) => onSheet(r.box));
  const shapes = graphics.shapes.filter(onSheet);
  if (segments.length === graphics.segments.length && rects.length === graphics.rects.length && shapes.length === graphics.shapes.length) return graphics;
  return { ...graphics, segments, rects, shapes };
}

/**
 * The page's drawing without the boxes shaded behind listings (every word inside one set in the
 * code face): a listing's background is no table's ruling, though its edge may touch a table
 * drawn right below it.
 */
function withoutListingShades(graphics: PageGraphics, words: Word[], codeFace: CodeFace): PageGraphics {
  if (graphics.rects.length === 0 || !words.some(codeFace)) return graphics;
  const listing = (box: Box) => {
    const inside = words.filter((w) => centerX(w.box) > box.x0 && centerX(w.box) < box.x1 && centerY(w.box) > box.y0 && centerY(w.box) < box.y1);
    return inside.length > 0 && inside.every(codeFace);
  };
  const rects = graphics.rects.filter((r) => !(r.filled && !r.stroked && listing(r.box)));
  return rects.length === graphics.rects.length ? graphics : { ...graphics, rects };
}

/** Nine in ten of the words (those inside a grid) are set in the code face. */
function mostlyCode(inside: Word[], codeFace: CodeFace): boolean {
  return inside.length > 0 && inside.filter(codeFace).length >= inside.length * 0.9;
}

/** Program syntax in a word: braces, a semicolon, a call's bracket after a name, an assignment or an arrow. */
const SYNTAX = /[;{}]|:=|==|=>|->|\+\+|\w\(/;
/** Words of a monospaced face differ this little in width per character, as a share of the mean. */
const MONOSPACED_SPREAD = 0.1;

/**
 * A listing where no font names the code face (a scan): its words stand at one width per
 * character (a monospaced face, measured from the words: a proportional face's "ill" and "mom"
 * differ by half), and one word in ten carries program syntax, two at least. A typewritten table
 * is monospaced too, but holds no syntax; one word of a small table may look like it (a unit
 * read glued to its name, "Tax(CHF)").
 */
function measuredListing(inside: Word[]): boolean {
  const long = inside.filter((w) => w.text.length >= 3);
  if (long.length < 8) return false;
  const widths = long.map((w) => (w.box.x1 - w.box.x0) / w.text.length);
  const mean = widths.reduce((a, b) => a + b, 0) / widths.length;
  const spread = Math.sqrt(widths.reduce((a, b) => a + (b - mean) ** 2, 0) / widths.length) / mean;
  return spread < MONOSPACED_SPREAD && inside.filter((w) => SYNTAX.test(w.text)).length >= Math.max(2, inside.length * 0.1);
}

function wordsInside(box: Box, words: Word[]): Word[] {
  return words.filter((w) => w.box.x0 >= box.x0 && w.box.x1 <= box.x1 && w.box.y0 >= box.y0 && w.box.y1 <= box.y1);
}

/**
 * Whether a curve or diagonal at least one and a half font sizes each way is drawn inside a grid
 * of aligned text: the arrows of a commutative diagram, not anything a table of text holds (its
 * icons and marks are smaller). No aligned table in the corpus holds one.
 */
function holdsDrawing(box: Box, shapes: Box[], words: Word[], scale: number): boolean {
  // The grid is drawn around its words, so it holds some: their median size is the text's.
  const sizes = wordsInside(box, words).map((w) => w.fontSize);
  const size = sizes.sort((a, b) => a - b)[Math.floor(sizes.length / 2)] ?? 0;
  const slack = 2 * scale;
  return shapes.some(
    (s) =>
      s.x0 >= box.x0 - slack && s.x1 <= box.x1 + slack && s.y0 >= box.y0 - slack && s.y1 <= box.y1 + slack && Math.min(s.x1 - s.x0, s.y1 - s.y0) >= size * 1.5,
  );
}

/** Rows holding text between x0 and x1 in this share of them or more hold the same words there: the column repeats one text. */
const REPEATED_SHARE = 0.8;

/**
 * Whether the last word of two letters or more that the rows hold between x0 and x1 is the same
 * in nearly every row (REPEATED_SHARE of those holding any, three at least). An option's label
 * follows its box, so the label's last word is the one a box misread as letters ("OJ", "Dd")
 * never stands in place of.
 */
function sameInEveryRow(rows: Row[], x0: number, x1: number, words: Word[]): boolean {
  const texts = rows
    .map((r) => r.chunks.flatMap((c) => c.words).filter((w) => words[w].box.x0 >= x0 && words[w].box.x1 <= x1 && /\p{L}{2}/u.test(words[w].text)).map((w) => words[w].text.toLowerCase()).at(-1) ?? '')
    .filter((text) => text !== '');
  if (texts.length < 3) return false;
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  return Math.max(...counts.values()) >= texts.length * REPEATED_SHARE;
}

/**
 * The frame with column borders added where the text inside it lines up into columns that no
 * ruling separates; each added border runs through the grid rows no word of which it would cut.
 * Null when the text adds no column.
 */
function withTextColumns(frame: Rulings, grid: GridTable, words: Word[], free: number[], scale: number): Rulings | null {
  const { box } = grid;
  const inside = free.filter((i) => {
    const b = words[i].box;
    const cx = (b.x0 + b.x1) / 2;
    const cy = (b.y0 + b.y1) / 2;
    return cx > box.x0 && cx < box.x1 && cy > box.y0 && cy < box.y1;
  });
  const rows = visualRows(words, inside).filter((r) => r.chunks.length >= 2);
  if (rows.length < 3) return null;
  const size = rows.map((r) => r.size).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
  // Borders drawn along only part of the table (around header cells) do not separate its rows.
  const top = Math.min(...rows.map((r) => r.box.y0));
  const bottom = Math.max(...rows.map((r) => r.box.y1));
  const drawn = frame.vertical.filter((v) => Math.min(v.y1, bottom) - Math.max(v.y0, top) >= (bottom - top) * 0.5).map((v) => v.x0);
  const gaps = columnGapsUnderHead(rows, box.x0, box.x1, size, words);
  const separators = gaps.map(([from, to]) => (from + to) / 2);
  const fresh = separators.filter((x, i) => {
    // A gap a drawn border already runs through is that border's column gap.
    if (drawn.some((d) => d >= gaps[i][0] - 4 * scale && d <= gaps[i][1] + 4 * scale)) return false;
    // A column of bullets or numbers in front of list text is a list inside a cell.
    const from = Math.max(i > 0 ? separators[i - 1] : box.x0, ...drawn.filter((d) => d < x));
    const before = rows.flatMap((r) => r.chunks.filter((c) => c.x0 >= from && c.x1 <= x));
    if (before.length > 0 && before.every((c) => c.words.every((w) => LIST_MARKER.test(words[w].text)))) return false;
    // Options set side by side, each a check box and its label ("☒ yes   ☐ no"), are one cell's
    // choices, not columns.
    const left = Math.max(box.x0, ...drawn.filter((d) => d < x));
    const right = Math.min(box.x1, ...drawn.filter((d) => d > x));
    const opensChoice = (r: Row, x0: number, x1: number) => {
      const first = r.chunks.flatMap((c) => c.words).find((w) => words[w].box.x0 >= x0 && words[w].box.x1 <= x1);
      return first !== undefined && isCheckBox(words[first].text);
    };
    const sides = rows.filter((r) => opensChoice(r, left, x) || opensChoice(r, x, right));
    if (sides.length > 0 && sides.every((r) => opensChoice(r, left, x) && opensChoice(r, x, right))) return false;
    // So are pieces whose words (but for what is not a word: a check box the scan's reading made a
    // letter or a sign of, or lost) are the same in every row on both sides: the same options
    // offered in each row ("design   risk"). A table's columns vary down their rows; a column of
    // one sign (a currency's) beside figures that vary is a column.
    if (sameInEveryRow(rows, left, x, words) && sameInEveryRow(rows, x, right, words)) return false;
    // Most rows must hold text on both sides of it within the drawn column; text that merely
    // leaves part of a wide cell empty makes no column.
    const both = rows.filter((r) => {
      const rowWords = r.chunks.flatMap((c) => c.words.map((w) => words[w].box));
      return rowWords.some((b) => b.x0 >= left && b.x1 <= x) && rowWords.some((b) => b.x0 >= x && b.x1 <= right);
    }).length;
    return both >= rows.length * 0.6;
  });
  if (fresh.length === 0) return null;
  const bands = [...new Set(grid.cells.flatMap((c) => [c.box.y0, c.box.y1]))].sort((a, b) => a - b);
  const added: Segment[] = [];
  for (const x of fresh) {
    for (let i = 0; i + 1 < bands.length; i++) {
      const [y0, y1] = [bands[i], bands[i + 1]];
      const cut = inside.some((w) => {
        const b = words[w].box;
        const cy = (b.y0 + b.y1) / 2;
        return cy > y0 && cy < y1 && b.x0 < x && b.x1 > x;
      });
      if (!cut) added.push({ x0: x, y0, x1: x, y1 });
    }
  }
  return { horizontal: frame.horizontal, vertical: [...frame.vertical, ...added] };
}
