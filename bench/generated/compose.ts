// Drawing one document at random from its seed and index: its kind (report, paper, tables, book,
// letter, blank), page, columns, type, script, furniture and blocks, and whether its pages are sent
// as a scan. Every variation drawn is named in `features`, so the bench can say what a run covered.
import { Random } from './random.js';
import type { Block, DocSpec, DocumentKind, Furniture, Producer, Run, ScanSpec, Typeface } from './spec.js';
import { drawTable } from './tables.js';
import { capitalise, isRightToLeft, Words, type Script } from './words.js';

const A4 = { width: 595, height: 842 };
const LETTER = { width: 612, height: 792 };

const CODE_LINES = [
  'def {f}({a}, {b}):',
  '    total = {a} * {b} + {n}',
  '    for item in {a}:',
  '        if item.{f} > {n}:',
  '            return item',
  'let {a} = {n};',
  'for (let i = 0; i < {a}.length; i++) {',
  '  {b}[i] = {a}[i] * {n};',
  '}',
  'SELECT {a}, SUM({b}) FROM {f} GROUP BY {a};',
  'if ({a} == null) throw new Error("{f}");',
  'return {a}.map(x => x + {n});',
  '{a} := make([]int, {n})',
  'fn {f}(&self) -> usize { self.{a}.len() }',
];

const EQUATIONS = [
  '{f}(x) = ∑ₖ aₖ xᵏ',
  'E = m c²',
  '∫₀^∞ e^(−x²) dx = √π / 2',
  'P(A | B) = P(B | A) · P(A) / P(B)',
  'σ² = (1/n) ∑ᵢ (xᵢ − μ)²',
  '∇ · E = ρ / ε₀',
  '{a}ₜ₊₁ = {a}ₜ − η ∇L({a}ₜ)',
  'ŷ = argmax_y p(y | x; θ)',
  'H = −∑ pᵢ log₂ pᵢ',
  'x = (−b ± √(b² − 4ac)) / 2a',
];

function fill(template: string, random: Random, words: Words): string {
  const ident = () => random.pick(['rate', 'total', 'items', 'value', 'count', 'scale', 'node', 'row', 'score', 'delta']);
  return template
    .replace(/\{f\}/g, () => random.pick(['load', 'parse', 'score', 'merge', 'step', 'apply', 'f', 'g']))
    .replace(/\{a\}/g, ident())
    .replace(/\{b\}/g, ident())
    .replace(/\{n\}/g, () => String(random.int(1, 99)))
    .replace(/\{w\}/g, () => words.word());
}

function drawType(random: Random, kind: DocumentKind, script: Script, features: Set<string>): Typeface {
  const family =
    script === 'arabic' || script === 'hebrew'
      ? 'sans'
      : random.weighted([
          ['serif', kind === 'paper' || kind === 'book' ? 5 : 2],
          ['sans', 3],
          ['mono', 0.4],
          ['narrow', 0.5],
        ] as const);
  const letterSpacing = random.chance(0.1) ? random.pick([0.3, 0.6, 1.0]) : 0;
  const ligatures = family === 'serif' && random.chance(0.5);
  features.add(`type:${family}`);
  if (letterSpacing) features.add('type:letter-spacing');
  if (ligatures) features.add('type:ligatures');
  return { family, size: random.pick([9, 9.5, 10, 10.5, 11, 12]), letterSpacing, ligatures, justified: random.chance(0.4) };
}

