// PPTX reader: one page per slide in presentation order (docs/decisions.md#pages), each the size of the
// slide. Shapes keep their positions (group transforms applied, placeholders without a position
// taking the one of their layout or master), so text is read in reading order by position; titles
// become the page's title, body text keeps its bullets, numbers and levels, tables their merged
// cells, pictures are figures. The slide's reviewer comments follow its content, set below the
// slide (the page grows by them); speaker notes stay out. Written against the
// slide XML because no JavaScript library reads PPTX structure (the npm "pptx" packages write).
import type { Box } from '../../page-model.js';
import { child, children, OfficePackage, OfficeReadError, textOf, type XmlNode } from './package.js';
import type { OfficeItem } from './structure.js';
import { readChart } from './chart.js';
import { commentItems, type ReviewComment } from './comments.js';
import { displayLoneEquations, equations, mathMarkup } from './omml.js';

const EMU_PER_POINT = 12_700;

export interface Slide {
  width: number;
  height: number;
  items: OfficeItem[];
}

interface Transform {
  /** Maps child coordinates (EMU) to slide points. */
  x: (v: number) => number;
  y: (v: number) => number;
}

const IDENTITY: Transform = { x: (v) => v / EMU_PER_POINT, y: (v) => v / EMU_PER_POINT };

interface Placeholders {
  byType: Map<string, Box>;
  byIndex: Map<string, Box>;
}

export function readPptx(bytes: Uint8Array): Slide[] {
  const pkg = OfficePackage.open(bytes, (name) => name.startsWith('ppt/') && (name.endsWith('.xml') || name.endsWith('.rels')) && !name.startsWith('ppt/media/') && !name.startsWith('ppt/notesSlides/'));
  const presentation = pkg.xml('ppt/presentation.xml');
  if (!presentation) throw new OfficeReadError('the file has no ppt/presentation.xml; it is not a PowerPoint presentation');
  const size = child(presentation, 'p:sldSz');
  const width = Number(size?.attrs.cx ?? 9144000) / EMU_PER_POINT;
  const height = Number(size?.attrs.cy ?? 6858000) / EMU_PER_POINT;
  const slides: Slide[] = [];
  // Slides of one layout share its placeholders: each layout (and its master) is read once.
  const layouts = new Map<string, Placeholders>();
  const authors = commentAuthors(pkg);
  for (const part of slideParts(pkg, presentation)) {
    const slide = pkg.xml(part);
    if (!slide) continue;
    if (slide.attrs.show === '0') continue;
    const slideRels = pkg.relationships(part);
    const layout = [...slideRels.values()].find((r) => r.type.endsWith('/slideLayout'))?.target;
    const inherited = layouts.get(layout ?? '') ?? placeholdersOf(pkg, layout);
    layouts.set(layout ?? '', inherited);
    const shapes: Shape[] = [];
    const charts: ChartReader = (id) => {
      const target = slideRels.get(id)?.target;
      return target ? readChart(pkg, target) : [];
    };
    collectShapes(child(child(slide, 'p:cSld'), 'p:spTree')?.children ?? [], IDENTITY, inherited, shapes, charts);
    // The comments follow the slide's own content.
    slides.push({ width, height, items: [...orderShapes(shapes, height), ...commentItems(slideComments(pkg, slideRels, authors))] });
  }
  return slides;
}

/**
 * The slide parts in presentation order that the package holds. Only the presentation part and
 * its relationships are read, so this is also the page count at submission (docs/decisions.md#pages: one page per
 * slide; a hidden slide, marked in its own part, is dropped when read).
 */
function slideParts(pkg: OfficePackage, presentation: XmlNode): string[] {
  const rels = pkg.relationships('ppt/presentation.xml');
  return children(child(presentation, 'p:sldIdLst'), 'p:sldId')
    .map((id) => rels.get(id.attrs['r:id'])?.target)
    .filter((part): part is string => part !== undefined && pkg.lists(part));
}

