// DOCX reader: the body of word/document.xml walked in order into headings (from style names and
// outline levels), paragraphs, list items (numbering definitions give bullets, numbers and
// nesting), tables (merged cells from gridSpan and vMerge; nested tables read into their cell),
// text boxes, figures with their captions, footnotes at the end of the page that cites them,
// hyperlinks' text, equations as LaTeX (omml.ts), and reviewer comments at the end of the page
// holding their anchor (comments.ts). Headers and footers stay out. Pages follow
// docs/decisions.md#pages: where Word last laid the document out (rendered page breaks), else at explicit
// page breaks. Written against the XML because no JavaScript library keeps these: mammoth (the
// usual choice) drops page breaks and text boxes and flattens numbering into HTML lists.
import { child, children, descendants, OfficePackage, OfficeReadError, textOf, type XmlNode } from './package.js';
import { commentItems, type ReviewComment } from './comments.js';
import type { OfficeItem } from './structure.js';
import { isMonospacedFont } from '../../page-model.js';
import { looksLikeFormula } from '../../analysis/code-and-formulas.js';
import { defaultFont, readStyles, runFont, styleFont, type Style } from './docx-styles.js';
import { readChart } from './chart.js';
import { displayLoneEquations, equations, mathMarkup } from './omml.js';

interface Level {
  format: string;
  text: string;
  start: number;
  /** The paragraph style this level numbers (a heading style linked to a multilevel list). */
  style: string | undefined;
}

interface Context {
  styles: Map<string, Style>;
  /** The font of a paragraph that neither it nor its style chain names (the default style's, else the document defaults'). */
  defaultFont: string;
  numbering: Map<string, Level[]>;
  counters: Map<string, number[]>;
  footnotes: Map<string, string>;
  /** Footnotes cited on the page being read. */
  cited: string[];
  /** Reviewer comments (word/comments.xml) by id. */
  comments: Map<string, ReviewComment>;
  /** Comments anchored on the page being read, in the order of their anchors. */
  commented: string[];
  /** Comments already given a page. */
  placed: Set<string>;
  pages: OfficeItem[][];
  /** Reads a chart part by the document's relationship id. */
  chart: (relationshipId: string) => OfficeItem[];
  /** Whether page breaks come from Word's last layout (rendered) or from the author (explicit). */
  breaks: 'rendered' | 'explicit';
}

const DOCUMENT = 'word/document.xml';

export function readDocx(bytes: Uint8Array): OfficeItem[][] {
  const pkg = OfficePackage.open(bytes, (name) => /^word\/(document|styles|numbering|footnotes|comments)\.xml$/.test(name) || /^word\/(charts\/[^/]+\.xml|_rels\/document\.xml\.rels|charts\/_rels\/.+)$/.test(name));
  const body = pkg.bytes(DOCUMENT);
  if (!body) throw new OfficeReadError('the file has no word/document.xml; it is not a Word document');
  const rels = pkg.relationships(DOCUMENT);
  const stylesXml = pkg.xml('word/styles.xml');
  const styles = readStyles(stylesXml);
  const ctx: Context = {
    styles,
    defaultFont: defaultFont(stylesXml, styles),
    numbering: readNumbering(pkg.xml('word/numbering.xml')),
    counters: new Map(),
    footnotes: readFootnotes(pkg.xml('word/footnotes.xml')),
    cited: [],
    comments: readComments(pkg.xml('word/comments.xml')),
    commented: [],
    placed: new Set(),
    pages: [[]],
    breaks: Buffer.from(body.buffer, body.byteOffset, body.byteLength).includes('w:lastRenderedPageBreak') ? 'rendered' : 'explicit',
    chart: (id) => {
      const target = rels.get(id)?.target;
      return target ? readChart(pkg, target) : [];
    },
  };
  // The body is read a slice of paragraphs and tables at a time, never as one tree, and so is a
  // table longer than a slice, a slice of rows at a time.
  const document = pkg.streamPart(DOCUMENT, 'w:body', (nodes) => readBlocks(nodes, ctx), {
    'w:tbl': () => {
      const table = new TableReader(ctx);
      return {
        children: (nodes) => {
          for (const node of nodes) if (node.name === 'w:tr') table.row(node);
        },
        end: () => current(ctx).push(table.item()),
      };
    },
  });
  const rest = child(document ?? undefined, 'w:body');
  if (!rest) throw new OfficeReadError('the Word document has no body');
  // A body without a w:body element of that name was parsed whole.
  readBlocks(rest.children, ctx);
  // A comment whose anchor is nowhere in the body (deleted with its text) ends the document.
  for (const id of ctx.comments.keys()) comment(id, ctx);
  endPage(ctx);
  const pages = ctx.pages.filter((p) => p.length > 0);
  return pages.length ? pages : [[]];
}

