// Figures drawn with vector paths (issue 5 scope 6): clusters of curves with their axes and
// labels are figures and take their words; rulings alone and boxes of prose are not.
import { describe, expect, it } from 'vitest';
import { findFigures } from '../../src/pipeline/analysis/figures.js';
import { readPdf } from '../../src/pipeline/formats/pdf.js';
import { analyzeDocument, blockText } from '../../src/pipeline/analysis/analyze-page.js';
import { pageMarkdown } from '../../src/pipeline/outputs/markdown.js';
import { pageText } from '../../src/pipeline/outputs/text.js';
import { NO_GRAPHICS, type Box, type PageGraphics } from '../../src/pipeline/page-model.js';
import { handbookPdf, sampledCurvePdf } from '../helpers/pdfs.js';
import { lineWords, word } from '../helpers/words.js';

const box = (x0: number, y0: number, x1: number, y1: number): Box => ({ x0, y0, x1, y1 });

/** A chart: two curves and a dot over axes with three tick marks under the x axis (at y 400 to 404). */
const chart: PageGraphics = {
  ...NO_GRAPHICS,
  shapes: [box(100, 200, 300, 390), box(110, 250, 300, 395), box(180, 300, 190, 310)],
  segments: [
    { x0: 100, y0: 400, x1: 300, y1: 400 },
    { x0: 100, y0: 200, x1: 100, y1: 400 },
    ...[150, 200, 250].map((x) => ({ x0: x, y0: 400, x1: x, y1: 404 })),
  ],
};

