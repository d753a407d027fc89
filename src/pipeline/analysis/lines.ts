// Words into text lines. Runs of words in the order the file drew them that continue one line
// are joined first (so exponents, indices and formula pieces stay with their line), then runs on
// one visual line are joined unless a gutter (a gap the neighbouring lines leave empty too)
// separates them: that is a column or table boundary, not a space between words. Runs of different
// type sizes are joined only across a word space of the smaller size. A number that ends a line (a
// contents entry's page number, an equation's number) stays with it however wide the gap.
import { EQUATION_LABEL, LEADER, LIST_MARKER, MATH_SIGN, PAGE_NUMBER } from './markers.js';
import { turnBox, unionBox, verticalOverlap, type Box, type Line, type Word } from '../page-model.js';

/** A section or line number standing alone: "3", "12", "4.1", "2.3.1". */
const LINE_NUMBER = /^\d{1,3}(\.\d{1,2}){0,3}$/;
/** An equation's number as a word of its own. */
const EQUATION_LABEL_ALONE = new RegExp(`^${EQUATION_LABEL.source}$`);

function horizontalGap(a: Box, b: Box): number {
  return Math.max(b.x0 - a.x1, a.x0 - b.x1);
}

/**
 * The room letter spacing takes in a word gap of tracked-out text: the spacing after the last
 * letter and after the space, where both sides were set with it (Word.letterSpacing).
 */
function trackingRoom(a: Word[], b: Word[]): number {
  let spacing = Infinity;
  for (const w of a) spacing = Math.min(spacing, w.letterSpacing ?? 0);
  for (const w of b) spacing = Math.min(spacing, w.letterSpacing ?? 0);
  return Number.isFinite(spacing) ? spacing * 2 : 0;
}

export const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;

function continuesLine(last: Word, word: Word, main: Box, mainSize: number): boolean {
  const size = Math.max(last.fontSize, word.fontSize, 1);
  const gap = horizontalGap(last.box, word.box) - trackingRoom([last], [word]);
  if (gap > size * 0.7) return false;
  if (verticalOverlap(last.box, word.box) >= 0.5) return true;
  if (gap > size * 0.3) return false;
  const height = main.y1 - main.y0;
  const center = centerY(word.box);
  // A smaller glyph raised or lowered against the run still reaches into its band; one wholly
  // under it (the first word of a smaller line right under a heading) starts a line of its own.
  if (word.fontSize < mainSize * 0.9) return center >= main.y0 - height * 0.4 && center <= main.y1 + height * 0.4 && word.box.y0 < main.y1 && word.box.y1 > main.y0;
  if (word.fontSize > mainSize * 1.1) {
    const overlap = Math.min(main.y1, word.box.y1) - Math.max(main.y0, word.box.y0);
    return overlap >= height * 0.5;
  }
  return false;
}

/**
 * Words into lines; `skip` holds words that are not running text (they sit in tables), `apart`
 * words that are each a line of their own (a line-number ruler's, line-numbers.ts). Words set
 * in another direction than the page's text (Word.turn) make lines of their own, built in the
 * frame where they read left to right.
 */
export function buildLines(words: Word[], skip?: Set<number>, apart?: Set<number>): Line[] {
  const turns = new Set(words.map((w) => w.turn ?? 0));
  if (turns.size === 1 && turns.has(0)) return uprightLines(words, skip, apart);
  const lines: Line[] = [];
  for (const turn of turns) {
    const inFrame = words.map((w) => ((w.turn ?? 0) === turn && turn !== 0 ? { ...w, box: turnBox(w.box, turn) } : w));
    const others = new Set(skip);
    words.forEach((w, i) => {
      if ((w.turn ?? 0) !== turn) others.add(i);
    });
    for (const line of uprightLines(inFrame, others, apart)) lines.push(turn === 0 ? line : { words: line.words, box: turnBox(line.box, 360 - turn) });
  }
  return lines.sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
}

