// Rows and columns of tables read from PDFs drawn the way reports set them (issue 23, scope 4):
// the mechanisms that decide a table's rows and columns, each checked on tables made here rather
// than on one corpus file.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/pipeline/formats/pdf.js';
import { analyzeDocument } from '../../src/pipeline/analysis/analyze-page.js';
import { NO_GRAPHICS, type Segment, type Word } from '../../src/pipeline/page-model.js';
import { findTables, tableRows } from '../../src/pipeline/analysis/tables/index.js';
import { pageRulings } from '../../src/pipeline/analysis/tables/ruled.js';
import { pageText } from '../../src/pipeline/outputs/text.js';
import { lineWidth, lineWords, proportionalWidth, word, type WordOptions } from '../helpers/words.js';
import { drawnTablePdf, placedTextPdf, type DrawnTable, type Piece } from '../helpers/table-pdfs.js';

async function tablesOf(table: DrawnTable): Promise<string[][][]> {
  const [page] = analyzeDocument(await readPdf(await drawnTablePdf(table)));
  return page.tables.map(tableRows);
}

const budget: Pick<DrawnTable, 'columns' | 'header' | 'rows'> = {
  columns: [{ width: 130 }, { width: 70, align: 'right' }, { width: 70, align: 'right' }, { width: 70, align: 'right' }],
  header: ['Programme', 'Budget 2023', 'Budget 2024', 'Change'],
  rows: [
    ['Roads and bridges', '1,204.5', '1,310.0', '8.8%'],
    ['Technical assistance to new Member States', '87.0', '92.3', '6.1%'],
    ['Water supply', '402.1', '398.7', '-0.8%'],
    ['Research, innovation and digital infrastructure', '655.9', '701.2', '6.9%'],
    ['Ports', '98.4', '101.0', '2.6%'],
    ['Total', '2,447.9', '2,603.2', '6.3%'],
  ],
};

/** One line of a table of a label column from x 102 and figures set flush right at x 290, 390... */
function figuresLine(texts: string[], y: number): Word[] {
  return texts.flatMap((text, c) => (text ? lineWords(text, c === 0 ? 102 : 290 + (c - 1) * 100 - text.length * 5, y) : []));
}

/**
 * One line of a table whose column borders stand at `xs`: the label flush left in the first
 * column, the others flush right in theirs, each 2 in from its border; an empty text leaves its
 * cell empty.
 */
function cellsLine(xs: number[], texts: string[], y: number, options: WordOptions = {}): Word[] {
  return texts.flatMap((text, c) => (text ? lineWords(text, c === 0 ? xs[0] + 2 : xs[c + 1] - 2 - text.length * 5, y, options) : []));
}

/** The rows of every table found among the words on a US Letter page with this drawing. */
function foundRows(words: Word[], graphics = NO_GRAPHICS): string[][][] {
  return findTables({ words, width: 612, height: 792 }, graphics, new Set(), false).tables.map(tableRows);
}

describe('drawn tables whose body rows are not ruled', () => {
  it('read one row per label, a label wrapped onto a second line staying in its row', async () => {
    // Only the frame, the column borders and the rule under the header are drawn: the rulings
    // alone make the whole body one row. Two labels wrap in their column.
    for (const rules of ['frame', 'grid'] as const) {
      const [rows] = await tablesOf({ ...budget, rules });
      expect(rows, rules).toEqual([budget.header, ...budget.rows]);
    }
  });

  it('read a header shaded inside its borders in the columns of the rows below it', async () => {
    // Each header cell is a grey box 5 points inside the cell's borders: the strips between the
    // boxes and the borders are no columns, so the header and the body share their columns.
    const [rows] = await tablesOf({ ...budget, rules: 'grid', shadedHeader: 5 });
    expect(rows).toEqual([budget.header, ...budget.rows]);
  });

  it('take in the rows below a drawn header, a label and a date wrapped onto a second line staying in their row', () => {
    // Only the header is boxed. Below it rows stand 16 apart and the lines of a cell 11: "North
    // region" and "2028-01-16" are each one cell of the first row.
    const h = (y: number) => ({ x0: 100, y0: y, x1: 400, y1: y });
    const v = (x: number) => ({ x0: x, y0: 100, x1: x, y1: 120 });
    const segments = [h(100), h(120), v(100), v(200), v(300), v(400)];
    const at = (texts: string[], y: number) => texts.flatMap((text, c) => (text ? lineWords(text, 105 + c * 100, y) : []));
    const words = [...at(['Label', 'Date', 'Amount'], 105), ...at(['North', '2028-01-', '120'], 126), ...at(['region', '16', ''], 137), ...at(['South', '2029-02-03', '90'], 153), ...at(['East', '2029-03-04', '30'], 169)];
    const { tables } = findTables({ words, width: 612, height: 792 }, { ...NO_GRAPHICS, segments }, new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Label', 'Date', 'Amount'],
        ['North region', '2028-01-16', '120'],
        ['South', '2029-02-03', '90'],
        ['East', '2029-03-04', '30'],
      ],
    ]);
  });

  it('keep a drawn column narrower than the shortest cell side when it holds text', () => {
    // A 7-point column of one-character marks between drawn borders stays a column.
    const h = (y: number) => ({ x0: 100, y0: y, x1: 300, y1: y });
    const v = (x: number) => ({ x0: x, y0: 100, x1: x, y1: 160 });
    const segments = [h(100), h(120), h(140), h(160), v(100), v(107), v(200), v(300)];
    const words = [word('#', 102, 105, { size: 6 }), word('Item', 110, 105), word('Qty', 205, 105)];
    for (const [r, [mark, item, qty]] of [['x', 'Apples', '3'], ['y', 'Pears', '5']].entries()) {
      words.push(word(mark, 102, 125 + r * 20, { size: 6 }), word(item, 110, 125 + r * 20), word(qty, 205, 125 + r * 20));
    }
    const { tables } = findTables({ words, width: 612, height: 792 }, { ...NO_GRAPHICS, segments }, new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['#', 'Item', 'Qty'],
        ['x', 'Apples', '3'],
        ['y', 'Pears', '5'],
      ],
    ]);
  });

  it('draw the border between columns found from the text through the clearest part of their gap', () => {
    // A box with a rule under each row and no column borders. The gap before the figures is
    // crossed by one label on its left and by the header on its right; its middle would cut the
    // first line of a wrapped label (whose figures stand between its two lines), its clear part
    // does not.
    const labels = ['Cases', 'Appeals', 'Pleas', 'Trials', 'Fines', 'Prison', 'Probation', 'Dismissed', 'Other'];
    const words = [word('District', 105, 104), ...lineWords('FY 2007', 231, 104), ...lineWords('FY 2008', 320, 104)];
    const segments: Segment[] = [];
    const rule = (y: number) => segments.push({ x0: 100, y0: y, x1: 400, y1: y });
    rule(100);
    rule(118);
    words.push(...lineWords('Investigative matters', 110, 121), word('426', 241, 128), word('365', 330, 128), word('received', 110, 135));
    rule(148);
    words.push(...lineWords('Defendants charged', 122, 152), word('290', 241, 152), word('259', 330, 152));
    rule(166);
    labels.forEach((label, r) => {
      const y = 166 + r * 18;
      words.push(word(label, 105, y + 4), word(String(100 + r), 241, y + 4), word(String(200 + r), 330, y + 4));
      rule(y + 18);
    });
    segments.push({ x0: 100, y0: 100, x1: 100, y1: 328 }, { x0: 400, y0: 100, x1: 400, y1: 328 });
    const [table] = findTables({ words, width: 612, height: 792 }, { ...NO_GRAPHICS, segments }, new Set(), false).tables;
    expect(tableRows(table).slice(0, 3)).toEqual([
      ['District', 'FY 2007', 'FY 2008'],
      ['Investigative matters received', '426', '365'],
      ['Defendants charged', '290', '259'],
    ]);
  });

  it('keep wrapped text in a drawn cell as one cell, in every column that wraps', async () => {
    // Every cell drawn; both the type and its description wrap over several lines.
    const rows = [
      ['Visual analog scale', 'A line of fixed length with words that anchor the scale at the extreme ends and no words describing intermediate positions.'],
      ['Anchored or categorized scale', 'A scale with one or more intermediate marks positioned along the line with reference terms assigned to each mark.'],
      ['Checklist', 'A simple choice between a limited set of options.'],
    ];
    const [read] = await tablesOf({ columns: [{ width: 80 }, { width: 300 }], header: ['Type', 'Description'], rows, rules: 'grid' });
    expect(read).toEqual([['Type', 'Description'], ...rows]);
  });
  it('are not two columns of paragraphs in a frame', async () => {
    // A page of two columns of questions and answers in a box with a line between the columns.
    const left = [
      '22. What do the staff lawyers of the institutional provider do? (Please select all that apply)',
      '• They work in parallel to private practitioners who take assignments to represent people eligible for legal aid',
      '• They coordinate appointments of private practitioners to legal aid cases',
      '• They supervise, coach or mentor private practitioners who take legal aid cases',
    ].join('\n');
    const right = [
      '26. If your country allows legal aid services through student law clinics, are there national guidelines on how students are supervised?',
      '• Yes, there are specific guidelines for non-lawyers providing legal aid services',
      '• Yes, there are specific guidelines on faculty and student ratios',
      '• No, it is up to the discretion of each university',
    ].join('\n');
    const tables = await tablesOf({ columns: [{ width: 230 }, { width: 230 }], header: ['Part A', 'Part B'], rows: [[left, right]], rules: 'grid', fontSize: 10 });
    expect(tables).toEqual([
      [
        ['Part A', 'Part B'],
        [left.replace(/\n/g, ' '), right.replace(/\n/g, ' ')],
      ],
    ]);
  });
});

