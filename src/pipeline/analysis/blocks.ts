// Lines into blocks (paragraphs, list items, headings, before they are typed): a line continues
// the block of the line above it when it sits one line pitch below, overlapping it, in the same
// size, weight and face (groupBlocks says where a change of weight or face does not end a block);
// a contents entry ends with its page number, and a display formula set off from the paragraph's
// edge stands apart from the prose around it.
import { isMonospacedFont, type Line, type Word } from '../page-model.js';
import { looksLikeFormula, type CodeFace } from './code-and-formulas.js';
import { centerY } from './lines.js';
import { LEADER, LIST_MARKER, PAGE_NUMBER } from './markers.js';

const BULLET_START = /^[•●○◦▪■□‣⁃∙]/;

export function startsListItem(line: Line, words: Word[]): boolean {
  const first = words[line.words[0]]?.text ?? '';
  return LIST_MARKER.test(first) || BULLET_START.test(first);
}

/** A bullet or dash opens the line: a list item, where a number may open a heading too. */
export function startsBulleted(line: Line, words: Word[]): boolean {
  const first = words[line.words[0]]?.text ?? '';
  return BULLET_START.test(first) || /^[•●○◦▪■□‣⁃∙·*–—-]$/.test(first);
}

/**
 * The line ends in a page number led to it by dots or set apart from the entry by a gap of more
 * than two font sizes, which a space between words never is: a contents entry (or an index's).
 */
export function endsInPageReference(line: Line, words: Word[]): boolean {
  const n = line.words.length;
  if (n < 2) return false;
  const [before, last] = [words[line.words[n - 2]], words[line.words[n - 1]]];
  if (!PAGE_NUMBER.test(last.text)) return false;
  // The gap on whichever side the script sets the number (left of its entry in right-to-left text).
  const gap = Math.max(last.box.x0 - before.box.x1, before.box.x0 - last.box.x1);
  return (n >= 3 && LEADER.test(before.text)) || gap > 2 * Math.max(last.fontSize, before.fontSize);
}

function lineSize(line: Line, words: Word[]): number {
  let total = 0;
  let chars = 0;
  for (const i of line.words) {
    total += words[i].fontSize * words[i].text.length;
    chars += words[i].text.length;
  }
  return chars ? total / chars : 0;
}

/** The font all of a line's words are set in, or null when it mixes fonts. */
function lineFont(line: Line, words: Word[]): string | null {
  const font = words[line.words[0]]?.fontName ?? '';
  return line.words.every((i) => words[i].fontName === font) ? font : null;
}

export function lineBold(line: Line, words: Word[]): boolean {
  return line.words.every((i) => words[i].bold);
}

/**
 * The height a line's text sits at: the mean centre of its words in the line's most used font
 * size, so that exponents, indices and tall operators do not pull it up or down.
 */
function lineCenter(line: Line, words: Word[]): number {
  const bySize = new Map<number, number>();
  for (const i of line.words) {
    const size = Math.round(words[i].fontSize * 2) / 2;
    bySize.set(size, (bySize.get(size) ?? 0) + words[i].text.length);
  }
  let dominant = 0;
  let most = -1;
  for (const [size, chars] of bySize) if (chars > most) [dominant, most] = [size, chars];
  let total = 0;
  let n = 0;
  for (const i of line.words) {
    if (Math.abs(Math.round(words[i].fontSize * 2) / 2 - dominant) > 0.5) continue;
    total += centerY(words[i].box);
    n++;
  }
  return n ? total / n : centerY(line.box);
}

/**
 * Lines into blocks (paragraphs, list items, headings). Lines are taken in the order the file drew
 * them, and a line continues the block of the line drawn before it when it sits one line pitch
 * below it, overlapping it horizontally, in the same size and weight; failing that, any block
 * whose last line it continues so; else it starts a block. Following the drawing order first
 * keeps paragraphs whole where loose glyph boxes of formulas overlap the next line.
 */