/** The page count of a presentation from its presentation part and parts list alone. */
export function countPptxPages(bytes: Uint8Array): number {
  const pkg = OfficePackage.open(bytes, (name) => name === 'ppt/presentation.xml' || name === 'ppt/_rels/presentation.xml.rels');
  const presentation = pkg.xml('ppt/presentation.xml');
  if (!presentation) throw new OfficeReadError('the file has no ppt/presentation.xml; it is not a PowerPoint presentation');
  return slideParts(pkg, presentation).length;
}

type Relationships = ReturnType<OfficePackage['relationships']>;

interface Author {
  name: string;
  initials: string;
}

/** Comment authors by id: PowerPoint's classic list (ppt/commentAuthors.xml) and its modern one (ppt/authors.xml). */
function commentAuthors(pkg: OfficePackage): Map<string, Author> {
  const out = new Map<string, Author>();
  for (const rel of pkg.relationships('ppt/presentation.xml').values()) {
    if (!rel.type.endsWith('/commentAuthors') && !rel.type.endsWith('/authors')) continue;
    for (const author of pkg.xml(rel.target)?.children ?? []) {
      if (!/(^|:)(cmAuthor|author)$/.test(author.name)) continue;
      out.set(author.attrs.id, { name: author.attrs.name ?? '', initials: author.attrs.initials ?? '' });
    }
  }
  return out;
}

const named = (node: XmlNode | undefined, name: string) => node?.children.filter((c) => c.name === name || c.name.endsWith(`:${name}`)) ?? [];

/**
 * The slide's comments in the order of their part: classic ones (p:cm, each reply its own
 * comment) and modern threads (a comment, then its replies).
 */
function slideComments(pkg: OfficePackage, slideRels: Relationships, authors: Map<string, Author>): ReviewComment[] {
  const out: ReviewComment[] = [];
  const by = (id: string | undefined) => authors.get(id ?? '') ?? { name: '', initials: '' };
  const bodyText = (node: XmlNode) => named(named(node, 'txBody')[0], 'p').map(paragraphText).filter(Boolean).join(' ');
  for (const rel of slideRels.values()) {
    if (!rel.type.endsWith('/comments')) continue;
    for (const cm of named(pkg.xml(rel.target) ?? undefined, 'cm')) {
      const classic = child(cm, 'p:text');
      const author = by(cm.attrs.authorId);
      out.push({ author: author.name, initials: author.initials, date: cm.attrs.dt ?? cm.attrs.created, text: classic ? textOf(classic) : bodyText(cm) });
      for (const reply of named(named(cm, 'replyLst')[0], 'reply')) {
        const replier = by(reply.attrs.authorId);
        out.push({ author: replier.name, initials: replier.initials, date: reply.attrs.created, text: bodyText(reply) });
      }
    }
  }
  return out;
}

/** Positions of the layout's and master's placeholders, which slides' placeholders inherit. */
function placeholdersOf(pkg: OfficePackage, layout: string | undefined): Placeholders {
  const out: Placeholders = { byType: new Map(), byIndex: new Map() };
  const master = layout ? [...pkg.relationships(layout).values()].find((r) => r.type.endsWith('/slideMaster'))?.target : undefined;
  // The master first, so that the layout's positions win.
  for (const part of [master, layout]) {
    const xml = part ? pkg.xml(part) : null;
    for (const sp of xml ? allShapes(xml) : []) {
      const ph = placeholder(sp);
      const box = ph ? ownBox(sp, IDENTITY) : null;
      if (!ph || !box) continue;
      out.byType.set(ph.type, box);
      if (ph.index) out.byIndex.set(ph.index, box);
    }
  }
  return out;
}

function allShapes(node: XmlNode, out: XmlNode[] = []): XmlNode[] {
  for (const c of node.children) {
    if (c.name === 'p:sp') out.push(c);
    else allShapes(c, out);
  }
  return out;
}

function placeholder(sp: XmlNode): { type: string; index: string | null } | null {
  const ph = child(child(child(sp, 'p:nvSpPr') ?? child(sp, 'p:nvGraphicFramePr') ?? child(sp, 'p:nvPicPr'), 'p:nvPr'), 'p:ph');
  if (!ph) return null;
  return { type: ph.attrs.type ?? 'body', index: ph.attrs.idx ?? null };
}

