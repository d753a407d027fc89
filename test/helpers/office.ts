// Office packages (XLSX, DOCX, PPTX) written here with fflate, for tests and benches: complete
// enough that byte sniffing takes them for their type ([Content_Types].xml first, as Office writes
// it) and the readers find every part they look for, and as large as asked (issue 22: a
// 1,000,000-cell workbook, a 100,000-paragraph document, a 1,000-slide deck).
import { strToU8, zipSync, type Zippable } from 'fflate';

const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function relationships(rels: { id: string; type: string; target: string }[]): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels
    .map((r) => `<Relationship Id="${r.id}" Type="${REL}/${r.type}" Target="${r.target}"/>`)
    .join('')}</Relationships>`;
}

function contentTypes(overrides: [part: string, type: string][]): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides
    .map(([part, type]) => `<Override PartName="/${part}" ContentType="${type}"/>`)
    .join('')}</Types>`;
}

/**
 * A zip of the parts, [Content_Types].xml first. Parts given as Uint8Array go in as they are (a
 * part that is not valid XML, for tests that must not read it).
 */
export function officeZip(parts: Record<string, string | Uint8Array>, overrides: [part: string, type: string][], level: 0 | 1 | 6 = 6): Uint8Array {
  const files: Zippable = { '[Content_Types].xml': strToU8(contentTypes(overrides)) };
  for (const [name, content] of Object.entries(parts)) files[name] = typeof content === 'string' ? strToU8(content) : content;
  return zipSync(files, { level });
}

/**
 * The package with one part marked as compressed by a method no reader unpacks (12, bzip2), in
 * its local header and in the central directory: any code that reads the part fails, so a test
 * shows what never reads it.
 */
export function withUnreadablePart(zip: Uint8Array, name: string): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  const encoded = strToU8(name);
  const named = (at: number) => encoded.every((byte, i) => out[at + i] === byte);
  let marked = 0;
  for (let at = 0; at + 46 < out.length; at++) {
    const signature = view.getUint32(at, true);
    if (signature === 0x04034b50 && view.getUint16(at + 26, true) === encoded.length && named(at + 30)) {
      view.setUint16(at + 8, 12, true);
      marked++;
    } else if (signature === 0x02014b50 && view.getUint16(at + 28, true) === encoded.length && named(at + 46)) {
      view.setUint16(at + 10, 12, true);
      marked++;
    }
  }
  if (marked !== 2) throw new Error(`${name} is not a part of the package`);
  return out;
}

/** docProps/app.xml as Word, Excel and PowerPoint write it: the page (or slide) count of the last save. */
function appProperties(facts: { pages?: number; slides?: number }): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Microsoft Office</Application>${facts.pages !== undefined ? `<Pages>${facts.pages}</Pages>` : ''}${facts.slides !== undefined ? `<Slides>${facts.slides}</Slides>` : ''}</Properties>`;
}

const PACKAGE_RELS = (main: string, type = 'officeDocument') =>
  relationships([
    { id: 'rId1', type, target: main },
    { id: 'rId2', type: 'extended-properties', target: 'docProps/app.xml' },
  ]);

/** A column letter from its index (0 is A). */
function columnName(index: number): string {
  let name = '';
  for (let v = index + 1; v > 0; v = Math.floor((v - 1) / 26)) name = String.fromCharCode(65 + ((v - 1) % 26)) + name;
  return name;
}

export interface SheetSpec {
  name: string;
  /** The sheet part's XML as given (e.g. not valid XML), instead of generated cells. */
  xml?: string | Uint8Array;
  rows?: number;
  columns?: number;
  hidden?: boolean;
}

/**
 * A workbook. Generated sheets hold `rows` x `columns` cells: a header row of shared strings,
 * then in each row an item name (a shared string), whole numbers, and amounts with two decimals
 * (a number format), as a ledger exported from an accounting system would.
 */
export function xlsxPackage(sheets: SheetSpec[], level: 0 | 1 | 6 = 6): Uint8Array {
  const strings: string[] = [];
  const parts: Record<string, string | Uint8Array> = {};
  const overrides: [string, string][] = [['xl/workbook.xml', `${CT}.spreadsheetml.sheet.main+xml`]];
  sheets.forEach((sheet, s) => {
    const part = `xl/worksheets/sheet${s + 1}.xml`;
    overrides.push([part, `${CT}.spreadsheetml.worksheet+xml`]);
    parts[part] = sheet.xml ?? sheetXml(sheet.rows ?? 0, sheet.columns ?? 0, strings);
  });
  parts['xl/workbook.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${NS_R}"><sheets>${sheets
    .map((sheet, s) => `<sheet name="${escapeXml(sheet.name)}" sheetId="${s + 1}"${sheet.hidden ? ' state="hidden"' : ''} r:id="rId${s + 1}"/>`)
    .join('')}</sheets></workbook>`;
  parts['xl/_rels/workbook.xml.rels'] = relationships([
    ...sheets.map((_, s) => ({ id: `rId${s + 1}`, type: 'worksheet', target: `worksheets/sheet${s + 1}.xml` })),
    { id: `rId${sheets.length + 1}`, type: 'sharedStrings', target: 'sharedStrings.xml' },
    { id: `rId${sheets.length + 2}`, type: 'styles', target: 'styles.xml' },
  ]);
  parts['xl/sharedStrings.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((t) => `<si><t>${escapeXml(t)}</t></si>`).join('')}</sst>`;
  parts['xl/styles.xml'] = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="4" applyNumberFormat="1"/></cellXfs></styleSheet>';
  parts['_rels/.rels'] = PACKAGE_RELS('xl/workbook.xml');
  parts['docProps/app.xml'] = appProperties({});
  overrides.push(['xl/sharedStrings.xml', `${CT}.spreadsheetml.sharedStrings+xml`], ['xl/styles.xml', `${CT}.spreadsheetml.styles+xml`]);
  return officeZip(parts, overrides, level);
}

