// OCR pieces that need no engine (issue 6): Tesseract TSV, the PGM the engines read, which PDF
// pages need OCR, and the measurements on scanned pictures (line direction, skew, rulings).
import { describe, expect, it } from 'vitest';
import { parseTsv, toPgm } from '../../src/models/ocr/engine.js';
import { needsOcr } from '../../src/pipeline/formats/pdf.js';
import { NO_GRAPHICS } from '../../src/pipeline/page-model.js';
import { linesRunVertically, otsu, rulingSegments, skewAngle, textLineHeight } from '../../src/pipeline/scans/measure.js';
import { turn } from '../../src/pipeline/scans/grey-pictures.js';
import { textPicture } from '../helpers/images.js';
import { lineWords } from '../helpers/words.js';

describe('parseTsv', () => {
  it('keeps words (level 5) with their boxes, confidences, paragraph and line, and skips empty ones', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '4\t1\t1\t1\t1\t0\t10\t20\t300\t30\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t20\t80\t30\t96.5\tInvoice',
      '5\t1\t1\t1\t1\t2\t100\t21\t40\t29\t91\t4471',
      '5\t1\t1\t1\t1\t3\t150\t21\t10\t29\t95\t ',
      '5\t1\t2\t1\t1\t1\t10\t80\t60\t30\t88\tTotal',
    ].join('\n');
    expect(parseTsv(tsv)).toEqual([
      { text: 'Invoice', x0: 10, y0: 20, x1: 90, y1: 50, confidence: 96.5, paragraph: '1.1.1', line: '1.1.1.1' },
      { text: '4471', x0: 100, y0: 21, x1: 140, y1: 50, confidence: 91, paragraph: '1.1.1', line: '1.1.1.1' },
      { text: 'Total', x0: 10, y0: 80, x1: 70, y1: 110, confidence: 88, paragraph: '1.2.1', line: '1.2.1.1' },
    ]);
  });

  it('writes a binary PGM header before the grey levels', () => {
    const pgm = toPgm({ width: 2, height: 1, data: new Uint8Array([0, 255]) });
    expect(pgm.toString('latin1')).toBe('P5\n2 1\n255\n\u0000\u00ff');
  });
});

describe('needsOcr', () => {
  it('asks for OCR on a page covered by a picture with no text, or with a garbage text layer', () => {
    const scan = { ...NO_GRAPHICS, images: [{ x0: 0, y0: 0, x1: 612, y1: 792 }] };
    expect(needsOcr([], scan, 612, 792)).toBe(true);
    expect(needsOcr(lineWords('a real text layer over the scanned picture here', 72, 100), scan, 612, 792)).toBe(false);
    expect(needsOcr([], NO_GRAPHICS, 612, 792)).toBe(false);
    const garbage = lineWords('\ue001\ue002\ue003\ue013\ue014\ue015 \ue004\ue005\ue006\ue007 \ue008\ue009\ue00a \ue00b\ue00c\ue00d\ue00e\ue00f\ue010\ue011\ue012', 72, 100);
    expect(needsOcr(garbage, NO_GRAPHICS, 612, 792)).toBe(true);
  });
});