describe('tables that rule their rows cell by cell', () => {
  // A browser or word processor draws each cell's border apart: a rule across the table is a row
  // of pieces meeting end to end where one cell ends and the next begins.
  const cellRules = (y: number, xs: number[]): Segment[] => xs.slice(1).map((x, i) => ({ x0: xs[i], y0: y, x1: x, y1: y }));

  it('read their columns where the pieces of the rules meet, though the text leaves no wide gap', () => {
    // Two rows (a header and one body row, as the last part of a table continued over a page),
    // columns set closer than a font size apart; only the rules above, between and below them.
    const xs = [100, 170, 230, 300, 350, 420];
    const header = ['Schedule', 'Growth', 'Discount', 'Margin', 'Total'];
    const body = ['Tara', '71.2%', '04.11.29', 'figure', '¥ 79,381'];
    const words = [...header.map((t, c) => word(t, xs[c] + 2, 104)), ...body.map((t, c) => word(t, xs[c + 1] - 2 - t.length * 5, 124))];
    words[5] = word('Tara', 102, 124);
    const segments = [...cellRules(100, xs), ...cellRules(118, xs), ...cellRules(138, xs)];
    const { tables } = findTables({ words, width: 612, height: 792 }, { ...NO_GRAPHICS, segments }, new Set(), false);
    expect(tables.map(tableRows)).toEqual([[header, body]]);
  });

  it('read two grids drawn one straight under the other as two tables', () => {
    // A word processor sets the second table under the first with no paragraph between: the
    // first one's bottom rule and the second one's top rule lie 0.8 apart and their left edges
    // run on as one line, but no inner column border runs through from one to the other.
    const upperXs = [100, 190, 260, 330, 400];
    const lowerXs = [100, 210, 300];
    const upper = [['Pattern', 'Charge', 'Share', 'Total'], ['Passive', 'trial', '54.8%', '731'], ['Tara', 'dose', '66.0%', '287']];
    const lower = [['Analysis', 'Balance'], ['Primary', '89,011.90'], ['Rosa', '92,564.95'], ['Total', '181,576.85']];
    const words = [...upper.flatMap((row, r) => row.map((t, c) => word(t, upperXs[c] + 3, 103 + r * 20))), ...lower.flatMap((row, r) => row.map((t, c) => word(t, lowerXs[c] + 3, 164 + r * 20)))];
    const down = (xs: number[], y0: number, y1: number): Segment[] => xs.slice(1, -1).map((x) => ({ x0: x, y0, x1: x, y1 }));
    const segments = [
      ...[100, 120, 140, 160].map((y) => ({ x0: 100, y0: y, x1: 400, y1: y })),
      ...[160.8, 180.8, 200.8, 220.8, 240.8].map((y) => ({ x0: 100, y0: y, x1: 300, y1: y })),
      { x0: 100, y0: 100, x1: 100, y1: 240.8 },
      ...down(upperXs, 100, 160),
      { x0: 400, y0: 100, x1: 400, y1: 160 },
      ...down(lowerXs, 160.8, 240.8),
      { x0: 300, y0: 160.8, x1: 300, y1: 240.8 },
    ];
    const { tables } = findTables({ words, width: 612, height: 792 }, { ...NO_GRAPHICS, segments }, new Set(), false);
    expect(tables.map(tableRows)).toEqual([upper, lower]);
  });

  it('but not in a scan, whose rules read from the pixels break where noise breaks them', () => {
    // A ruled grid of three columns read from a picture (300 dpi), two of its rules broken at the
    // same place inside the middle column (x 900): no fourth column there.
    const xs = [300, 700, 1100, 1500];
    const rows = [['Item', 'Amount', 'Share'], ['Roads', '1,204', '8.8%'], ['Water', '402', '0.8%']];
    // The amounts set right in their cells, past where the two rules break.
    const words = rows.flatMap((row, r) => row.map((t, c) => word(t, c === 1 ? xs[2] - 20 - t.length * 15 : xs[c] + 20, 315 + r * 60, { size: 30 })));
    const ys = [300, 360, 420, 480];
    const across = ys.flatMap((y, i): Segment[] => (i === 1 || i === 2 ? [{ x0: 300, y0: y, x1: 880, y1: y }, { x0: 300, y0: y, x1: 1500, y1: y }, { x0: 886, y0: y, x1: 1500, y1: y }] : [{ x0: 300, y0: y, x1: 1500, y1: y }]));
    const down = xs.map((x): Segment => ({ x0: x, y0: 300, x1: x, y1: 480 }));
    const graphics = { ...NO_GRAPHICS, segments: [...across, ...down] };
    const scan = findTables({ words, width: 2480, height: 3508 }, { ...graphics, rulingsFromPicture: true }, new Set(), false, 300 / 72);
    expect(scan.tables.map(tableRows)).toEqual([rows]);
    // The same pieces drawn by a file are cells drawn apart: a border where they meet.
    const drawn = findTables({ words, width: 2480, height: 3508 }, graphics, new Set(), false, 300 / 72);
    expect(drawn.tables[0].columnCount).toBe(4);
  });

  it('where a scan shades rows of one grey that meet, have a border where they meet', () => {
    // Two shaded rows found in a picture (300 dpi), parted by a line of paper a pixel thin, of
    // the same grey: where they meet is a row border. Drawn by a file, the same two rectangles
    // are one background painted in two pieces.
    const band = (y0: number, y1: number) => ({ box: { x0: 300, y0, x1: 1500, y1 }, filled: true, stroked: false, fill: 0xe0e0e0 });
    const graphics = { ...NO_GRAPHICS, rects: [band(300, 360), band(360, 420)] };
    const at = (rulings: { horizontal: Segment[] }) => rulings.horizontal.map((s) => s.y0).sort((a, b) => a - b);
    expect(at(pageRulings({ ...graphics, rulingsFromPicture: true }, 300 / 72))).toEqual([300, 360, 420]);
    expect(at(pageRulings(graphics, 300 / 72))).toEqual([300, 420]);
  });

  it('take in the rows above and below the shading: an unshaded header, first and last row', () => {
    // Zebra stripes drawn cell by cell on the second and fourth body rows only; the caption
    // above the header is one piece of text and stays out.
    const xs = [100, 180, 240, 300, 350];
    const rows = [
      ['Region', 'Sales', 'Staff', 'Stores'],
      ['North', '1,204', '31', '7'],
      ['South', '980', '25', '6'],
      ['East', '1,010', '28', '5'],
      ['West', '870', '19', '4'],
      ['Total', '4,064', '103', '22'],
    ];
    const words = lineWords('Table 4: Sales by region', 100, 82);
    rows.forEach((row, r) => row.forEach((text, c) => words.push(word(text, c === 0 ? xs[0] + 2 : xs[c + 1] - 2 - text.length * 5, 100 + r * 16))));
    const stripe = (r: number) => xs.slice(1).map((x, c) => ({ box: { x0: xs[c], y0: 97 + r * 16, x1: x, y1: 113 + r * 16 }, filled: true, stroked: false, fill: 0xeeeeee }));
    const rects = [...stripe(2), ...stripe(4)];
    const { tables } = findTables({ words, width: 612, height: 792 }, { ...NO_GRAPHICS, rects }, new Set(), false);
    expect(tables.map(tableRows)).toEqual([rows]);
  });

  it('read zebra stripes whose cell backgrounds stand a little apart as one table, the stripes joined by their columns', () => {
    // Every other row shaded cell by cell, each background 4 short of the next (TeX's colortbl in
    // a table stretched to the line leaves such gutters), a rule between every two rows 2 clear
    // of the shading (booktabs keeps space about its rules), and a wrapped label in a shaded row.
    // The gutters are the column borders, as touching pieces' joints are.
    const xs = [100, 180, 240, 300, 350];
    const rows = [
      ['Region', 'Sales', 'Staff', 'Stores'],
      ['North', '1,204', '31', '7'],
      ['South and south-west', '980', '25', '6'],
      ['East', '1,010', '28', '5'],
      ['West', '870', '19', '4'],
      ['Central', '1,450', '40', '9'],
    ];
    const tops = [97];
    for (let r = 1; r < rows.length; r++) tops.push(tops[r - 1] + (r === 3 ? 30 : 18));
    const words: Word[] = [];
    rows.forEach((row, r) =>
      row.forEach((text, c) => {
        // The wrapped label: "South and" over "south-west", the figures level with its first line.
        if (r === 2 && c === 0) words.push(...lineWords('South and', xs[0] + 4, tops[r] + 3), ...lineWords('south-west', xs[0] + 4, tops[r] + 15));
        else words.push(word(text, c === 0 ? xs[0] + 4 : xs[c + 1] - 4 - text.length * 5, tops[r] + 3));
      }),
    );
    const stripe = (r: number) => xs.slice(1).map((x, c) => ({ box: { x0: xs[c] + (c === 0 ? 0 : 2), y0: tops[r], x1: x - (c === xs.length - 2 ? 0 : 2), y1: (tops[r + 1] ?? tops[r] + 18) - 4 }, filled: true, stroked: false, fill: 0xe6e6e6 }));
    const rects = [2, 4].flatMap(stripe);
    const segments = tops.slice(1).map((y) => ({ x0: 104, y0: y - 2, x1: 350, y1: y - 2 }));
    const { tables } = findTables({ words, width: 612, height: 792 }, { ...NO_GRAPHICS, rects, segments }, new Set(), false);
    expect(tables.map(tableRows)).toEqual([rows]);
  });

  it('take in above and below the shading the first lines of cells set at the foot of their rows', () => {
    // Zebra stripes on the second and fourth body rows only. The first and the last row each hold
    // a date broken over two lines, set at the foot of the row: "22 February" stands alone 11
    // above the row's other cells, and rows stand 16 apart.
    const xs = [100, 180, 240, 320, 370];
    const at = (texts: string[], y: number) => cellsLine(xs, texts, y);
    const words = [
      ...at(['Region', 'Sales', 'Opened', 'Stores'], 100),
      ...at(['', '', '22 February'], 116),
      ...at(['North', '1,204', '2021', '7'], 127),
      ...at(['South', '980', '2021-03-04', '6'], 143),
      ...at(['East', '1,010', '2022-05-06', '5'], 159),
      ...at(['West', '870', '2023-07-08', '4'], 175),
      ...at(['', '', '9 October'], 191),
      ...at(['Total', '4,064', '2024', '22'], 202),
    ];
    const stripe = (y: number) => xs.slice(1).map((x, c) => ({ box: { x0: xs[c], y0: y - 3, x1: x, y1: y + 13 }, filled: true, stroked: false, fill: 0xeeeeee }));
    const rects = [...stripe(143), ...stripe(175)];
    expect(foundRows(words, { ...NO_GRAPHICS, rects })).toEqual([
      [
        ['Region', 'Sales', 'Opened', 'Stores'],
        ['North', '1,204', '22 February 2021', '7'],
        ['South', '980', '2021-03-04', '6'],
        ['East', '1,010', '2022-05-06', '5'],
        ['West', '870', '2023-07-08', '4'],
        ['Total', '4,064', '9 October 2024', '22'],
      ],
    ]);
  });

  it('take in, under a shaded header, rows set at the foot of their rows between a caption and a paragraph', () => {
    // Only the header is shaded. Labels wrap over two lines, the row's figures level with the
    // last (12 apart; rows 15 apart), and the figures fill their columns but for four points:
    // from their alignment alone the columns run together. The caption above (22 over the
    // header) and the paragraph right under the table (13.5 under its last row) run over the
    // column borders: they are no lines of the table, and its pitches are told without them.
    const xs = [100, 160, 209, 258, 307];
    const at = (texts: string[], y: number) => cellsLine(xs, texts, y);
    const words = [
      ...lineWords('Table 6: Significant network of the regions', 100, 78),
      ...at(['Region', 'Signal', 'Member', 'Budget'], 100),
      ...at(['Global'], 115),
      ...at(['project', '73,576.32', '36,933.30', '98,945.56'], 127),
      ...at(['South', '36,928.20', '56,353.96', '15,044.18'], 142),
      ...at(['Average'], 157),
      ...at(['payment', '33,106.59', '98,945.56', '19,523.84'], 169),
      ...at(['Total', '43,611.11', '92,232.82', '33,513.58'], 184),
      ...lineWords('Other growth in clinical department products was', 100, 197.5),
    ];
    const rects = xs.slice(1).map((x, c) => ({ box: { x0: xs[c], y0: 97, x1: x, y1: 113 }, filled: true, stroked: false, fill: 0xdddddd }));
    expect(foundRows(words, { ...NO_GRAPHICS, rects })).toEqual([
      [
        ['Region', 'Signal', 'Member', 'Budget'],
        ['Global project', '73,576.32', '36,933.30', '98,945.56'],
        ['South', '36,928.20', '56,353.96', '15,044.18'],
        ['Average payment', '33,106.59', '98,945.56', '19,523.84'],
        ['Total', '43,611.11', '92,232.82', '33,513.58'],
      ],
    ]);
  });

  it('take in no line above a shaded table whose first row is its header in bold', () => {
    // A table of plain figures stands right above a table shaded cell by cell, its labels and
    // figures set as the shaded table's are: they are no rows of the shaded one, whose header
    // in bold comes first.
    const xs = [100, 180, 240, 320];
    const at = (texts: string[], y: number, bold = false) => cellsLine(xs, texts, y, { bold });
    const upper = [['Grace Moreau', '881', '2,415'], ['Ben Becker', '61,924', '380'], ['Anna Weber', '4,178', '18,094']];
    const shaded = [['Patient', 'Policy', 'Campaign'], ['Primary edge', '12.0%', '496'], ['Large reading', '2.7%', '54,541'], ['Passive goal', '36.6%', '183']];
    const words = [...upper.flatMap((row, r) => at(row, 150 + r * 16)), ...shaded.flatMap((row, r) => at(row, 200 + r * 16, r === 0))];
    const rects = shaded.flatMap((_, r) => xs.slice(1).map((x, c) => ({ box: { x0: xs[c], y0: 197 + r * 16, x1: x, y1: 212 + r * 16 }, filled: true, stroked: false, fill: r === 0 ? 0xcccccc : 0xeeeeee })));
    expect(foundRows(words, { ...NO_GRAPHICS, rects }).find((rows) => rows.some((row) => row[0] === 'Patient'))).toEqual(shaded);
  });

  it('take in, under a shaded header, rows whose labels wrap onto a second line at the rows\' own pitch', () => {
    // The labels' column is 40 wide: "Karin Olsen" does not fit on one line. Every line stands
    // 13 below the one before, so the pitches do not tell a label's second line from a row.
    const xs = [100, 140, 200, 260];
    const rows = [
      ['Budget', 'Chapter', 'Forecast'],
      ['Karin', '10.0%', '751'],
      ['Olsen'],
      ['Jonas', '33.9%', '595'],
      ['Larsen'],
      ['Small', '51.0%', '979'],
      ['decline'],
    ];
    const words: Word[] = [];
    rows.forEach((row, r) => row.forEach((text, c) => words.push(word(text, c === 0 ? xs[0] + 2 : xs[c + 1] - 2 - text.length * 5, 100 + r * 13))));
    const rects = xs.slice(1).map((x, c) => ({ box: { x0: xs[c], y0: 97, x1: x, y1: 112 }, filled: true, stroked: false, fill: 0xdddddd }));
    const { tables } = findTables({ words, width: 612, height: 792 }, { ...NO_GRAPHICS, rects }, new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Budget', 'Chapter', 'Forecast'],
        ['Karin Olsen', '10.0%', '751'],
        ['Jonas Larsen', '33.9%', '595'],
        ['Small decline', '51.0%', '979'],
      ],
    ]);
  });

  // Booktabs rules: above the table, under the header and under the table. The stub's header
  // "Programme" spans both header lines, set at their foot, and the rule under the header (at y
  // 128) stops at its cell: the stub column is one drawn cell from the top rule to the bottom one.
  // Each cell draws its own piece of a rule, so the pieces meet at the column borders. The body's
  // lines start at `first`, `pitch` apart.
  const stubBody = [['Roads', '1,204.5', '1,310.0'], ['Water supply', '402.1', '398.7'], ['Ports', '98.4', '101.0'], ['Total', '1,705.0', '1,809.7']];
  const stubHeaderTable = (first: number, pitch: number) => {
    const h = (from: number, y: number) => [100, 200, 300].filter((x) => x >= from).map((x) => ({ x0: x, y0: y, x1: x + 100, y1: y }));
    const segments = [...h(100, 98), ...h(200, 128), ...h(100, first + 4 * pitch)];
    const words = [
      ...lineWords('Budget', 285, 101),
      ...lineWords('Programme', 102, 114),
      ...lineWords('2023', 270, 114),
      ...lineWords('2024', 370, 114),
      ...stubBody.flatMap((row, r) => figuresLine(row, first + r * pitch)),
    ];
    return foundRows(words, { ...NO_GRAPHICS, segments })[0].slice(-4);
  };

  it('read the rows under a header rule that stops at a stub header set at the foot of the header', () => {
    expect(stubHeaderTable(133, 16)).toEqual(stubBody);
  });

  it('read those rows where the first line\'s loose boxes graze the header rule', () => {
    // The body lines stand 12 apart in boxes a browser sets from the top of the row: the first
    // one's boxes start 0.2 above the rule under the header, which they only graze.
    expect(stubHeaderTable(127.8, 12)).toEqual(stubBody);
  });

  it('keep a label wrapped above figures set level with its last line in one row', () => {
    // Cells set at the foot of their row: "Technical" stands alone 11 above "assistance" and the
    // figures; rows stand 16 apart. Only the header's rule is drawn.
    const segments = [{ x0: 100, y0: 112, x1: 400, y1: 112 }];
    const at = figuresLine;
    const words = [
      ...at(['Programme', '2023', '2024'], 100),
      ...at(['Roads', '1,204.5', '1,310.0'], 116),
      ...at(['Technical'], 132),
      ...at(['assistance', '87.0', '92.3'], 143),
      ...at(['Water', '402.1', '398.7'], 159),
      ...at(['Research and'], 175),
      ...at(['innovation', '655.9', '701.2'], 186),
    ];
    expect(foundRows(words, { ...NO_GRAPHICS, segments })).toEqual([
      [
        ['Programme', '2023', '2024'],
        ['Roads', '1,204.5', '1,310.0'],
        ['Technical assistance', '87.0', '92.3'],
        ['Water', '402.1', '398.7'],
        ['Research and innovation', '655.9', '701.2'],
      ],
    ]);
  });

  it('keep a header and labels wrapped at the foot of their rows in those rows where every line stands at one pitch', () => {
    // As a word processor sets a table without padding: every line 12 below the one before, so
    // the pitches tell nothing. "Significant" stands over "section (%)", the foot of its header
    // cell; "Follows did" over "network", the label of the row whose figures stand beside it.
    const at = (texts: string[], y: number) => texts.flatMap((text, c) => (text ? lineWords(text, c === 1 ? 250 - text.length * 5 : c === 0 ? 102 : 290, y) : []));
    const words = [
      ...at(['', '', 'Significant'], 100),
      ...at(['Warehouse', 'Entry', 'section (%)'], 112),
      ...at(['Old sensor', '947', '4.5%'], 124),
      ...at(['Follows did'], 136),
      ...at(['network', '537', '91.8%'], 148),
      ...at(['Asset design', '87,464.98', '17.6%'], 160),
      ...at(['Standard', '454', '15.1%'], 172),
    ];
    expect(foundRows(words)).toEqual([
      [
        ['Warehouse', 'Entry', 'Significant section (%)'],
        ['Old sensor', '947', '4.5%'],
        ['Follows did network', '537', '91.8%'],
        ['Asset design', '87,464.98', '17.6%'],
        ['Standard', '454', '15.1%'],
      ],
    ]);
  });

  it('keep figures set in the middle of a row beside a label wrapped over two lines in that row', () => {
    // The figures of the second and fourth rows stand half a line below the label's first line,
    // level with parts of both of its lines and with neither alone. Nothing is drawn.
    const at = figuresLine;
    const words = [
      ...at(['Programme', '2023', '2024'], 100),
      ...at(['Roads', '1,204.5', '1,310.0'], 116),
      ...at(['Technical'], 132),
      ...at(['', '87.0', '92.3'], 138),
      ...at(['assistance'], 144),
      ...at(['Water', '402.1', '398.7'], 160),
      ...at(['Research and'], 176),
      ...at(['', '655.9', '701.2'], 182),
      ...at(['innovation'], 188),
      ...at(['Ports', '98.4', '101.0'], 204),
    ];
    expect(foundRows(words)).toEqual([
      [
        ['Programme', '2023', '2024'],
        ['Roads', '1,204.5', '1,310.0'],
        ['Technical assistance', '87.0', '92.3'],
        ['Water', '402.1', '398.7'],
        ['Research and innovation', '655.9', '701.2'],
        ['Ports', '98.4', '101.0'],
      ],
    ]);
  });

  it('keep two such tables apart when one stands under the other with text between them', () => {
    // Both tables break their rules at x = 200, and the caption between them leaves x = 200 clear;
    // the two tables' rules differ in width and joints, so no border joins them across it.
    const words = [word('Region', 102, 104), word('Sales', 202, 104), word('North', 102, 124), word('12', 202, 124), word('South', 102, 142), word('9', 202, 142)];
    words.push(...lineWords('Table 2: Costs', 102, 170));
    words.push(word('Quarter', 102, 204), word('Cost', 202, 204), word('Staff', 262, 204));
    words.push(word('Q1', 102, 224), word('40', 202, 224), word('3', 262, 224), word('Q2', 102, 242), word('55', 202, 242), word('4', 262, 242));
    const segments = [...cellRules(100, [100, 200, 300]), ...cellRules(118, [100, 200, 300]), ...cellRules(158, [100, 200, 300])];
    segments.push(...cellRules(200, [100, 200, 260, 330]), ...cellRules(218, [100, 200, 260, 330]), ...cellRules(258, [100, 200, 260, 330]));
    const { tables } = findTables({ words, width: 612, height: 792 }, { ...NO_GRAPHICS, segments }, new Set(), false);
    expect(tables.map(tableRows).sort((a, b) => b[0][0].localeCompare(a[0][0]))).toEqual([
      [
        ['Region', 'Sales'],
        ['North', '12'],
        ['South', '9'],
      ],
      [
        ['Quarter', 'Cost', 'Staff'],
        ['Q1', '40', '3'],
        ['Q2', '55', '4'],
      ],
    ]);
  });
});