describe('findFigures', () => {
  it('finds a chart of curves with axes and ticks, with the tick labels just outside it', () => {
    const words = [word('5', 147, 408), word('10', 195, 408), word('15', 245, 408), ...lineWords('The chart shows the growth of the network.', 72, 450)];
    const found = findFigures(words, chart, 612, 792);
    const drawings = found.figures.filter((f) => f.kind === 'drawing');
    expect(drawings).toHaveLength(1);
    expect(drawings[0].box.y1).toBeGreaterThanOrEqual(418);
    expect([...found.words].map((i) => words[i].text).sort()).toEqual(['10', '15', '5']);
    expect(found.rest.segments).toEqual([]);
  });

  it('finds none in plain rulings, specks, or a rounded box around a paragraph', () => {
    const rulings: PageGraphics = { ...NO_GRAPHICS, segments: [{ x0: 72, y0: 100, x1: 540, y1: 100 }, { x0: 72, y0: 300, x1: 540, y1: 300 }], shapes: [box(72, 99, 73, 101)] };
    expect(findFigures([], rulings, 612, 792).figures).toEqual([]);
    // The graphics left for tables say, as the page's did, whether they were read from a picture.
    expect(findFigures([], { ...rulings, rulingsFromPicture: true }, 612, 792).rest).toEqual({ ...rulings, rulingsFromPicture: true });
    const prose = [0, 1, 2, 3].flatMap((i) => lineWords('a paragraph of running text set inside a box with rounded corners', 80, 110 + i * 14));
    const callout: PageGraphics = { ...NO_GRAPHICS, shapes: [box(70, 100, 80, 110), box(530, 100, 540, 110), box(70, 160, 80, 170), box(530, 160, 540, 170)], segments: [{ x0: 80, y0: 100, x1: 530, y1: 100 }, { x0: 80, y0: 170, x1: 530, y1: 170 }] };
    expect(findFigures(prose, callout, 612, 792).figures).toEqual([]);
  });

  it('takes a picture as the page backdrop, its words staying text, where it covers half the page or running text lies over it', () => {
    const words = lineWords('Scanned text layer over the picture', 80, 120);
    const found = findFigures(words, { ...NO_GRAPHICS, images: [box(72, 100, 540, 700)] }, 612, 792);
    expect(found.figures).toEqual([{ box: box(72, 100, 540, 700), kind: 'image', background: true }]);
    expect(found.words.size).toBe(0);
    const prose = [0, 1].flatMap((i) => lineWords('a text box with a shaded picture behind its two lines of prose', 80, 310 + i * 14));
    const boxed = findFigures(prose, { ...NO_GRAPHICS, images: [box(72, 300, 540, 350)] }, 612, 792);
    expect(boxed.figures[0].background).toBe(true);
    expect(boxed.words.size).toBe(0);
  });

  it("takes the short runs set wholly on a picture as its labels, not a caption's line nor a run reaching off it", () => {
    const photo = box(100, 100, 400, 300);
    const words = [
      ...lineWords('Washer', 120, 140, { size: 8 }),
      ...lineWords('Locking nut', 300, 250, { size: 8 }),
      ...lineWords('Figure 7-12 Nut before tightening', 110, 285, { size: 9 }),
      ...lineWords('Text set across', 360, 200, { size: 8 }),
    ];
    const found = findFigures(words, { ...NO_GRAPHICS, images: [photo] }, 612, 792);
    expect(found.figures).toEqual([{ box: photo, kind: 'image' }]);
    expect([...found.words].map((i) => words[i].text).sort()).toEqual(['Locking', 'Washer', 'nut']);
  });

  it('never reaches out for type set at a heading size: a title just under a drawn masthead stays text', () => {
    const title = lineWords('Annual review', 100, 410, { size: 22 });
    const ticks = [word('5', 147, 408), word('10', 195, 408)];
    const words = [...ticks, ...title];
    const found = findFigures(words, chart, 612, 792, { bodySize: 10 });
    expect([...found.words].map((i) => words[i].text).sort()).toEqual(['10', '5']);
    // Without the body's size to measure by, the title's short run passed for the chart's label.
    expect([...findFigures(words, chart, 612, 792).words].map((i) => words[i].text)).toContain('Annual');
  });

  it('leaves the words on a banner hardly taller than they are (a heading on a picture) to the text', () => {
    const words = lineWords('1 Introduction', 80, 108, { size: 13.5 });
    const found = findFigures(words, { ...NO_GRAPHICS, images: [box(72, 100, 300, 128)] }, 612, 792);
    expect(found.figures).toHaveLength(1);
    expect(found.words.size).toBe(0);
  });

  it("takes for labels only the words on or next to the drawing's paths: the facts a masthead's rule reaches over, and the names on its panels, stay text", () => {
    // A rule across the top, an emblem, and two panels at the right (each drawn as fill and stroke).
    const masthead: PageGraphics = {
      ...NO_GRAPHICS,
      segments: [{ x0: 60, y0: 60, x1: 540, y1: 60 }],
      shapes: [box(446, 65, 460, 79), box(462, 64, 536, 86), box(462, 64, 536, 86), box(430, 90, 536, 122), box(430, 90, 536, 122)],
    };
    const words = [
      ...lineWords('Published 10 February 2025', 60, 76, { size: 8 }),
      ...lineWords('Discount Schedule Institute', 60, 86, { size: 8 }),
      ...lineWords('No. 338', 476, 69, { size: 11 }),
      ...lineWords('External', 450, 99, { size: 13 }),
    ];
    const found = findFigures(words, masthead, 612, 792);
    expect(found.figures.filter((f) => f.kind === 'drawing')).toHaveLength(1);
    expect(found.words.size).toBe(0);
    // A letter in a square of a diagram, though the square is hardly taller than it, is its label.
    const grid: PageGraphics = { ...NO_GRAPHICS, shapes: [box(100, 100, 129, 129), box(129, 100, 158, 129), box(100, 129, 129, 158)] };
    const letter = [word('M', 110, 108, { size: 11 })];
    expect([...findFigures(letter, grid, 612, 792).words]).toEqual([0]);
  });

  it('takes a label of several words whole, and a long tick label under its axis', () => {
    const words = [word('5', 147, 408), word('warehouse', 180, 408), ...lineWords('(b) Pair', 150, 420, { size: 9 })];
    const found = findFigures(words, chart, 612, 792);
    expect([...found.words].map((i) => words[i].text).sort()).toEqual(['(b)', '5', 'Pair', 'warehouse']);
  });

  it('finds a diagram of framed boxes joined by a line, with the labels in its boxes', () => {
    const diagram: PageGraphics = {
      ...NO_GRAPHICS,
      rects: [
        { box: box(100, 500, 180, 540), filled: false, stroked: true, fill: null },
        { box: box(300, 500, 380, 540), filled: false, stroked: true, fill: null },
      ],
      segments: [{ x0: 180, y0: 520, x1: 300, y1: 520 }],
    };
    const words = [word('Wrench', 115, 515), word('Bolt', 325, 515)];
    const found = findFigures(words, diagram, 612, 792);
    expect(found.figures.map((f) => f.kind)).toEqual(['drawing']);
    expect(found.words.size).toBe(2);
    // The same boxes with no line between them (a form's fields), shaded bands joined by a table's
    // column rulings, and cells that touch are no diagram.
    expect(findFigures(words, { ...diagram, segments: [] }, 612, 792).figures).toEqual([]);
    const bands: PageGraphics = {
      ...NO_GRAPHICS,
      rects: [
        { box: box(72, 230, 525, 260), filled: true, stroked: false, fill: 0xc0c0c0 },
        { box: box(72, 415, 525, 429), filled: true, stroked: false, fill: 0xc0c0c0 },
      ],
      segments: [230, 330, 430].map((x) => ({ x0: x, y0: 260, x1: x, y1: 415 })),
    };
    expect(findFigures([], bands, 612, 792).figures).toEqual([]);
    const cells: PageGraphics = {
      ...NO_GRAPHICS,
      rects: [box(100, 500, 180, 540), box(180, 500, 260, 540), box(260, 500, 340, 540)].map((b) => ({ box: b, filled: false, stroked: true, fill: null })),
      segments: [{ x0: 100, y0: 560, x1: 340, y1: 560 }, { x0: 100, y0: 540, x1: 100, y1: 560 }, { x0: 340, y0: 540, x1: 340, y1: 560 }],
    };
    expect(findFigures([], cells, 612, 792).figures).toEqual([]);
  });

  it('leaves the caption set right under a drawing to the text, while taking its tick labels', () => {
    // A caption line close under the tick labels: short words, but running text.
    const words = [word('5', 147, 408), word('10', 195, 408), word('15', 245, 408), ...lineWords('Figure 1.1: the growth of the network per year', 100, 420)];
    const found = findFigures(words, chart, 612, 792);
    expect([...found.words].map((i) => words[i].text).sort()).toEqual(['10', '15', '5']);
    expect(found.figures[0].box.y1).toBeLessThan(420);
  });

  it('leaves a list item beside a drawing to the text: its label stands a wider word space from its words', () => {
    // As in the GeoTopo book (page 40): "2)" half a font size and a little more before "Folgende",
    // the line just above the drawing.
    const words = [word('2)', 90, 185), ...lineWords('Folgende Abbildung ϕ : ∆n → ∆n−1 ist simplizial:', 105.5, 185)];
    const found = findFigures(words, chart, 612, 792);
    expect(found.words.size).toBe(0);
  });

  it('leaves a short caption line to the text too, when sub-figure labels sit between it and the drawing', () => {
    // As in the GeoTopo book (page 41): "(c) K5" under the drawing, then a five-word caption, too
    // short to count as running text, whose first words would otherwise be taken as labels.
    const words = [...lineWords('(c) K5', 180, 406), ...lineWords('Abbildung 2.9: Beispiele für Graphen', 150, 420)];
    const found = findFigures(words, chart, 612, 792);
    expect([...found.words].map((i) => words[i].text).sort()).toEqual(['(c)', 'K5']);
  });
});