function drawFurniture(random: Random, kind: DocumentKind, words: Words, producer: Producer, features: Set<string>): Furniture {
  const pageNumber = random.weighted([
    ['none', 1],
    ['bottom-center', 3],
    ['bottom-outer', 1.5],
    ['top-outer', 1],
    ['page-of', 1],
    ['dashed', 0.5],
  ] as const);
  const head = random.chance(kind === 'book' || kind === 'paper' ? 0.7 : 0.4) ? (kind === 'paper' ? `${words.name()} et al.` : capitalise(words.headingText())) : null;
  const foot = random.chance(0.35) ? random.pick([`${words.identifier('DOC')} · ${words.place()}`, `Confidential — ${words.headingText()}`, `© ${random.int(2015, 2029)} ${words.place()} ${words.noun()} office`]) : null;
  const stamp = kind === 'paper' && random.chance(0.5) ? `arXiv:${random.int(1501, 2599)}.${String(random.int(0, 99999)).padStart(5, '0')}v${random.int(1, 4)} [cs.${random.pick(['CL', 'LG', 'CV', 'IR'])}] ${words.date()}` : null;
  const lineNumbers = (kind === 'paper' || kind === 'report') && random.chance(0.12);
  const sideTab = kind === 'book' && random.chance(0.5) ? `Chapter ${random.int(1, 12)}` : null;
  const templates = producer === 'chromium' && random.chance(0.3);
  // A panel's colour, for a design that bleeds off the sheet (its own margin, so no other furniture there).
  const bleed = producer === 'chromium' && !templates && !sideTab && !lineNumbers && !stamp && kind !== 'letter' && random.chance(0.12) ? random.pick(['#c8102e', '#1f4e79', '#345', '#e8e0c8']) : null;
  if (head) features.add('furniture:running-head');
  if (foot) features.add('furniture:running-foot');
  if (pageNumber !== 'none') features.add(`furniture:page-number-${pageNumber}`);
  if (stamp) features.add('furniture:stamp');
  if (lineNumbers) features.add('furniture:line-numbers');
  if (sideTab) features.add('furniture:side-tab');
  if (templates && (head || foot || pageNumber !== 'none')) features.add('furniture:chromium-templates');
  if (bleed) features.add('furniture:bleed-band');
  return { head, foot, pageNumber, stamp, lineNumbers, sideTab, templates, bleed };
}

function drawScan(random: Random, script: Script, features: Set<string>): ScanSpec {
  const scan: ScanSpec = {
    dpi: random.pick([150, 200, 300] as const),
    skew: random.chance(0.7) ? Math.round(random.between(-3, 3) * 10) / 10 : 0,
    blur: random.chance(0.3) ? Math.round(random.between(0.3, 1.2) * 10) / 10 : 0,
    noise: random.chance(0.4) ? random.int(4, 18) : 0,
    jpegQuality: random.chance(0.5) ? random.int(35, 85) : null,
    contrast: random.chance(0.3) ? Math.round(random.between(0.55, 0.85) * 100) / 100 : 1,
    unevenLight: random.chance(0.3) ? Math.round(random.between(0.15, 0.45) * 100) / 100 : 0,
    container: random.weighted([
      ['pdf', 5],
      ['tiff', 1.5],
      ['png', 1],
      ['jpeg', 1],
    ] as const),
    textLayer: 'none',
    strips: 1,
    showThrough: 0,
    scribbles: features.has('layout:scribbled-page'),
  };
  if (scan.container === 'pdf') {
    // The layer is set in a standard font, whose encoding lacks most accented and all other letters.
    scan.textLayer = script === 'latin' ? random.weighted([['none', 2], ['invisible', 2], ['under-picture', 1]] as const) : 'none';
    scan.strips = random.chance(0.3) ? random.pick([3, 8]) : 1;
    // A scanner's OCR reads the page as it lies: its layer follows the skew, which the bench's
    // layer, taken from the unspoiled PDF, cannot.
    if (scan.textLayer !== 'none') scan.skew = 0;
  }
  features.add(`scan:${scan.dpi}dpi`);
  features.add(`scan:${scan.container}`);
  if (scan.skew) features.add('scan:skew');
  if (scan.blur) features.add('scan:blur');
  if (scan.noise) features.add('scan:noise');
  if (scan.jpegQuality !== null) features.add('scan:jpeg-artefacts');
  if (scan.contrast < 1) features.add('scan:low-contrast');
  if (scan.unevenLight) features.add('scan:uneven-light');
  if (random.chance(0.25)) scan.showThrough = Math.round(random.between(0.06, 0.16) * 100) / 100;
  if (scan.showThrough) features.add('scan:show-through');
  if (scan.textLayer !== 'none') features.add(`scan:text-layer-${scan.textLayer}`);
  if (scan.strips > 1) features.add('scan:strips');
  return scan;
}