function ownBox(node: XmlNode, t: Transform): Box | null {
  const xfrm = child(child(node, 'p:spPr'), 'a:xfrm') ?? child(node, 'p:xfrm') ?? child(child(node, 'p:grpSpPr'), 'a:xfrm');
  const off = child(xfrm, 'a:off');
  const ext = child(xfrm, 'a:ext');
  if (!off || !ext) return null;
  const x = Number(off.attrs.x);
  const y = Number(off.attrs.y);
  return { x0: t.x(x), y0: t.y(y), x1: t.x(x + Number(ext.attrs.cx)), y1: t.y(y + Number(ext.attrs.cy)) };
}

interface Shape {
  box: Box;
  order: number;
  items: OfficeItem[];
}

/** Reads the chart a graphic frame refers to (by relationship id). */
type ChartReader = (relationshipId: string) => OfficeItem[];

function collectShapes(nodes: XmlNode[], t: Transform, inherited: Placeholders, out: Shape[], charts: ChartReader): void {
  for (const node of nodes) {
    if (node.name === 'p:grpSp') {
      collectShapes(node.children, groupTransform(node, t), inherited, out, charts);
      continue;
    }
    if (node.name === 'mc:AlternateContent') {
      collectShapes(child(node, 'mc:Choice')?.children ?? [], t, inherited, out, charts);
      continue;
    }
    if (node.name !== 'p:sp' && node.name !== 'p:graphicFrame' && node.name !== 'p:pic') continue;
    const ph = placeholder(node);
    const box = ownBox(node, t) ?? (ph ? (ph.index ? inherited.byIndex.get(ph.index) : undefined) ?? inherited.byType.get(ph.type) : undefined) ?? { x0: 0, y0: out.length, x1: 1, y1: out.length + 1 };
    const items = shapeItems(node, ph?.type ?? null, box, charts);
    if (items.length) out.push({ box, order: out.length, items });
  }
}

/** A group maps its children's coordinates (chOff/chExt) onto its own box (off/ext). */
function groupTransform(group: XmlNode, t: Transform): Transform {
  const xfrm = child(child(group, 'p:grpSpPr'), 'a:xfrm');
  const off = child(xfrm, 'a:off');
  const ext = child(xfrm, 'a:ext');
  const chOff = child(xfrm, 'a:chOff');
  const chExt = child(xfrm, 'a:chExt');
  if (!off || !ext || !chOff || !chExt) return t;
  const sx = Number(chExt.attrs.cx) ? Number(ext.attrs.cx) / Number(chExt.attrs.cx) : 1;
  const sy = Number(chExt.attrs.cy) ? Number(ext.attrs.cy) / Number(chExt.attrs.cy) : 1;
  const ox = Number(off.attrs.x) - Number(chOff.attrs.x) * sx;
  const oy = Number(off.attrs.y) - Number(chOff.attrs.y) * sy;
  return { x: (v) => t.x(ox + v * sx), y: (v) => t.y(oy + v * sy) };
}