export function groupBlocks(lines: Line[], words: Word[], codeFace: CodeFace = (word) => isMonospacedFont(word.fontName)): number[][] {
  const centers = lines.map((line) => lineCenter(line, words));
  const sizes = lines.map((line) => lineSize(line, words));
  const bold = lines.map((line) => lineBold(line, words));
  const rank = lines.map((line) => Math.min(...line.words));
  const turns = lines.map((line) => words[line.words[0]]?.turn ?? 0);
  const fonts = lines.map((line) => lineFont(line, words));
  const uses = (index: number, font: string) => lines[index].words.some((i) => words[i].fontName === font);
  // A line ending in a page number closes its contents entry, however far it reaches.
  const closesEntry = lines.map((line) => endsInPageReference(line, words));
  // A display formula is set off from the paragraph's left edge (centred or indented): it neither
  // continues the prose above it nor is continued by the prose below. A line set in the document's
  // code face is a listing's ("sum += x"), whose indents are its own.
  const formulas = new Map<number, boolean>();
  const formula = (index: number) => {
    let known = formulas.get(index);
    if (known === undefined) {
      const line = lines[index];
      known = !line.words.some((i) => codeFace(words[i])) && looksLikeFormula(line.words.map((i) => words[i].text).join(' '));
      formulas.set(index, known);
    }
    return known;
  };
  const setOff = (formulaLine: number, proseLine: number) => lines[formulaLine].box.x0 > lines[proseLine].box.x0 + Math.max(sizes[proseLine], 1) && formula(formulaLine) && !formula(proseLine);
  const endsSentence = (index: number) => /[.:;!?]["'”’)]*$/.test(words[lines[index].words[lines[index].words.length - 1]]?.text ?? '');
  const continues = (block: number[], index: number): number | null => {
    const lastIndex = block[block.length - 1];
    const last = lines[lastIndex];
    const line = lines[index];
    // A line set in another direction (an axis label, a sideways header) is a block of its own.
    if (turns[index] !== turns[lastIndex] || closesEntry[lastIndex]) return null;
    if (setOff(index, lastIndex) || setOff(lastIndex, index)) return null;
    const size = Math.max(sizes[index], sizes[lastIndex], 1);
    const step = centers[index] - centers[lastIndex];
    if (step < size * 0.6 || step > size * 2.1) return null;
    if (line.box.y0 - last.box.y1 > Math.max(line.box.y1 - line.box.y0, sizes[lastIndex]) * 0.8) return null;
    const overlap = Math.min(line.box.x1, last.box.x1) - Math.max(line.box.x0, last.box.x0);
    const minWidth = Math.min(line.box.x1 - line.box.x0, last.box.x1 - last.box.x0);
    if (overlap < minWidth * 0.3) return null;
    if (Math.max(sizes[index], sizes[lastIndex]) > Math.min(sizes[index], sizes[lastIndex]) * 1.2) return null;
    // A change of weight ends a block (a bold heading set tight over its text), except where the
    // line above runs on into this one: it ends no sentence, and it broke where it did because
    // this line's first word would not have fitted after it before the right edge of the lines
    // (a bold phrase filling a line of a paragraph, its text ragged or justified).
    if (bold[index] !== bold[lastIndex]) {
      const right = Math.max(line.box.x1, ...block.map((i) => lines[i].box.x1));
      const first = words[line.words[0]].box;
      if (right - last.box.x1 >= first.x1 - first.x0 + size * 0.5 || endsSentence(lastIndex)) return null;
    }
    // A line set wholly in a font the other line does not use at all (a heading in the display
    // face over body text) starts or ends a block, whatever its size and weight.
    if (fonts[index] !== fonts[lastIndex] && ((fonts[index] !== null && !uses(lastIndex, fonts[index])) || (fonts[lastIndex] !== null && !uses(index, fonts[lastIndex])))) return null;
    return step;
  };
  const blocks: number[][] = [];
  let previous: number[] | null = null;
  const order = lines.map((_, i) => i).sort((a, b) => rank[a] - rank[b]);
  for (const index of order) {
    let target: number[] | null = null;
    if (!startsListItem(lines[index], words)) {
      if (previous && continues(previous, index) !== null) {
        target = previous;
      } else {
        let bestStep = Infinity;
        for (const block of blocks) {
          const step = continues(block, index);
          if (step !== null && step < bestStep) {
            bestStep = step;
            target = block;
          }
        }
      }
    }
    if (target) target.push(index);
    else blocks.push((target = [index]));
    previous = target;
  }
  for (const block of blocks) block.sort((a, b) => centers[a] - centers[b]);
  return blocks;
}
