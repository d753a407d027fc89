// The pdf-lib producer's blocks, measured by hand: each DocSpec block as one or more flowables
// (pdflib-layout.ts) whose chunks hold the marks to draw and the truth of what they hold, relative
// to the chunk's top left. Sizes and room follow the Chromium producer's styles (html.ts), so the
// two producers' documents look alike and differ in how they are written, not in what they show.
import type { StandardFonts } from 'pdf-lib';
import type { Chunk, Flowable } from './pdflib-layout.js';
import { tableFlowable } from './pdflib-table.js';
import { blockEntry, drawable, FAMILIES, type Entry, type Family, INK, type LineStyle, type Mark, type Metrics, type Rgb, setText, type Spacing, type TextLine, type Word, wordsOf } from './pdflib-text.js';
import type { Random } from './random.js';
import type { Block, DocSpec } from './spec.js';

/** What every block is measured with. */
export interface Setting {
  doc: DocSpec;
  metrics: Metrics;
  family: Family;
  /** Horizontal scaling of the body face (the narrow face is Helvetica squeezed). */
  squeeze: number;
  size: number;
  columnWidth: number;
  bodyWidth: number;
  random: Random;
  /** How the next block's lines are written: the document's way, or a new draw per block. */
  spacing(): Spacing;
}

const lineHeightOf = (size: number) => size * 1.3;

function style(s: Setting, size: number, options: Partial<LineStyle> = {}): LineStyle {
  return { size, lineHeight: lineHeightOf(size), squeeze: s.squeeze, letterSpacing: 0, color: INK, spacing: 'line', align: 'left', ...options };
}

function atomic(span: boolean, keep: number, chunk: Chunk): Flowable {
  return { span, pieces: 1, keep, build: () => chunk };
}

function chunk(marks: Mark[], entries: Entry[], height: number, before: number, after: number, extra: Partial<Chunk> = {}): Chunk {
  return { before, height, after, marks, entries, footnote: null, marginNote: null, ...extra };
}

/** Words set in lines `width` wide from the top left, and the text they say. */
function textBlock(s: Setting, words: Word[], width: number, lineStyle: LineStyle, x = 0): { lines: TextLine[]; height: number; text: string } {
  const set = setText(words, x, width, 0, lineStyle, s.metrics);
  return { ...set, text: words.map((w) => w.text).join(' ') };
}

/** Paragraph-like text: letter-spaced in some documents (their type says so), justified in others. */
function bodyStyle(s: Setting, size: number, options: Partial<LineStyle> = {}): LineStyle {
  const letters = s.doc.type.letterSpacing > 0 && s.random.chance(0.7);
  return style(s, size, {
    spacing: letters ? 'letters' : s.spacing(),
    letterSpacing: letters ? s.doc.type.letterSpacing : 0,
    align: s.doc.type.justified ? 'justify' : 'left',
    ...options,
  });
}

function runsWords(s: Setting, block: Extract<Block, { kind: 'paragraph' }>): Word[] {
  const f = s.family;
  return block.runs.flatMap((run) => wordsOf(drawable(run.text), run.bold ? f.bold : run.italic ? f.italic : f.regular));
}

export function footnoteChunk(s: Setting, note: { mark: string; text: string }): Chunk {
  const size = Math.max(6.5, s.size - 2);
  const text = drawable(`${note.mark} ${note.text}`);
  const set = textBlock(s, wordsOf(text, s.family.regular), s.bodyWidth * 0.6, style(s, size, { spacing: s.spacing() }));
  return chunk(set.lines, [blockEntry('footnote', set.text, [0, 0, s.bodyWidth * 0.6, set.height])], set.height, 0, 0);
}

const HEADING_SCALE = { 1: 1.45, 2: 1.2, 3: 1.05, 4: 1 } as const;

