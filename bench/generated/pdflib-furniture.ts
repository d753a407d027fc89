// The pdf-lib producer's furniture: running heads and feet, page numbers, the preprint stamp turned
// up the left margin, line numbers, the side tab with its label turned down the page, and margin
// notes beside their paragraphs. Marks in page coordinates (points from the top left), each with
// the truth of what it says.
import type { Placement } from './pdflib-layout.js';
import { drawable, FAMILIES, type Family, GREY, type Mark, type Metrics, setText, type Spacing, type TextLine, wordsOf } from './pdflib-text.js';
import type { DocSpec } from './spec.js';
import type { TruthFurniture } from './truth.js';

export interface FurnitureMark {
  mark: Mark;
  /** Where it stands in reading order: before the body (-1), beside a block (the block's), or after the body (Infinity). */
  group: number;
}

export interface PageFurniture {
  marks: FurnitureMark[];
  truth: TruthFurniture[];
}

export interface FurnitureSetting {
  doc: DocSpec;
  metrics: Metrics;
  family: Family;
  spacing: Spacing;
  /** Pages in the document. */
  pages: number;
}

const TAB_WIDTH = 18;
const TAB_COLOUR = [0.2, 0.27, 0.33] as const;
const LINE_NUMBER_SIZE = 7;
/** Between the line numbers and the body. */
const LINE_NUMBER_GAP = 7;

function lineNumbersPerPage(doc: DocSpec): number {
  return Math.floor((doc.page.height - 2 * doc.page.margin) / (doc.type.size * 1.3));
}

