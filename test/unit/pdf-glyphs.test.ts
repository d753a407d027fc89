// Glyphs that PDFium reads as raw character codes (issue 5): TeX's math fonts name their glyphs
// (`prime`, `bardbl`, `parenleftbigg`) with names PDFium does not know, so the reader takes the
// names from the embedded font program. Checked on the corpus' GeoTopo book, whose fonts carry no
// ToUnicode maps, and on small programs written here.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtinGlyphNames } from '../../src/pipeline/formats/font-program.js';
import { combiningAccent, glyphNameText } from '../../src/pipeline/formats/glyph-names.js';
import { readPdf } from '../../src/pipeline/formats/pdf.js';
import { analyzeDocument } from '../../src/pipeline/analysis/analyze-page.js';
import { pageText } from '../../src/pipeline/outputs/text.js';
import { CORPUS } from '../helpers/folio.js';

describe('glyph names', () => {
  it('maps TeX math names, their size variants and uniXXXX names', () => {
    expect(glyphNameText('prime')).toBe('\u2032');
    expect(glyphNameText('bardbl')).toBe('\u2016');
    expect(glyphNameText('parenleftbigg')).toBe('(');
    expect(glyphNameText('bracerightBigg')).toBe('}');
    expect(glyphNameText('summationdisplay')).toBe('\u2211');
    expect(glyphNameText('uniontext')).toBe('\u22C3');
    expect(glyphNameText('tildewidest')).toBe('\u0303');
    expect(glyphNameText('uni2032')).toBe('\u2032');
    expect(glyphNameText('radicalvertex')).toBe('');
    expect(glyphNameText('A')).toBeUndefined();
    expect(glyphNameText('d47')).toBeUndefined();
  });

  it('knows the combining mark of each spacing accent', () => {
    expect(combiningAccent('\u02DC')).toBe('\u0303');
    expect(combiningAccent('\u00A8')).toBe('\u0308');
    expect(combiningAccent('a')).toBeUndefined();
  });
});

describe('builtinGlyphNames', () => {
  it('reads the clear-text encoding of a Type 1 program, leaving standard names to PDFium', () => {
    const program = new TextEncoder().encode(
      '%!PS-AdobeFont-1.0: CMSY10 003.002\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n' +
        'dup 48 /prime put\ndup 65 /A put\ndup 107 /bardbl put\nreadonly def\ncurrentfile eexec\n\x8f\x01\x02',
    );
    const names = builtinGlyphNames(program);
    expect(names?.custom).toEqual(new Map([[48, 'prime'], [107, 'bardbl']]));
    expect(names?.ascii.has(0x41)).toBe(true);
  });

  it('ignores a Type 1 program in the standard encoding, and bytes that are no font program', () => {
    const standard = new TextEncoder().encode('%!FontType1-1.0: Times\n/Encoding StandardEncoding def\ncurrentfile eexec\n');
    expect(builtinGlyphNames(standard)).toBeNull();
    expect(builtinGlyphNames(new Uint8Array([0, 1, 0, 0, 0, 12]))).toBeNull();
    expect(builtinGlyphNames(new Uint8Array([1, 0, 4, 1, 0xff, 0xff, 9]))).toBeNull();
  });
});

describe('GeoTopo (CFF fonts with built-in encodings, no ToUnicode)', () => {
  let texts: string[] = [];
  beforeAll(async () => {
    const bytes = await readFile(path.join(CORPUS, 'text_pdf/pypdfbench-geotopo-book/GeoTopo-komprimiert.pdf'));
    texts = analyzeDocument(await readPdf(bytes)).map(pageText);
  }, 60_000);
  const page = (n: number) => texts[n - 1];

  it('reads primes, norms and sums instead of the raw codes 0, k and P', () => {
    expect(page(93)).toContain('κ(t) := ‖γ′′(t)‖');
    expect(page(31)).toContain('x′ := (x2,');
    expect(page(29)).toContain('‖(u, v)‖ < 1');
    expect(page(29)).toContain('∑');
    expect(page(85)).not.toMatch(/a0z/);
  });

  it("reads a slash over a relation as its negation, and TeX's mapsto bar as ↦", () => {
    expect(page(29)).toContain('xi ≠ 0');
    expect(page(29)).toContain('↦');
    expect(page(29)).not.toMatch(/\b6=/);
    // The slash is drawn before the relation it crosses, under a sum's limit too: it never goes
    // back to a glyph drawn earlier (the ∑).
    expect(page(99)).toContain('∑i≠j');
    expect(texts.join('\n')).not.toContain('\u0338');
  });

  it('puts an accent drawn over a letter after it as a combining mark', () => {
    expect(page(36)).toContain('F\u0303−1');
    expect(page(61)).toContain('γ\u0303(1)');
    // About 200 tildes sit over their letters; a dozen are set beside them (TeX shifts accents over
    // italic letters) or drawn after more than their letter (Deck(X̃/X)), and stay spacing tildes.
    const all = texts.join('\n');
    expect(all.match(/\u0303/g)?.length ?? 0).toBeGreaterThan(150);
    expect(all.match(/\u02DC/g)?.length ?? 0).toBeLessThan(15);
  });

  it('reads big delimiters, which sit at control codes, as delimiters', () => {
    const all = texts.join('\n');
    expect(all).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    // Nor does a glyph without a name at DEL (XY-pic's arrow tips on page 14) read as that control code.
    expect(all).not.toMatch(/[\u007f-\u009f]/);
    // The parentheses around column vectors are drawn as upper and lower hooks (⎛ over ⎝), each read.
    expect(all).toContain('\u2329⎛⎝ x1 x2 x3⎞⎠ , ⎛⎝ x1 x2 x3⎞⎠\u232a');
  });

  it("reads cmex's bar pieces at control codes as glyphs", () => {
    // The double bar piece sits at 0x0D, which PDFium reports as a carriage return.
    expect(page(92)).toContain('‖n(t)‖ = ∥∥∥∥(− cos t r , − sin t r )∥∥∥∥');
    expect(page(29)).toContain('{ x ∈ Rn+1 ∣∣ ‖x‖ = 1 }');
  });

  it('reads periods a thin space apart as an ellipsis, and keeps dot leaders as they are', () => {
    expect(page(7)).toContain('V(f1, ... , fr)');
    // The table of contents: leader dots half a font size apart.
    expect(page(4)).toContain('. . . .');
    expect(page(4)).not.toContain('...');
  });

  it('sets words of different fonts a thin space apart as two words, glyphs of one font as one', () => {
    // The comma (math italic) and "sin" (roman) stand a thin space apart; "cos" and "(" are set tight.
    expect(page(64)).toContain('(cos(2πg(0)), sin(2πg(0)))');
  });

});