export function flowables(b: Block, s: Setting): Flowable[] {
  const f = s.family;
  const size = s.size;
  const width = s.columnWidth;
  switch (b.kind) {
    case 'title': {
      const span = s.doc.columns > 1;
      const w = span ? s.bodyWidth : width;
      const titleSize = size * 2;
      const title = textBlock(s, wordsOf(drawable(b.text), f.bold), w, style(s, titleSize, { lineHeight: titleSize * 1.15, spacing: s.spacing() }));
      const marks: Mark[] = [...title.lines];
      const entries = title.text ? [blockEntry('title', title.text, [0, 0, w, title.height])] : [];
      let height = title.height;
      const subtitle = b.subtitle ? drawable(b.subtitle) : '';
      if (subtitle) {
        const top = height + titleSize * 0.3;
        const set = setText(wordsOf(subtitle, f.italic), 0, w, top, style(s, size * 1.2, { spacing: s.spacing() }), s.metrics);
        marks.push(...set.lines);
        entries.push(blockEntry('paragraph', subtitle, [0, top, w, top + set.height]));
        height = top + set.height;
      }
      return entries.length ? [atomic(span, 0, chunk(marks, entries, height, 0, size * 1.2))] : [];
    }
    case 'heading': {
      const headingSize = size * HEADING_SCALE[b.level];
      const text = drawable(`${b.number ? `${b.number} ` : ''}${b.text}`);
      const set = textBlock(s, wordsOf(text, b.level === 3 ? f.boldItalic : f.bold), width, style(s, headingSize, { spacing: s.spacing() }));
      if (!set.text) return [];
      const entry = blockEntry('heading', set.text, [0, 0, width, set.height], b.level);
      return [atomic(false, lineHeightOf(size) * 2, chunk(set.lines, [entry], set.height, headingSize * 0.8, headingSize * 0.35))];
    }
    case 'paragraph': {
      const set = textBlock(s, runsWords(s, b), width, bodyStyle(s, size));
      if (!set.text) return [];
      const marks: Mark[] = [...set.lines];
      const footnote = b.footnote ? { mark: drawable(b.footnote.mark), text: drawable(b.footnote.text) } : null;
      if (footnote) {
        // The mark raised after the last word; not part of the paragraph's text.
        const last = set.lines[set.lines.length - 1];
        const end = last.words[last.words.length - 1];
        const x = end.x + s.metrics.width(end.text, end.font, last.size, last.squeeze, last.letterSpacing) + 0.5;
        marks.push({ ...last, size: size * 0.7, baseline: last.baseline - size * 0.35, letterSpacing: 0, spacing: 'words', words: [{ text: footnote.mark, font: f.regular, x }] });
      }
      const marginNote = b.marginNote ? drawable(b.marginNote) || null : null;
      return [atomic(false, 0, chunk(marks, [blockEntry('paragraph', set.text, [0, 0, width, set.height])], set.height, 0, size * 0.55, { footnote, marginNote }))];
    }
    case 'list':
      return [listFlowable(b, s)];
    case 'quote': {
      const indent = size * 1.5;
      const set = textBlock(s, wordsOf(drawable(b.text), f.italic), width - 2 * indent, bodyStyle(s, size, { color: [0.2, 0.2, 0.2] }), indent);
      if (!set.text) return [];
      return [atomic(false, 0, chunk(set.lines, [blockEntry('quote', set.text, [indent, 0, width - indent, set.height])], set.height, 0, size * 0.6))];
    }
    case 'aside':
      return [asideFlowable(b, s)];
    case 'code':
      return [codeFlowable(b, s)];
    case 'equation':
      return equation(b, s);
    case 'figure':
      return figure(b, s);
    case 'table': {
      const flowable = tableFlowable(b.table, s, s.doc.columns > 1 && b.table.width !== 'narrow');
      return flowable ? [flowable] : [];
    }
    case 'contents':
      return [contentsFlowable(b, s)];
  }
}

/**
 * Each entry's text from its level's indent, then on its last line the leader dots (on a grid of
 * their own, so the dots of all lines stand in columns, as TeX sets them) and the page number
 * flush with the column's right edge.
 */
function contentsFlowable(b: Extract<Block, { kind: 'contents' }>, s: Setting): Flowable {
  const size = s.size;
  const regular = s.family.regular;
  const lineStyle = style(s, size, { spacing: s.spacing() });
  const numberRoom = s.metrics.width('0000', regular, size, s.squeeze);
  const step = s.metrics.width('. ', regular, size, s.squeeze) * 1.2;
  const sets = b.entries.map((e) => {
    const indent = (e.level - 1) * size * 1.5;
    const words = wordsOf(drawable(e.text), e.level === 1 ? s.family.bold : regular);
    return { entry: e, indent, set: textBlock(s, words, s.columnWidth - indent - numberRoom - size * 2, lineStyle, indent) };
  });
  return stacked(sets.length, size * 0.2, size * 0.3, size * 0.55, (i, y) => {
    const { entry, indent, set } = sets[i];
    const page = drawable(entry.page);
    if (!set.text || !page) return null;
    const lines = set.lines.map((line) => ({ ...line, baseline: line.baseline + y, words: [...line.words] }));
    const last = lines[lines.length - 1];
    const end = last.words[last.words.length - 1];
    const textEnd = end.x + s.metrics.width(end.text, end.font, size, s.squeeze);
    const pageX = s.columnWidth - s.metrics.width(page, regular, size, s.squeeze);
    if (b.leaders === 'dots') {
      for (let x = Math.ceil((textEnd + size * 0.5) / step) * step; x + step <= pageX - size * 0.3; x += step) last.words.push({ text: '.', font: regular, x });
    }
    last.words.push({ text: page, font: regular, x: pageX });
    return { marks: lines, entry: blockEntry('contents-entry', `${set.text} ${page}`, [indent, y, s.columnWidth, y + set.height]), height: set.height };
  });
}