/** A paragraph's runs: mostly plain, some words bold or italic, some accents drawn as combining marks. */
function runs(random: Random, words: Words, features: Set<string>): Run[] {
  const text = words.paragraph();
  if (!random.chance(0.35)) {
    if (words.script === 'accented' && random.chance(0.3)) {
      features.add('type:combining-accents');
      return [{ text, decomposed: true }];
    }
    return [{ text }];
  }
  const parts = text.split(' ');
  const out: Run[] = [];
  let at = 0;
  while (at < parts.length) {
    const length = random.int(3, 12);
    const style = random.weighted([
      ['plain', 4],
      ['bold', 1],
      ['italic', 1],
    ] as const);
    if (style !== 'plain') features.add(`type:${style}`);
    out.push({ text: parts.slice(at, at + length).join(' '), ...(style === 'bold' ? { bold: true } : style === 'italic' ? { italic: true } : {}) });
    at += length;
  }
  return out;
}

function paragraph(random: Random, words: Words, features: Set<string>, notes: { footnotes: boolean; marginNotes: boolean }): Block {
  const footnote = notes.footnotes && random.chance(0.15) ? { mark: String(random.int(1, 9)), text: words.sentence(6, 14) } : null;
  const marginNote = notes.marginNotes && random.chance(0.2) ? capitalise(words.words(random.int(2, 5))) : null;
  if (footnote) features.add('layout:footnote');
  if (marginNote) features.add('furniture:margin-note');
  return { kind: 'paragraph', runs: runs(random, words, features), footnote, marginNote };
}

function figure(random: Random, words: Words, features: Set<string>): Block {
  features.add('layout:figure');
  const drawing = random.pick(['bars', 'lines', 'photo', 'diagram'] as const);
  const labels = drawing === 'photo' ? [] : Array.from({ length: random.int(3, 6) }, () => (random.chance(0.5) ? words.noun() : String(random.int(1, 100))));
  const caption = random.chance(0.85) ? `Figure ${random.int(1, 9)}: ${words.sentence(4, 12)}` : null;
  if (caption) features.add('layout:figure-caption');
  return { kind: 'figure', drawing, labels, heightPt: random.int(110, 220), caption };
}