/** Lines of words that read left to right on the page. */
function uprightLines(words: Word[], skip?: Set<number>, apart?: Set<number>): Line[] {
  // Pass 1: runs of words in the order the file drew them that continue one line: on the same
  // baseline with word-sized gaps, or smaller glyphs raised or lowered against it (exponents,
  // indices, the limits of an integral), or a larger operator standing across it.
  const segments: number[][] = [];
  let main: Box | null = null;
  let mainSize = 0;
  let interrupted = false;
  for (let i = 0; i < words.length; i++) {
    // Words of a table or a drawing drawn in between end a run.
    if (skip?.has(i)) {
      interrupted = true;
      continue;
    }
    const word = words[i];
    if (apart?.has(i)) {
      segments.push([i]);
      interrupted = true;
      continue;
    }
    const segment = interrupted ? undefined : segments[segments.length - 1];
    interrupted = false;
    if (segment && main && continuesLine(words[segment[segment.length - 1]], word, main, mainSize)) {
      segment.push(i);
      if (word.fontSize >= mainSize * 0.9) {
        main = unionBox([main, word.box]);
        mainSize = Math.max(mainSize, word.fontSize);
      }
      continue;
    }
    segments.push([i]);
    main = { ...word.box };
    mainSize = word.fontSize;
  }
  attachEndNumbers(segments, words, apart);
  const boxes = segments.map((s) => unionBox(s.map((i) => words[i].box)));
  // Pass 2: runs on one visual line are joined (content streams often draw a line in pieces),
  // except across a gutter: a gap that the lines above and below leave empty too is a column
  // or table boundary, not a space between words.
  const order = segments.map((_, i) => i).sort((a, b) => centerY(boxes[a]) - centerY(boxes[b]) || boxes[a].x0 - boxes[b].x0);
  const merged: { words: number[]; box: Box; size: number }[] = [];
  for (const index of order) {
    const box = boxes[index];
    const size = Math.max(...segments[index].map((i) => words[i].fontSize), 1);
    const alone = apart?.has(segments[index][0]);
    const target = merged.find((line) => {
      if (alone || apart?.has(line.words[0]) || verticalOverlap(line.box, box) < 0.6) return false;
      const gap = horizontalGap(line.box, box);
      const lineSize = Math.max(size, line.size);
      // The line and the run, as the left and right of the pair (words and box).
      const lineFirst = line.box.x0 <= box.x0;
      const [left, right] = lineFirst ? [line.words, segments[index]] : [segments[index], line.words];
      const [leftBox, rightBox] = lineFirst ? [line.box, box] : [box, line.box];
      // A bullet or number stands apart from its item's text, in a column of its own, yet
      // belongs to the line.
      if (gap > 0 && gap <= lineSize * 4 && left.length === 1 && LIST_MARKER.test(words[left[0]].text)) return true;
      // So does a number alone opening a line before words: a section number before its title
      // ("4.1  Axiome"), a transcript's or a contract's line number in the margin before its line
      // (not a figure ending a line, before a note beyond it).
      if (gap > 0 && gap <= lineSize * 2.5 && left.length === 1 && LINE_NUMBER.test(words[left[0]].text) && /^\p{L}/u.test(words[right[0]].text) && opensLine(leftBox, boxes, lineSize)) return true;
      // Leader dots continue one another and the entry they lead from, though set on a grid whose
      // gaps line up down the page like a gutter's (a full stop stands close to its word, not apart).
      if (gap > 0 && gap <= lineSize * 2 && LEADER.test(words[edgeWord(right, words, 'start')].text)) return true;
      const spaced = gap - trackingRoom(left.map((i) => words[i]), right.map((i) => words[i]));
      if (spaced < -lineSize || spaced > lineSize * 1.5) return false;
      // An equation's number closes its formula's line: what stands after it is the next column's.
      if (closesFormula(left, words)) return false;
      // Runs of two type sizes join only across a word space of the smaller: a note set smaller
      // in the margin stands further from the text beside it than its own spaces, though within a
      // space of the text's size, and whether the lines around leave that gap empty depends on
      // how ragged they are, which says nothing of the note.
      const smaller = Math.min(size, line.size);
      if (smaller < lineSize * 0.85) return spaced <= smaller * 0.5;
      if (spaced <= lineSize * 0.5) return true;
      // The OCR engine already split the page into lines: two of its lines side by side are two
      // columns unless they touch.
      const ocrA = words[line.words[0]].ocrLine;
      const ocrB = words[segments[index][0]].ocrLine;
      if (ocrA !== undefined && ocrB !== undefined && ocrA !== ocrB) return false;
      return !isGutter(leftBox.x1, rightBox.x0, line.box, boxes, lineSize);
    });
    if (target) {
      target.words.push(...segments[index]);
      target.box = unionBox([target.box, box]);
      target.size = Math.max(target.size, size);
    } else {
      merged.push({ words: [...segments[index]], box: { ...box }, size });
    }
  }
  for (const line of merged) {
    const rtl = line.words.some((i) => RTL.test(words[i].text));
    if (!rtl) line.words.sort((a, b) => words[a].box.x0 - words[b].box.x0);
  }
  return merged
    .map(({ words: w, box }) => ({ words: w, box }))
    .sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
}