/**
 * The page count of a Word document from its small parts (docs/decisions.md#pages): the pages Word counted
 * when it last laid the document out and saved it (docProps/app.xml), which are the rendered page
 * breaks the reader follows; 1 when the file does not say (a file written by a program, read at
 * its explicit page breaks, if any). The body is not read.
 */
export function countDocxPages(bytes: Uint8Array): number {
  const pkg = OfficePackage.open(bytes, (name) => name === '_rels/.rels' || /^docProps\/[^/]+\.xml$/.test(name));
  if (!pkg.lists(DOCUMENT)) throw new OfficeReadError('the file has no word/document.xml; it is not a Word document');
  const properties = [...pkg.relationships('').values()].find((r) => r.type.endsWith('/extended-properties'))?.target ?? 'docProps/app.xml';
  const pages = Number(textOf(child(pkg.xml(properties) ?? undefined, 'Pages') ?? { name: '', attrs: {}, children: [] }).trim());
  return Number.isInteger(pages) && pages > 0 ? pages : 1;
}

function current(ctx: Context): OfficeItem[] {
  return ctx.pages[ctx.pages.length - 1];
}

function endPage(ctx: Context): void {
  for (const id of ctx.cited) {
    const text = ctx.footnotes.get(id);
    if (text) current(ctx).push({ kind: 'footnote', text });
  }
  ctx.cited = [];
  current(ctx).push(...commentItems(ctx.commented.map((id) => ctx.comments.get(id)!)));
  ctx.commented.length = 0;
}

/** A comment's anchor met: the comment ends the page being read (once, at its first anchor). */
function comment(id: string | undefined, ctx: Context): void {
  if (id === undefined || ctx.placed.has(id) || !ctx.comments.has(id)) return;
  ctx.placed.add(id);
  ctx.commented.push(id);
}

function newPage(ctx: Context): void {
  if (current(ctx).length === 0) return;
  endPage(ctx);
  ctx.pages.push([]);
}

function readBlocks(nodes: XmlNode[], ctx: Context): void {
  for (const node of nodes) {
    if (node.name === 'w:p') readParagraph(node, ctx);
    else if (node.name === 'w:tbl') current(ctx).push(readTable(node, ctx));
    else if (node.name === 'w:sdt') readBlocks(child(node, 'w:sdtContent')?.children ?? [], ctx);
    else if (node.name === 'w:customXml' || node.name === 'w:smartTag') readBlocks(node.children, ctx);
  }
}

/** What a paragraph holds: runs of text, and the things anchored in it (text boxes, pictures). */
interface ParagraphParts {
  text: string;
  pictures: number;
  /** Relationship ids of charts drawn in the paragraph. */
  charts: string[];
  boxes: XmlNode[][];
  /** Text before a rendered or explicit page break inside the paragraph ends the page. */
  breakAt: number[];
  /** Equations (m:oMath, m:oMathPara) in the paragraph, written into its text as LaTeX. */
  equations: number;
  /** The font each run holding visible text names (itself or by its character style); null where it names none. */
  fonts: (string | null)[];
}