describe('tables found from the alignment of their text', () => {
  it('part two lines a rule runs between: a header over a first row whose label the page before holds', () => {
    // A table carried over to a second page under its repeated header: its first row's group is
    // named on the page before, so the row starts with an empty cell, under a rule (a header
    // band's edge) that parts it from the header.
    const xs = [72, 200, 300, 400];
    const rows = [
      ['Quarter', 'Station', 'Deposit', 'Order'],
      ['', '4,307', '1,130', '(456)'],
      ['Elena Hansen', '3,964', '992', '483'],
      ['Ben Ito', '12', '5', '7'],
    ];
    const words = rows.flatMap((row, r) => row.flatMap((t, c) => (t ? [word(t, xs[c], 100 + r * 14)] : [])));
    const rule = { x0: 66, y0: 112, x1: 460, y1: 112 };
    const ruled = findTables({ words, width: 612, height: 792 }, { ...NO_GRAPHICS, segments: [rule] }, new Set(), false);
    expect(ruled.tables.map(tableRows)).toEqual([rows]);
  });

  it('keep the columns of a wide table whose largest figures are set closer than a font size', async () => {
    // 16 rows of 14 columns in Courier 8 pt, right-aligned in 50-point columns: six-figure
    // values leave 21 points between columns, but three rows of seven-figure values only 6.8
    // (less than a font size, more than half of one). Some cells are empty.
    const header = ['Age', ...Array.from({ length: 13 }, (_, c) => `G${c + 1}`)];
    const ages = ['0-4', '5-9', '10-14', '15-19', '20-24', '25-29', '30-34', '35-39', '40-44', '45-49', '50-54', '55-59', '60-64', '65-69', '70+'];
    const rows = ages.map((age, r) => [
      age,
      ...Array.from({ length: 13 }, (_, c) => {
        if ((r + c) % 7 === 3) return '';
        const value = r >= 5 && r <= 7 ? 1_000_000 + r * 123_457 + c * 9_871 : 10_000 + r * 3_517 + c * 811;
        return value.toLocaleString('en-US');
      }),
    ]);
    const columns = [{ width: 50 }, ...Array.from({ length: 13 }, () => ({ width: 50, align: 'right' as const }))];
    const tables = await tablesOf({ columns, header, rows, rules: 'booktabs', font: 'Courier', fontSize: 8, padding: 2, landscape: true });
    expect(tables).toHaveLength(1);
    expect(tables[0]).toEqual([header, ...rows]);
  });

  it('keep a header set flush right over its figures, wider than they are, to its own column', () => {
    // Headers wider than the figures set flush right under them, the first two 6 points apart
    // (less than a font size: one stretch of text across the column gap below them, which one
    // row in ten may cross as a spanning cell would): the second
    // starts inside that gap, left of its middle ("Amount" lies left of it), and ends where its
    // column's figures end.
    const header = ['Quarter', 'Operational schedule (%)', 'Amount paid out (£)', 'Agency (%)'];
    const rows = [
      ['Viktor Garcia', '12.7%', '16,627.75', '1,560'],
      ['Karin Weber', '23.8%', '60,592.37', '822'],
      ['National change', '68.2%', '47,545.65', '2,345'],
      ['Fixed survey', '49.1%', '418.00', '1,514'],
      ['Key process', '43.8%', '32,309.96', '2,084'],
      ['Special cost', '45.9%', '602.00', '1,814'],
      ['Ben Keller', '82.5%', '64,737.35', '3,042'],
      ['Nils Ivanova', '82.4%', '6,466.38', '4,244'],
      ['Previous review', '34.4%', '783.00', '4,584'],
      ['Grace Novak', '5.1%', '21,208.50', '3,059'],
      ['Net method', '60.1%', '40,425.65', '155'],
      ['Private schedule', '94.0%', '68,809.15', '227'],
    ];
    const heads = [lineWords(header[0], 72, 100)];
    for (const [c, x] of [[1, 170], [2, 0], [3, 430]] as const) heads.push(lineWords(header[c], x || heads[c - 1].at(-1)!.box.x1 + 6, 100));
    const ends = heads.map((words) => words.at(-1)!.box.x1);
    const body = rows.flatMap((texts, r) => [
      ...lineWords(texts[0], 72, 116 + r * 16),
      ...texts.slice(1).flatMap((text, c) => lineWords(text, ends[c + 1] - text.length * 5, 116 + r * 16)),
    ]);
    expect(foundRows([...heads.flat(), ...body])).toEqual([[header, ...rows]]);
  });

  it('keep one table whose long labels and long remarks stand on either side of a column of dates', () => {
    // Labels and remarks of six words or more are lines of prose by their length, with a clear
    // band between them: but the piece next to that band on its right is a date in every row, so
    // the band is no gutter between two page columns and the table is searched whole.
    const size = 8;
    const width = (text: string) => lineWidth(text, size);
    const header = ['Chapter', 'Partial error', 'Main table', 'Grant (%)', 'Policy'];
    const rows = [
      ['Clara Torres', '05.12.2018', 'transfer', '70.8%', '2,743'],
      ['Time reports who cost us vector', '10.04.2017', 'fee have service indicates schedule liability', '81.7%', '3,433'],
      ['Tara Novak', '2017-09-07', 'cost', '10.1%', '2,612'],
      ['Trend model when primary survey have', '2025-01-07', 'equity you survey also where than', '83.5%', '597'],
      ['Entry report never defines reading patient', '25 June 2018', 'query', '-39.9%', '2,132'],
      ['Financial graph', '2022-03-14', 'member goal process total fee now', '12.1%', '3,229'],
      ['Irene Jensen', '2020-04-19', 'reading', '52.7%', '1,525'],
    ];
    const line = (texts: string[], y: number) => [
      ...lineWords(texts[0], 40, y, { size }),
      ...lineWords(texts[1], 300 - width(texts[1]), y, { size }),
      ...lineWords(texts[2], 315, y, { size }),
      ...lineWords(texts[3], 540 - width(texts[3]), y, { size }),
      ...lineWords(texts[4], 590 - width(texts[4]), y, { size }),
    ];
    const words = [header, ...rows].flatMap((texts, r) => line(texts, 100 + r * 14));
    expect(foundRows(words)).toEqual([[header, ...rows]]);
  });

  it('span a header label centred over a group of columns, and keep one flush with its column to it', () => {
    // The upper header row names two groups of two columns each, its labels centred over them
    // (the columns' borders at the middles of their gaps), narrower than either column; a third
    // label over the last column is set flush right with its figures.
    const header = ['Chapter', 'Partial', 'Main', 'Grant', 'Policy', 'Amount'];
    const rows = [
      ['Clara Torres', '05.12.2018', '70.8%', '2,743', '41.5%', '1,200'],
      ['Karin Schmidt', '2015-10-16', '59.2%', '3,283', '12.0%', '815'],
      ['Tara Novak', '2017-09-07', '10.1%', '2,612', '8.8%', '12,408'],
      ['Lukas Becker', '2027-10-20', '92.9%', '737', '1.9%', '77'],
    ];
    // Right edges of the figure columns; the labels run from 40.
    const ends = [0, 200, 270, 340, 410, 480];
    const line = (texts: string[], y: number) => texts.flatMap((text, c) => (c === 0 ? lineWords(text, 40, y) : lineWords(text, ends[c] - lineWidth(text), y)));
    const body = [header, ...rows].flatMap((texts, r) => line(texts, 130 + r * 16));
    // Column borders at the middles of the gaps between the columns' text, as the finder sets them.
    const widest = (c: number) => Math.max(...[header, ...rows].map((texts) => lineWidth(texts[c])));
    const starts = [40, ...ends.slice(1).map((end, c) => end - widest(c + 1))];
    const rights = [40 + widest(0), ...ends.slice(1)];
    const border = (c: number) => (c === 0 ? starts[0] : c === 6 ? ends[5] : (rights[c - 1] + starts[c]) / 2);
    const centred = (text: string, first: number, last: number) => lineWords(text, (border(first) + border(last + 1)) / 2 - lineWidth(text) / 2, 110);
    const words = [...centred('2021', 1, 2), ...centred('Signal', 3, 4), ...lineWords('Total', ends[5] - lineWidth('Total'), 110), ...body];
    const [table] = findTables({ words, width: 612, height: 792 }, NO_GRAPHICS, new Set(), false).tables;
    const top = table.cells.filter((c) => c.row === 0 && c.text).map((c) => [c.text, c.column, c.columnSpan]);
    expect(top).toEqual([['2021', 1, 2], ['Signal', 3, 2], ['Total', 5, 1]]);
    expect(tableRows(table).slice(1)).toEqual([header, ...rows]);
  });

  it('do not cut a long label at a wide space where the other rows hold nothing', async () => {
    // "Interviewed, not  examined" is set with three spaces past the end of the other labels;
    // no other row holds text on its right within the label column.
    const rows = [
      ['Total', '39695', '100.0'],
      ['Not interviewed', '5701', '14.4'],
      ['Interviewed, not   examined', '2683', '6.8'],
      ['MEC examined', '30818', '77.6'],
      ['Home examined', '493', '1.2'],
    ];
    const columns = [{ width: 160 }, { width: 70, align: 'right' as const }, { width: 70, align: 'right' as const }];
    const [table] = await tablesOf({ columns, header: ['Status', 'Sample', 'Percent'], rows, rules: 'none' });
    expect(table.map((row) => row.map((cell) => cell.replace(/ +/g, ' ')))).toEqual([['Status', 'Sample', 'Percent'], ...rows.map((row) => row.map((cell) => cell.replace(/ +/g, ' ')))]);
  });

  it('leave out a note and a numbered heading below the table that run across its columns', async () => {
    // The source note reaches past the label column and the heading's number stands apart from
    // its title: with them, every column gap but one was closed and the figures ran together.
    const rows = [
      ['I/we kept the assets', '344', '75.2', '12196'],
      ['I/we sold some of the assets', '53', '11.6', '23518'],
      ['I/we sold all of them', '61', '13.2', '9187'],
      ['Total', '458', '100.0', '13153'],
    ];
    const columns = [{ width: 150 }, { width: 60, align: 'right' as const }, { width: 60, align: 'right' as const }, { width: 60, align: 'right' as const }];
    const tables = await tablesOf({
      columns,
      header: ['', 'Freq.', 'Percent', 'Mean loss'],
      rows,
      rules: 'none',
      after: ['Source: SAVE 2009, data is weighted; own calculations.', '3.3      Measuring the Financial Literacy of Households'],
    });
    expect(tables).toEqual([[['', 'Freq.', 'Percent', 'Mean loss'], ...rows]]);
  });

  it('leave out a numbered title above the table that runs across its columns', async () => {
    const rows = [
      ['North', '1,204', '1,310'],
      ['South', '87', '92'],
      ['East', '402', '399'],
      ['West', '656', '701'],
    ];
    const columns = [{ width: 90 }, { width: 80, align: 'right' as const }, { width: 80, align: 'right' as const }];
    const tables = await tablesOf({
      columns,
      header: ['Region', 'Sales 2023', 'Sales 2024'],
      rows,
      rules: 'none',
      before: ['Table 4      Sales of the company by region and by year'],
    });
    expect(tables).toEqual([[['Region', 'Sales 2023', 'Sales 2024'], ...rows]]);
  });
});

