// Office readers on small packages written here (issue 7): the DOCX, XLSX and PPTX features the
// corpus files do not all show (text boxes, footnotes, explicit page breaks, vertical merges,
// hyperlinks, tracked deletions, groups, number formats, separate tables on one sheet).
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readDocx } from '../../src/pipeline/formats/office/docx.js';
import { readPptx } from '../../src/pipeline/formats/office/pptx.js';
import { readXlsx } from '../../src/pipeline/formats/office/xlsx.js';
import { typesetPage, type OfficeItem } from '../../src/pipeline/formats/office/structure.js';
import { pageMarkdown } from '../../src/pipeline/outputs/markdown.js';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

function pack(parts: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, strToU8(v)])));
}

const texts = (items: OfficeItem[]) => items.map((i) => ('text' in i ? `${i.kind}:${i.text}` : i.kind));

describe('readDocx', () => {
  const body = `
    <w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Terms of sale</w:t></w:r></w:p>
    <w:p><w:r><w:t xml:space="preserve">See the </w:t></w:r><w:hyperlink r:id="rId9"><w:r><w:t>price list</w:t></w:r></w:hyperlink><w:r><w:t xml:space="preserve"> online</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r><w:del><w:r><w:delText>old words</w:delText></w:r></w:del><w:r><w:t>.</w:t></w:r></w:p>
    <w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx><w:txbxContent><w:p><w:r><w:t>Boxed note</w:t></w:r></w:p></w:txbxContent></wps:txbx></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>Boxed note</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>
    <w:tbl>
      <w:tr><w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr><w:p><w:r><w:t>Region</w:t></w:r></w:p></w:tc><w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t>Sales</w:t></w:r></w:p></w:tc></w:tr>
      <w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc><w:tc><w:p><w:r><w:t>2023</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>2024</w:t></w:r></w:p></w:tc></w:tr>
    </w:tbl>
    <w:p><w:r><w:br w:type="page"/></w:r><w:r><w:t>Second page</w:t></w:r></w:p>
    <w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>first</w:t></w:r></w:p>
    <w:p><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>nested</w:t></w:r></w:p>
    <w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>second</w:t></w:r></w:p>`;
  const docx = pack({
    'word/document.xml': `<w:document ${W}><w:body>${body}</w:body></w:document>`,
    'word/styles.xml': `<w:styles ${W}><w:style w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
    'word/numbering.xml': `<w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`,
    'word/footnotes.xml': `<w:footnotes ${W}><w:footnote w:type="separator" w:id="0"><w:p/></w:footnote><w:footnote w:id="2"><w:p><w:r><w:t>Prices without tax.</w:t></w:r></w:p></w:footnote></w:footnotes>`,
  });

  it('reads headings, hyperlinks, text boxes once, footnotes at the end of their page, and leaves deletions out', () => {
    const [first] = readDocx(docx);
    expect(texts(first)).toEqual(['heading:Terms of sale', 'paragraph:See the price list online.', 'paragraph:Boxed note', 'table', 'footnote:Prices without tax.']);
  });

  it('reads merged cells from gridSpan and vMerge', () => {
    const table = readDocx(docx)[0].find((i) => i.kind === 'table')!;
    expect(table).toMatchObject({ rowCount: 2, columnCount: 3 });
    if (table.kind !== 'table') throw new Error('not a table');
    expect(table.cells).toEqual([
      { row: 0, column: 0, rowSpan: 2, columnSpan: 1, text: 'Region' },
      { row: 0, column: 1, rowSpan: 1, columnSpan: 2, text: 'Sales' },
      { row: 1, column: 1, rowSpan: 1, columnSpan: 1, text: '2023' },
      { row: 1, column: 2, rowSpan: 1, columnSpan: 1, text: '2024' },
    ]);
  });

  it('starts a page at an explicit page break, and numbers nested lists as Word does', () => {
    const pages = readDocx(docx);
    expect(pages).toHaveLength(2);
    expect(pages[1]).toEqual([
      { kind: 'paragraph', text: 'Second page' },
      { kind: 'list_item', text: 'first', depth: 0, marker: '1.' },
      { kind: 'list_item', text: 'nested', depth: 1, marker: 'a)' },
      { kind: 'list_item', text: 'second', depth: 0, marker: '2.' },
    ]);
  });

  it('reads paragraphs set in a monospaced face as one code block, indentation kept, and the rest as prose', () => {
    const para = (style: string, text: string, runFont?: string) =>
      `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr><w:r>${runFont ? `<w:rPr><w:rFonts w:ascii="${runFont}"/></w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
    const listing = pack({
      'word/document.xml': `<w:document ${W}><w:body>${[
        para('Normal', 'The loop below sums the rows:'),
        para('Code', 'def total(rows):'),
        para('Code', '    return sum(rows)'),
        para('Normal', 'and prints nothing.'),
        para('Normal', 'print(total)', 'Courier New'),
        // A list item set in a monospaced face is still a list item.
        `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:rPr><w:rFonts w:ascii="Courier New"/></w:rPr><w:t>Term: definition</w:t></w:r></w:p>`,
      ].join('')}</w:body></w:document>`,
      'word/numbering.xml': `<w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`,
      'word/styles.xml': `<w:styles ${W}><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Code"><w:name w:val="Source Code"/><w:basedOn w:val="Normal"/><w:rPr><w:rFonts w:ascii="Liberation Mono" w:hAnsi="Liberation Mono"/></w:rPr></w:style></w:styles>`,
    });
    const [page] = readDocx(listing);
    expect(texts(page)).toEqual(['paragraph:The loop below sums the rows:', 'code:def total(rows):\n    return sum(rows)', 'paragraph:and prints nothing.', 'code:print(total)', 'list_item:Term: definition']);
    // Typeset and written out, the code keeps its indentation inside a fence.
    expect(pageMarkdown(typesetPage(1, page, 'layout'))).toContain('```\ndef total(rows):\n    return sum(rows)\n```');
  });
});