function readParagraph(p: XmlNode, ctx: Context): void {
  const pPr = child(p, 'w:pPr');
  const breakBefore = child(pPr, 'w:pageBreakBefore');
  if (ctx.breaks === 'explicit' && breakBefore && breakBefore.attrs['w:val'] !== '0' && breakBefore.attrs['w:val'] !== 'false') newPage(ctx);
  const parts: ParagraphParts = { text: '', pictures: 0, charts: [], boxes: [], breakAt: [], equations: 0, fonts: [] };
  collectRuns(p.children, parts, ctx);
  if (parts.equations > 0) parts.text = displayLoneEquations(parts.text);
  const styleId = child(pPr, 'w:pStyle')?.attrs['w:val'] ?? null;
  const style = styleId ? ctx.styles.get(styleId) : undefined;
  const styleName = style?.name.toLowerCase() ?? '';
  // A page break at the very start of the paragraph opens the new page before it.
  if (parts.breakAt.length > 0 && parts.breakAt[0] === 0 && parts.text.trim()) {
    newPage(ctx);
    parts.breakAt.shift();
  }
  const segments: string[] = [];
  let from = 0;
  for (const at of parts.breakAt) {
    segments.push(parts.text.slice(from, at));
    from = at;
  }
  segments.push(parts.text.slice(from));
  const monospaced = setInMonospace(parts, style, ctx);
  segments.forEach((segment, i) => {
    if (i > 0) newPage(ctx);
    const text = segment.replace(/[ \t]+/g, ' ').replace(/ *\n */g, '\n').trim();
    if (!text) return;
    // A title, heading, list item or caption stays one whatever its face; a paragraph set in a
    // monospaced face is a line of code, its spacing as written; a one-line paragraph written as
    // an equation in plain text (no Word equation object) is a display formula, as on a PDF page.
    const item = classify(text, pPr, style, styleName, ctx);
    if (item.kind === 'paragraph' && monospaced) pushCode(segment, ctx);
    else if (item.kind === 'paragraph' && parts.equations === 0 && !text.includes('\n') && looksLikeFormula(text)) current(ctx).push({ kind: 'formula', text });
    else current(ctx).push(item);
  });
  for (let k = 0; k < parts.pictures; k++) current(ctx).push({ kind: 'figure', caption: null });
  for (const id of parts.charts) current(ctx).push(...ctx.chart(id));
  for (const box of parts.boxes) readBlocks(box, ctx);
  // A section that starts on a new page closes this one.
  const sectionType = child(child(pPr, 'w:sectPr'), 'w:type')?.attrs['w:val'];
  if (ctx.breaks === 'explicit' && child(pPr, 'w:sectPr') && (sectionType === undefined || sectionType === 'nextPage' || sectionType === 'oddPage' || sectionType === 'evenPage')) newPage(ctx);
}

/**
 * Every run of the paragraph's visible text is set in a monospaced face, named by the run, its
 * character style, the paragraph's style chain or the document's defaults: what Word's and
 * LibreOffice's preformatted and code styles do. A document set wholly in such a face has no code
 * told by it.
 */
function setInMonospace(parts: ParagraphParts, style: Style | undefined, ctx: Context): boolean {
  if (parts.fonts.length === 0 || parts.equations > 0 || isMonospacedFont(ctx.defaultFont)) return false;
  const own = styleFont(style, ctx.styles) ?? ctx.defaultFont;
  return parts.fonts.every((font) => isMonospacedFont(font ?? own));
}

/** A code paragraph's line, its indentation kept (a tab as four spaces), joined to the code just before it. */
function pushCode(segment: string, ctx: Context): void {
  const text = segment.replace(/\t/g, '    ').trimEnd();
  const items = current(ctx);
  const last = items[items.length - 1];
  if (last?.kind === 'code') last.text += `\n${text}`;
  else if (text.trim()) items.push({ kind: 'code', text });
}

