// The pdf-lib producer exists because Chromium writes every PDF the same well-behaved way: text in
// reading order, each line one string with its spaces in it, tables as a browser draws them. Many
// real PDFs are written by hand-rolled generators that do none of that, and a reader has to cope.
// So this producer lays a DocSpec out by hand with pdf-lib and the base fourteen fonts, and writes
// what Chromium never does: on some lines every word is its own text operation at its own x with
// no space characters between them, so the spaces exist only as gaps a reader must measure (other
// lines are one string with spaces, some justified by word spacing, so both kinds are there); the
// content stream runs in an order other than the reading order (blocks reversed, columns right to
// left, or lines shuffled across the page); letter-spaced paragraphs are drawn one character at a
// time; tables are nothing but text at positions with lines and filled rectangles around it; the
// narrow face is Helvetica squeezed by horizontal scaling; a preprint stamp and a side tab are
// turned through ninety degrees. The truth is recorded as each element is placed, never read back,
// and it holds the text as drawn: the standard fonts encode WinAnsi only, so Greek, Cyrillic,
// Arabic and Hebrew never come here (compose.ts sees to it), and other characters outside WinAnsi
// are replaced by near ones before they are drawn.
import { degrees, PDFDocument, type PDFPage, rgb, setCharacterSqueeze, setWordSpacing, type StandardFonts } from 'pdf-lib';
import type { Laid } from './chromium.js';
import { flowables, footnoteChunk, type Setting } from './pdflib-blocks.js';
import { type FurnitureMark, marginNotes, pageFurniture } from './pdflib-furniture.js';
import { Flow, FOOTNOTE_GAP } from './pdflib-layout.js';
import { drawable, type Entry, FAMILIES, type Mark, Metrics, moveEntry, moveMark, type Rgb, type Spacing, type TextLine } from './pdflib-text.js';
import { Random } from './random.js';
import type { DocSpec } from './spec.js';
import type { Box, TruthBlock, TruthFurniture, TruthTable } from './truth.js';

/** The order marks are written into a page's content stream in. */
export type DrawingOrder = 'reading' | 'reversed' | 'columns-right-to-left' | 'shuffled';

const COLUMN_GAP = 18;

interface Unit {
  mark: Mark;
  /** The block it belongs to, in reading order. */
  group: number;
  /** Its column; -1 across the columns, -2 in the margins. */
  column: number;
}

export class PdfLibProducer {
  static async start(): Promise<PdfLibProducer> {
    return new PdfLibProducer();
  }