describe('measurements on scans', () => {
  it('measures the height of text lines, on grey and on two-level pictures', () => {
    // Five lines of "ink" 14 pixels tall, 10 apart, each half the width; white elsewhere.
    const bands = (ink: number, paper: number) => {
      const width = 300;
      const height = 140;
      const data = new Uint8Array(width * height).fill(paper);
      for (let line = 0; line < 5; line++) for (let y = 5 + line * 24; y < 19 + line * 24; y++) for (let x = 20; x < 170; x += 2) data[y * width + x] = ink;
      return { width, height, data };
    };
    expect(textLineHeight(bands(40, 230))).toBe(14);
    expect(textLineHeight(bands(0, 255))).toBe(14);
    expect(textLineHeight({ width: 50, height: 50, data: new Uint8Array(2500).fill(255) })).toBeNull();
  });

  it('tell lines running across from lines running up and down, and measure a lean', async () => {
    const page = await textPicture(['The first line of a scanned letter', 'and a second line below it', 'with a third to close the page']);
    expect(linesRunVertically(page)).toBe(false);
    expect(linesRunVertically(await turn(page, 90))).toBe(true);
    expect(skewAngle(page)).toBe(0);
    expect(Math.abs(skewAngle(await turn(page, 2)) - 2)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(skewAngle(await turn(page, -3)) + 3)).toBeLessThanOrEqual(0.5);
  });

  it('tell the direction of the lines of a narrow page (a receipt) whichever way it lies', async () => {
    // Items on the left and prices in a column on the right: the page's two columns of ink make
    // vertical bands too, and a profile across the narrow side has fewer bins to fill.
    const items = ['Nasi lemak', 'Teh tarik', 'Roti canai', 'Milo ais', 'Mee goreng', 'Kopi O', 'Air sirap', 'Roti bakar'];
    const lines = ['KEDAI MAKAN SRI', 'JALAN 12, TAMAN JAYA', ...Array.from({ length: 24 }, (_, i) => `${items[i % items.length]}                   ${(i + 2.5).toFixed(2)}`), 'TOTAL              318.00'];
    const receipt = await textPicture(lines, { widthPt: 170, heightPt: 560, size: 9 });
    expect(linesRunVertically(receipt)).toBe(false);
    expect(linesRunVertically(await turn(receipt, 90))).toBe(true);
    expect(linesRunVertically(await turn(receipt, 270))).toBe(true);
  });

  it('find ruling lines as long thin runs of ink, not the strokes of letters', async () => {
    const page = await textPicture(['Above the table'], { ruledTable: [['a', 'b'], ['c', 'd']] });
    const segments = rulingSegments(page, 118, 6);
    const horizontal = segments.filter((s) => s.y0 === s.y1);
    const vertical = segments.filter((s) => s.x0 === s.x1);
    expect(horizontal).toHaveLength(3);
    expect(vertical).toHaveLength(3);
    const words = rulingSegments(await textPicture(['Only words here, no lines at all']), 118, 6);
    expect(words).toEqual([]);
  });

  it('find a thin ruling drawn between two rows (or columns) of pixels, half its ink in each', async () => {
    // A page with some text (the threshold is Otsu's), and a frame of lines 200 pixels long whose
    // ink is split between two neighbouring pixel lines, neither of them dark enough alone.
    const page = await textPicture(['Some words above a faint frame']);
    const { width, data } = page;
    const paint = (x: number, y: number, grey: number) => (data[y * width + x] = grey);
    for (let i = 0; i < 200; i++) {
      for (const [y, grey] of [[300, 190], [301, 175], [500, 185], [501, 180]] as const) paint(100 + i, y, grey);
      for (const [x, grey] of [[100, 180], [101, 185], [300, 175], [301, 190]] as const) paint(x, 300 + i, grey);
    }
    const segments = rulingSegments(page, 118, 6);
    const at = (axis: 'h' | 'v') => segments.filter((s) => (axis === 'h' ? s.y0 === s.y1 : s.x0 === s.x1)).map((s) => (axis === 'h' ? s.y0 : s.x0)).sort((a, b) => a - b);
    expect(at('h')).toEqual([300.5, 500.5]);
    expect(at('v')).toEqual([100.5, 300.5]);
  });

  it('find a thin column rule split between two pixel columns where it crosses a shaded band taller than a ruling is long', async () => {
    // A header band shaded light grey, 150 pixels tall and 400 wide (taller than the 118 pixels a
    // ruling must run), crossed by a column rule whose ink is split between two pixel columns.
    // Each band pixel is a little dark, so two of them side by side hold as much ink as the
    // rule's pair: counted as ink, the band would join the rule into one run too broad to be one.
    const page = await textPicture(['Some words above a shaded header band']);
    const { width, data } = page;
    for (let y = 300; y < 450; y++) for (let x = 100; x < 500; x++) data[y * width + x] = 185;
    for (let y = 250; y < 650; y++) {
      data[y * width + 300] = 165;
      data[y * width + 301] = 170;
    }
    // A row's rule, three pixels thick, crosses it 45 pixels above its foot: the rule's ink beside
    // the pair is ink, not shade, and the stretch below stays part of the line.
    for (let y = 602; y < 605; y++) for (let x = 100; x < 500; x++) data[y * width + x] = 60;
    const vertical = rulingSegments(page, 118, 6).filter((s) => s.x0 === s.x1);
    expect(vertical).toHaveLength(1);
    expect(vertical[0].x0).toBe(300.5);
    expect(vertical[0].y0).toBeLessThanOrEqual(255);
    expect(vertical[0].y1).toBeGreaterThanOrEqual(645);
  });

  it('find a rule whole where it is dark in one pixel line at its ends and faint, its ink shared by two, in between', async () => {
    // A column rule 400 pixels long: dark in one pixel column over its first 60 and its last 240,
    // and over the 100 between (show-through behind it, or a paler stretch) its ink split between
    // two pixel columns, neither dark enough alone. Found only in pieces, it would leave the cells
    // beside its faint stretch open to their neighbours.
    const page = await textPicture(['Some words above a rule, faint in its middle']);
    const { width, data } = page;
    for (let i = 0; i < 400; i++) {
      const faint = i >= 60 && i < 160;
      data[(300 + i) * width + 200] = faint ? 175 : 90;
      data[(300 + i) * width + 201] = faint ? 170 : 240;
    }
    const vertical = rulingSegments(page, 118, 6).filter((s) => s.x0 === s.x1 && Math.abs(s.x0 - 200.5) <= 1);
    const covered = (y: number) => vertical.some((s) => s.y0 <= y && s.y1 >= y);
    expect([310, 380, 400, 420, 450, 690].every(covered)).toBe(true);
  });

  it('find a long rule of a page left leaning under the straightening threshold, which steps down pixel rows along its length', async () => {
    // A rule 2 pixels thick and 1,600 long, leaning 0.25 degrees (read-scan.ts straightens 0.3 and
    // more): it steps down 7 pixel rows from end to end, more than a ruling's thickness.
    const page = await textPicture(['Some words above a long rule'], { widthPt: 480 });
    const { width, height, data } = page;
    expect(width).toBeGreaterThan(1700);
    const drop = Math.tan((0.25 * Math.PI) / 180);
    for (let i = 0; i < 1600; i++) for (const t of [0, 1]) data[Math.round(height - 80 + i * drop + t) * width + 50 + i] = 60;
    const horizontal = rulingSegments(page, 118, 6).filter((s) => s.y0 === s.y1);
    expect(horizontal).toHaveLength(1);
    expect(horizontal[0].x1 - horizontal[0].x0).toBeGreaterThan(1500);
  });

  it('see the ink of a two-level scan (black 0 on white 255) as of a grey one', async () => {
    const grey = await textPicture(['A scan in black and white only'], { ruledTable: [['a', 'b'], ['c', 'd']] });
    const twoLevel = { ...grey, data: grey.data.map((v) => (v < 128 ? 0 : 255)) };
    expect(otsu(twoLevel)).toBe(1);
    expect(rulingSegments(twoLevel, 118, 6).length).toBe(rulingSegments(grey, 118, 6).length);
    expect(Math.abs(skewAngle(await turn(twoLevel, 2)) - 2)).toBeLessThanOrEqual(0.5);
  });
});
