// Equations (Office Math, OMML) read as LaTeX (issue 23): each OMML object as the LaTeX construct
// that draws it, an equation alone in its paragraph displayed ($$…$$), one within text inline ($…$),
// in Word documents and PowerPoint slides written here.
import { describe, expect, it } from 'vitest';
import { readDocx } from '../../src/pipeline/formats/office/docx.js';
import { readPptx } from '../../src/pipeline/formats/office/pptx.js';
import { presentationPackage, wordPackage } from '../helpers/office.js';

const r = (text: string, style?: string) => `<m:r>${style ? `<m:rPr><m:sty m:val="${style}"/></m:rPr>` : ''}<m:t xml:space="preserve">${text}</m:t></m:r>`;
const e = (...content: string[]) => `<m:e>${content.join('')}</m:e>`;
const math = (...content: string[]) => `<m:oMath>${content.join('')}</m:oMath>`;
const display = (...content: string[]) => `<w:p><m:oMathPara>${math(...content)}</m:oMathPara></w:p>`;

/** The text of each paragraph of a one-page document. */
function paragraphs(body: string): string[] {
  const [page] = readDocx(wordPackage({ body }));
  return page.map((item) => ('text' in item ? item.text : item.kind));
}

describe('equations in Word documents', () => {
  it('writes fractions, scripts and radicals as LaTeX', () => {
    const body = [
      display(`<m:f><m:num>${r('a+b')}</m:num><m:den>${r('2')}</m:den></m:f>`),
      display(`<m:sSup>${e(r('x'))}<m:sup>${r('2')}</m:sup></m:sSup>${r('+')}<m:sSub>${e(r('y'))}<m:sub>${r('i')}</m:sub></m:sSub>${r('+')}<m:sSubSup>${e(r('z'))}<m:sub>${r('0')}</m:sub><m:sup>${r('3')}</m:sup></m:sSubSup>`),
      display(`<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/>${e(r('x'))}</m:rad>${r('=')}<m:rad><m:deg>${r('3')}</m:deg>${e(r('y'))}</m:rad>`),
      display(`<m:f><m:fPr><m:type m:val="lin"/></m:fPr><m:num>${r('1')}</m:num><m:den>${r('n')}</m:den></m:f>`),
    ].join('');
    expect(paragraphs(body)).toEqual(['$$\\frac{a+b}{2}$$', '$$x^{2}+y_{i}+z_{0}^{3}$$', '$$\\sqrt{x}=\\sqrt[3]{y}$$', '$$1/n$$']);
  });

  it('writes n-ary operators with their limits, an integral by default', () => {
    const sum = `<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${r('i=1')}</m:sub><m:sup>${r('n')}</m:sup>${e(r('i'))}</m:nary>`;
    const integral = `<m:nary><m:sub>${r('0')}</m:sub><m:sup>${r('∞')}</m:sup>${e(r('f(x)dx'))}</m:nary>`;
    const product = `<m:nary><m:naryPr><m:chr m:val="∏"/><m:subHide m:val="1"/><m:supHide m:val="1"/></m:naryPr><m:sub/><m:sup/>${e(r('a'))}</m:nary>`;
    expect(paragraphs(display(sum) + display(integral) + display(product))).toEqual(['$$\\sum_{i=1}^{n}i$$', '$$\\int_{0}^{\\infty}f(x)dx$$', '$$\\prod a$$']);
  });

  it('writes delimiters that grow with their content, functions and limits', () => {
    const brackets = `<m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/></m:dPr>${e(r('a'))}${e(r('b'))}</m:d>`;
    const cases = `<m:d><m:dPr><m:begChr m:val="{"/><m:endChr m:val=""/></m:dPr>${e(r('x'))}</m:d>`;
    const sine = `<m:func><m:fName>${r('sin', 'p')}</m:fName>${e(r('θ'))}</m:func>`;
    const log = `<m:func><m:fName><m:sSub>${e(r('log', 'p'))}<m:sub>${r('ab')}</m:sub></m:sSub></m:fName>${e(`<m:d>${e(r('x'))}</m:d>`)}</m:func>`;
    const limit = `<m:func><m:fName><m:limLow>${e(r('lim', 'p'))}<m:lim>${r('n→∞')}</m:lim></m:limLow></m:fName>${e(r('a'))}</m:func>`;
    expect(paragraphs(display(brackets) + display(cases) + display(sine) + display(log) + display(limit))).toEqual([
      '$$\\left[a|b\\right]$$',
      '$$\\left\\{x\\right.$$',
      '$$\\sin\\theta$$',
      '$$\\log_{ab}\\left(x\\right)$$',
      '$$\\lim_{n\\to\\infty}a$$',
    ]);
  });

  it('writes matrices, accents, bars and group characters', () => {
    const matrix = `<m:d>${e(`<m:m><m:mr>${e(r('1'))}${e(r('0'))}</m:mr><m:mr>${e(r('0'))}${e(r('1'))}</m:mr></m:m>`)}</m:d>`;
    const accents = `<m:acc>${e(r('x'))}</m:acc><m:acc><m:accPr><m:chr m:val="⃗"/></m:accPr>${e(r('v'))}</m:acc>`;
    const bars = `<m:bar><m:barPr><m:pos m:val="top"/></m:barPr>${e(r('z'))}</m:bar><m:bar>${e(r('w'))}</m:bar>`;
    const brace = `<m:groupChr>${e(r('a+b'))}</m:groupChr>`;
    expect(paragraphs(display(matrix) + display(accents) + display(bars) + display(brace))).toEqual([
      '$$\\left(\\begin{matrix}1&0\\\\0&1\\end{matrix}\\right)$$',
      '$$\\hat{x}\\vec{v}$$',
      '$$\\overline{z}\\underline{w}$$',
      '$$\\underbrace{a+b}$$',
    ]);
  });

  it("writes a run's characters in math mode: symbols as commands, a dash as minus, specials escaped", () => {
    expect(paragraphs(display(r('x – y^2 ≤ α·100% + {a} − 𝑏')))).toEqual(['$$x - y^2 \\leq \\alpha\\cdot100\\% + \\{a\\} - b$$']);
  });

  it('displays an equation alone in its paragraph and keeps one within text inline', () => {
    const inline = `<w:p><w:r><w:t xml:space="preserve">Energy is </w:t></w:r>${math(r('E=m'), `<m:sSup>${e(r('c'))}<m:sup>${r('2')}</m:sup></m:sSup>`)}<w:r><w:t xml:space="preserve"> at rest.</w:t></w:r></w:p>`;
    const alone = `<w:p>${math(r('y = '), `<m:func><m:fName>${r('log', 'p')}</m:fName>${e(`<m:d>${e(r('x'))}</m:d>`)}</m:func>`)}</w:p>`;
    expect(paragraphs(inline + alone)).toEqual(['Energy is $E=mc^{2}$ at rest.', '$$y = \\log\\left(x\\right)$$']);
  });

  it('types a paragraph that is an equation typed as plain text as a display formula, and a sentence with a sum in it as a paragraph', () => {
    const p = (text: string) => `<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
    const [page] = readDocx(wordPackage({ body: p('ŷ = argmax_y p(y | x; θ) (3)') + p('The total is 5 + 3 apples for everyone at the table.') + p('σ² = (1/n) ∑ᵢ (xᵢ − μ)²') }));
    expect(page.map((item) => item.kind)).toEqual(['formula', 'paragraph', 'formula']);
    expect(page[0]).toMatchObject({ text: 'ŷ = argmax_y p(y | x; θ) (3)' });
  });
});

describe('equations in slides', () => {
  it('reads an equation PowerPoint stores in a text box (a14:m), as in Word', () => {
    const equation = `<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice xmlns:a14="http://schemas.microsoft.com/office/drawing/2010/main" Requires="a14"><a14:m><m:oMathPara xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:oMath><m:f><m:num>${r('1')}</m:num><m:den>${r('2')}</m:den></m:f></m:oMath></m:oMathPara></a14:m></mc:Choice><mc:Fallback><a:r><a:t>1/2 (picture)</a:t></a:r></mc:Fallback></mc:AlternateContent>`;
    const box = `<p:sp><p:nvSpPr><p:cNvPr id="5" name="Equation"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="3000000"/><a:ext cx="4000000" cy="600000"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:p>${equation}</a:p><a:p><a:r><a:t xml:space="preserve">Half is </a:t></a:r>${equation.replace(/m:oMathPara/g, 'm:oMathParaX').replace(/<m:oMathParaX[^>]*>|<\/m:oMathParaX>/g, '')}<a:r><a:t>.</a:t></a:r></a:p></p:txBody></p:sp>`;
    const [slide] = readPptx(presentationPackage([{ title: 'Shares', shapes: box }]));
    expect(slide.items.map((i) => ('text' in i ? i.text : i.kind))).toEqual(['Shares', '$$\\frac{1}{2}$$', 'Half is $\\frac{1}{2}$.']);
  });
});
