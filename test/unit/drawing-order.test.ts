// Reading in the order the file drew its words (src/pipeline/analysis/drawing-order.ts), issue 5 "reading
// order": where the drawing order is trusted, a display formula reads as it was written, and where
// it is not (words drawn in no order, columns drawn row by row), geometry decides as before.
import { describe, expect, it } from 'vitest';
import { drawsInSequence } from '../../src/pipeline/analysis/drawing-order.js';
import { analyzeDocument } from '../../src/pipeline/analysis/analyze-page.js';
import { pageText } from '../../src/pipeline/outputs/text.js';
import { NO_GRAPHICS, type RawPage, type Word } from '../../src/pipeline/page-model.js';
import { lineWords, word } from '../helpers/words.js';

function rawPage(words: Word[]): RawPage {
  return { number: 1, width: 612, height: 792, unit: 'pt', rotation: 0, skew: 0, words, graphics: NO_GRAPHICS, formFields: [], textSource: 'text_layer' };
}

const PROSE = [
  'Let a, b, c and d be real numbers with ad minus bc not zero, and let the map',
  'from the complex plane to itself that the next display defines be called sigma.',
];

/** A paragraph, a display fraction "σ(z) := (az + b) / (cz + d)" drawn as TeX draws it, and a closing line. */
function fractionPage(): Word[] {
  return [
    ...lineWords(PROSE[0], 72, 100),
    ...lineWords(PROSE[1], 72, 114),
    // TeX draws the left side on the formula's axis, then the numerator above it, then the
    // denominator below: three pieces no line continues.
    ...lineWords('σ(z) :=', 250, 140),
    ...lineWords('az + b', 286, 133),
    ...lineWords('cz + d', 286, 147),
    ...lineWords('Such a map is called a Moebius transformation of the plane.', 72, 170),
  ];
}

describe('a display formula on a page drawn in reading sequence', () => {
  it('reads its pieces in the order they were drawn, between the paragraphs', () => {
    const [page] = analyzeDocument([rawPage(fractionPage())]);
    const paragraphs = pageText(page).split('\n\n');
    expect(paragraphs).toEqual([PROSE.join(' '), 'σ(z) :=', 'az + b cz + d', 'Such a map is called a Moebius transformation of the plane.']);
    // The fraction's block holds numerator and denominator, its lines listed in drawing order.
    const fraction = page.blocks.find((b) => b.lines.some((l) => page.lines[l].words.some((w) => page.words[w].text === 'az')))!;
    expect(fraction.lines.map((l) => page.lines[l].words.map((w) => page.words[w].text).join(' '))).toEqual(['az + b', 'cz + d']);
  });

  it('joins a word hyphenated at a line end in drawing order as in geometric order', () => {
    const words = [...lineWords('A careful reader joins the hyphen-', 72, 100, { size: 10 }), ...lineWords('ated word again.', 72, 114)];
    words[5].hyphenated = true;
    words[5].text = 'hyphen';
    const [page] = analyzeDocument([rawPage(words)]);
    expect(pageText(page)).toBe('A careful reader joins the hyphenated word again.');
  });
});

describe('an aligned display drawn row by row', () => {
  it('reads row by row, its columns set far apart', () => {
    // As in the GeoTopo book (page 29): two columns of an align environment, drawn row by row.
    const rows = [
      ['x = (1 : 0 : 0) ∈ U0 → R2', 'x ↦ (0, 0)'],
      ['y = (0 : 1 : 1) ∈ U2 → R2', 'y ↦ (0, 1)'],
    ];
    const words: Word[] = [...lineWords(PROSE[0], 72, 100)];
    rows.forEach(([left, right], i) => words.push(...lineWords(left, 216, 130 + i * 16), ...lineWords(right, 400, 130 + i * 16)));
    const text = pageText(analyzeDocument([rawPage(words)])[0]).replace(/\n(?!\n)/g, ' ');
    expect(text).toContain(rows.map((r) => r.join(' ')).join(' '));
  });
});

describe('a page whose drawing order is not trusted', () => {
  it('is told apart: words drawn in no particular order are not in sequence', () => {
    const words = fractionPage();
    expect(drawsInSequence(words)).toBe(true);
    // A fixed shuffle (a producer that draws by font, or at random).
    const shuffled = words.map((w, i) => ({ w, key: (i * 7919) % 101 })).sort((a, b) => a.key - b.key).map(({ w }) => w);
    expect(drawsInSequence(shuffled)).toBe(false);
    // Read by geometry instead: the prose lines come out whole and in order all the same.
    const text = pageText(analyzeDocument([rawPage(shuffled)])[0]);
    expect(text).toContain(PROSE[0]);
    expect(text.indexOf(PROSE[0])).toBeLessThan(text.indexOf('Such a map'));
  });

  it('keeps two columns of running text drawn row by row apart, a narrow gutter between: each column reads whole', () => {
    const left = ['The left column of this page starts right here', 'and it goes on for a line or two of', 'text before it ends on this third line.'];
    const right = ['The right column of the page follows on it', 'with two more lines of its own running', 'text, which reads on to the very end.'];
    const words: Word[] = [];
    left.forEach((line, i) => {
      words.push(...lineWords(line, 72, 100 + i * 14));
      words.push(...lineWords(right[i], 330, 100 + i * 14));
    });
    const text = pageText(analyzeDocument([rawPage(words)])[0]).replace(/\n(?!\n)/g, ' ');
    expect(text).toContain(left.join(' '));
    expect(text).toContain(right.join(' '));
  });
});

describe('drawsInSequence', () => {
  it('trusts a short page', () => {
    expect(drawsInSequence([word('Title', 72, 72), word('2', 300, 760)])).toBe(true);
  });
});

describe('drawings on a page drawn in reading sequence', () => {
  it('take their places where their labels were drawn, with their labels in drawing order', () => {
    // As in the GeoTopo book (page 48): two drawings side by side, each with its labels and a line
    // of text under it; the left one's line starts just inside the left drawing's box.
    const words = [
      ...lineWords('A paragraph across the whole page introduces the two drawings below it.', 72, 100),
      word('b', 300, 200),
      word('a', 190, 200),
      ...lineWords('the left one, drawn first.', 190, 289),
      word('d', 440, 200),
      word('c', 330, 200),
      ...lineWords('(b) the right one, drawn next.', 340, 275),
    ];
    // Each drawing at least 1.5% of the page, so that it is shown (docs/api.md picture rule 3).
    const shapes = (x0: number) => [
      { x0, y0: 130, x1: x0 + 60, y1: 190 },
      { x0: x0 + 60, y0: 130, x1: x0 + 120, y1: 190 },
      { x0, y0: 185, x1: x0 + 120, y1: 212 },
    ];
    const page: RawPage = { ...rawPage(words), graphics: { ...NO_GRAPHICS, shapes: [...shapes(190), ...shapes(335)] } };
    const [analysed] = analyzeDocument([page]);
    expect(pageText(analysed).split('\n\n')).toEqual([
      'A paragraph across the whole page introduces the two drawings below it.',
      '[FIGURE]',
      'b a',
      'the left one, drawn first.',
      '[FIGURE]',
      'd c',
      '(b) the right one, drawn next.',
    ]);
  });
});