describe('tables found from the alignment of their text, beside other text', () => {
  it('keep a header cell\'s second line and rows whose values are empty under it', () => {
    // "Operational query" wraps in the right-aligned value column; the first two rows hold a
    // label alone: three one-piece lines stand together between the header and the figures.
    const words = [
      ...figuresLine(['Patient', 'Operational'], 100),
      ...figuresLine(['', 'query'], 112),
      ...figuresLine(['Open fund'], 128),
      ...figuresLine(['External layer'], 144),
      ...figuresLine(['National policy', '98,489.18'], 160),
      ...figuresLine(['Tara Dubois', '12,215.18'], 176),
      ...figuresLine(['Open office', '344'], 192),
      ...figuresLine(['Net patient', '72'], 208),
    ];
    expect(foundRows(words)).toEqual([
      [
        ['Patient', 'Operational query'],
        ['Open fund', ''],
        ['External layer', ''],
        ['National policy', '98,489.18'],
        ['Tara Dubois', '12,215.18'],
        ['Open office', '344'],
        ['Net patient', '72'],
      ],
    ]);
  });
});

describe('tables found from the alignment of their text, in two rows', () => {
  it('read a header in bold over one row of figures as a table, and names in bold over places as text', () => {
    // The piece of a table a page break leaves at the foot of a page: its header and one row.
    // Authors' names over their places line up as well, but hold no figures.
    const at = (texts: string[], y: number, bold = false) => texts.flatMap((text, c) => lineWords(text, 60 + c * 110, y, { bold }));
    const table = [['Interest', 'Estimate', 'Result (%)', 'Entry (CHF)'], ['Karin Olsen', '154', '46.4%', 'CHF 616']];
    expect(foundRows([...at(table[0], 600, true), ...at(table[1], 614)])).toEqual([table]);
    const authors = [...at(['Anna Keller', 'Paul Dubois', 'Rosa Jensen'], 120, true), ...at(['University of Bern', 'ETH Zurich', 'Lund University'], 134)];
    expect(foundRows(authors)).toEqual([]);
  });
});

