// List numbering in Word documents (issue 23): every paragraph Word numbers shows the marker Word
// displays, headings too; numId 0 turns numbering off; a heading style linked to a multilevel list
// is numbered at the level that names the style.
import { describe, expect, it } from 'vitest';
import { readDocx } from '../../src/pipeline/formats/office/docx.js';
import { wordPackage } from '../helpers/office.js';

const p = (text: string, properties = '') => `<w:p><w:pPr>${properties}</w:pPr><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const style = (id: string) => `<w:pStyle w:val="${id}"/>`;
const numbered = (numId: number, ilvl?: number) => `<w:numPr>${ilvl === undefined ? '' : `<w:ilvl w:val="${ilvl}"/>`}<w:numId w:val="${numId}"/></w:numPr>`;

// List 1: a multilevel heading list ("1." then "1.1"), its levels linked to Heading1 and Heading2.
// List 2: bullets. List 3: "a)" items.
const numbering = `
  <w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading1"/><w:lvlText w:val="%1."/></w:lvl><w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading2"/><w:lvlText w:val="%1.%2"/></w:lvl></w:abstractNum>
  <w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="&#xF0B7;"/></w:lvl></w:abstractNum>
  <w:abstractNum w:abstractNumId="2"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%1)"/></w:lvl></w:abstractNum>
  <w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num><w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num>`;
const styles = `<w:style w:type="paragraph" w:styleId="ListBullet"><w:name w:val="List Bullet"/><w:pPr>${numbered(2)}</w:pPr></w:style>`;

function read(body: string): string[] {
  const [page] = readDocx(wordPackage({ body, numbering, styles: styles + `<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr>${numbered(1)}</w:pPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:pPr>${numbered(1)}</w:pPr></w:style>` }));
  return page.map((item) => (item.kind === 'list_item' ? `${item.kind}:${item.marker} ${item.text}` : 'text' in item ? `${item.kind}:${item.text}` : item.kind));
}

describe('numbering in Word documents', () => {
  it('numbers headings whose style is linked to a multilevel list, at the level that names the style', () => {
    const body = p('Scope', style('Heading1')) + p('Goals', style('Heading2')) + p('Limits', style('Heading2')) + p('Terms', style('Heading1')) + p('Words', style('Heading2'));
    expect(read(body)).toEqual(['heading:1. Scope', 'heading:1.1 Goals', 'heading:1.2 Limits', 'heading:2. Terms', 'heading:2.1 Words']);
  });

  it('numbers a heading numbered directly, sharing the counter with the list it belongs to', () => {
    const body = p('Subject', style('Heading3') + numbered(3, 0)) + p('first point', numbered(3, 0)) + p('second point', numbered(3, 0));
    const [page] = readDocx(wordPackage({ body, numbering, styles: '<w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/></w:style>' }));
    expect(page.map((i) => ('marker' in i ? `${i.marker} ${i.text}` : 'text' in i ? i.text : ''))).toEqual(['a) Subject', 'b) first point', 'c) second point']);
  });

  it('leaves a paragraph whose numId is 0 unnumbered, though its style is a list style', () => {
    const body = p('Bring:', style('ListBullet') + numbered(0, 0)) + p('a hat', style('ListBullet')) + p('water', style('ListBullet'));
    expect(read(body)).toEqual(['paragraph:Bring:', 'list_item:• a hat', 'list_item:• water']);
  });

  it('shows no bullet for a paragraph only named like a list style, with no numbering behind it', () => {
    const body = p('Plain words', '<w:pStyle w:val="ListBullet2"/>');
    const [page] = readDocx(wordPackage({ body, styles: '<w:style w:type="paragraph" w:styleId="ListBullet2"><w:name w:val="List Bullet 2"/></w:style>' }));
    expect(page).toEqual([{ kind: 'paragraph', text: 'Plain words' }]);
  });
});