function sheetXml(rows: number, columns: number, strings: string[]): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="' + NS_R + '">'];
  out.push(rows && columns ? `<dimension ref="A1:${columnName(columns - 1)}${rows}"/>` : '<dimension ref="A1"/>');
  out.push(rows && columns ? '<sheetData>' : '<sheetData/>');
  const names = Array.from({ length: columns }, (_, c) => columnName(c));
  for (let r = 1; r <= rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < columns; c++) {
      const ref = `${names[c]}${r}`;
      if (r === 1 || c === 0) {
        strings.push(r === 1 ? `Column ${names[c]}` : `Item ${r - 1}`);
        cells.push(`<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`);
      } else if (c % 2 === 1) {
        cells.push(`<c r="${ref}"><v>${(r * 7 + c * 13) % 10_000}</v></c>`);
      } else {
        cells.push(`<c r="${ref}" s="1"><v>${(((r * 31 + c * 17) % 1_000_000) / 100).toFixed(2)}</v></c>`);
      }
    }
    out.push(`<row r="${r}">${cells.join('')}</row>`);
  }
  if (rows && columns) out.push('</sheetData>');
  out.push('</worksheet>');
  return out.join('');
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const SENTENCE = 'The committee reviewed the quarterly figures and agreed that the revised budget should be circulated to every department before the next meeting';

export interface DocxSpec {
  paragraphs?: number;
  /** A rendered page break (w:lastRenderedPageBreak) every this many paragraphs; none when absent. */
  paragraphsPerPage?: number;
  /** docProps/app.xml's <Pages>; no app.xml at all when null; when absent, the rendered pages. */
  appPages?: number | null;
  /** A table after the paragraphs, each cell holding one word (R1C1, R1C2, ...). */
  table?: { rows: number; columns: number };
  /** word/document.xml as given (e.g. not valid XML), instead of generated paragraphs. */
  documentXml?: string | Uint8Array;
}

/**
 * A Word document of `paragraphs` paragraphs of running text (23 words each), a heading (2 words)
 * every 50, and `table` after them. With `paragraphsPerPage`, Word's rendered page breaks cut it into pages and
 * docProps/app.xml says how many, as Word saves it.
 */
