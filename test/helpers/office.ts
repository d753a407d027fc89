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