function classify(text: string, pPr: XmlNode | undefined, style: Style | undefined, styleName: string, ctx: Context): OfficeItem {
  if (styleName === 'title') return { kind: 'title', text: oneLine(text) };
  const heading = /^heading\s*(\d)$/.exec(styleName);
  const outline = outlineLevel(pPr, style, ctx);
  const numbering = numberingOf(pPr, style, ctx);
  // The marker is taken (and the list's counter moved on) whatever the paragraph is, as in Word.
  const marker = numbering ? listMarker(numbering.numId, numbering.depth, ctx) : '';
  if (heading || outline !== null) {
    // A numbered heading shows its number ("2.1 Scope"); a bullet before a heading is decoration.
    const number = numbering && isNumbered(numbering.numId, numbering.depth, ctx) ? `${marker} ` : '';
    return { kind: 'heading', level: heading ? Number(heading[1]) : outline! + 1, text: number + oneLine(text) };
  }
  if (styleName === 'caption') return { kind: 'caption', text };
  if (numbering && marker) return { kind: 'list_item', text, depth: numbering.depth, marker };
  return { kind: 'paragraph', text };
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

/** The outline level from the paragraph or its style chain (0 for a level 1 heading). */
function outlineLevel(pPr: XmlNode | undefined, style: Style | undefined, ctx: Context): number | null {
  const own = child(pPr, 'w:outlineLvl')?.attrs['w:val'];
  if (own !== undefined) return Number(own) < 9 ? Number(own) : null;
  for (let s = style, hops = 0; s && hops < 10; s = s.basedOn ? ctx.styles.get(s.basedOn) : undefined, hops++) {
    if (s.outline !== null) return s.outline < 9 ? s.outline : null;
  }
  return null;
}

/**
 * The list a paragraph is numbered in and its level: its own w:numPr, completed from its style
 * chain's (a heading style linked to a multilevel list names no level: the level whose w:pStyle
 * is that style is it). None when there is no list, or numId 0, which turns numbering off.
 */
function numberingOf(pPr: XmlNode | undefined, style: Style | undefined, ctx: Context): { numId: string; depth: number } | null {
  const own = child(pPr, 'w:numPr');
  let inherited: { numPr: XmlNode; style: Style } | undefined;
  for (let s = style, hops = 0; s && hops < 10; s = s.basedOn ? ctx.styles.get(s.basedOn) : undefined, hops++) {
    if (s.numPr) {
      inherited = { numPr: s.numPr, style: s };
      break;
    }
  }
  const numId = child(own, 'w:numId')?.attrs['w:val'] ?? child(inherited?.numPr, 'w:numId')?.attrs['w:val'];
  if (!numId || numId === '0') return null;
  const ilvl = child(own, 'w:ilvl')?.attrs['w:val'] ?? child(inherited?.numPr, 'w:ilvl')?.attrs['w:val'];
  if (ilvl !== undefined) return { numId, depth: Math.min(8, Math.max(0, Number(ilvl) || 0)) };
  const linked = inherited ? (ctx.numbering.get(numId) ?? []).findIndex((level) => level?.style === inherited.style.id) : -1;
  return { numId, depth: Math.max(0, linked) };
}

/** Whether a list level shows a number (not a bullet, not nothing). */
function isNumbered(numId: string, depth: number, ctx: Context): boolean {
  const format = ctx.numbering.get(numId)?.[depth]?.format;
  return format !== undefined && format !== 'bullet' && format !== 'none';
}

/**
 * The marker Word shows for the next item of a list at a level: a bullet, the formatted number,
 * or, for a level without numbers, its text as given (often none).
 */
function listMarker(numId: string, depth: number, ctx: Context): string {
  const levels = ctx.numbering.get(numId);
  const level = levels?.[depth];
  if (!level || level.format === 'bullet') return '•';
  if (level.format === 'none') return level.text.replace(/%\d/g, '').trim();
  const counters = ctx.counters.get(numId) ?? [];
  ctx.counters.set(numId, counters);
  counters[depth] = (counters[depth] ?? (levels[depth].start - 1)) + 1;
  counters.length = depth + 1; // deeper levels restart
  return level.text.replace(/%(\d)/g, (_, n: string) => {
    const d = Number(n) - 1;
    const value = counters[d] ?? levels[d]?.start ?? 1;
    return formatNumber(value, levels[d]?.format ?? 'decimal');
  });
}

function formatNumber(value: number, format: string): string {
  switch (format) {
    case 'lowerLetter':
      return letters(value).toLowerCase();
    case 'upperLetter':
      return letters(value);
    case 'lowerRoman':
      return roman(value).toLowerCase();
    case 'upperRoman':
      return roman(value);
    default:
      return String(value);
  }
}

function letters(n: number): string {
  let s = '';
  for (let v = n; v > 0; v = Math.floor((v - 1) / 26)) s = String.fromCharCode(65 + ((v - 1) % 26)) + s;
  return s;
}

function roman(n: number): string {
  const table: [number, string][] = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];
  let out = '';
  let v = n;
  for (const [k, s] of table) while (v >= k) { out += s; v -= k; }
  return out;
}