function shapeItems(node: XmlNode, placeholderType: string | null, box: Box, charts: ChartReader): OfficeItem[] {
  if (node.name === 'p:pic') return [{ kind: 'figure', caption: null, box }];
  if (node.name === 'p:graphicFrame') {
    const data = child(child(node, 'a:graphic'), 'a:graphicData');
    const tbl = child(data, 'a:tbl');
    if (tbl) return [{ ...readTable(tbl), box }];
    const chart = child(data, 'c:chart');
    return chart ? charts(chart.attrs['r:id']).map((item) => ({ ...item, box })) : [];
  }
  const body = child(node, 'p:txBody');
  if (!body) return [];
  const isTitle = placeholderType === 'title' || placeholderType === 'ctrTitle';
  // Body placeholders show bullets unless a paragraph turns them off; text boxes show none.
  const bulletsByDefault = placeholderType === 'body' || placeholderType === 'obj' || (placeholderType !== null && !isTitle && placeholderType !== 'subTitle');
  const items: OfficeItem[] = [];
  const counters: number[] = [];
  for (const p of children(body, 'a:p')) {
    const text = paragraphText(p);
    if (!text) continue;
    if (isTitle) {
      items.push({ kind: 'title', text: text.replace(/\s*\n\s*/g, ' '), box });
      continue;
    }
    const pPr = child(p, 'a:pPr');
    const depth = Number(pPr?.attrs.lvl ?? 0);
    const autoNumber = child(pPr, 'a:buAutoNum');
    const bulletChar = child(pPr, 'a:buChar');
    const none = child(pPr, 'a:buNone');
    if (autoNumber) {
      counters[depth] = (counters[depth] ?? Number(autoNumber.attrs.startAt ?? 1) - 1) + 1;
      counters.length = depth + 1;
      items.push({ kind: 'list_item', text, depth, marker: `${counters[depth]}.`, box });
    } else if (!none && (bulletChar || bulletsByDefault)) {
      items.push({ kind: 'list_item', text, depth, marker: '•', box });
    } else {
      items.push({ kind: 'paragraph', text, box });
    }
  }
  return items;
}

function paragraphText(p: XmlNode): string {
  let text = '';
  let math = false;
  for (const node of p.children) {
    if (node.name === 'a:r' || node.name === 'a:fld') text += textOf(child(node, 'a:t') ?? { name: '', attrs: {}, children: [] });
    else if (node.name === 'a:br') text += '\n';
    else if (node.name === 'mc:AlternateContent') {
      // An equation (a14:m) is the first choice; its fallback is a picture of it.
      const equation = child(child(node, 'mc:Choice'), 'a14:m');
      for (const part of equation?.children ?? []) {
        if (part.name !== 'm:oMathPara' && part.name !== 'm:oMath') continue;
        text += equations(part).map((latex) => mathMarkup(latex, false)).join(' ');
        math = true;
      }
    }
  }
  if (math) text = displayLoneEquations(text);
  return text.replace(/[ \t]+/g, ' ').trim();
}

function readTable(tbl: XmlNode): Extract<OfficeItem, { kind: 'table' }> {
  const cells: Extract<OfficeItem, { kind: 'table' }>['cells'] = [];
  const rows = children(tbl, 'a:tr');
  let columnCount = children(child(tbl, 'a:tblGrid'), 'a:gridCol').length;
  rows.forEach((tr, row) => {
    let column = 0;
    for (const tc of children(tr, 'a:tc')) {
      // Cells a merge covers (hMerge, vMerge) are placeholders for the merged cell.
      if (tc.attrs.hMerge !== '1' && tc.attrs.vMerge !== '1') {
        const text = children(child(tc, 'a:txBody'), 'a:p').map(paragraphText).filter(Boolean).join(' ');
        cells.push({ row, column, rowSpan: Math.max(1, Number(tc.attrs.rowSpan ?? 1)), columnSpan: Math.max(1, Number(tc.attrs.gridSpan ?? 1)), text });
      }
      column++;
    }
    columnCount = Math.max(columnCount, column);
  });
  const header = child(tbl, 'a:tblPr')?.attrs.firstRow === '1' ? 1 : 0;
  return { kind: 'table', rowCount: rows.length, columnCount, cells, headerRows: Math.min(header, Math.max(0, rows.length - 1)) };
}

/**
 * Shapes in reading order: the slide's title first, then by their top edge, shapes whose tops
 * are within a twentieth of the slide of one another read left to right.
 */
function orderShapes(shapes: Shape[], slideHeight: number): OfficeItem[] {
  const titles = shapes.filter((s) => s.items.some((i) => i.kind === 'title'));
  const band = slideHeight / 20;
  const rest = shapes
    .filter((s) => !titles.includes(s))
    .sort((a, b) => (Math.abs(a.box.y0 - b.box.y0) <= band ? a.box.x0 - b.box.x0 : a.box.y0 - b.box.y0) || a.order - b.order);
  return [...titles, ...rest].flatMap((s) => s.items);
}