describe('a plot whose curve is drawn as many short straight pieces', () => {
  it('is a figure, with its tick labels, although no piece alone is larger than a speck', async () => {
    const raw = await readPdf(await sampledCurvePdf());
    const [analysed] = analyzeDocument(raw);
    expect(analysed.figures).toHaveLength(1);
    expect(analysed.figures[0].text.split(/\s+/)).toEqual(['0', '1', '2']);
    expect(pageText(analysed).split('\n\n')).toEqual([
      'The curve below comes ever closer to the axis without reaching it.',
      '[FIGURE]',
      '0 1 2',
      'Rising and falling ever more often, the curve never settles.',
    ]);
  });
});

describe('a handbook page (photos with labels, a diagram of boxes, a cropped photo, headings in a sans face)', () => {
  const read = async () => {
    const raw = await readPdf(await handbookPdf());
    const [page] = analyzeDocument(raw);
    const blocks = page.blocks.map((b) => ({ type: b.type, text: b.type === 'figure' ? `[${page.figures[b.figure!].text}]` : blockText(b, page) }));
    return { raw: raw[0], page, blocks };
  };

  it('parts a heading set in another face from the paragraph under it, though neither bold nor much larger', async () => {
    const { blocks } = await read();
    expect(blocks[0]).toEqual({ type: 'heading', text: 'Torque' });
    expect(blocks[1].text).toMatch(/^When a nut is tightened/);
    expect(blocks[2]).toEqual({ type: 'heading', text: 'Measuring Torque' });
  });

  it('finds both photos, the diagram of framed boxes joined by an arrow, and the cropped photo where its frame shows it', async () => {
    const { raw, page } = await read();
    expect(raw.graphics.images).toContainEqual({ x0: 380, y0: 572, x1: 530, y1: 672 });
    const shown = page.figures.filter((f) => f.index !== null).sort((a, b) => a.index! - b.index!);
    expect(shown.map((f) => f.text)).toEqual(['Washer\nGap', '', 'Wrench Bolt', '']);
    expect(shown.map((f) => f.caption)).toEqual(['Figure 7-12. Nut before and after tightening.', 'Figure 7-12. Nut before and after tightening.', 'Figure 7-13. How the wrench turns the bolt.', null]);
  });

  it('leaves the labels on a photo out of the text, and takes the labels under the photos for text, not headings', async () => {
    const { page, blocks } = await read();
    const labels = blocks.filter((b) => /tightened nut$/i.test(b.text));
    expect(labels).toEqual([
      { type: 'paragraph', text: 'Untightened nut' },
      { type: 'paragraph', text: 'Tightened nut' },
    ]);
    expect(blocks.filter((b) => b.type === 'caption').map((b) => b.text)).toEqual(['Figure 7-12. Nut before and after tightening.', 'Figure 7-13. How the wrench turns the bolt.']);
    const markdown = pageMarkdown(page);
    expect(markdown).not.toMatch(/Washer|Gap|Wrench/);
    expect(markdown).not.toMatch(/#+ (Un)?[Tt]ightened nut/);
  });
});