/** The blocks of a section: paragraphs mostly, with what its kind of document holds. */
function sectionBody(random: Random, words: Words, kind: DocumentKind, features: Set<string>, notes: { footnotes: boolean; marginNotes: boolean }, landscape: boolean, columns: number): Block[] {
  const blocks: Block[] = [];
  const count = kind === 'tables' ? random.int(1, 3) : random.int(2, 6);
  for (let i = 0; i < count; i++) {
    const choice = random.weighted([
      ['paragraph', kind === 'tables' ? 2 : 8],
      ['table', kind === 'tables' ? 6 : kind === 'report' ? 1.2 : 0.6],
      ['list', 1],
      ['figure', kind === 'letter' ? 0 : 0.8],
      ['quote', kind === 'book' ? 1 : 0.3],
      ['code', kind === 'paper' || kind === 'report' ? 0.4 : 0.1],
      ['equation', kind === 'paper' ? 1.2 : 0.2],
      // Writer's HTML import sets no columns side by side (libreoffice.ts).
      ['aside', (kind === 'report' || kind === 'book') && columns === 1 && !features.has('producer:libreoffice') ? 0.4 : 0],
    ] as const);
    switch (choice) {
      case 'paragraph':
        blocks.push(paragraph(random, words, features, notes));
        break;
      case 'table': {
        const long = random.chance(kind === 'tables' ? 0.3 : 0.08);
        const wide = !long && (landscape || random.chance(0.15));
        // In columns, a narrow table stands in its column beside the prose; any other spans them all.
        const narrow = !wide && random.chance(columns > 1 ? 0.5 : 0.15);
        // Papers set by LaTeX keep most tables in their column, scaled down to it where wider.
        const inColumn = columns > 1 && !narrow && !wide && !long && features.has('producer:latex') && random.fork(3).chance(0.6);
        const placement = columns > 1 ? (narrow ? 'table:beside-prose' : inColumn ? 'table:in-column' : 'table:spanning-columns') : null;
        blocks.push({ kind: 'table', table: drawTable(random, words, { long, wide, narrow, inColumn }, features, placement) });
        break;
      }
      case 'list': {
        const ordered = random.chance(0.4);
        features.add(ordered ? 'layout:numbered-list' : 'layout:bulleted-list');
        blocks.push({ kind: 'list', ordered, items: Array.from({ length: random.int(2, 6) }, () => words.sentence(3, 14)) });
        break;
      }
      case 'figure':
        blocks.push(figure(random, words, features));
        break;
      case 'aside':
        features.add('layout:aside-points');
        blocks.push({ kind: 'aside', points: Array.from({ length: random.int(2, 4) }, () => capitalise(words.words(random.int(3, 6)))), text: words.paragraph(random.int(3, 6)) });
        break;
      case 'quote':
        features.add('layout:quote');
        blocks.push({ kind: 'quote', text: words.paragraph(random.int(1, 3)) });
        break;
      case 'code': {
        const numbered = random.chance(0.5);
        features.add(numbered ? 'layout:code-numbered' : 'layout:code');
        // Listings set in a face whose name does not say it is monospaced (a house face; Chromium only).
        if (features.has('producer:chromium') && !features.has('type:code-face-unnamed') && random.chance(0.4)) features.add('type:code-face-unnamed');
        const first = random.int(0, CODE_LINES.length - 1);
        const lines = Array.from({ length: random.int(3, 9) }, (_, i) => fill(CODE_LINES[(first + i) % CODE_LINES.length], random, words));
        blocks.push({ kind: 'code', lines, numbered });
        break;
      }
      case 'equation':
        features.add('layout:equation');
        blocks.push({ kind: 'equation', text: fill(random.pick(EQUATIONS), random, words), number: random.chance(0.6) ? `(${random.int(1, 30)})` : null });
        break;
    }
  }
  return blocks;
}

function drawScript(random: Random, producer: Producer, features: Set<string>): Script {
  const drawn = random.weighted([
    ['latin', 80],
    ['accented', 8],
    ['greek', 3],
    ['cyrillic', 3],
    ['arabic', 3],
    ['hebrew', 3],
  ] as const);
  // pdf-lib's standard fonts draw WinAnsi only, and the LaTeX producer's fonts T1: their documents are in Latin, accented or not.
  const script = (producer === 'pdf-lib' || producer === 'latex') && drawn !== 'latin' && drawn !== 'accented' ? 'latin' : drawn;
  features.add(`script:${script}`);
  if (isRightToLeft(script)) features.add('type:right-to-left');
  return script;
}

/**
 * A table of contents listing the document's own headings, set before its first heading, in some
 * reports and books. Drawn from a stream of its own so that adding it moved no other document.
 */