export function docxPackage(spec: DocxSpec, level: 0 | 1 | 6 = 6): Uint8Array {
  const paragraphs = spec.paragraphs ?? 0;
  const body: string[] = [];
  for (let i = 0; i < paragraphs; i++) {
    const pageBreak = spec.paragraphsPerPage && i > 0 && i % spec.paragraphsPerPage === 0 ? '<w:r><w:lastRenderedPageBreak/></w:r>' : '';
    if (i % 50 === 0) body.push(`<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${pageBreak}<w:r><w:t>Section ${i / 50 + 1}</w:t></w:r></w:p>`);
    else body.push(`<w:p>${pageBreak}<w:r><w:t xml:space="preserve">${i}. ${SENTENCE}.</w:t></w:r></w:p>`);
  }
  if (spec.table) {
    const { rows, columns } = spec.table;
    body.push('<w:tbl>');
    for (let r = 1; r <= rows; r++) {
      const cells: string[] = [];
      for (let c = 1; c <= columns; c++) cells.push(`<w:tc><w:p><w:r><w:t>R${r}C${c}</w:t></w:r></w:p></w:tc>`);
      body.push(`<w:tr>${cells.join('')}</w:tr>`);
    }
    body.push('</w:tbl>');
  }
  const rendered = spec.paragraphsPerPage ? Math.max(1, Math.ceil(paragraphs / spec.paragraphsPerPage)) : 1;
  const parts: Record<string, string | Uint8Array> = {
    'word/document.xml': spec.documentXml ?? `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${W}><w:body>${body.join('')}<w:sectPr/></w:body></w:document>`,
    'word/styles.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:styles ${W}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
    'word/_rels/document.xml.rels': relationships([{ id: 'rId1', type: 'styles', target: 'styles.xml' }]),
    '_rels/.rels': PACKAGE_RELS('word/document.xml'),
  };
  if (spec.appPages !== null) parts['docProps/app.xml'] = appProperties({ pages: spec.appPages ?? rendered });
  return officeZip(
    parts,
    [
      ['word/document.xml', `${CT}.wordprocessingml.document.main+xml`],
      ['word/styles.xml', `${CT}.wordprocessingml.styles+xml`],
      ['docProps/app.xml', `${CT}.extended-properties+xml`],
    ],
    level,
  );
}

const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