/**
 * A block of `count` pieces set one under another, `gap` apart (list items, contents entries),
 * which a page break may split between any two: `piece` draws piece `i` from `y` down, or null
 * for one with nothing to draw.
 */
function stacked(count: number, gap: number, before: number, after: number, piece: (i: number, y: number) => { marks: Mark[]; entry: Entry; height: number } | null): Flowable {
  return {
    span: false,
    pieces: count,
    keep: 0,
    build(from, to) {
      const marks: Mark[] = [];
      const entries: Entry[] = [];
      let y = 0;
      for (let i = from; i < to; i++) {
        const drawn = piece(i, y);
        if (!drawn) continue;
        marks.push(...drawn.marks);
        entries.push(drawn.entry);
        y += drawn.height + gap;
      }
      return chunk(marks, entries, y, before, after);
    },
  };
}

/** The points one under another in a narrow column at the left, the paragraph in the wide one beside them, both from the top. */
function asideFlowable(b: Extract<Block, { kind: 'aside' }>, s: Setting): Flowable {
  const size = s.size;
  const pointsWidth = s.columnWidth * 0.26;
  const gap = size * 1.4;
  const marks: Mark[] = [];
  const entries: Entry[] = [];
  let y = 0;
  for (const point of b.points) {
    const set = textBlock(s, wordsOf(drawable(point), s.family.bold), pointsWidth, bodyStyle(s, size, { align: 'left' }));
    if (!set.text) continue;
    for (const line of set.lines) marks.push({ ...line, baseline: line.baseline + y });
    entries.push(blockEntry('paragraph', set.text, [0, y, pointsWidth, y + set.height]));
    y += set.height + size * 0.6;
  }
  const body = textBlock(s, wordsOf(drawable(b.text), s.family.regular), s.columnWidth - pointsWidth - gap, bodyStyle(s, size), pointsWidth + gap);
  marks.push(...body.lines);
  if (body.text) entries.push(blockEntry('paragraph', body.text, [pointsWidth + gap, 0, s.columnWidth, body.height]));
  const height = Math.max(y, body.height);
  return atomic(false, 0, chunk(marks, entries, height, 0, size * 0.55));
}

function listFlowable(b: Extract<Block, { kind: 'list' }>, s: Setting): Flowable {
  const size = s.size;
  const indent = size * 1.6;
  const lineStyle = bodyStyle(s, size);
  const items = b.items.map((item) => wordsOf(drawable(item), s.family.regular));
  const sets = items.map((words) => textBlock(s, words, s.columnWidth - indent, lineStyle, indent));
  return stacked(items.length, size * 0.15, 0, size * 0.55, (i, y) => {
    const set = sets[i];
    if (!set.text) return null;
    const marker = b.ordered ? `${i + 1}.` : '•';
    const markerX = indent - s.metrics.width(marker, s.family.regular, size, s.squeeze) - size * 0.4;
    const first = set.lines[0];
    const marks: Mark[] = [{ ...first, baseline: first.baseline + y, letterSpacing: 0, spacing: lineStyle.spacing === 'letters' ? 'words' : lineStyle.spacing, words: [{ text: marker, font: s.family.regular, x: markerX }] }];
    for (const line of set.lines) marks.push({ ...line, baseline: line.baseline + y });
    return { marks, entry: blockEntry('list-item', set.text, [indent, y, s.columnWidth, y + set.height]), height: set.height };
  });
}

