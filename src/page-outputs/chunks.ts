// Chunks for retrieval (GET /documents/{id}/chunks), cut from what each page stored: its layout
// elements in reading order and its tables. Nothing is read again; the boxes are the elements'
// own. The cut follows the document's structure, as Docling's hierarchical chunker does:
//   - a heading (or title) starts a chunk, and every chunk carries the headings it stands under;
//   - paragraphs and list items stay whole where they fit, and are packed together up to the limit;
//   - a table is never cut inside a row: a table too big for one chunk is cut between rows, each
//     part with the table's header rows again; a table continued on the next page (continues_table)
//     is one table;
//   - running page headers and footers, and figures (their captions are text of their own), are left out.
// `read` documents have no trusted structure: their chunks are whole paragraphs packed up to the
// limit, without headings. Only what no chunk could hold whole is cut further: a paragraph at a
// word, a table row at a cell. No chunk's text is longer than the limit in tokens.
import { createHash } from 'node:crypto';
import { lengthTokens } from '../domain/model.js';
import { isFurniture, type FractionBox, type LayoutElement, type WireTable } from './shapes.js';

/** A box on one page (fractions of the page). */
export interface PageBox extends FractionBox {
  page: number;
}

export interface Chunk {
  index: number;
  text: string;
  /** The section headings the chunk stands under, outermost first. */
  headings: string[];
  pages: number[];
  boxes: PageBox[];
  tokens: number;
}

export interface ChunkablePage {
  page: number;
  layout: LayoutElement[];
  tables: WireTable[];
}


/** What a chunk is made of: a piece of text with the boxes it was read from. */
interface Piece {
  text: string;
  boxes: PageBox[];
}

/** A table on its way into chunks: its markdown rows, and each row's boxes (a continuation adds to it). */
interface TableInProgress {
  header: Piece[];
  separator: string;
  rows: Piece[];
}

const SEPARATOR = '\n\n';

/**
 * Chunks a document page by page: `add` each page in order, then `finish`. Each call returns the
 * chunks it completed, so a long document is chunked without holding all its pages.
 */
export class Chunker {
  private readonly maxChars: number;
  private readonly structured: boolean;
  private readonly done: Chunk[] = [];
  private index = 0;
  private parts: Piece[] = [];
  private length = 0;
  /** Whether the chunk in hand holds anything besides headings. */
  private hasBody = false;
  private chunkHeadings: string[] = [];
  private readonly headings: { level: number; text: string }[] = [];
  private table: TableInProgress | null = null;

  constructor(options: { maxTokens: number; analysis: 'layout' | 'read' }) {
    // Folio's token count is a quarter of the length (domain/model.ts), so the limit is a length.
    this.maxChars = options.maxTokens * 4;
    this.structured = options.analysis === 'layout';
  }

  add(page: ChunkablePage): Chunk[] {
    let tableOrder = 0;
    for (const element of page.layout) {
      if (isFurniture(element.type) || element.type === 'figure') continue;
      if (element.type === 'table') {
        const table = tableOf(page.tables, element, tableOrder++);
        if (table) this.addTable(table, page.page);
        continue;
      }
      const text = element.text.trim();
      if (!text) continue;
      const piece = { text, boxes: elementBoxes(element, page.page) };
      if (this.structured && (element.type === 'heading' || element.type === 'title')) this.addHeading(piece, element.type === 'title' ? 0 : (element.level ?? 1));
      else this.addBody(piece, text.length);
    }
    return this.take();
  }

  finish(): Chunk[] {
    this.flushTable();
    this.close();
    return this.take();
  }

  private take(): Chunk[] {
    return this.done.splice(0);
  }

  private addHeading(piece: Piece, level: number): void {
    this.flushTable();
    // Headings in a row (a chapter's title, then its first section's) open one chunk together.
    if (this.hasBody) this.close();
    while (this.headings.length > 0 && this.headings[this.headings.length - 1].level >= level) this.headings.pop();
    this.headings.push({ level, text: piece.text });
    this.append(piece);
  }

  private addBody(piece: Piece, length: number): void {
    this.flushTable();
    if (this.fits(length)) return this.appendBody(piece);
    if (this.hasBody) this.close();
    if (this.fits(length)) return this.appendBody(piece);
    // Longer than any chunk: cut at words, each part keeping the lines it covers.
    for (const part of cutText(piece, this.maxChars - this.length - (this.length > 0 ? SEPARATOR.length : 0), this.maxChars)) {
      if (!this.fits(part.text.length)) this.close();
      this.appendBody(part);
    }
  }