  async produce(doc: DocSpec): Promise<Laid> {
    const random = Random.forDocument(doc.seed ^ 0x9d1f, doc.index);
    const drawingOrder = random.weighted<DrawingOrder>([
      ['reading', 1],
      ['reversed', 1],
      ['columns-right-to-left', doc.columns > 1 ? 1.5 : 0],
      ['shuffled', 1],
    ]);
    const documentSpacing = random.weighted<Spacing | 'mixed'>([
      ['words', 2],
      ['line', 1.2],
      ['mixed', 1],
    ]);
    const spacing = (): Spacing => (documentSpacing === 'mixed' ? random.pick(['words', 'line'] as const) : documentSpacing);

    const pdf = await PDFDocument.create({ updateMetadata: false });
    const metrics = new Metrics(pdf);
    const { width: W, height: H, margin: M } = doc.page;
    const family = doc.type.family === 'narrow' ? FAMILIES.sans : FAMILIES[doc.type.family];
    const frame = { left: M, top: M, bottom: H - M, width: W - 2 * M, columns: doc.columns, gap: COLUMN_GAP };
    const setting: Setting = {
      doc,
      metrics,
      family,
      squeeze: doc.type.family === 'narrow' ? 0.82 : 1,
      size: doc.type.size,
      columnWidth: (frame.width - COLUMN_GAP * (doc.columns - 1)) / doc.columns,
      bodyWidth: frame.width,
      random,
      spacing,
    };
    const flow = new Flow(frame, (note) => footnoteChunk(setting, note));
    for (const block of doc.blocks) for (const flowable of flowables(block, setting)) flow.place(flowable);
    const pages = flow.finish();

    const blocks: TruthBlock[] = [];
    const tables: TruthTable[] = [];
    const furniture: TruthFurniture[] = [];
    let order = 0;
    const record = (entry: Entry, page: number) => {
      if (entry.kind === 'block') blocks.push({ ...entry.block, page, order: order++, box: fraction(entry.block.box, W, H) });
      else tables.push({ ...entry.table, page, order: order++, box: fraction(entry.table.box, W, H), cells: entry.table.cells.map((c) => ({ ...c, box: fraction(c.box, W, H) })) });
    };
    const furnished = { doc, metrics, family, spacing: documentSpacing === 'mixed' ? spacing() : documentSpacing, pages: pages.length };
    pages.forEach((laid, i) => {
      const n = i + 1;
      const units: Unit[] = [];
      laid.placements.forEach((p, group) => {
        for (const mark of p.chunk.marks) units.push({ mark: moveMark(mark, p.x, p.y), group, column: p.column });
        for (const entry of p.chunk.entries) record(moveEntry(entry, p.x, p.y), n);
      });
      // The page's footnotes come after its body in reading order, under a short rule.
      const notesTop = frame.bottom - laid.footnotes.reduce((sum, note) => sum + note.height, 0);
      if (laid.footnotes.length) units.push({ mark: { kind: 'rule', x1: frame.left, y1: notesTop - FOOTNOTE_GAP / 2, x2: frame.left + frame.width * 0.25, y2: notesTop - FOOTNOTE_GAP / 2, thickness: 0.5, color: [0.47, 0.47, 0.47] }, group: laid.placements.length, column: 0 });
      let noteTop = notesTop;
      laid.footnotes.forEach((note, k) => {
        for (const mark of note.marks) units.push({ mark: moveMark(mark, frame.left, noteTop), group: laid.placements.length + k, column: 0 });
        for (const entry of note.entries) record(moveEntry(entry, frame.left, noteTop), n);
        noteTop += note.height;
      });
      const notes = marginNotes(n, laid.placements, furnished);
      const page = pageFurniture(n, furnished);
      const margin = (m: FurnitureMark): Unit => ({ mark: m.mark, group: m.group, column: -2 });
      units.push(...notes.marks.map(margin), ...page.marks.map(margin));
      furniture.push(...page.truth, ...notes.truth);
      draw(pdf.addPage([W, H]), units, drawingOrder, random, metrics);
    });

    const title = doc.blocks.find((b) => b.kind === 'title');
    if (title && title.kind === 'title') pdf.setTitle(drawable(title.text));
    // Dates from the document, not the clock, so that the same DocSpec makes the same bytes.
    const date = new Date(Date.UTC(2020 + (doc.seed % 7), doc.index % 12, 1 + (doc.index % 28)));
    pdf.setCreationDate(date);
    pdf.setModificationDate(date);
    pdf.setProducer('pdf-lib');
    const bytes = await pdf.save({ useObjectStreams: random.chance(0.5) });
    // How this document was written, which only the producer draws.
    const features = [`pdf-lib:order-${drawingOrder}`, `pdf-lib:spacing-${documentSpacing}`];
    return { pdf: Buffer.from(bytes), pages: pages.length, blocks, tables, furniture, features };
  }

  /** Nothing to release: pdf-lib runs in this process. */
  async close(): Promise<void> {}
}

function fraction(box: Box | null, width: number, height: number): Box | null {
  if (!box) return null;
  const round = (v: number) => Math.round(v * 10000) / 10000;
  return [round(box[0] / width), round(box[1] / height), round(box[2] / width), round(box[3] / height)];
}

/**
 * The page's marks written in `order`: painted areas first in reading order (text drawn under a
 * later fill would vanish), then text and lines in the order the document chose.
 */