describe('tables found from the alignment of their text, with section labels', () => {
  it('keep a section label and a subsection label set one under the other inside the table', async () => {
    const row = (label: string, indent: number, ...figures: string[]): Piece[] => [
      { x: 72 + indent, text: label },
      ...figures.map((text, c) => ({ x: 250 + c * 70, text, right: true })),
    ];
    const lines = [
      row('Characteristic', 0, 'Total', 'No.', '(%)'),
      row('Sex', 0),
      row('Male', 8, '61,206', '2,862', '(4.7)'),
      row('Female', 8, '49,486', '2,909', '(5.9)'),
      row('Sex, by region', 0),
      row('Male', 8),
      row('North', 16, '45,116', '1,638', '(3.6)'),
      row('South', 16, '7,086', '508', '(7.2)'),
      row('Female', 8),
      row('North', 16, '33,628', '1,536', '(4.6)'),
      row('South', 16, '5,523', '458', '(8.3)'),
    ];
    const [page] = analyzeDocument(await readPdf(await placedTextPdf(lines, { size: 9 })));
    expect(page.tables.map(tableRows)).toEqual([lines.map((pieces) => [pieces[0].text, ...[1, 2, 3].map((c) => pieces[c]?.text ?? '')])]);
  });

  it('do not take a caption and a unit line above the table for section labels', async () => {
    // The caption's number stands apart from its text, whose second line and a unit set at the
    // right edge come before the header: they are no labels of the table's first column.
    const lines: Piece[][] = [
      [{ x: 72, text: 'Table 10:' }, { x: 135, text: 'Indicators of performance-based funding for upper secondary' }],
      [{ x: 135, text: 'education and training in 2006' }],
      [{ x: 520, text: '(%)', right: true }],
      [{ x: 180, text: 'Indicators' }, { x: 370, text: 'Weight of indicator in 2006' }],
      [{ x: 76, text: 'Employment' }, { x: 440, text: '40', right: true }],
      [{ x: 76, text: 'Further studies' }, { x: 440, text: '15', right: true }],
      [{ x: 76, text: 'Dropping out' }, { x: 440, text: '15', right: true }],
      [{ x: 76, text: '% ratio of qualification holders to entrants' }, { x: 440, text: '13', right: true }],
      [{ x: 76, text: 'Staff development' }, { x: 440, text: '6', right: true }],
    ];
    const [page] = analyzeDocument(await readPdf(await placedTextPdf(lines, { size: 11 })));
    expect(page.tables.map(tableRows)).toEqual([
      [
        ['Indicators', 'Weight of indicator in 2006'],
        ['Employment', '40'],
        ['Further studies', '15'],
        ['Dropping out', '15'],
        ['% ratio of qualification holders to entrants', '13'],
        ['Staff development', '6'],
      ],
    ]);
  });

  it('do not take lines of a formula above the table for section labels', () => {
    // The lines of a display formula reach past the first column of the line of cells above
    // them: they are not labels of the table below, and the formula's line is no row of it.
    const words = [
      word('=', 100, 100),
      word('t', 150, 100),
      word('t', 200, 100),
      ...lineWords('(− sin , cos r) for every', 110, 114),
      ...lineWords('Der Normalenvektor ist', 72, 128),
      ...['North', 'South', 'East'].flatMap((region, r) => [word(region, 72, 142 + r * 14), word(String(30 + r), 300, 142 + r * 14), word(String(40 + r), 350, 142 + r * 14)]),
    ];
    const { tables } = findTables({ words, width: 612, height: 792 }, NO_GRAPHICS, new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['North', '30', '40'],
        ['South', '31', '41'],
        ['East', '32', '42'],
      ],
    ]);
  });
});