  private addTable(table: WireTable, page: number): void {
    const lines = table.markdown.split('\n');
    if (lines.length < 2) return;
    const rows = [lines[0], ...lines.slice(2)].map((text, row) => ({ text, boxes: rowBoxes(table, row, page) }));
    const headerCount = Math.min(rows.length, Math.max(1, table.header_rows));
    if (this.table && table.continued_from_previous_page) {
      // One table across the page break: the continuation's rows join it, without a header it repeats.
      const repeated = rows.slice(0, headerCount).every((row, i) => row.text === this.table!.header[i]?.text) && headerCount === this.table.header.length;
      this.table.rows.push(...(repeated ? rows.slice(headerCount) : rows));
      return;
    }
    this.flushTable();
    this.table = { header: rows.slice(0, headerCount), separator: lines[1], rows: rows.slice(headerCount) };
  }

  /**
   * The table in hand into chunks: whole where it fits, else cut between rows, each part under the
   * table's header rows again where they leave room for the longest row, or else the rows (the
   * header's among them) one after another.
   */
  private flushTable(): void {
    const table = this.table;
    if (!table) return;
    this.table = null;
    const whole = tablePiece(table, table.rows);
    if (!this.fits(whole.text.length) && this.hasBody) this.close();
    if (this.fits(whole.text.length)) return this.appendBody(whole);
    const headerLength = tablePiece(table, []).text.length;
    const longest = Math.max(0, ...table.rows.map((row) => row.text.length));
    const repeat = table.rows.length > 0 && headerLength + 1 + longest <= this.maxChars;
    const rows = repeat ? table.rows : [...tableLines(table, []), ...table.rows];
    let start = 0;
    while (start < rows.length) {
      // As many rows as fit in the chunk in hand (under the header, when it is repeated).
      let length = repeat ? headerLength : -1;
      let end = start;
      while (end < rows.length && this.fits(length + 1 + rows[end].text.length)) length += 1 + rows[end++].text.length;
      if (end > start) {
        this.appendBody(repeat ? tablePiece(table, rows.slice(start, end)) : joinLines(rows.slice(start, end)));
        start = end;
        if (start < rows.length) this.close();
        continue;
      }
      if (this.length > 0) {
        this.close();
        continue;
      }
      // A row longer than a whole chunk: cut between cells.
      for (const part of cutText(rows[start], this.maxChars, this.maxChars, ' | ')) {
        if (!this.fits(part.text.length)) this.close();
        this.appendBody(part);
      }
      if (++start < rows.length) this.close();
    }
  }

  private fits(length: number): boolean {
    return this.length + (this.length > 0 ? SEPARATOR.length : 0) + length <= this.maxChars;
  }

  private appendBody(piece: Piece): void {
    if (!this.hasBody) {
      this.hasBody = true;
      this.chunkHeadings = this.headings.map((h) => h.text);
    }
    this.append(piece);
  }

  private append(piece: Piece): void {
    this.length += (this.length > 0 ? SEPARATOR.length : 0) + piece.text.length;
    this.parts.push(piece);
  }

  private close(): void {
    if (this.parts.length === 0) return;
    const text = this.parts.map((p) => p.text).join(SEPARATOR);
    // A box once, however many pieces stand in it (the rows of a table without cell positions).
    const seen = new Set<string>();
    const boxes = this.parts.flatMap((p) => p.boxes).filter((box) => {
      const key = `${box.page} ${box.left} ${box.top} ${box.width} ${box.height}`;
      return !seen.has(key) && seen.add(key) !== undefined;
    });
    this.done.push({
      index: this.index++,
      text,
      headings: this.hasBody ? this.chunkHeadings : this.headings.map((h) => h.text),
      pages: [...new Set(boxes.map((b) => b.page))].sort((a, b) => a - b),
      boxes,
      tokens: lengthTokens(text.length),
    });
    this.parts = [];
    this.length = 0;
    this.hasBody = false;
  }
}

/** The chunks of a document whose pages come a batch at a time, in page order: the chunks each batch completes. */
export async function* chunksOf(batches: AsyncIterable<ChunkablePage[]>, options: { maxTokens: number; analysis: 'layout' | 'read' }): AsyncGenerator<Chunk[]> {
  const chunker = new Chunker(options);
  for await (const pages of batches) {
    const chunks = pages.flatMap((page) => chunker.add(page));
    if (chunks.length > 0) yield chunks;
  }
  const last = chunker.finish();
  if (last.length > 0) yield last;
}

/** A stored page row as the chunker takes it: only its layout and tables are parsed. */
export function chunkablePage(row: { page_number: number; layout: string; tables: string }): ChunkablePage {
  return { page: row.page_number, layout: JSON.parse(row.layout) as LayoutElement[], tables: JSON.parse(row.tables) as WireTable[] };
}

