// Line-number rulers: the column of numbers a review copy, a preprint or a manuscript sets down its
// margin to number its lines. A ruler is five or more bare numbers in one column (their right or
// left edges aligned) that count up by a constant step down the page, set smaller than the text
// beside them, with none of that text further out towards the page's edge; numbers of the column
// that stand where its count puts them join it across lines it leaves unnumbered. Its numbers belong to
// the page, not to any line of text: they are found before tables and lines, never joined to the
// words beside them (which sit at the ruler's pitch, not the text's, so joining them cuts the
// text into the ruler's rows) and typed marginal notes (page-furniture.ts). Numbers set at the
// text's size (a table's row numbers, a pleading's numbered lines) are left to the text.
import type { Word } from '../page-model.js';

/** A bare count: "7", "128". */
const COUNT = /^\d{1,5}$/;
/** Fewer numbers than this in a column are not a ruler (a short numbered list, a column of a table). */
const MIN_NUMBERS = 5;
/** Edges of one column lie within this much of each other (page units over `scale`). */
const ALIGN = 1;
/** A ruler's numbers are set smaller than this share of the text beside them. */
const SMALLER = 0.95;

interface Column {
  edge: number;
  members: number[];
}

/** The words of the page that form line-number rulers; `excluded` words (in drawings) take no part. */
export function lineNumberRulers(words: Word[], excluded: Set<number>, scale = 1): Set<number> {
  const numbers: number[] = [];
  words.forEach((w, i) => {
    if (!w.turn && !excluded.has(i) && COUNT.test(w.text)) numbers.push(i);
  });
  const ruler = new Set<number>();
  if (numbers.length < MIN_NUMBERS) return ruler;
  for (const side of ['x1', 'x0'] as const) {
    for (const column of columns(words, numbers, side, ALIGN * scale)) {
      for (const run of withUnnumberedLines(words, column.members, countingRuns(words, column.members))) {
        if (beside(words, run, excluded) && !run.some((i) => ruler.has(i))) for (const i of run) ruler.add(i);
      }
    }
  }
  return ruler;
}

/** The numbers grouped by one edge, each group within `align` of its first member. */
function columns(words: Word[], numbers: number[], side: 'x0' | 'x1', align: number): Column[] {
  const sorted = [...numbers].sort((a, b) => words[a].box[side] - words[b].box[side]);
  const out: Column[] = [];
  for (const i of sorted) {
    const edge = words[i].box[side];
    const last = out[out.length - 1];
    if (last && edge - last.edge <= align) last.members.push(i);
    else out.push({ edge, members: [i] });
  }
  return out.filter((c) => c.members.length >= MIN_NUMBERS);
}

/** The number word `i` counts. */
function numberAt(words: Word[], i: number): number {
  return Number(words[i].text);
}

/** Runs of MIN_NUMBERS or more of a column's numbers, top to bottom, each one more than the last by the same step. */
function countingRuns(words: Word[], members: number[]): number[][] {
  const down = [...members].sort((a, b) => words[a].box.y0 - words[b].box.y0);
  const runs: number[][] = [];
  let run: number[] = [];
  let step = 0;
  for (const i of down) {
    const last = run[run.length - 1];
    const next = last === undefined ? 0 : numberAt(words, i) - numberAt(words, last);
    const below = last !== undefined && words[i].box.y0 >= words[last].box.y1 - 0.5 * (words[last].box.y1 - words[last].box.y0);
    if (last !== undefined && below && next > 0 && (run.length === 1 || next === step)) {
      if (run.length === 1) step = next;
      run.push(i);
      continue;
    }
    if (run.length >= MIN_NUMBERS) runs.push(run);
    run = [i];
    step = 0;
  }
  if (run.length >= MIN_NUMBERS) runs.push(run);
  return runs;
}

/**
 * Each run with the numbers of its column that stand where its count puts them (as many pitches
 * below its first number as they count past it, within half a pitch): a ruler numbers its lines at
 * one pitch, and where a figure or a table stands it leaves lines unnumbered, breaking its count
 * into runs too short to tell alone.
 */
function withUnnumberedLines(words: Word[], members: number[], runs: number[][]): number[][] {
  const taken = new Set(runs.flat());
  return runs.map((run) => {
    const [first, second, last] = [run[0], run[1], run[run.length - 1]];
    const step = numberAt(words, second) - numberAt(words, first);
    const pitch = (words[last].box.y0 - words[first].box.y0) / (numberAt(words, last) - numberAt(words, first));
    const fits = (i: number) => {
      const count = numberAt(words, i) - numberAt(words, first);
      return !taken.has(i) && count % step === 0 && Math.abs(words[i].box.y0 - (words[first].box.y0 + count * pitch)) <= pitch / 2;
    };
    const more = members.filter(fits);
    return more.length === 0 ? run : [...run, ...more].sort((a, b) => words[a].box.y0 - words[b].box.y0);
  });
}

/**
 * The run stands beside the page's text, smaller than it and further out: the upright words level
 * with it (other than the ruler's) all lie on one side of it, and are set larger.
 */
function beside(words: Word[], run: number[], excluded: Set<number>): boolean {
  const members = new Set(run);
  const top = Math.min(...run.map((i) => words[i].box.y0));
  const bottom = Math.max(...run.map((i) => words[i].box.y1));
  const left = Math.min(...run.map((i) => words[i].box.x0));
  const right = Math.max(...run.map((i) => words[i].box.x1));
  let rightOf = 0;
  let leftOf = 0;
  const sizes: number[] = [];
  words.forEach((w, i) => {
    if (members.has(i) || excluded.has(i) || w.turn) return;
    const centre = (w.box.y0 + w.box.y1) / 2;
    if (centre < top || centre > bottom) return;
    if (w.box.x0 >= right) rightOf++;
    else if (w.box.x1 <= left) leftOf++;
    else rightOf = leftOf = Infinity;
    sizes.push(w.fontSize);
  });
  if (sizes.length === 0 || (rightOf > 0 && leftOf > 0)) return false;
  sizes.sort((a, b) => a - b);
  const text = sizes[sizes.length >> 1];
  const own = run.map((i) => words[i].fontSize).sort((a, b) => a - b)[run.length >> 1];
  return own < text * SMALLER;
}