function shape(id: number, placeholder: string, x: number, y: number, cx: number, cy: number, paragraphs: string[]): string {
  return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/><p:nvPr><p:ph type="${placeholder}"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/>${paragraphs
    .map((t) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${escapeXml(t)}</a:t></a:r></a:p>`)
    .join('')}</p:txBody></p:sp>`;
}

function slideXml(n: number): string {
  const bullets = [`Revenue grew in region ${n % 7}`, 'Costs stayed within the plan', `Headcount at ${100 + (n % 50)}`, 'Next steps agreed with the board', `Review on day ${n}`];
  const table = n % 10 === 0
    ? `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="457200" y="4800600"/><a:ext cx="8229600" cy="1371600"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1"/><a:tblGrid><a:gridCol w="2743200"/><a:gridCol w="2743200"/><a:gridCol w="2743200"/></a:tblGrid>${[['Quarter', 'Revenue', 'Costs'], ['Q1', String(n * 3), String(n * 2)], ['Q2', String(n * 4), String(n * 2 + 1)]]
        .map((row) => `<a:tr h="457200">${row.map((t) => `<a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:t>${t}</a:t></a:r></a:p></a:txBody></a:tc>`).join('')}</a:tr>`)
        .join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:sld ${P}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shape(2, 'title', 457200, 274638, 8229600, 1143000, [`Slide ${n}: quarterly review`])}${shape(3, 'body', 457200, 1600200, 8229600, 3000000, bullets)}${table}</p:spTree></p:cSld></p:sld>`;
}

export interface PptxSpec {
  slides: number;
  /** Slide parts as given (e.g. not valid XML), by slide number from 1, instead of generated ones. */
  slideXml?: Record<number, string | Uint8Array>;
}

/** A deck of `slides` slides, each a title and five bullets, every tenth with a table. */
export function pptxPackage(spec: PptxSpec, level: 0 | 1 | 6 = 6): Uint8Array {
  const parts: Record<string, string | Uint8Array> = {};
  const overrides: [string, string][] = [['ppt/presentation.xml', `${CT}.presentationml.presentation.main+xml`]];
  const ids: string[] = [];
  const rels: { id: string; type: string; target: string }[] = [{ id: 'rId1', type: 'slideMaster', target: 'slideMasters/slideMaster1.xml' }];
  for (let n = 1; n <= spec.slides; n++) {
    const part = `ppt/slides/slide${n}.xml`;
    parts[part] = spec.slideXml?.[n] ?? slideXml(n);
    parts[`ppt/slides/_rels/slide${n}.xml.rels`] = relationships([{ id: 'rId1', type: 'slideLayout', target: '../slideLayouts/slideLayout1.xml' }]);
    overrides.push([part, `${CT}.presentationml.slide+xml`]);
    rels.push({ id: `rId${n + 1}`, type: 'slide', target: `slides/slide${n}.xml` });
    ids.push(`<p:sldId id="${255 + n}" r:id="rId${n + 1}"/>`);
  }
  parts['ppt/presentation.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:presentation ${P}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst>${ids.join('')}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/></p:presentation>`;
  parts['ppt/_rels/presentation.xml.rels'] = relationships(rels);
  parts['ppt/slideLayouts/slideLayout1.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:sldLayout ${P}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/></p:spTree></p:cSld></p:sldLayout>`;
  parts['ppt/slideLayouts/_rels/slideLayout1.xml.rels'] = relationships([{ id: 'rId1', type: 'slideMaster', target: '../slideMasters/slideMaster1.xml' }]);
  parts['ppt/slideMasters/slideMaster1.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:sldMaster ${P}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/></p:spTree></p:cSld></p:sldMaster>`;
  parts['_rels/.rels'] = PACKAGE_RELS('ppt/presentation.xml');
  parts['docProps/app.xml'] = appProperties({ slides: spec.slides });
  overrides.push(['ppt/slideLayouts/slideLayout1.xml', `${CT}.presentationml.slideLayout+xml`], ['ppt/slideMasters/slideMaster1.xml', `${CT}.presentationml.slideMaster+xml`]);
  return officeZip(parts, overrides, level);
}

// Small packages with the content kinds the readers have rules for (issue 23): equations, reviewer
// comments, speaker notes and charts, written as Word, PowerPoint and Excel write them.

const M = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"';
const C = 'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';

export interface ChartSpec {
  /** The plot element: barChart, lineChart, pieChart, scatterChart, ... */
  kind: string;
  /** A second plot drawn in the same chart (a combination chart). */
  secondKind?: string;
  title?: string;
  categories: string[];
  /** Categories are numbers cached with this number format (e.g. dates as serial numbers, "mmm yyyy"). */
  categoryFormat?: string;
  series: { name: string; values: number[] }[];
}

/** A chart part (c:chartSpace) whose series cache their names, categories and values, as Office saves them. */
export function chartXml(spec: ChartSpec): string {
  const cache = (kind: 'str' | 'num', points: string[], format = 'General') =>
    `<c:${kind}Ref><c:f>Sheet1!$A$1</c:f><c:${kind}Cache>${kind === 'num' ? `<c:formatCode>${escapeXml(format)}</c:formatCode>` : ''}<c:ptCount val="${points.length}"/>${points
      .map((p, i) => `<c:pt idx="${i}"><c:v>${escapeXml(p)}</c:v></c:pt>`)
      .join('')}</c:${kind}Cache></c:${kind}Ref>`;
  const scatter = (kind: string) => kind === 'scatterChart' || kind === 'bubbleChart';
  const series = (kind: string, from: number, to: number) =>
    spec.series
      .slice(from, to)
      .map(
        (s, i) =>
          `<c:ser><c:idx val="${from + i}"/><c:order val="${from + i}"/><c:tx>${cache('str', [s.name])}</c:tx>${scatter(kind) ? `<c:xVal>${cache('num', spec.categories)}</c:xVal><c:yVal>${cache('num', s.values.map(String))}</c:yVal>` : `<c:cat>${spec.categoryFormat ? cache('num', spec.categories, spec.categoryFormat) : cache('str', spec.categories)}</c:cat><c:val>${cache('num', s.values.map(String))}</c:val>`}</c:ser>`,
      )
      .join('');
  const split = spec.secondKind ? Math.ceil(spec.series.length / 2) : spec.series.length;
  const plots = `<c:${spec.kind}>${series(spec.kind, 0, split)}</c:${spec.kind}>${spec.secondKind ? `<c:${spec.secondKind}>${series(spec.secondKind, split, spec.series.length)}</c:${spec.secondKind}>` : ''}`;
  const title = spec.title ? `<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>${escapeXml(spec.title)}</a:t></a:r></a:p></c:rich></c:tx></c:title><c:autoTitleDeleted val="0"/>` : '<c:autoTitleDeleted val="1"/>';
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<c:chartSpace ${C} xmlns:r="${NS_R}"><c:chart>${title}<c:plotArea><c:layout/>${plots}</c:plotArea></c:chart></c:chartSpace>`;
}

export interface ReviewComment {
  author: string;
  initials?: string;
  /** As the file records it (ISO 8601). */
  date?: string;
  text: string;
  /** Replies (PowerPoint's modern comments keep them in their thread). */
  replies?: ReviewComment[];
}

export interface WordSpec {
  /** The body (paragraphs, tables); the w:, m: and r: prefixes are declared. */
  body: string;
  /** w:abstractNum and w:num elements. */
  numbering?: string;
  /** w:style elements. */
  styles?: string;
  /** word/comments.xml, by w:id from 0; the body places them with w:commentReference. */
  comments?: ReviewComment[];
  /** Chart parts by the relationship id the body's c:chart elements use. */
  charts?: Record<string, ChartSpec>;
}

/** A Word document of the given body, with its numbering, styles, comments and charts. */
export function wordPackage(spec: WordSpec): Uint8Array {
  const ns = `${W} ${M} xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"`;
  const rels: { id: string; type: string; target: string }[] = [{ id: 'rIdStyles', type: 'styles', target: 'styles.xml' }];
  const overrides: [string, string][] = [
    ['word/document.xml', `${CT}.wordprocessingml.document.main+xml`],
    ['word/styles.xml', `${CT}.wordprocessingml.styles+xml`],
  ];
  const parts: Record<string, string | Uint8Array> = {
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${ns}><w:body>${spec.body}<w:sectPr/></w:body></w:document>`,
    'word/styles.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:styles ${W}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>${spec.styles ?? ''}</w:styles>`,
    '_rels/.rels': PACKAGE_RELS('word/document.xml'),
  };
  if (spec.numbering) {
    parts['word/numbering.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:numbering ${W}>${spec.numbering}</w:numbering>`;
    rels.push({ id: 'rIdNumbering', type: 'numbering', target: 'numbering.xml' });
    overrides.push(['word/numbering.xml', `${CT}.wordprocessingml.numbering+xml`]);
  }
  if (spec.comments) {
    parts['word/comments.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:comments ${W}>${spec.comments
      .map(
        (c, id) =>
          `<w:comment w:id="${id}" w:author="${escapeXml(c.author)}"${c.initials ? ` w:initials="${escapeXml(c.initials)}"` : ''}${c.date ? ` w:date="${c.date}"` : ''}><w:p><w:r><w:annotationRef/></w:r><w:r><w:t xml:space="preserve">${escapeXml(c.text)}</w:t></w:r></w:p></w:comment>`,
      )
      .join('')}</w:comments>`;
    rels.push({ id: 'rIdComments', type: 'comments', target: 'comments.xml' });
    overrides.push(['word/comments.xml', `${CT}.wordprocessingml.comments+xml`]);
  }
  for (const [id, chart] of Object.entries(spec.charts ?? {})) {
    parts[`word/charts/${id}.xml`] = chartXml(chart);
    rels.push({ id, type: 'chart', target: `charts/${id}.xml` });
    overrides.push([`word/charts/${id}.xml`, `${CT}.drawingml.chart+xml`]);
  }
  parts['word/_rels/document.xml.rels'] = relationships(rels);
  return officeZip(parts, overrides);
}

/** A paragraph of the body holding a chart drawn inline (as Word anchors one). */
export function wordChart(relationshipId: string): string {
  return `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="5486400" cy="3200400"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart r:id="${relationshipId}"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
}

export interface SlideSpec {
  title: string;
  /** Body placeholder paragraphs. */
  bullets?: string[];
  /** Extra shapes of the slide tree, as given. */
  shapes?: string;
  /** Speaker notes, one paragraph each. */
  notes?: string[];
  /** Comments on the slide (PowerPoint's comment parts, authors in ppt/commentAuthors.xml). */
  comments?: ReviewComment[];
  /** Charts by the relationship id the slide's graphic frames use. */
  charts?: Record<string, ChartSpec>;
}

/** A graphic frame of a slide holding a chart, at the given top (EMU). */
export function slideChart(relationshipId: string, y = 1600200): string {
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Chart"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="457200" y="${y}"/><a:ext cx="8229600" cy="4000000"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="${relationshipId}"/></a:graphicData></a:graphic></p:graphicFrame>`;
}

/**
 * A deck of the given slides, with their notes pages, comments and charts. Comments are written
 * as PowerPoint 2019 and later writes them (`modern`: threads with replies, ppt/authors.xml) or
 * as earlier versions did (ppt/commentAuthors.xml, one p:cm each).
 */
export function presentationPackage(slides: SlideSpec[], comments: 'classic' | 'modern' = 'classic'): Uint8Array {
  const parts: Record<string, string | Uint8Array> = {};
  const overrides: [string, string][] = [['ppt/presentation.xml', `${CT}.presentationml.presentation.main+xml`]];
  const rels: { id: string; type: string; target: string }[] = [{ id: 'rId1', type: 'slideMaster', target: 'slideMasters/slideMaster1.xml' }];
  const authors = [...new Map(slides.flatMap((s) => (s.comments ?? []).flatMap((c) => [c, ...(c.replies ?? [])])).map((c) => [c.author, c])).values()];
  const authorId = (name: string) => `{A0000000-0000-0000-0000-${String(authors.findIndex((a) => a.author === name)).padStart(12, '0')}}`;
  const P188 = 'xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
  const modernBody = (text: string) => `<p188:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${escapeXml(text)}</a:t></a:r></a:p></p188:txBody>`;
  slides.forEach((slide, s) => {
    const n = s + 1;
    const slideRels: { id: string; type: string; target: string }[] = [{ id: 'rId1', type: 'slideLayout', target: '../slideLayouts/slideLayout1.xml' }];
    const body = slide.bullets ? shape(3, 'body', 457200, 1600200, 8229600, 3000000, slide.bullets) : '';
    parts[`ppt/slides/slide${n}.xml`] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:sld ${P}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shape(2, 'title', 457200, 274638, 8229600, 1143000, [slide.title])}${body}${slide.shapes ?? ''}</p:spTree></p:cSld></p:sld>`;
    overrides.push([`ppt/slides/slide${n}.xml`, `${CT}.presentationml.slide+xml`]);
    if (slide.notes) {
      const notesPart = `ppt/notesSlides/notesSlide${n}.xml`;
      // A notes page holds the slide image placeholder and the notes body placeholder.
      parts[notesPart] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:notes ${P}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/><p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image"/><p:cNvSpPr/><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>${shape(3, 'body', 685800, 4400550, 5486400, 3600450, slide.notes)}<p:sp><p:nvSpPr><p:cNvPr id="4" name="Slide Number"/><p:cNvSpPr/><p:nvPr><p:ph type="sldNum" idx="5"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:r><a:t>${n}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:notes>`;
      parts[`ppt/notesSlides/_rels/notesSlide${n}.xml.rels`] = relationships([{ id: 'rId1', type: 'slide', target: `../slides/slide${n}.xml` }]);
      slideRels.push({ id: 'rIdNotes', type: 'notesSlide', target: `../notesSlides/notesSlide${n}.xml` });
      overrides.push([notesPart, `${CT}.presentationml.notesSlide+xml`]);
    }
    if (slide.comments && comments === 'modern') {
      const commentsPart = `ppt/comments/modernComment_${n}.xml`;
      parts[commentsPart] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p188:cmLst ${P188}>${slide.comments
        .map(
          (c, i) =>
            `<p188:cm id="{C0000000-0000-0000-0000-${String(i).padStart(12, '0')}}" authorId="${authorId(c.author)}"${c.date ? ` created="${c.date}"` : ''}>${c.replies?.length ? `<p188:replyLst>${c.replies.map((r, k) => `<p188:reply id="{D0000000-0000-0000-0000-${String(k).padStart(12, '0')}}" authorId="${authorId(r.author)}"${r.date ? ` created="${r.date}"` : ''}>${modernBody(r.text)}</p188:reply>`).join('')}</p188:replyLst>` : ''}${modernBody(c.text)}</p188:cm>`,
        )
        .join('')}</p188:cmLst>`;
      slideRels.push({ id: 'rIdComments', type: 'x/modernComments', target: `../comments/modernComment_${n}.xml` });
      overrides.push([commentsPart, 'application/vnd.ms-powerpoint.comments+xml']);
    } else if (slide.comments) {
      const commentsPart = `ppt/comments/comment${n}.xml`;
      parts[commentsPart] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:cmLst ${P}>${slide.comments
        .map((c, i) => `<p:cm authorId="${authors.findIndex((a) => a.author === c.author)}"${c.date ? ` dt="${c.date}"` : ''} idx="${i + 1}"><p:pos x="10" y="10"/><p:text>${escapeXml(c.text)}</p:text></p:cm>`)
        .join('')}</p:cmLst>`;
      slideRels.push({ id: 'rIdComments', type: 'comments', target: `../comments/comment${n}.xml` });
      overrides.push([commentsPart, `${CT}.presentationml.comments+xml`]);
    }
    for (const [id, chart] of Object.entries(slide.charts ?? {})) {
      parts[`ppt/charts/chart-${n}-${id}.xml`] = chartXml(chart);
      slideRels.push({ id, type: 'chart', target: `../charts/chart-${n}-${id}.xml` });
      overrides.push([`ppt/charts/chart-${n}-${id}.xml`, `${CT}.drawingml.chart+xml`]);
    }
    parts[`ppt/slides/_rels/slide${n}.xml.rels`] = relationships(slideRels).replace(`${REL}/x/modernComments`, 'http://schemas.microsoft.com/office/2018/10/relationships/comments');
    rels.push({ id: `rId${n + 1}`, type: 'slide', target: `slides/slide${n}.xml` });
  });
  if (authors.length && comments === 'modern') {
    parts['ppt/authors.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p188:authorLst ${P188}>${authors
      .map((a) => `<p188:author id="${authorId(a.author)}" name="${escapeXml(a.author)}" initials="${escapeXml(a.initials ?? '')}" userId="${escapeXml(a.author)}" providerId="None"/>`)
      .join('')}</p188:authorLst>`;
    rels.push({ id: 'rIdAuthors', type: 'x/authors', target: 'authors.xml' });
    overrides.push(['ppt/authors.xml', 'application/vnd.ms-powerpoint.authors+xml']);
  } else if (authors.length) {
    parts['ppt/commentAuthors.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:cmAuthorLst ${P}>${authors
      .map((a, i) => `<p:cmAuthor id="${i}" name="${escapeXml(a.author)}" initials="${escapeXml(a.initials ?? '')}" lastIdx="1" clrIdx="${i}"/>`)
      .join('')}</p:cmAuthorLst>`;
    rels.push({ id: 'rIdAuthors', type: 'commentAuthors', target: 'commentAuthors.xml' });
    overrides.push(['ppt/commentAuthors.xml', `${CT}.presentationml.commentAuthors+xml`]);
  }
  parts['ppt/presentation.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:presentation ${P}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst>${slides
    .map((_, s) => `<p:sldId id="${256 + s}" r:id="rId${s + 2}"/>`)
    .join('')}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/></p:presentation>`;
  parts['ppt/_rels/presentation.xml.rels'] = relationships(rels).replace(`${REL}/x/authors`, 'http://schemas.microsoft.com/office/2018/10/relationships/authors');
  parts['ppt/slideLayouts/slideLayout1.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:sldLayout ${P}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/></p:spTree></p:cSld></p:sldLayout>`;
  parts['ppt/slideLayouts/_rels/slideLayout1.xml.rels'] = relationships([{ id: 'rId1', type: 'slideMaster', target: '../slideMasters/slideMaster1.xml' }]);
  parts['ppt/slideMasters/slideMaster1.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:sldMaster ${P}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/></p:spTree></p:cSld></p:sldMaster>`;
  parts['_rels/.rels'] = PACKAGE_RELS('ppt/presentation.xml');
  parts['docProps/app.xml'] = appProperties({ slides: slides.length });
  overrides.push(['ppt/slideLayouts/slideLayout1.xml', `${CT}.presentationml.slideLayout+xml`], ['ppt/slideMasters/slideMaster1.xml', `${CT}.presentationml.slideMaster+xml`]);
  return officeZip(parts, overrides);
}

export interface WorkbookSheet {
  name: string;
  /** Cell values by reference ("A1": "Year", "B2": 120); strings go to the shared strings. */
  cells: Record<string, string | number>;
  /** Notes (Excel's classic comments) by cell reference. */
  notes?: Record<string, ReviewComment>;
  /** Threaded comments by cell reference: the first starts the thread, the rest reply to it. */
  threads?: Record<string, ReviewComment[]>;
}

/** A workbook with classic comments (notes) and Excel 365 threaded comments, as Excel saves both. */
export function workbookPackage(sheets: WorkbookSheet[]): Uint8Array {
  const strings: string[] = [];
  const parts: Record<string, string | Uint8Array> = {};
  const overrides: [string, string][] = [['xl/workbook.xml', `${CT}.spreadsheetml.sheet.main+xml`]];
  const people = [...new Set(sheets.flatMap((s) => Object.values(s.threads ?? {}).flat().map((c) => c.author)))];
  const personId = (name: string) => `{00000000-0000-0000-0000-${String(people.indexOf(name)).padStart(12, '0')}}`;
  sheets.forEach((sheet, s) => {
    const n = s + 1;
    const byRow = new Map<number, string[]>();
    for (const [ref, value] of Object.entries(sheet.cells)) {
      const row = Number(/\d+/.exec(ref)![0]);
      const cell = typeof value === 'number' ? `<c r="${ref}"><v>${value}</v></c>` : `<c r="${ref}" t="s"><v>${strings.push(value) - 1}</v></c>`;
      byRow.set(row, [...(byRow.get(row) ?? []), cell]);
    }
    const rows = [...byRow.entries()].sort((a, b) => a[0] - b[0]).map(([r, cells]) => `<row r="${r}">${cells.join('')}</row>`);
    parts[`xl/worksheets/sheet${n}.xml`] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${NS_R}"><sheetData>${rows.join('')}</sheetData></worksheet>`;
    overrides.push([`xl/worksheets/sheet${n}.xml`, `${CT}.spreadsheetml.worksheet+xml`]);
    const sheetRels: { id: string; type: string; target: string }[] = [];
    // Excel writes a classic comment for every thread too, for readers that know no threads.
    const legacy: [string, string, string][] = [
      ...Object.entries(sheet.notes ?? {}).map(([ref, c]): [string, string, string] => [ref, c.author, c.text]),
      ...Object.entries(sheet.threads ?? {}).map(([ref, thread]): [string, string, string] => [ref, `tc=${personId(thread[0].author)}`, `[Threaded comment]\n\nYour version of Excel allows you to read this threaded comment.\n\nComment:\n    ${thread.map((c) => c.text).join('\nReply:\n    ')}`]),
    ];
    if (legacy.length) {
      const authors = [...new Set(legacy.map((l) => l[1]))];
      parts[`xl/comments${n}.xml`] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors>${authors.map((a) => `<author>${escapeXml(a)}</author>`).join('')}</authors><commentList>${legacy
        .map(([ref, author, text]) => `<comment ref="${ref}" authorId="${authors.indexOf(author)}"><text><r><t xml:space="preserve">${escapeXml(text)}</t></r></text></comment>`)
        .join('')}</commentList></comments>`;
      sheetRels.push({ id: 'rIdComments', type: 'comments', target: `../comments${n}.xml` });
      overrides.push([`xl/comments${n}.xml`, `${CT}.spreadsheetml.comments+xml`]);
    }
    if (sheet.threads) {
      parts[`xl/threadedComments/threadedComment${n}.xml`] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<ThreadedComments xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments">${Object.entries(sheet.threads)
        .flatMap(([ref, thread], t) =>
          thread.map((c, i) => `<threadedComment ref="${ref}"${c.date ? ` dT="${c.date}"` : ''} personId="${personId(c.author)}" id="{${String(t).padStart(8, '0')}-0000-0000-0000-${String(i).padStart(12, '0')}}"${i > 0 ? ` parentId="{${String(t).padStart(8, '0')}-0000-0000-0000-000000000000}"` : ''}><text>${escapeXml(c.text)}</text></threadedComment>`),
        )
        .join('')}</ThreadedComments>`;
      sheetRels.push({ id: 'rIdThreads', type: 'x/threadedComment', target: `../threadedComments/threadedComment${n}.xml` });
    }
    if (sheetRels.length) {
      parts[`xl/worksheets/_rels/sheet${n}.xml.rels`] = relationships(sheetRels).replace(`${REL}/x/threadedComment`, 'http://schemas.microsoft.com/office/2017/10/relationships/threadedComment');
    }
  });
  parts['xl/workbook.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${NS_R}"><sheets>${sheets
    .map((sheet, s) => `<sheet name="${escapeXml(sheet.name)}" sheetId="${s + 1}" r:id="rId${s + 1}"/>`)
    .join('')}</sheets></workbook>`;
  const workbookRels = [
    ...sheets.map((_, s) => ({ id: `rId${s + 1}`, type: 'worksheet', target: `worksheets/sheet${s + 1}.xml` })),
    { id: 'rIdStrings', type: 'sharedStrings', target: 'sharedStrings.xml' },
  ];
  if (people.length) {
    parts['xl/persons/person.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<personList xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments">${people
      .map((name) => `<person displayName="${escapeXml(name)}" id="${personId(name)}" userId="${escapeXml(name)}" providerId="None"/>`)
      .join('')}</personList>`;
    workbookRels.push({ id: 'rIdPersons', type: 'x/person', target: 'persons/person.xml' });
  }
  parts['xl/_rels/workbook.xml.rels'] = relationships(workbookRels).replace(`${REL}/x/person`, 'http://schemas.microsoft.com/office/2017/10/relationships/person');
  parts['xl/sharedStrings.xml'] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${strings.map((t) => `<si><t>${escapeXml(t)}</t></si>`).join('')}</sst>`;
  parts['_rels/.rels'] = PACKAGE_RELS('xl/workbook.xml');
  parts['docProps/app.xml'] = appProperties({});
  overrides.push(['xl/sharedStrings.xml', `${CT}.spreadsheetml.sharedStrings+xml`]);
  return officeZip(parts, overrides);
}