/** Stored page rows, a batch at a time, as the chunker takes them. */
export async function* chunkablePages(batches: AsyncIterable<{ page_number: number; layout: string; tables: string }[]>): AsyncGenerator<ChunkablePage[]> {
  for await (const rows of batches) yield rows.map(chunkablePage);
}

/** What a chunk's vector is kept with: the SHA-256 of its text, so a vector is never served beside another text. */
export function chunkDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Every chunk of a document whose pages are all at hand. */
export function chunkPages(pages: Iterable<ChunkablePage>, options: { maxTokens: number; analysis: 'layout' | 'read' }): Chunk[] {
  const chunker = new Chunker(options);
  const chunks: Chunk[] = [];
  for (const page of pages) chunks.push(...chunker.add(page));
  chunks.push(...chunker.finish());
  return chunks;
}

/**
 * The stored table a layout element shows: the one with its box (both are the table's box), or
 * else the n-th table of the page.
 */
function tableOf(tables: WireTable[], element: LayoutElement, order: number): WireTable | undefined {
  const same = (a: FractionBox, b: FractionBox) => a.left === b.left && a.top === b.top && a.width === b.width && a.height === b.height;
  return tables.find((table) => same(table.bbox, element.bbox)) ?? tables[order];
}

function elementBoxes(element: LayoutElement, page: number): PageBox[] {
  if (element.lines && element.lines.length > 0) return element.lines.map((line) => ({ page, ...line.bbox }));
  return [{ page, ...element.bbox }];
}

/** A row's cells as one box (the union of those with a position), or the table's box where none has one (Office). */
function rowBoxes(table: WireTable, row: number, page: number): PageBox[] {
  let box: { x0: number; y0: number; x1: number; y1: number } | null = null;
  for (const cell of table.cells) {
    if (!cell.bbox || row < cell.row || row >= cell.row + cell.row_span) continue;
    const { left, top, width, height } = cell.bbox;
    box = box
      ? { x0: Math.min(box.x0, left), y0: Math.min(box.y0, top), x1: Math.max(box.x1, left + width), y1: Math.max(box.y1, top + height) }
      : { x0: left, y0: top, x1: left + width, y1: top + height };
  }
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  if (!box) return [{ page, ...table.bbox }];
  return [{ page, left: round(box.x0), top: round(box.y0), width: round(box.x1 - box.x0), height: round(box.y1 - box.y0) }];
}

/** The table's header rows (the first with the separator line markdown wants after it) and then `rows`. */
function tableLines(table: TableInProgress, rows: Piece[]): Piece[] {
  const [first, ...moreHeader] = table.header;
  return [{ text: `${first.text}\n${table.separator}`, boxes: first.boxes }, ...moreHeader, ...rows];
}

function tablePiece(table: TableInProgress, rows: Piece[]): Piece {
  return joinLines(tableLines(table, rows));
}

function joinLines(lines: Piece[]): Piece {
  return { text: lines.map((l) => l.text).join('\n'), boxes: lines.flatMap((l) => l.boxes) };
}

/**
 * A text too long for one chunk, cut at `joint` (a space: between words; ' | ': between cells)
 * into parts of at most `firstRoom` and then `room` characters. A word longer than a whole chunk
 * is cut where the room ends. Each part keeps the boxes its share of the text covers, the boxes
 * taken in order as equal shares of the length (a line's box for its share of a paragraph).
 */
function cutText(piece: Piece, firstRoom: number, room: number, joint = ' '): Piece[] {
  const text = piece.text;
  const parts: Piece[] = [];
  let start = 0;
  let limit = firstRoom > joint.length ? firstRoom : room;
  while (start < text.length) {
    let end = Math.min(text.length, start + limit);
    if (end < text.length) {
      const at = text.lastIndexOf(joint, end - joint.length);
      if (at > start) end = at;
      else if (limit !== room) {
        // No joint in what is left of the chunk in hand: the text starts in the next one instead of mid-word.
        limit = room;
        continue;
      }
    }
    const part = text.slice(start, end).trim();
    if (part) parts.push({ text: part, boxes: boxesOfShare(piece.boxes, start / text.length, end / text.length) });
    start = end;
    while (text.startsWith(joint, start)) start += joint.length;
    while (start < text.length && /\s/.test(text[start])) start++;
    limit = room;
  }
  return parts;
}

function boxesOfShare(boxes: PageBox[], from: number, to: number): PageBox[] {
  if (boxes.length <= 1) return boxes;
  const first = Math.min(boxes.length - 1, Math.floor(from * boxes.length));
  const last = Math.max(first, Math.min(boxes.length - 1, Math.ceil(to * boxes.length) - 1));
  return boxes.slice(first, last + 1);
}