describe('readXlsx', () => {
  const workbook = pack({
    'xl/workbook.xml': '<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Budget" r:id="rId1"/><sheet name="Empty" r:id="rId2"/></sheets></workbook>',
    'xl/_rels/workbook.xml.rels': '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml" Type="x/worksheet"/><Relationship Id="rId2" Target="worksheets/sheet2.xml" Type="x/worksheet"/></Relationships>',
    'xl/sharedStrings.xml': '<sst><si><t>Item</t></si><si><t>Cost</t></si><si><r><t>Pa</t></r><r><t>per</t></r></si><si><t>Notes</t></si></sst>',
    'xl/styles.xml': '<styleSheet><numFmts><numFmt numFmtId="164" formatCode="&quot;€&quot;#,##0.00"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="9"/><xf numFmtId="14"/></cellXfs></styleSheet>',
    'xl/worksheets/sheet1.xml': `<worksheet><sheetData>
      <row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>
      <row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" s="1"><v>1234.5</v></c></row>
      <row r="3"><c r="A3" t="str"><v>Share</v></c><c r="B3" s="2"><f>B2/10000</f><v>0.125</v></c></row>
      <row r="6"><c r="A6" t="s"><v>3</v></c><c r="B6" s="3"><v>45292</v></c></row>
      <row r="7"><c r="A7" t="b"><v>1</v></c></row>
    </sheetData><mergeCells><mergeCell ref="B6:C6"/></mergeCells></worksheet>`,
    'xl/worksheets/sheet2.xml': '<worksheet><sheetData/></worksheet>',
  });

  it('gives one page per non-empty sheet with its name, displayed values, and tables cut at blank rows', () => {
    const pages = readXlsx(workbook);
    expect(pages).toHaveLength(1);
    const [heading, first, second] = pages[0];
    expect(heading).toEqual({ kind: 'heading', level: 1, text: 'Budget' });
    expect(first).toMatchObject({ kind: 'table', rowCount: 3, columnCount: 2 });
    if (first.kind !== 'table' || second.kind !== 'table') throw new Error('not tables');
    expect(first.cells.map((c) => c.text)).toEqual(['Item', 'Cost', 'Paper', '€1,234.50', 'Share', '13%']);
    expect(second.cells).toContainEqual({ row: 0, column: 1, rowSpan: 1, columnSpan: 2, text: '1/1/2024' });
    expect(second.cells).toContainEqual({ row: 1, column: 0, rowSpan: 1, columnSpan: 1, text: 'TRUE' });
  });
});

describe('readPptx', () => {
  const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const shape = (x: number, y: number, text: string, ph = '') =>
    `<p:sp><p:nvSpPr><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="2000000" cy="500000"/></a:xfrm></p:spPr><p:txBody><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;
  const deck = pack({
    'ppt/presentation.xml': `<p:presentation ${P}><p:sldIdLst><p:sldId r:id="rId2"/><p:sldId r:id="rId1"/></p:sldIdLst><p:sldSz cx="9144000" cy="5143500"/></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': '<Relationships><Relationship Id="rId1" Target="slides/slide1.xml" Type="x/slide"/><Relationship Id="rId2" Target="slides/slide2.xml" Type="x/slide"/></Relationships>',
    'ppt/slides/slide1.xml': `<p:sld ${P}><p:cSld><p:spTree>${shape(500000, 3000000, 'Bottom text')}${shape(500000, 300000, 'Later slide', '<p:ph type="title"/>')}</p:spTree></p:cSld></p:sld>`,
    // A group whose children are drawn at half size, offset: child (0, 0) lands at (4572000, 1000000).
    'ppt/slides/slide2.xml': `<p:sld ${P}><p:cSld><p:spTree>${shape(500000, 1000000, 'Left')}<p:grpSp><p:grpSpPr><a:xfrm><a:off x="4572000" y="1000000"/><a:ext cx="2000000" cy="1000000"/><a:chOff x="0" y="0"/><a:chExt cx="4000000" cy="2000000"/></a:xfrm></p:grpSpPr>${shape(0, 0, 'Grouped right')}</p:grpSp>${shape(500000, 200000, 'First slide', '<p:ph type="ctrTitle"/>')}</p:spTree></p:cSld></p:sld>`,
  });

  it('keeps presentation order, puts the title first and reads shapes by position, groups placed by their transform', () => {
    const slides = readPptx(deck);
    expect(slides).toHaveLength(2);
    expect(slides[0].width).toBeCloseTo(720);
    expect(texts(slides[0].items)).toEqual(['title:First slide', 'paragraph:Left', 'paragraph:Grouped right']);
    const grouped = slides[0].items.find((i) => 'text' in i && i.text === 'Grouped right')!;
    expect(grouped.box).toEqual({ x0: 360, y0: 1000000 / 12700, x1: 360 + 1000000 / 12700, y1: (1000000 + 250000) / 12700 });
    expect(texts(slides[1].items)).toEqual(['title:Later slide', 'paragraph:Bottom text']);
  });
});