/** Text of runs (and of hyperlinks, fields, insertions) in order; deletions are left out. */
function collectRuns(nodes: XmlNode[], parts: ParagraphParts, ctx: Context): void {
  for (const node of nodes) {
    switch (node.name) {
      case 'w:r':
        readRun(node, parts, ctx);
        break;
      case 'w:hyperlink':
      case 'w:ins':
      case 'w:smartTag':
      case 'w:customXml':
      case 'w:fldSimple':
      case 'w:bdo':
      case 'w:dir':
        collectRuns(node.children, parts, ctx);
        break;
      case 'w:sdt':
        collectRuns(child(node, 'w:sdtContent')?.children ?? [], parts, ctx);
        break;
      case 'w:commentRangeStart':
        comment(node.attrs['w:id'], ctx);
        break;
      case 'm:oMath':
        parts.text += equations(node).map((latex) => mathMarkup(latex, false)).join('');
        parts.equations++;
        break;
      case 'm:oMathPara':
        parts.text += equations(node).map((latex) => `\n${mathMarkup(latex, true)}\n`).join('');
        parts.equations++;
        break;
      default:
        break;
    }
  }
}

function readRun(run: XmlNode, parts: ParagraphParts, ctx: Context): void {
  for (const node of run.children) {
    switch (node.name) {
      case 'w:t': {
        const text = textOf(node);
        parts.text += text;
        if (text.trim()) parts.fonts.push(runFont(run, ctx.styles));
        break;
      }
      case 'w:tab':
      case 'w:ptab':
        parts.text += '\t';
        break;
      case 'w:br':
      case 'w:cr':
        if (node.attrs['w:type'] === 'page') {
          if (ctx.breaks === 'explicit') parts.breakAt.push(parts.text.length);
        } else parts.text += '\n';
        break;
      case 'w:lastRenderedPageBreak':
        if (ctx.breaks === 'rendered') parts.breakAt.push(parts.text.length);
        break;
      case 'w:noBreakHyphen':
        parts.text += '-';
        break;
      case 'w:sym':
        parts.text += symbol(node.attrs['w:char']);
        break;
      case 'w:commentReference':
        comment(node.attrs['w:id'], ctx);
        break;
      case 'w:footnoteReference': {
        const id = node.attrs['w:id'];
        if (id && ctx.footnotes.has(id)) ctx.cited.push(id);
        break;
      }
      case 'w:drawing':
      case 'w:pict':
      case 'mc:AlternateContent':
        readDrawing(node, parts);
        break;
      default:
        break;
    }
  }
}

/** A symbol-font character (w:sym): private-use codes F0xx stand for the ASCII code xx. */
function symbol(hex: string | undefined): string {
  if (!hex) return '';
  const code = parseInt(hex, 16);
  if (!Number.isFinite(code)) return '';
  return String.fromCodePoint(code >= 0xf000 && code <= 0xf0ff ? code - 0xf000 : code);
}

/** Pictures and text boxes in a drawing; of alternate contents only the first choice is read. */
function readDrawing(node: XmlNode, parts: ParagraphParts): void {
  if (node.name === 'mc:Fallback') return;
  if (node.name === 'w:txbxContent') {
    parts.boxes.push(node.children);
    return;
  }
  if (node.name === 'pic:pic' || node.name === 'v:imagedata') {
    parts.pictures++;
    return;
  }
  if (node.name === 'c:chart' && node.attrs['r:id']) {
    parts.charts.push(node.attrs['r:id']);
    return;
  }
  for (const c of node.children) {
    readDrawing(c, parts);
    if (node.name === 'mc:AlternateContent' && c.name === 'mc:Choice') break;
  }
}

function readTable(tbl: XmlNode, ctx: Context): Extract<OfficeItem, { kind: 'table' }> {
  const table = new TableReader(ctx);
  for (const tr of children(tbl, 'w:tr')) table.row(tr);
  return table.item();
}

/** A Word table read row by row (a long one comes a slice of rows at a time). */
class TableReader {
  private readonly cells: Extract<OfficeItem, { kind: 'table' }>['cells'] = [];
  /** For each grid column, the cell a vertical merge continues. */
  private readonly open = new Map<number, Extract<OfficeItem, { kind: 'table' }>['cells'][number]>();
  private columnCount = 0;
  private headerRows = 0;
  private rows = 0;

  constructor(private readonly ctx: Context) {}