export function pageFurniture(n: number, set: FurnitureSetting): PageFurniture {
  const { doc, metrics, family } = set;
  const { width: W, height: H, margin: M } = doc.page;
  const f = doc.furniture;
  const size = Math.max(7, doc.type.size - 2);
  const marks: FurnitureMark[] = [];
  const truth: TruthFurniture[] = [];
  const odd = n % 2 === 1;
  const widthOf = (text: string) => metrics.width(text, family.regular, size);
  // Words placed one by one where the document places its body's so, the whole string otherwise.
  const words = (text: string, x: number, baseline: number): TextLine => {
    let at = x;
    const space = metrics.width(' ', family.regular, size);
    const placed = wordsOf(text, family.regular).map((w) => {
      const p = { ...w, x: at };
      at += metrics.width(w.text, w.font, size) + space;
      return p;
    });
    return { kind: 'text', baseline, size, squeeze: 1, letterSpacing: 0, color: GREY, spacing: set.spacing === 'letters' ? 'words' : set.spacing, words: placed };
  };
  const topLine = M / 2 + size * 0.35;
  const bottomLine = H - M / 2 + size * 0.35;
  const add = (kind: TruthFurniture['kind'], raw: string, place: (text: string, width: number) => { x: number; baseline: number; group: number }) => {
    const text = drawable(raw);
    if (!text) return;
    const at = place(text, widthOf(text));
    marks.push({ mark: words(text, at.x, at.baseline), group: at.group });
    truth.push({ kind, text, page: n });
  };

  if (f.head && n > 1) add('running-head', f.head, (_, w) => ({ x: odd ? M : W - M - w, baseline: topLine, group: -1 }));
  if (f.foot) add('running-foot', f.foot, (_, w) => ({ x: odd ? M : W - M - w, baseline: bottomLine, group: Infinity }));
  if (f.pageNumber !== 'none') {
    const text = f.pageNumber === 'page-of' ? `Page ${n} of ${set.pages}` : f.pageNumber === 'dashed' ? `– ${n} –` : String(n);
    add('page-number', text, (_, w) => {
      if (f.pageNumber === 'top-outer') return { x: odd ? W - M - w : M, baseline: topLine, group: -1 };
      if (f.pageNumber === 'bottom-outer') return { x: odd ? W - M - w : M, baseline: bottomLine, group: Infinity };
      return { x: (W - w) / 2, baseline: bottomLine, group: Infinity };
    });
  }
  if (f.stamp && n === 1) {
    // Turned up the page, reading from the bottom, as arXiv prints its identifier.
    const text = drawable(f.stamp);
    const start = H * 0.72;
    // Left of the line numbers where there are any, so that the two never touch.
    const room = f.lineNumbers ? M - LINE_NUMBER_GAP - metrics.width(String(lineNumbersPerPage(doc) * set.pages), FAMILIES.sans.regular, LINE_NUMBER_SIZE) - 4 : M - 6;
    const left = f.lineNumbers ? 3 : Math.max(8, M / 2 - 10);
    const stampSize = Math.min(14, (room - left) / 0.95, (start - 20) / Math.max(1, metrics.width(text, FAMILIES.serif.regular, 1)));
    const x = left + stampSize * 0.72;
    marks.push({ mark: { kind: 'text', baseline: start, size: stampSize, squeeze: 1, letterSpacing: 0, color: [0.53, 0.53, 0.53], spacing: 'line', rotate: 90, words: [{ text, font: FAMILIES.serif.regular, x }] }, group: -1 });
    truth.push({ kind: 'stamp', text, page: n });
  }
  if (f.sideTab) {
    // A tab at the outer edge, its label turned down the page in white.
    const text = drawable(f.sideTab);
    const tabSize = 9;
    const length = metrics.width(text, FAMILIES.sans.regular, tabSize);
    const top = H * 0.25;
    const left = odd ? W - TAB_WIDTH : 0;
    marks.push({ mark: { kind: 'fill', shape: 'rect', rect: [left, top, left + TAB_WIDTH, top + length + 12], color: TAB_COLOUR }, group: -1 });
    marks.push({ mark: { kind: 'text', baseline: top + 6, size: tabSize, squeeze: 1, letterSpacing: 0, color: [1, 1, 1], spacing: 'line', rotate: -90, words: [{ text, font: FAMILIES.sans.regular, x: left + TAB_WIDTH / 2 - tabSize * 0.35 }] }, group: -1 });
    truth.push({ kind: 'side-tab', text, page: n });
  }
  if (f.lineNumbers) {
    // Numbered down the body on the body's own line pitch, counted on from the page before.
    const pitch = doc.type.size * 1.3;
    const count = lineNumbersPerPage(doc);
    const numberSize = LINE_NUMBER_SIZE;
    for (let i = 0; i < count; i++) {
      const text = String((n - 1) * count + i + 1);
      const x = M - LINE_NUMBER_GAP - metrics.width(text, FAMILIES.sans.regular, numberSize);
      const baseline = M + i * pitch + (pitch - doc.type.size) / 2 + doc.type.size * 0.8;
      marks.push({ mark: { kind: 'text', baseline, size: numberSize, squeeze: 1, letterSpacing: 0, color: [0.47, 0.47, 0.47], spacing: 'line', words: [{ text, font: FAMILIES.sans.regular, x }] }, group: -1 });
      truth.push({ kind: 'line-number', text, page: n });
    }
  }
  return { marks, truth };
}

/** Margin notes in the page's outer margin beside their paragraphs, each below the one before. */
export function marginNotes(n: number, placements: Placement[], set: FurnitureSetting): PageFurniture {
  const { doc, metrics, family } = set;
  const { width: W, margin: M } = doc.page;
  const f = doc.furniture;
  // The outer margin; the right one where line numbers or a stamp hold the left, the inner one where a side tab holds the outer.
  const right = f.lineNumbers || f.stamp ? true : f.sideTab ? n % 2 === 0 : n % 2 === 1;
  const width = M - 12;
  const x = right ? W - M + 6 : 6;
  const size = 7;
  const marks: FurnitureMark[] = [];
  const truth: TruthFurniture[] = [];
  let free = 0;
  placements.forEach((p, group) => {
    const note = p.chunk.marginNote;
    if (!note) return;
    const top = Math.max(p.y, free);
    const laid = setText(wordsOf(note, family.italic), x, width, top, { size, lineHeight: size * 1.2, squeeze: 1, letterSpacing: 0, color: [0.33, 0.33, 0.33], spacing: set.spacing === 'letters' ? 'words' : set.spacing, align: 'left' }, metrics);
    for (const mark of laid.lines) marks.push({ mark, group });
    truth.push({ kind: 'margin-note', text: note, page: n });
    free = top + laid.height + 4;
  });
  return { marks, truth };
}
