// Words into text lines. Runs of words in the order the file drew them that continue one line
// are joined first (so exponents, indices and formula pieces stay with their line), then runs on
// one visual line are joined unless a gutter (a gap the neighbouring lines leave empty too)
// separates them: that is a column or table boundary, not a space between words.
import { LIST_MARKER, SUBCAPTION_MARK } from './markers.js';
import { turnBox, unionBox, verticalOverlap, type Box, type Line, type Word } from './page-model.js';

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
  // An end-of-proof mark set flush right (TeX's \qed) ends the line drawn just before it, however
  // far right it stands and whatever formula stands between.
  if (END_OF_PROOF.test(word.text) && verticalOverlap(last.box, word.box) >= 0.5 && word.box.x0 >= last.box.x1) return true;
  if (gap > size * 0.7) return false;
  if (verticalOverlap(last.box, word.box) >= 0.5) return true;
  if (gap > size * 0.3) return false;
  const height = main.y1 - main.y0;
  const center = centerY(word.box);
  if (word.fontSize < mainSize * 0.9) return center >= main.y0 - height * 0.4 && center <= main.y1 + height * 0.4;
  if (word.fontSize > mainSize * 1.1) {
    const overlap = Math.min(main.y1, word.box.y1) - Math.max(main.y0, word.box.y0);
    // A small label set over or under a wider sign (TeX's \xRightarrow{Def. 12}) sits within its
    // width, touching it, and belongs to its line.
    if (overlap > 0 && main.x0 >= word.box.x0 - 1 && main.x1 <= word.box.x1 + 1) return true;
    return overlap >= height * 0.5;
  }
  return false;
}

/**
 * Words into lines; `skip` holds words that are not running text (they sit in tables). Words set
 * in another direction than the page's text (Word.turn) make lines of their own, built in the
 * frame where they read left to right.
 */
export function buildLines(words: Word[], skip?: Set<number>): Line[] {
  const turns = new Set(words.map((w) => w.turn ?? 0));
  if (turns.size === 1 && turns.has(0)) return uprightLines(words, skip);
  const lines: Line[] = [];
  for (const turn of turns) {
    const inFrame = words.map((w) => ((w.turn ?? 0) === turn && turn !== 0 ? { ...w, box: turnBox(w.box, turn) } : w));
    const others = new Set(skip);
    words.forEach((w, i) => {
      if ((w.turn ?? 0) !== turn) others.add(i);
    });
    for (const line of uprightLines(inFrame, others)) lines.push(turn === 0 ? line : { words: line.words, box: turnBox(line.box, 360 - turn) });
  }
  return lines.sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
}