function contentsPage(seed: number, index: number, kind: DocumentKind, producer: Producer, blocks: Block[], features: Set<string>): void {
  const random = Random.forDocument(seed ^ 0x7c0a7e57, index);
  if (!random.chance(kind === 'book' ? 0.45 : kind === 'report' ? 0.3 : 0)) return;
  const headings = blocks.filter((b): b is Extract<Block, { kind: 'heading' }> => b.kind === 'heading');
  const first = blocks.findIndex((b) => b.kind === 'heading');
  if (headings.length < 2 || first < 0) return;
  // Writer's HTML import has no tab leaders and the Chromium producer clips no text: each sets the leaders it can draw faithfully.
  const leaders = producer === 'pdf-lib' || producer === 'latex' ? random.pick(['dots', 'dots', 'none'] as const) : producer === 'chromium' ? random.pick(['drawn', 'none'] as const) : 'dots';
  features.add('layout:contents');
  features.add(`contents:leaders-${leaders}`);
  let page = random.int(1, 4);
  const entries = headings.map((h) => {
    page += h.level === 1 ? random.int(1, 4) : random.int(0, 2);
    return { level: Math.min(3, h.level) as 1 | 2 | 3, text: `${h.number ? `${h.number} ` : ''}${h.text}`, page: String(page) };
  });
  blocks.splice(first, 0, { kind: 'heading', level: 1, number: null, text: 'Contents' }, { kind: 'contents', entries, leaders });
}

/** Every variation the issue lists, by the feature name a document that draws it carries. */
export const LISTED_VARIATIONS = [
  ...['rules-none', 'rules-horizontal', 'rules-grid', 'rules-header-only', 'zebra', 'coloured-rows', 'shaded-header', 'shaded-cells', 'spanning-header', 'multiline-cells', 'cells-middle', 'cells-bottom', 'empty-cells', 'choice-cells', 'row-groups'].map((v) => `table:${v}`),
  ...['currency', 'percent', 'negative-parentheses', 'currency-column', 'narrow', 'wide', 'long', 'beside-prose', 'in-column', 'spanning-columns', 'caption', 'note'].map((v) => `table:${v}`),
  ...['running-head', 'running-foot', 'page-number-bottom-center', 'page-number-page-of', 'page-number-top-outer', 'margin-note', 'stamp', 'line-numbers', 'side-tab', 'chromium-templates', 'bleed-band'].map((v) => `furniture:${v}`),
  ...['columns-1', 'columns-2', 'columns-3', 'landscape', 'title-spanning-columns', 'title-ornament', 'masthead-panels', 'numbered-headings', 'plain-headings', 'heading-level-3', 'bulleted-list', 'numbered-list', 'quote', 'aside-points', 'contents'].map((v) => `layout:${v}`),
  ...['code', 'code-numbered', 'equation', 'figure', 'figure-caption', 'footnote', 'blank-page', 'nearly-blank-page', 'scribbled-page'].map((v) => `layout:${v}`),
  ...['serif', 'sans', 'mono', 'narrow', 'bold', 'italic', 'letter-spacing', 'ligatures', 'combining-accents', 'right-to-left', 'code-face-unnamed'].map((v) => `type:${v}`),
  ...['accented', 'greek', 'cyrillic', 'arabic', 'hebrew'].map((v) => `script:${v}`),
  ...['150dpi', '200dpi', '300dpi', 'skew', 'blur', 'noise', 'jpeg-artefacts', 'low-contrast', 'uneven-light', 'pdf', 'tiff', 'png', 'jpeg', 'text-layer-invisible', 'text-layer-under-picture', 'strips', 'show-through'].map((v) => `scan:${v}`),
  'producer:pdf-lib',
  'producer:libreoffice',
  'libreoffice:docx',
  'libreoffice:pdf',
  'producer:latex',
  ...['cm', 'times', 'helvetica', 'courier'].map((v) => `latex:${v}`),
  ...['order-reversed', 'order-shuffled', 'order-columns-right-to-left', 'spacing-words', 'spacing-line', 'spacing-mixed'].map((v) => `pdf-lib:${v}`),
];

export interface ComposeOptions {
  /** Producers to draw from, with their weights. */
  producers: readonly (readonly [Producer, number])[];
  /** The share of documents sent as scans. */
  scanShare: number;
  /**
   * The share of the documents drawn for Chromium or pdf-lib that LaTeX sets instead. Drawn apart
   * from the producers' weights (LaTeX came later), so every other document of a seed stays as it was.
   */
  latexShare: number;
}

