// Words into the visual rows the table finders read: words whose text stands level, top to bottom,
// each row cut into chunks at gaps wider than a cell's. A line set in the middle of a taller row
// beside a cell wrapped over two lines joins that row (betweenLines).
import type { Box, Word } from '../../page-model.js';
import { centerY } from '../lines.js';
import { chunksOf, median, PROSE_WORDS, type Chunk, type Row } from './gutters.js';

/** A gap wider than this many font sizes separates cells. */
const CELL_GAP = 1.0;
/** A word box taller than this many font sizes is a loose box (see band). */
const TALL_BOX = 1.5;
/** A space between words at least this many font sizes wide may separate cells of a known column. */
export const WIDE_SPACE = 0.5;

/** Words grouped into visual rows top to bottom, each cut into chunks at wide gaps. */
export function visualRows(words: Word[], available: number[]): Row[] {
  const bands = new Map(available.map((i) => [i, band(words[i])]));
  const sorted = [...available].sort((a, b) => centerY(bands.get(a)!) - centerY(bands.get(b)!));
  const groups: number[][] = [];
  const boxes: Box[] = [];
  for (const i of sorted) {
    const box = bands.get(i)!;
    const last = boxes[boxes.length - 1];
    if (last) {
      const overlap = Math.min(last.y1, box.y1) - Math.max(last.y0, box.y0);
      if (overlap >= Math.min(last.y1 - last.y0, box.y1 - box.y0) * 0.5) {
        groups[groups.length - 1].push(i);
        boxes[boxes.length - 1] = { x0: Math.min(last.x0, box.x0), y0: Math.min(last.y0, box.y0), x1: Math.max(last.x1, box.x1), y1: Math.max(last.y1, box.y1) };
        continue;
      }
    }
    groups.push([i]);
    boxes.push({ ...box });
  }
  betweenLines(groups, boxes, bands);
  return groups.map((group, g) => {
    group.sort((a, b) => words[a].box.x0 - words[b].box.x0);
    const size = median(group.map((i) => words[i].fontSize)) || 10;
    const chunks = chunksOf(group, words, (chunk, w) => w.box.x0 - chunk.x1 > Math.max(size, w.fontSize) * CELL_GAP);
    return { box: boxes[g], size, chunks, bold: group.every((i) => words[i].bold) };
  });
}

/**
 * Joins into one row a line that stands level with parts of both lines around it, beside them
 * (no word of it above or below a word of theirs), where those two are one cell's lines (as many
 * pieces each, each piece over one of the other's): a cell set in the middle of a row whose
 * wrapped cell runs over two lines overlaps each of them by just under half its height, and
 * belongs to neither alone. Lines of running text never overlap, nor does a cell set at the top or
 * the foot of its row stand between two lines; a header's name centred beside a group's name over
 * its columns' own names stands between two rows. Groups and their boxes are joined in place.
 */
function betweenLines(groups: number[][], boxes: Box[], bands: Map<number, Box>): void {
  const overlap = (a: Box, b: Box) => Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  const level = (a: number, b: number) => overlap(boxes[a], boxes[b]) > Math.min(boxes[a].y1 - boxes[a].y0, boxes[b].y1 - boxes[b].y0) * 0.25;
  const beside = (a: number, b: number) => groups[a].every((i) => groups[b].every((k) => bands.get(i)!.x1 <= bands.get(k)!.x0 || bands.get(k)!.x1 <= bands.get(i)!.x0));
  // Pieces of a line: its words apart by more than a word space (half the line's height).
  const pieces = (g: number) => {
    const sorted = [...groups[g]].sort((a, b) => bands.get(a)!.x0 - bands.get(b)!.x0);
    const out: { x0: number; x1: number }[] = [];
    for (const i of sorted) {
      const b = bands.get(i)!;
      const last = out[out.length - 1];
      if (last && b.x0 - last.x1 <= (b.y1 - b.y0) * WIDE_SPACE) last.x1 = Math.max(last.x1, b.x1);
      else out.push({ x0: b.x0, x1: b.x1 });
    }
    return out;
  };
  const oneCell = (a: number, b: number) => {
    const [upper, lower] = [pieces(a), pieces(b)];
    return upper.length === lower.length && upper.every((p, k) => Math.min(p.x1, lower[k].x1) > Math.max(p.x0, lower[k].x0));
  };
  let g = 1;
  while (g + 1 < groups.length) {
    if (level(g, g - 1) && level(g, g + 1) && beside(g, g - 1) && beside(g, g + 1) && oneCell(g - 1, g + 1)) {
      const joined = [g - 1, g, g + 1];
      groups.splice(g - 1, 3, joined.flatMap((k) => groups[k]));
      const box = joined.map((k) => boxes[k]);
      boxes.splice(g - 1, 3, { x0: Math.min(...box.map((b) => b.x0)), y0: Math.min(...box.map((b) => b.y0)), x1: Math.max(...box.map((b) => b.x1)), y1: Math.max(...box.map((b) => b.y1)) });
      g = Math.max(1, g - 1);
      continue;
    }
    g++;
  }
}

/**
 * The height a word's text takes up. PDF readers give a math symbol the font's full ascent and
 * descent (cmsy's "×" is about 1.75 font sizes tall), which reaches into the next line; such a
 * word counts as one font size high around its middle, so that it does not chain rows together.
 */
function band(word: Word): Box {
  const { box, fontSize } = word;
  if (box.y1 - box.y0 <= fontSize * TALL_BOX) return box;
  const middle = centerY(box);
  return { x0: box.x0, y0: middle - fontSize * 0.5, x1: box.x1, y1: middle + fontSize * 0.5 };
}

/** Pairs of lines of prose below which the page's leading is not told. */
const LEADING_PAIRS = 5;

/**
 * The page's leading, as a share of the type size: the median pitch of two lines of prose one
 * under the other (rows holding a piece of PROSE_WORDS words or more, overlapping across, in one
 * size, less than two sizes apart); null where the page holds too little prose to tell.
 */
export function proseLeading(rows: Row[]): number | null {
  const prose = (r: Row) => r.chunks.some((c) => c.words.length >= PROSE_WORDS);
  const ratios: number[] = [];
  for (let i = 1; i < rows.length; i++) {
    const [above, below] = [rows[i - 1], rows[i]];
    if (!prose(above) || !prose(below) || Math.abs(above.size - below.size) > above.size * 0.1) continue;
    if (Math.min(above.box.x1, below.box.x1) <= Math.max(above.box.x0, below.box.x0)) continue;
    const pitch = centerY(below.box) - centerY(above.box);
    if (pitch < 2 * above.size) ratios.push(pitch / above.size);
  }
  return ratios.length >= LEADING_PAIRS ? median(ratios) : null;
}