/**
 * A number that ends a line joins the run before it, however wide the gap it leaves (which can
 * look like a gutter). An equation's number ("(12)") at the right of a display formula on its
 * baseline. A contents entry's page number: when the run before it ends in leader dots,
 * or when the number stands in a column of page numbers at the right of text (two more lone
 * numbers end within a font size of its right edge, within six lines, each after a run in its
 * size and on its baseline), as a contents page set without leaders has them, even where the
 * next page column starts close after it. In a right-to-left script the entry ends at its left and
 * its page numbers line up at their left edges.
 */
function attachEndNumbers(segments: number[][], words: Word[], apart?: Set<number>): void {
  const boxes = segments.map((s) => unionBox(s.map((i) => words[i].box)));
  const sizeOf = (k: number) => Math.max(...segments[k].map((i) => words[i].fontSize), 1);
  const level = (j: number, k: number) => j !== k && verticalOverlap(boxes[j], boxes[k]) >= 0.6;
  // The run nearest to run k on its left (side -1) or its right (side 1), level with it; a ruler's
  // line number stands apart. In a right-to-left script the entry ends at its left, so its page
  // number stands left of it.
  const nearest = (k: number, side: -1 | 1) => {
    let best = -1;
    let bestGap = Infinity;
    boxes.forEach((b, j) => {
      if (!level(j, k) || apart?.has(segments[j][0])) return;
      const gap = side < 0 ? boxes[k].x0 - b.x1 : b.x0 - boxes[k].x1;
      if (gap < 0 || gap >= bestGap) return;
      best = j;
      bestGap = gap;
    });
    return best;
  };
  const before = (k: number) => nearest(k, -1);
  const rightToLeft = segments.map((s) => s.some((i) => RTL.test(words[i].text)));
  const number = segments.map((s) => s.length === 1 && PAGE_NUMBER.test(words[s[0]].text) && !apart?.has(s[0]));
  // The entry is set in the number's size, on its baseline: not a line of the column beside a
  // listing, whose line numbers are set in the listing's smaller size and open its lines.
  const lastWord = (j: number) => words[rightToLeft[j] ? edgeWord(segments[j], words, 'start') : segments[j][segments[j].length - 1]];
  // The number k stands on the baseline of run j, within `share` of the number's font size.
  const onBaseline = (j: number, k: number, share: number) => Math.abs(lastWord(j).box.y1 - words[segments[k][0]].box.y1) <= share * words[segments[k][0]].fontSize;
  const alike = (j: number, k: number) => Math.abs(lastWord(j).fontSize - words[segments[k][0]].fontSize) <= 0.1 * words[segments[k][0]].fontSize && onBaseline(j, k, 0.2);
  const entry = segments.map((_, k) => {
    if (!number[k]) return -1;
    const left = before(k);
    if (left >= 0 && !rightToLeft[left] && alike(left, k)) return left;
    const right = nearest(k, 1);
    return right >= 0 && rightToLeft[right] && alike(right, k) ? right : -1;
  });
  // Page numbers line up at the side away from their entries: their right edges, or their left
  // edges in a right-to-left script.
  const edge = (k: number) => (entry[k] >= 0 && rightToLeft[entry[k]] ? -boxes[k].x0 : boxes[k].x1);
  const inColumn = (k: number) => {
    const reach = Math.max(boxes[k].y1 - boxes[k].y0, sizeOf(k)) * 6;
    let peers = 0;
    for (let j = 0; j < segments.length && peers < 2; j++) {
      if (j !== k && entry[j] >= 0 && rightToLeft[entry[j]] === rightToLeft[entry[k]] && Math.abs(edge(j) - edge(k)) <= sizeOf(k) && Math.abs(centerY(boxes[j]) - centerY(boxes[k])) <= reach) peers++;
    }
    return peers >= 2;
  };
  // An equation's number at the right of a display formula: a run before it on its baseline sets a sign of relation or operation.
  const textBefore = (k: number) => segments.flatMap((s, j) => (level(j, k) && boxes[j].x1 <= boxes[k].x0 ? s.map((i) => words[i].text) : [])).join(' ');
  const numbersFormula = (k: number, j: number) => onBaseline(j, k, 0.25) && MATH_SIGN.test(textBefore(k));
  // Dots set far apart are runs of their own: the dot before the number leads when a dot run stands before it too.
  const endsInDot = (j: number) => LEADER.test(lastWord(j).text);
  const dotsBefore = (j: number) => {
    const previous = before(j);
    return previous >= 0 && endsInDot(previous);
  };
  const led = (j: number, k: number) => !rightToLeft[j] && (endsInLeaders(segments[j].map((i) => words[i].text)) || (endsInDot(j) && dotsBefore(j))) && boxes[k].x0 - boxes[j].x1 <= sizeOf(k) * 4;
  const joins = segments.map((_, k) => {
    const j = entry[k];
    if (j >= 0 && (led(j, k) || inColumn(k))) return j;
    const b = segments[k].length === 1 && EQUATION_LABEL_ALONE.test(words[segments[k][0]].text) && !apart?.has(segments[k][0]) ? before(k) : -1;
    return b >= 0 && numbersFormula(k, b) ? b : -1;
  });
  joins.forEach((j, k) => {
    if (j < 0) return;
    segments[j].push(...segments[k]);
    segments[k] = [];
  });
  const kept = segments.filter((s) => s.length > 0);
  segments.length = 0;
  segments.push(...kept);
}