function draw(page: PDFPage, units: Unit[], order: DrawingOrder, random: Random, metrics: Metrics): void {
  const byGroup = (a: Unit, b: Unit) => groupKey(a.group) - groupKey(b.group);
  const fills = units.filter((u) => u.mark.kind === 'fill').sort(byGroup);
  const rest = units.filter((u) => u.mark.kind !== 'fill');
  let ordered: Unit[];
  if (order === 'reading') ordered = [...rest].sort(byGroup);
  else if (order === 'reversed') ordered = [...rest].sort((a, b) => byGroup(b, a));
  else if (order === 'columns-right-to-left') ordered = [...rest].sort((a, b) => b.column - a.column || byGroup(a, b));
  else ordered = random.shuffle(rest);
  const height = page.getHeight();
  for (const { mark } of [...fills, ...ordered]) drawMark(page, mark, height, metrics);
}

/** Groups as sort keys: Infinity (after the body) sorts last, and sorting stays stable within a group. */
function groupKey(group: number): number {
  return group === Infinity ? Number.MAX_SAFE_INTEGER : group;
}

const colour = (c: Rgb) => rgb(c[0], c[1], c[2]);

function drawMark(page: PDFPage, mark: Mark, height: number, metrics: Metrics): void {
  if (mark.kind === 'fill') {
    const [l, t, r, b] = mark.rect;
    const border = mark.border ? { borderColor: colour(mark.border.color), borderWidth: mark.border.thickness } : {};
    if (mark.shape === 'rect') page.drawRectangle({ x: l, y: height - b, width: r - l, height: b - t, color: colour(mark.color), ...border });
    else page.drawEllipse({ x: (l + r) / 2, y: height - (t + b) / 2, xScale: (r - l) / 2, yScale: (b - t) / 2, color: colour(mark.color), ...border });
  } else if (mark.kind === 'rule') {
    page.drawLine({ start: { x: mark.x1, y: height - mark.y1 }, end: { x: mark.x2, y: height - mark.y2 }, thickness: mark.thickness, color: colour(mark.color) });
  } else drawText(page, mark, height, metrics);
}

function drawText(page: PDFPage, line: TextLine, height: number, metrics: Metrics): void {
  if (!line.words.length) return;
  const y = height - line.baseline;
  const color = colour(line.color);
  const show = (text: string, x: number, font: StandardFonts) => page.drawText(text, { x, y, size: line.size, font: metrics.font(font), color, ...(line.rotate ? { rotate: degrees(line.rotate) } : {}) });
  const width = (text: string, font: StandardFonts) => metrics.width(text, font, line.size, line.squeeze);
  // Horizontal scaling is text state the q/Q around each pdf-lib text object keeps: set before, reset after.
  if (line.squeeze !== 1) page.pushOperators(setCharacterSqueeze(line.squeeze * 100));
  if (line.rotate) show(line.words.map((w) => w.text).join(' '), line.words[0].x, line.words[0].font);
  else if (line.spacing === 'words') for (const w of line.words) show(w.text, w.x, w.font);
  else if (line.spacing === 'letters') {
    for (const w of line.words) {
      let x = w.x;
      for (const c of w.text) {
        show(c, x, w.font);
        x += metrics.width(c, w.font, line.size, line.squeeze, line.letterSpacing);
      }
    }
  } else {
    // One string per run of words in one font and evenly spaced; wider gaps (justified lines) by word spacing.
    let run = [line.words[0]];
    let extra: number | null = null;
    const flush = () => {
      const spacing = extra ?? 0;
      // Tw is scaled by the horizontal scaling like any other advance.
      if (Math.abs(spacing) > 0.001) page.pushOperators(setWordSpacing(spacing / line.squeeze));
      show(run.map((w) => w.text).join(' '), run[0].x, run[0].font);
      if (Math.abs(spacing) > 0.001) page.pushOperators(setWordSpacing(0));
    };
    for (let i = 1; i < line.words.length; i++) {
      const previous = line.words[i - 1];
      const word = line.words[i];
      const gap = word.x - previous.x - width(previous.text, previous.font) - width(' ', previous.font);
      if (word.font === run[0].font && (extra === null || Math.abs(gap - extra) < 0.01)) {
        run.push(word);
        extra = gap;
      } else {
        flush();
        run = [word];
        extra = null;
      }
    }
    flush();
  }
  if (line.squeeze !== 1) page.pushOperators(setCharacterSqueeze(100));
}