/** Lines of words that read left to right on the page. */
function uprightLines(words: Word[], skip?: Set<number>): Line[] {
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
    const segment = interrupted ? undefined : segments[segments.length - 1];
    interrupted = false;
    const word = words[i];
    // A sub-caption drawn right after another one on its line starts a run of its own ("(a) …" "(b) …").
    const nextSubcaption = segment !== undefined && SUBCAPTION_MARK.test(word.text) && startsSubcaption(segment, words);
    if (segment && main && !nextSubcaption && continuesLine(words[segment[segment.length - 1]], word, main, mainSize)) {
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
  const boxes = segments.map((s) => unionBox(s.map((i) => words[i].box)));
  // Pass 2: runs on one visual line are joined (content streams often draw a line in pieces),
  // except across a gutter: a gap that the lines above and below leave empty too is a column
  // or table boundary, not a space between words.
  const pageColumns = leaderPageColumns(segments, boxes, words);
  const labels = descriptionLabels(segments, boxes, words);
  const order = segments.map((_, i) => i).sort((a, b) => centerY(boxes[a]) - centerY(boxes[b]) || boxes[a].x0 - boxes[b].x0);
  const merged: { words: number[]; box: Box; size: number }[] = [];
  for (const index of order) {
    const box = boxes[index];
    const size = Math.max(...segments[index].map((i) => words[i].fontSize), 1);
    const target = merged.find((line) => {
      if (verticalOverlap(line.box, box) < 0.6) return false;
      const gap = horizontalGap(line.box, box);
      const lineSize = Math.max(size, line.size);
      // The line and the run, as the left and right of the pair (words and box).
      const lineFirst = line.box.x0 <= box.x0;
      const [left, right] = lineFirst ? [line.words, segments[index]] : [segments[index], line.words];
      const [leftBox, rightBox] = lineFirst ? [line.box, box] : [box, line.box];
      const nothingBetween = () => !boxes.some((b) => b.x0 >= leftBox.x1 && b.x1 <= rightBox.x0 && verticalOverlap(b, rightBox) >= 0.6);
      // A bullet or number stands apart from its item's text, in a column of its own, yet
      // belongs to the line.
      if (gap > 0 && gap <= lineSize * 4 && left.length === 1 && LIST_MARKER.test(words[left[0]].text)) return true;
      // So does a section number before its title ("2  Mannigfaltigkeiten", "4.1  Axiome").
      if (gap > 0 && gap <= lineSize * 2.5 && left.length === 1 && SECTION_NUMBER.test(words[left[0]].text) && /^\p{L}/u.test(words[right[0]].text)) return true;
      // A page number after a dot leader (a table of contents, an index) ends its entry's line,
      // however far right it is set.
      if (gap > 0 && gap <= lineSize * 12 && endsWithLeader(left, words) && isPageReference(right, words)) return true;
      // A heading's page number in the same right-aligned column as the leader lines' numbers.
      if (gap > 0 && isPageReference(right, words) && pageColumns.some((x1) => Math.abs(rightBox.x1 - x1) < 1.5)) return true;
      // An end-of-proof mark set flush right (TeX's \qed) ends the line it stands on, when no
      // other text (another column's line) stands between them.
      if (gap > 0 && right.length === 1 && END_OF_PROOF.test(words[right[0]].text) && nothingBetween()) return true;
      // The labels of a description list ("(i) Definitheit:", "(ii) Symmetrie:") stand in a
      // column of their own, apart from what they introduce, yet each is one line with it,
      // unless other text stands between them.
      if (gap > 0 && gap <= lineSize * 8 && left.every((i) => labels.has(i)) && nothingBetween()) return true;
      const spaced = gap - trackingRoom(left.map((i) => words[i]), right.map((i) => words[i]));
      if (spaced < -lineSize || spaced > lineSize * 1.5) return false;
      // Sub-captions side by side ("(a) …" under one picture, "(b) …" under the next) are two
      // columns, however close they come.
      if (startsSubcaption(left, words) && startsSubcaption(right, words)) return false;
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

/** Right edges of the page numbers that follow dot leaders: the page column of a table of contents. */
function leaderPageColumns(segments: number[][], boxes: Box[], words: Word[]): number[] {
  const columns: number[] = [];
  segments.forEach((segment, i) => {
    if (!isPageReference(segment, words)) return;
    const size = Math.max(...segment.map((w) => words[w].fontSize), 1);
    const led = segments.some((other, j) => j !== i && verticalOverlap(boxes[j], boxes[i]) >= 0.6 && boxes[j].x1 <= boxes[i].x0 && boxes[i].x0 - boxes[j].x1 <= size * 12 && endsWithLeader(other, words));
    if (led && !columns.some((x) => Math.abs(x - boxes[i].x1) < 1.5)) columns.push(boxes[i].x1);
  });
  return columns;
}

const END_OF_PROOF = /^[■□∎◼◻]$/u;

/** Whether a run of words is a list item's label: an enumerator, a few words, a colon. */
function labelsItem(run: number[], words: Word[]): boolean {
  const ordered = [...run].sort((a, b) => words[a].box.x0 - words[b].box.x0);
  return ordered.length >= 2 && ordered.length <= 4 && LIST_MARKER.test(words[ordered[0]].text) && /\p{L}:$/u.test(words[ordered[ordered.length - 1]].text);
}

/**
 * The words of the runs that label the items of a description list: item labels with another one
 * close above or below, starting within a font size of it. A lone label-like line is left alone,
 * as it may be the end of a column's line beside the next column.
 */
function descriptionLabels(segments: number[][], boxes: Box[], words: Word[]): Set<number> {
  const candidates = segments.map((_, i) => i).filter((i) => labelsItem(segments[i], words));
  const out = new Set<number>();
  for (const i of candidates) {
    const size = Math.max(...segments[i].map((w) => words[w].fontSize), 1);
    const sibling = candidates.some((j) => j !== i && Math.abs(boxes[j].x0 - boxes[i].x0) <= size && Math.abs(boxes[j].y0 - boxes[i].y0) <= size * 4 && verticalOverlap(boxes[j], boxes[i]) < 0.5);
    if (sibling) for (const w of segments[i]) out.add(w);
  }
  return out;
}

/** Whether a run of words begins (at its left) with a sub-caption mark such as "(b)". */
function startsSubcaption(run: number[], words: Word[]): boolean {
  const first = run.reduce((a, b) => (words[b].box.x0 < words[a].box.x0 ? b : a));
  return SUBCAPTION_MARK.test(words[first].text);
}

const SECTION_NUMBER = /^\d{1,2}(\.\d{1,2}){0,3}$/;

/** Dots or a leader glyph at the end of a run: ". . . ." or "……". */
function endsWithLeader(run: number[], words: Word[]): boolean {
  const tail = [...run].sort((a, b) => words[a].box.x0 - words[b].box.x0).slice(-3);
  const text = tail.map((i) => words[i].text).join('');
  return /(\.{3,}|…+|·{3,})$/.test(text);
}

/** One or two words of page numbers: "17", "iii", "11–14". */
function isPageReference(run: number[], words: Word[]): boolean {
  return run.length <= 2 && run.every((i) => /^([0-9]{1,4}|[ivxlcdm]{1,6})([–-][0-9]{1,4})?,?$/i.test(words[i].text));
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