/** The run's first or last word along the line. */
function edgeWord(run: number[], words: Word[], edge: 'start' | 'end'): number {
  return run.reduce((a, b) => ((edge === 'end' ? words[b].box.x1 > words[a].box.x1 : words[b].box.x0 < words[a].box.x0) ? b : a));
}

/** The words end in an equation's number after a formula's sign. */
function closesFormula(run: number[], words: Word[]): boolean {
  return EQUATION_LABEL_ALONE.test(words[edgeWord(run, words, 'end')].text) && run.some((i) => MATH_SIGN.test(words[i].text));
}

/** The run ends in leader dots: a word of three dots or more, or two words of dots. */
function endsInLeaders(texts: string[]): boolean {
  const last = texts[texts.length - 1] ?? '';
  return LEADER.test(last) && (last.length >= 3 || LEADER.test(texts[texts.length - 2] ?? ''));
}

/** No run stands just before the box on its visual line, within a space and a half of the type. */
function opensLine(box: Box, boxes: Box[], size: number): boolean {
  return !boxes.some((other) => other !== box && other.x1 <= box.x0 && box.x0 - other.x1 <= size * 1.5 && verticalOverlap(other, box) >= 0.6);
}

/** Whether the horizontal gap [from, to] on this line stays empty in the nearby lines. */
function isGutter(from: number, to: number, line: Box, boxes: Box[], size: number): boolean {
  const height = Math.max(line.y1 - line.y0, size);
  let nearby = 0;
  for (const box of boxes) {
    if (box.y1 < line.y0 - height * 4 || box.y0 > line.y1 + height * 4) continue;
    if (verticalOverlap(box, line) >= 0.5) continue;
    if (box.x1 < from - size * 3 || box.x0 > to + size * 3) continue;
    if (box.x0 < from && box.x1 > to) return false;
    nearby++;
  }
  return nearby >= 2;
}

export function centerY(box: Box): number {
  return (box.y0 + box.y1) / 2;
}

export function centerX(box: Box): number {
  return (box.x0 + box.x1) / 2;
}