  row(tr: XmlNode): void {
    const row = this.rows++;
    const trPr = child(tr, 'w:trPr');
    if (child(trPr, 'w:tblHeader') && this.headerRows === row) this.headerRows++;
    let column = Number(child(trPr, 'w:gridBefore')?.attrs['w:val'] ?? 0);
    for (const tc of children(tr, 'w:tc')) {
      const tcPr = child(tc, 'w:tcPr');
      const span = Math.max(1, Number(child(tcPr, 'w:gridSpan')?.attrs['w:val'] ?? 1));
      const vMerge = child(tcPr, 'w:vMerge');
      const text = cellText(tc, this.ctx);
      if (vMerge && vMerge.attrs['w:val'] !== 'restart' && this.open.has(column)) {
        const above = this.open.get(column)!;
        above.rowSpan = row - above.row + 1;
        if (text) above.text = above.text ? `${above.text} ${text}` : text;
      } else {
        const cell = { row, column, rowSpan: 1, columnSpan: span, text };
        this.cells.push(cell);
        for (let c = column; c < column + span; c++) this.open.delete(c);
        if (vMerge) this.open.set(column, cell);
      }
      column += span;
    }
    this.columnCount = Math.max(this.columnCount, column);
  }

  item(): Extract<OfficeItem, { kind: 'table' }> {
    return { kind: 'table', rowCount: this.rows, columnCount: this.columnCount, cells: this.cells, headerRows: this.headerRows };
  }
}

/** A cell's paragraphs (and nested tables, row by row) as one text. */
function cellText(tc: XmlNode, ctx: Context): string {
  const out: string[] = [];
  const walk = (nodes: XmlNode[]) => {
    for (const node of nodes) {
      if (node.name === 'w:p') {
        const parts: ParagraphParts = { text: '', pictures: 0, charts: [], boxes: [], breakAt: [], equations: 0, fonts: [] };
        collectRuns(node.children, parts, { ...ctx, cited: ctx.cited });
        const text = parts.text.replace(/\s+/g, ' ').trim();
        if (text) out.push(text);
      } else if (node.name === 'w:tbl') {
        for (const tr of children(node, 'w:tr')) for (const inner of children(tr, 'w:tc')) walk(inner.children);
      } else if (node.name === 'w:sdt') walk(child(node, 'w:sdtContent')?.children ?? []);
    }
  };
  walk(tc.children);
  return out.join(' ');
}

function readNumbering(numbering: XmlNode | null): Map<string, Level[]> {
  const abstract = new Map<string, Level[]>();
  for (const a of children(numbering ?? undefined, 'w:abstractNum')) {
    const levels: Level[] = [];
    for (const lvl of children(a, 'w:lvl')) {
      levels[Number(lvl.attrs['w:ilvl'] ?? 0)] = {
        format: child(lvl, 'w:numFmt')?.attrs['w:val'] ?? 'decimal',
        text: child(lvl, 'w:lvlText')?.attrs['w:val'] ?? '%1.',
        start: Number(child(lvl, 'w:start')?.attrs['w:val'] ?? 1),
        style: child(lvl, 'w:pStyle')?.attrs['w:val'],
      };
    }
    abstract.set(a.attrs['w:abstractNumId'], levels);
  }
  const out = new Map<string, Level[]>();
  for (const num of children(numbering ?? undefined, 'w:num')) {
    const id = child(num, 'w:abstractNumId')?.attrs['w:val'];
    if (id !== undefined && abstract.has(id)) out.set(num.attrs['w:numId'], abstract.get(id)!);
  }
  return out;
}

/** Comments by id: who wrote them, when, and their paragraphs' text. */
function readComments(comments: XmlNode | null): Map<string, ReviewComment> {
  const out = new Map<string, ReviewComment>();
  for (const c of children(comments ?? undefined, 'w:comment')) {
    const text = descendants(c, 'w:p')
      .map((p) => descendants(p, 'w:t').map(textOf).join('').trim())
      .filter(Boolean)
      .join(' ');
    out.set(c.attrs['w:id'], { author: c.attrs['w:author'], initials: c.attrs['w:initials'], date: c.attrs['w:date'], text });
  }
  return out;
}

function readFootnotes(footnotes: XmlNode | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const note of children(footnotes ?? undefined, 'w:footnote')) {
    const type = note.attrs['w:type'];
    if (type === 'separator' || type === 'continuationSeparator') continue;
    const text = children(note, 'w:p')
      .map((p) => textOf(p).trim())
      .filter(Boolean)
      .join(' ');
    if (text) out.set(note.attrs['w:id'], text);
  }
  return out;
}