describe('text that lines up but is no table', () => {
  async function read(lines: Piece[][], options: Parameters<typeof placedTextPdf>[1] = {}) {
    const [page] = analyzeDocument(await readPdf(await placedTextPdf(lines, options)));
    return { tables: page.tables.map(tableRows), text: pageText(page) };
  }

  it('reads short points beside a justified paragraph whose spaces are wider than a font size as text', () => {
    // A brochure's points, two words a line, beside a paragraph justified to x 520: its spaces
    // are 14 wide at size 10, so each of its words stands apart like a cell, but its lines run
    // on as a paragraph's do.
    const points = ['Such payment', 'service his', 'closed', 'significant', 'Now great early', 'Sensor includes', 'asset warehouse', 'partial includes'];
    const paragraph = [
      'Trend right if invoice would we her.',
      'Has increases covers inventory cost get',
      'coefficient covers. As sensor some initial',
      'small through revenue old risk his study',
      'table Simon Torres come over. Their all',
      'total closed where balance Elena Jensen',
      'over target most people schedule these',
      'before their increases some record from',
    ];
    const width = (t: string) => [...t].reduce((sum, c) => sum + proportionalWidth(c), 0) * 10;
    const gaps: number[] = [];
    const justified = (text: string, y: number) => {
      const parts = text.split(' ');
      const gap = (320 - parts.reduce((sum, t) => sum + width(t), 0)) / (parts.length - 1);
      gaps.push(gap);
      let x = 200;
      return parts.map((t) => {
        const w = { ...word(t, x, y), fontName: 'Times-Roman' };
        w.box = { ...w.box, x1: x + width(t) };
        x = w.box.x1 + gap;
        return w;
      });
    };
    const words = [...points.flatMap((text, r) => lineWords(text, 72, 100 + r * 14, { bold: true })), ...paragraph.flatMap((text, r) => justified(text, 100 + r * 14))];
    expect(Math.min(...gaps)).toBeGreaterThan(10);
    expect(foundRows(words)).toEqual([]);
  });

  it('reads prose set in three narrow page columns as text', async () => {
    // Lines of three to five words in each column (a narrow measure, a wide face): short enough
    // to pass for cells, but every column holds running text, as no table's columns all do.
    const prose = 'the committee met twice during the year and reviewed the budget for each region before it agreed on the plan that the board had set out in spring while the staff kept the records up to date and sent them on to every member in time'.split(' ');
    const lineOf = (column: number, row: number) => prose.slice((column * 7 + row * 5) % 40, ((column * 7 + row * 5) % 40) + 3 + ((row + column) % 3)).join(' ');
    const lines = Array.from({ length: 12 }, (_, row) => [0, 1, 2].map((column) => ({ x: 50 + column * 180, text: lineOf(column, row) })));
    const { tables } = await read(lines, { size: 9, font: 'Courier' });
    expect(tables).toEqual([]);
  });

  it('reads justified lines whose spaces were widened past a font size as text', async () => {
    // A narrow justified column: each line's few words spread to fill it, every space alike.
    const said = [
      ['may', 'so', 'budget.', 'Full', 'change'],
      ['assumes', 'partial', 'your', 'survey'],
      ['significant', 'short', 'little', 'like', 'has'],
      ['outcome', 'net.', 'Because', 'as', 'been'],
      ['external', 'them', 'might.', 'Used', 'then'],
    ];
    const width = 230;
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    const lines = said.map((words) => {
      const widths = words.map((w) => font.widthOfTextAtSize(w, 9));
      const space = (width - widths.reduce((a, b) => a + b, 0)) / (words.length - 1);
      let x = 300;
      return words.map((text, k) => {
        const piece = { x, text };
        x += widths[k] + space;
        return piece;
      });
    });
    const { tables } = await read(lines, { size: 9 });
    expect(tables).toEqual([]);
  });

  it('reads a listing with line numbers as lines of text, however short its lines', async () => {
    const code = ['def total(rows):', '    sum = 0', '    for row in rows:', '        sum += row.amount', '    return sum'];
    const lines = code.map((text, i) => [{ x: 70, text: String(i + 12), right: true }, { x: 90, text }]);
    const { tables, text } = await read(lines, { font: 'Courier', size: 10 });
    expect(tables).toEqual([]);
    expect(text).toContain('for row in rows:');
  });

  it('reads a transcript page with numbered lines as lines of text', async () => {
    const said = [
      'Q. Please state your full name for the record.',
      'A. John Albert Smith.',
      'Q. Where do you live at the present time?',
      'A. In Springfield.',
      'Q. How long have you lived there, Mr. Smith?',
      'A. About ten years.',
      'Q. Were you at home on the evening of June 5?',
      'A. Yes, I was.',
      'Q. Did anyone else stay with you that evening?',
      'A. No.',
    ];
    // Line numbers right-aligned in the margin, the testimony double-spaced beside them.
    const lines = said.map((text, i) => [{ x: 70, text: String(i + 1), right: true }, { x: 100, text }]);
    const { tables, text } = await read(lines, { font: 'Courier', size: 12, pitch: 24 });
    expect(tables).toEqual([]);
    expect(text).not.toContain('|');
    expect(text).toContain('1 Q. Please state your full name for the record.');
  });

  it('reads short runs of "Label: value" lines as labelled lines', async () => {
    const lines = [
      [{ x: 72, text: 'Other Sources:' }, { x: 200, text: 'Foundation grants and private donations' }],
      [{ x: 72, text: 'Contact:' }, { x: 200, text: 'Jane Doe, Program Office' }],
      [{ x: 72, text: 'Period:' }, { x: 200, text: '2010 to 2012' }],
    ];
    const { tables, text } = await read(lines);
    expect(tables).toEqual([]);
    expect(text).not.toContain('|');
  });

  it('still finds a table whose first column counts rows or holds labels beside figures', async () => {
    // A numbered column beside short cells, and labels with colons beside two columns of figures.
    const numbered = ['Apples', 'Pears', 'Plums', 'Cherries'].map((fruit, i) => [
      { x: 80, text: String(i + 1), right: true },
      { x: 100, text: fruit },
      { x: 300, text: String(12 + i * 7), right: true },
    ]);
    expect((await read(numbered)).tables).toHaveLength(1);
    const labelled = ['Revenue:', 'Costs:', 'Profit:'].map((label, i) => [
      { x: 72, text: label },
      { x: 250, text: String(100 + i), right: true },
      { x: 350, text: String(200 + i), right: true },
    ]);
    expect((await read(labelled)).tables).toHaveLength(1);
  });

  it('reads a table of contents with leader dots as lines', async () => {
    const entries: [string, string, number][] = [
      ['1.1', 'Topological spaces', 2],
      ['1.2', 'Metric spaces', 6],
      ['1.3', 'Continuity', 9],
      ['1.4', 'Connectedness', 11],
      ['1.5', 'Compactness', 14],
      ['1.6', 'Paths and knots', 17],
    ];
    // Leader dots run from each title to just before its page number, set at the right margin.
    const lines = entries.map(([number, title, page]) => [
      { x: 100, text: number },
      { x: 130, text: `${title} ${'. '.repeat(Math.floor((330 - title.length * 5.5) / 6))}`.trimEnd() },
      { x: 520, text: String(page), right: true },
    ]);
    const { tables, text } = await read(lines);
    expect(tables).toEqual([]);
    expect(text).not.toContain('|');
  });
});

