// Which lines of a table are one row's, told by their pitches: rows stand apart by their cells'
// padding or rules as well as by the type's leading, the lines of one cell by the leading alone.
// Shared by the tables found from alignment (aligned.ts) and the rows a drawing leaves to its text
// (drawn-rows.ts).
import type { Box, Word } from '../../page-model.js';
import { centerY } from '../lines.js';

/** One text line of a table below another: how far apart their middles are, and the cells each fills. */
export interface LinePair {
  pitch: number;
  /** The space between the two lines' boxes: from the upper one's foot to the lower one's top. */
  space: number;
  above: Set<unknown>;
  below: Set<unknown>;
  /** The lower line starts a label of its own: its text in the labels' column starts with a capital. */
  newLabel?: boolean;
  /** Both lines hold a figure in one column (figuresLevel). */
  figuresAgain?: boolean;
}

/**
 * A cell's text that is one whole figure: an amount, a count, a percentage, a measure with its
 * error ("88.9±0.2"). Whole: it ends in a digit, a percent sign or its currency, not in a
 * separator; a parenthesis it opens it closes, so the halves of a figure a narrow column broke
 * ("(90,244.6" over "8)") are none; and it carries one sign of its unit at most, so a percentage
 * and a currency sign beside it ("46.1% €") are two cells' text.
 */
const FIGURE = /^[(\-−–+]?(?:(?:[$€£¥]|CHF)\s?)?\d(?:[\d,.]*\d)?(?:\s?±\s?\d(?:[\d,.]*\d)?)?(?:\s?%|\s?(?:[$€£¥]|CHF))?\)?$/u;
const UNIT_SIGN = /[$€£¥%]|CHF/gu;
const wholeFigure = (text: string) => FIGURE.test(text) && text.startsWith('(') === text.includes(')') && (text.match(UNIT_SIGN) ?? []).length <= 1;

/**
 * Whether two lines hold a figure each in one column: a figure is never wrapped over two lines
 * of its cell, so the lower line starts a row of its own there, however close under the upper it
 * stands (a row of a group whose name stands in the group's first row alone, its first column empty).
 */
export function figuresLevel(upper: number[], lower: number[], columnOf: (word: number) => unknown, words: Word[]): boolean {
  const figures = (line: number[]) => {
    const texts = new Map<unknown, string[]>();
    for (const i of line) {
      const column = columnOf(i);
      texts.set(column, [...(texts.get(column) ?? []), words[i].text]);
    }
    return new Set([...texts].filter(([, parts]) => wholeFigure(parts.join(' '))).map(([column]) => column));
  };
  const above = figures(upper);
  return [...figures(lower)].some((column) => above.has(column));
}

/** Whether the first of these words (a line's, in the labels' column, left to right) starts with a capital: a row's own label. */
export function startsLabel(inLabelColumn: number[], words: Word[]): boolean {
  return inLabelColumn.length > 0 && /^\p{Lu}/u.test(words[inLabelColumn[0]].text);
}

/**
 * A pitch of this many font sizes leaves room for a line between: the lines of one cell stand at
 * their type's leading, never so far apart, so lines this far apart are two rows (or a caption
 * and a row) whatever the other pitches are; unless their boxes overlap, as a line of words set
 * upright in a tall header cell overlaps the header's other lines.
 */
const APART = 2;

/** How far a line stands under the one above it: middle to middle (`pitch`), and from the upper box's foot to the lower's top (`space`). */
export function spacing(upper: Box, lower: Box): { pitch: number; space: number } {
  return { pitch: centerY(lower) - centerY(upper), space: lower.y0 - upper.y1 };
}

/** Whether two lines, so spaced, are two rows by their distance alone. */
export function standApart({ pitch, space }: { pitch: number; space: number }, size: number): boolean {
  return pitch >= size * APART && space >= 0;
}

/**
 * The pairs whose lower line is the second line of the upper one's cells. Rows stand apart by
 * their cells' padding or rules as well as by the type's leading, the lines of one cell by the
 * leading alone: where a table's line pitches fall into two groups at least a quarter of a font
 * size apart, the lines at the smaller pitch are one row's, provided in every such pair one line
 * fills fewer cells than the other and only cells the other fills, or both the same few cells
 * with no label of its own starting the lower (a table set
 * without padding but with space between groups of rows has full rows at its smaller pitch, and
 * none of them continues). The fuller line is the lower where cells are set at the top, the upper
 * where they are set at the foot, level with a wrapped cell's last line. Then a line at the larger
 * pitch, or two font sizes or more under the one above and clear of it, starts a row. Null where
 * the pitches do not tell, as where two lines at the smaller pitch hold a figure each in one
 * column (figuresLevel): rows, not a cell's lines.
 */
export function wrappedLines(pairs: LinePair[], size: number): Set<number> | null {
  const pitches = pairs.map((p) => p.pitch).sort((a, b) => a - b);
  let cut = -1;
  for (let k = 1; k < pitches.length; k++) if (pitches[k] - pitches[k - 1] >= size * 0.25 && (cut < 0 || pitches[k] - pitches[k - 1] > pitches[cut] - pitches[cut - 1])) cut = k;
  if (cut < 0) return null;
  const limit = (pitches[cut - 1] + pitches[cut]) / 2;
  // Either line may be the one that fills fewer cells: a row's other cells stand level with its
  // wrapped cell's first line (set at the top), its last (set at the foot) or between (centred).
  // Down one row the lines fill more cells and then fewer, never more again: a line filling more
  // after fewer starts a row, however close it stands.
  const within = (a: Set<unknown>, b: Set<unknown>) => a.size < b.size && [...a].every((c) => b.has(c));
  // Two wrapped cells of a row run on side by side over lines that fill the same few cells; lines
  // filling every cell the table fills, one right under the other, are rows, as are rows that
  // leave the same cells empty where the lower starts a label of its own (capitalised).
  const widest = Math.max(...pairs.flatMap((p) => [p.above.size, p.below.size]));
  const sameFew = ({ above: a, below: b, newLabel }: LinePair) => !newLabel && a.size === b.size && a.size < widest && [...a].every((c) => b.has(c));
  const tight = new Set<number>();
  let falling = false;
  for (const [i, pair] of pairs.entries()) {
    const { pitch, above, below } = pair;
    if (pitch >= limit || standApart(pair, size)) {
      falling = false;
      continue;
    }
    // Rows of figures at the smaller pitch: it is no cell's leading (figuresLevel).
    if (pair.figuresAgain) return null;
    if (sameFew(pairs[i])) {
      tight.add(i);
      continue;
    }
    const rises = within(above, below);
    if ((!rises && !within(below, above)) || (rises && falling)) return null;
    falling = !rises;
    tight.add(i);
  }
  return tight;
}