function codeFlowable(b: Extract<Block, { kind: 'code' }>, s: Setting): Flowable {
  const size = Math.max(6.5, s.size - (s.doc.columns > 1 ? 2.5 : 1.5));
  const lineHeight = size * 1.3;
  const font = FAMILIES.mono.regular;
  const advance = s.metrics.width('0', font, size);
  const pad = { x: 6, y: 4 };
  const gutter = b.numbered ? size * 3.2 : 0;
  const perRow = Math.max(8, Math.floor((s.columnWidth - 2 * pad.x - gutter) / advance));
  const spacing = s.spacing();
  const lines = b.lines.map((line) => {
    const indent = /^ */.exec(line)![0].length;
    return `${' '.repeat(indent)}${drawable(line)}`;
  });
  // A line longer than the column goes on in rows below it, broken at a space where there is one.
  const rowsOf = (line: string): string[] => {
    const rows: string[] = [];
    let rest = line;
    while (rest.length > perRow) {
      const cut = rest.lastIndexOf(' ', perRow);
      const at = cut > rest.search(/\S/) ? cut : perRow;
      rows.push(rest.slice(0, at));
      rest = rest.slice(at).replace(/^ /, '');
    }
    rows.push(rest);
    return rows;
  };
  const rows = lines.map(rowsOf);
  const colour: Rgb = [0.95, 0.95, 0.95];
  return {
    span: false,
    pieces: lines.length,
    keep: 0,
    build(from, to) {
      const marks: Mark[] = [];
      let row = 0;
      const baseline = (r: number) => pad.y + r * lineHeight + (lineHeight - size) / 2 + size * 0.8;
      for (let i = from; i < to; i++) {
        if (b.numbered) {
          const number = String(i + 1);
          const x = pad.x + gutter - size - s.metrics.width(number, font, size);
          marks.push({ kind: 'text', baseline: baseline(row), size, squeeze: 1, letterSpacing: 0, color: [0.53, 0.53, 0.53], spacing, words: [{ text: number, font, x }] });
        }
        for (const text of rows[i]) {
          const words = [...text.matchAll(/\S+/g)].map((m) => ({ text: m[0], font, x: pad.x + gutter + m.index * advance }));
          if (words.length) marks.push({ kind: 'text', baseline: baseline(row), size, squeeze: 1, letterSpacing: 0, color: INK, spacing, words });
          row++;
        }
      }
      const height = 2 * pad.y + row * lineHeight;
      marks.unshift({ kind: 'fill', shape: 'rect', rect: [0, 0, s.columnWidth, height], color: colour });
      const text = lines.slice(from, to).map((l) => l.replace(/\s+$/, '')).join('\n');
      return chunk(marks, [blockEntry('code', text, [0, 0, s.columnWidth, height])], height, 0, s.size * 0.55);
    },
  };
}

function equation(b: Extract<Block, { kind: 'equation' }>, s: Setting): Flowable[] {
  const size = s.size * 1.1;
  const width = s.columnWidth;
  const formula = drawable(b.text);
  const number = b.number ? drawable(b.number) : '';
  if (!formula) return [];
  const numberWidth = number ? s.metrics.width(number, FAMILIES.serif.regular, size) : 0;
  const room = width - 2 * (numberWidth + size);
  const set = setText(wordsOf(formula, FAMILIES.serif.italic), numberWidth + size, room, 0, style(s, size, { squeeze: 1, align: 'center', spacing: s.spacing() }), s.metrics);
  const marks: Mark[] = [...set.lines];
  if (number) {
    const last = set.lines[set.lines.length - 1];
    marks.push({ ...last, words: [{ text: number, font: FAMILIES.serif.regular, x: width - numberWidth }] });
  }
  const text = number ? `${formula} ${number}` : formula;
  return [atomic(false, 0, chunk(marks, [blockEntry('equation', text, [0, 0, width, set.height])], set.height, s.size * 0.6, s.size * 0.6))];
}