export const DEFAULT_COMPOSE: ComposeOptions = {
  producers: [
    ['chromium', 3],
    ['pdf-lib', 1],
    ['libreoffice', 0.5],
  ],
  scanShare: 0.25,
  latexShare: 0.2,
};

/** Document `index` of `seed`. */
export function composeDocument(seed: number, index: number, options: ComposeOptions = DEFAULT_COMPOSE): DocSpec {
  const random = Random.forDocument(seed, index);
  const features = new Set<string>();
  const kind = random.weighted([
    ['report', 3],
    ['paper', 2.5],
    ['tables', 2],
    ['book', 1],
    ['letter', 1],
    ['blank', 0.4],
  ] as const);
  features.add(`kind:${kind}`);
  const weighed = random.weighted(options.producers);
  const producer = weighed !== 'libreoffice' && kind !== 'blank' && kind !== 'letter' && Random.forDocument(seed ^ 0x1a7e5, index).chance(options.latexShare) ? 'latex' : weighed;
  features.add(`producer:${producer}`);
  const script = kind === 'tables' || kind === 'blank' ? 'latin' : drawScript(random, producer, features);
  const words = new Words(random, script);
  const landscape = kind === 'tables' && random.chance(0.3);
  if (landscape) features.add('layout:landscape');
  const size = random.chance(0.7) ? A4 : LETTER;
  const page = { width: landscape ? size.height : size.width, height: landscape ? size.width : size.height, margin: random.int(40, 76) };
  // Writer's HTML import flows one column and draws no page furniture (libreoffice.ts).
  const office = producer === 'libreoffice';
  // Neither Writer's HTML import nor the LaTeX producer draws page furniture (libreoffice.ts, latex.ts).
  const bare = office || producer === 'latex';
  const columns = office ? 1 : kind === 'paper' ? random.weighted([[2, 5], [1, 2], [3, 1]] as const) : kind === 'report' ? random.weighted([[1, 5], [2, 2], [3, 0.5]] as const) : 1;
  features.add(`layout:columns-${columns}`);
  const type = drawType(random, kind, script, features);
  const furniture: Furniture = bare ? { head: null, foot: null, pageNumber: 'none', stamp: null, lineNumbers: false, sideTab: null, templates: false, bleed: null } : drawFurniture(random, kind, words, producer, features);
  const notes = { footnotes: kind === 'paper' || kind === 'book' || kind === 'report', marginNotes: columns === 1 && (kind === 'book' || kind === 'report') && !furniture.bleed && random.chance(0.3) };

  const blocks: Block[] = [];
  if (kind === 'blank') {
    // A page written on by hand is only a scan (the scribbles are drawn on its picture).
    const looks = office ? (['blank-page', 'nearly-blank-page'] as const) : (['blank-page', 'nearly-blank-page', 'scribbled-page'] as const);
    features.add(`layout:${random.pick(looks)}`);
    if (features.has('layout:nearly-blank-page')) blocks.push({ kind: 'paragraph', runs: [{ text: random.pick(['This page is intentionally left blank.', 'Notes', capitalise(words.noun())]) }], footnote: null, marginNote: null });
  } else {
    const title = kind === 'letter' ? null : capitalise(`${words.headingText()}${random.chance(0.4) ? `: ${words.headingText()}` : ''}`);
    if (title) {
      const subtitle = random.chance(0.3) ? words.sentence(4, 9).replace(/\.$/, '') : null;
      // A masthead drawn in shapes right over the title: the title's words lie within a size of a drawing.
      const ornament = producer === 'chromium' && random.chance(0.25) ? { width: random.int(160, 420), height: random.int(22, 64) } : null;
      if (ornament) features.add('layout:title-ornament');
      // A masthead of panels and a rule over the title, with the publication's facts beside them.
      const masthead =
        producer === 'chromium' && kind !== 'paper' && random.chance(0.2)
          ? {
              facts: [`Published ${words.date()}`, `${capitalise(words.noun())} ${capitalise(words.noun())} Institute`, random.chance(0.5) ? `www.${words.noun().toLowerCase()}.org` : `${words.place()} ${random.int(1000, 99999)}`].slice(0, random.int(2, 3)),
              series: capitalise(words.words(random.int(1, 3))),
              issue: `No. ${random.int(12, 2400)}`,
            }
          : null;
      if (masthead) features.add('layout:masthead-panels');
      blocks.push({ kind: 'title', text: title, subtitle, ornament, masthead });
      if (columns > 1) features.add('layout:title-spanning-columns');
    }
    if (kind === 'paper') blocks.push({ kind: 'paragraph', runs: [{ text: `${words.name()}, ${words.name()} and ${words.name()} — ${words.place()} University` }], footnote: null, marginNote: null });
    if (kind === 'letter') {
      blocks.push({ kind: 'paragraph', runs: [{ text: `${words.name()}, ${random.int(1, 200)} ${capitalise(words.noun())} Street, ${words.place()}` }], footnote: null, marginNote: null });
      blocks.push({ kind: 'paragraph', runs: [{ text: `${words.place()}, ${words.date()}` }], footnote: null, marginNote: null });
      blocks.push({ kind: 'paragraph', runs: [{ text: `Dear ${words.name()},` }], footnote: null, marginNote: null });
    }
    const numbered = kind === 'paper' ? random.chance(0.75) : random.chance(0.4);
    const sections = kind === 'letter' ? 1 : kind === 'tables' ? random.int(1, 3) : random.int(2, 5);
    if (kind !== 'letter') features.add(numbered ? 'layout:numbered-headings' : 'layout:plain-headings');
    if (kind === 'paper') blocks.push({ kind: 'heading', level: 1, number: null, text: 'Abstract' }, paragraph(random, words, features, notes));
    for (let s = 1; s <= sections; s++) {
      if (kind !== 'letter') blocks.push({ kind: 'heading', level: 1, number: numbered ? `${s}` : null, text: words.headingText() });
      blocks.push(...sectionBody(random, words, kind, features, notes, landscape, columns));
      const subsections = kind === 'letter' ? 0 : random.int(0, kind === 'paper' || kind === 'report' ? 2 : 1);
      for (let t = 1; t <= subsections; t++) {
        blocks.push({ kind: 'heading', level: 2, number: numbered ? `${s}.${t}` : null, text: words.headingText() });
        blocks.push(...sectionBody(random, words, kind, features, notes, landscape, columns));
        if (random.chance(0.2)) {
          features.add('layout:heading-level-3');
          blocks.push({ kind: 'heading', level: 3, number: numbered ? `${s}.${t}.1` : null, text: words.headingText() });
          blocks.push(paragraph(random, words, features, notes));
        }
      }
    }
    if (kind === 'letter') blocks.push({ kind: 'paragraph', runs: [{ text: `Yours sincerely, ${words.name()}` }], footnote: null, marginNote: null });
    if (kind === 'paper' && random.chance(0.6)) {
      blocks.push({ kind: 'heading', level: 1, number: null, text: 'References' });
      blocks.push({ kind: 'list', ordered: true, items: Array.from({ length: random.int(3, 8) }, () => `${words.name()}. ${words.headingText()}. ${words.place()}, ${random.int(1990, 2026)}.`) });
    }
  }
  contentsPage(seed, index, kind, producer, blocks, features);
  const scan = !office && (features.has('layout:scribbled-page') || random.chance(options.scanShare)) ? drawScan(random, script, features) : null;
  return { id: `g${seed}-${index}`, seed, index, kind, producer, page, columns, type, script, furniture, blocks, scan, features: [...features].sort() };
}