function figure(b: Extract<Block, { kind: 'figure' }>, s: Setting): Flowable[] {
  const scale = Math.min(1, s.columnWidth / 300);
  const w = 300 * scale;
  const h = b.heightPt * scale;
  const at = (x: number) => x * scale;
  const marks: Mark[] = [];
  const entries: Entry[] = [];
  const labelFont: StandardFonts = FAMILIES.sans.regular;
  const axis = (x1: number, y1: number, x2: number, y2: number, color: Rgb = [0.13, 0.13, 0.13], thickness = 1) => marks.push({ kind: 'rule', x1: at(x1), y1: at(y1), x2: at(x2), y2: at(y2), thickness, color });
  // Labels made small enough for their slot: neighbours that overlapped would read as one word.
  const label = (text: string, cx: number, baseline: number, largest: number, slot: number) => {
    const drawn = drawable(text);
    if (!drawn) return;
    const size = Math.min(largest, (at(slot) - 2) / s.metrics.width(drawn, labelFont, 1));
    const width = s.metrics.width(drawn, labelFont, size);
    const x = at(cx) - width / 2;
    const y = at(baseline);
    marks.push({ kind: 'text', baseline: y, size, squeeze: 1, letterSpacing: 0, color: INK, spacing: 'line', words: [{ text: drawn, font: labelFont, x }] });
    entries.push(blockEntry('figure-label', drawn, [x - 1, y - size, x + width + 1, y + size * 0.35]));
  };
  const labelSize = Math.max(5.5, 9 * scale);
  const labels = b.labels;
  if (b.drawing === 'bars') {
    const bw = (300 - 40) / Math.max(3, labels.length);
    labels.forEach((text, i) => {
      const bh = ((i * 37) % 70) + 20;
      marks.push({ kind: 'fill', shape: 'rect', rect: [at(30 + i * bw + 4), at(b.heightPt - 24 - bh), at(30 + (i + 1) * bw - 4), at(b.heightPt - 24)], color: [0.29, 0.48, 0.72] });
      label(text, 30 + i * bw + bw / 2, b.heightPt - 8, labelSize, bw);
    });
    axis(28, b.heightPt - 24, 294, b.heightPt - 24);
  } else if (b.drawing === 'lines') {
    const points = Array.from({ length: 12 }, (_, i) => [30 + i * (260 / 11), b.heightPt - 30 - ((i * 53) % (b.heightPt - 60))]);
    for (let i = 1; i < points.length; i++) axis(points[i - 1][0], points[i - 1][1], points[i][0], points[i][1], [0.75, 0.22, 0.17], 2 * scale);
    axis(28, b.heightPt - 24, 294, b.heightPt - 24);
    axis(28, 8, 28, b.heightPt - 24);
    labels.forEach((text, i) => label(text, 50 + i * (200 / Math.max(1, labels.length - 1)), b.heightPt - 8, labelSize, 200 / Math.max(1, labels.length - 1)));
  } else if (b.drawing === 'diagram') {
    labels.forEach((text, i) => {
      const x = 20 + (i % 3) * 95;
      const y = 16 + Math.floor(i / 3) * 60;
      marks.push({ kind: 'fill', shape: 'rect', rect: [at(x), at(y), at(x + 80), at(y + 34)], color: [0.96, 0.89, 0.76], border: { color: [0.54, 0.43, 0.23], thickness: 1 } });
      label(text, x + 40, y + 21, Math.max(5.5, 10 * scale), 78);
    });
    for (let i = 1; i < labels.length; i++) if (i % 3) axis(20 + ((i - 1) % 3) * 95 + 80, 16 + Math.floor(i / 3) * 60 + 17, 20 + (i % 3) * 95, 16 + Math.floor(i / 3) * 60 + 17, [0.54, 0.43, 0.23]);
  } else {
    // A photograph: light running from green to sand to blue in bands, a pale sun in it.
    const stops: Rgb[] = [[0.42, 0.56, 0.14], [0.82, 0.71, 0.55], [0.27, 0.51, 0.71]];
    const bands = 12;
    for (let i = 0; i < bands; i++) {
      const t = (i / (bands - 1)) * 2;
      const [a, c] = t < 1 ? [stops[0], stops[1]] : [stops[1], stops[2]];
      const u = t < 1 ? t : t - 1;
      marks.push({ kind: 'fill', shape: 'rect', rect: [0, (h * i) / bands, w, (h * (i + 1)) / bands + 0.5], color: [a[0] + (c[0] - a[0]) * u, a[1] + (c[1] - a[1]) * u, a[2] + (c[2] - a[2]) * u] });
    }
    marks.push({ kind: 'fill', shape: 'ellipse', rect: [w * 0.7 - h * 0.15, h * 0.15, w * 0.7 + h * 0.15, h * 0.45], color: [1, 0.96, 0.8] });
  }
  let height = h;
  if (b.caption) {
    const caption = drawable(b.caption);
    const top = h + s.size * 0.3;
    const set = setText(wordsOf(caption, s.family.regular), 0, s.columnWidth, top, style(s, s.size * 0.9, { spacing: s.spacing() }), s.metrics);
    marks.push(...set.lines);
    if (caption) entries.push(blockEntry('caption', caption, [0, top, s.columnWidth, top + set.height]));
    height = top + set.height;
  }
  return [atomic(false, 0, chunk(marks, entries, height, s.size * 0.4, s.size * 0.8))];
}
