// Table detection on synthetic pages (issue 5 scope 3): drawn grids with merged cells, grids of
// aligned text, and the look-alikes that are not tables.
import { describe, expect, it } from 'vitest';
import { NO_GRAPHICS, type PageGraphics, type Segment, type Word } from '../../src/pipeline/page-model.js';
import { findTables, tableRows } from '../../src/pipeline/analysis/tables/index.js';
import { figuresLevel } from '../../src/pipeline/analysis/tables/line-pitches.js';
import { lineWords, word } from '../helpers/words.js';

const page = (words: Word[]) => ({ words, width: 612, height: 792 });
const h = (y: number, x0: number, x1: number): Segment => ({ x0, y0: y, x1, y1: y });
const v = (x: number, y0: number, y1: number): Segment => ({ x0: x, y0, x1: x, y1 });
const graphics = (segments: Segment[]): PageGraphics => ({ ...NO_GRAPHICS, segments });
/** A header whose top line names a group of two columns: "Goal total" over "Measure" and "Forecast". */
const groupHeader = (top: number, lower: number, options = {}): Word[] => [
  ...lineWords('Period', 100, top, options),
  ...lineWords('Goal total', 234, top, options),
  word('Graph', 340, top, options),
  word('Measure', 200, lower, options),
  word('Forecast', 275, lower, options),
  word('Index', 340, lower, options),
];
/** A row of the table under groupHeader: a label, then three figures under their columns. */
const groupRow = ([label, ...figures]: string[], y: number): Word[] => [...lineWords(label, 100, y), ...figures.map((text, i) => word(text, [215, 285, 345][i], y))];

describe('ruled tables', () => {
  it('read a grid of drawn cells; a missing inner border merges cells into one spanning cell', () => {
    // Columns at x 100, 200, 300, 400; rows at y 100, 120, 140, 160. The header row has no
    // border between columns 2 and 3: "Results" spans them.
    const segments = [h(100, 100, 400), h(120, 100, 400), h(140, 100, 400), h(160, 100, 400), v(100, 100, 160), v(200, 100, 160), v(300, 120, 160), v(400, 100, 160)];
    const words = [
      word('Name', 105, 105),
      word('Results', 260, 105),
      ...lineWords('Ann Lee', 105, 125),
      word('12', 205, 125),
      word('13', 305, 125),
      word('Bo', 105, 145),
      word('7', 205, 145),
      word('9', 305, 145),
    ];
    const { tables, words: held } = findTables(page(words), graphics(segments), new Set(), false);
    expect(tables).toHaveLength(1);
    expect(tableRows(tables[0])).toEqual([
      ['Name', 'Results', ''],
      ['Ann Lee', '12', '13'],
      ['Bo', '7', '9'],
    ]);
    expect(tables[0].cells.find((c) => c.text === 'Results')).toMatchObject({ row: 0, column: 1, rowSpan: 1, columnSpan: 2 });
    expect(tables[0].source).toBe('ruled');
    expect(held[0]).toHaveLength(words.length);
  });

  it('mirror the columns of a right-to-left table, so that column 0 is the rightmost', () => {
    const segments = [h(100, 100, 300), h(120, 100, 300), h(140, 100, 300), h(160, 100, 300), v(100, 100, 160), v(200, 100, 160), v(300, 100, 160)];
    const words = [word('قيمة', 105, 105), word('اسم', 205, 105), word('١', 105, 125), word('أ', 205, 125), word('٢', 105, 145), word('ب', 205, 145)];
    const [table] = findTables(page(words), graphics(segments), new Set(), true).tables;
    expect(tableRows(table)).toEqual([
      ['اسم', 'قيمة'],
      ['أ', '١'],
      ['ب', '٢'],
    ]);
  });

  it('are not made of two crossing lines (the axes of a plot) or of a lattice of one repeated mark', () => {
    const axes = findTables(page([word('10', 90, 50), word('5', 150, 150), word('x', 290, 105), word('y', 105, 10)]), graphics([h(100, 0, 300), v(100, 0, 200)]), new Set(), false);
    expect(axes.tables).toEqual([]);
    const lattice: Segment[] = [];
    for (let i = 0; i <= 3; i++) lattice.push(h(100 + i * 20, 100, 160), v(100 + i * 20, 100, 160));
    const stars: Word[] = [];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) stars.push(word('*', 108 + c * 20, 105 + r * 20));
    expect(findTables(page(stars), graphics(lattice), new Set(), false).tables).toEqual([]);
  });

  it('are not drawings whose lines carry arrowheads or dots (a plot with a frame, a diagram)', () => {
    // A framed plot: a box with the axes crossing inside it, labels in its quarters, and an
    // arrowhead at the top of the y axis. Without the arrowhead the same lines read as a table.
    const segments = [h(100, 100, 300), h(150, 100, 300), h(200, 100, 300), v(100, 100, 200), v(200, 100, 200), v(300, 100, 200)];
    const words = [word('y', 205, 105), word('10', 105, 125), word('5', 105, 155), word('x', 280, 155), word('−5', 205, 180)];
    const arrowhead = { x0: 197.5, y0: 98, x1: 202.5, y1: 102 };
    expect(findTables(page(words), graphics(segments), new Set(), false).tables).toHaveLength(1);
    expect(findTables(page(words), { ...graphics(segments), shapes: [arrowhead] }, new Set(), false).tables).toEqual([]);
    // The slivers some producers leave where two rulings join are not marks.
    const sliver = { x0: 199.7, y0: 149.98, x1: 200.4, y1: 150.01 };
    expect(findTables(page(words), { ...graphics(segments), shapes: [sliver] }, new Set(), false).tables).toHaveLength(1);
  });

  it("read a group's name over two columns and their own headers under it as two header rows", () => {
    // Rules drawn a cell at a time, as a browser draws collapsed borders: above the header, under
    // the lower header line (from the second column) and under the table's one row. "Goal total"
    // heads "Measure" and "Forecast"; nothing stands under "Period", whose cell spans both lines.
    // The header is set in bold.
    const cuts = [95, 190, 258, 330, 370];
    const rule = (y: number, from = 0) => cuts.slice(from, -1).map((x, i) => h(y, x, cuts[from + i + 1]));
    const bold = { bold: true };
    const words = [...groupHeader(101, 115, bold), ...groupRow(['General result', '81.7%', '95,061', '421'], 134)];
    const { tables } = findTables(page(words), graphics([...rule(98), ...rule(130, 1), ...rule(148)]), new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Period', 'Goal total', '', 'Graph'],
        ['', 'Measure', 'Forecast', 'Index'],
        ['General result', '81.7%', '95,061', '421'],
      ],
    ]);
    expect(tables[0].headerRows).toBe(2);
    expect(tables[0].cells.find((c) => c.text === 'Period')).toMatchObject({ row: 0, rowSpan: 2 });
    expect(tables[0].cells.find((c) => c.text === 'Goal total')).toMatchObject({ row: 0, rowSpan: 1, columnSpan: 2 });
  });

  it('keep a header cell spanning columns whose borders the table draws only below it, though its rules are drawn a cell at a time', () => {
    // Rules in pieces per column (joints at 200 and 300, as a browser draws collapsed borders),
    // the column borders at 200 and 300 drawn from the second rule down: "Results" spans them.
    const cuts = [100, 200, 300, 400];
    const rule = (y: number) => cuts.slice(0, -1).map((x, i) => h(y, x, cuts[i + 1]));
    const segments = [...[100, 120, 140, 160].flatMap(rule), v(100, 100, 160), v(200, 120, 160), v(300, 120, 160), v(400, 100, 160)];
    const words = [word('Results', 220, 105), word('Name', 105, 125), word('Units', 205, 125), word('Share', 305, 125), word('North', 105, 145), word('12', 205, 145), word('40%', 305, 145)];
    const { tables } = findTables(page(words), graphics(segments), new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Results', '', ''],
        ['Name', 'Units', 'Share'],
        ['North', '12', '40%'],
      ],
    ]);
    expect(tables[0].cells.find((c) => c.text === 'Results')).toMatchObject({ row: 0, column: 0, columnSpan: 3 });
  });

  it("part the body's columns at the joints of rules drawn a cell at a time, under a header whose group name crosses a joint", () => {
    // No column borders are drawn. Rules in pieces per column above the header, under it (from
    // the second column on, "Name" standing over both header lines) and under the body; "Results"
    // crosses the joint at 300 above the rule under the header, but no word of the body does.
    const cuts = [100, 200, 300, 400];
    const rule = (y: number, from = 0) => cuts.slice(from, -1).map((x, i) => h(y, x, cuts[from + i + 1]));
    const segments = [...rule(100), ...rule(130, 1), ...rule(160)];
    const words = [
      word('Name', 105, 105),
      word('Results', 282, 105),
      word('Units', 205, 117),
      word('Share', 305, 117),
      // Figures set flush right in their cells, a few points from the next cell's text: too
      // close for a column gap of the text alone.
      ...[word('North', 105, 134), word('1,204', 273, 134), word('40.5%', 303, 134)],
      ...[word('South', 105, 146), word('9,876', 273, 146), word('60.1%', 303, 146)],
    ];
    const { tables } = findTables(page(words), graphics(segments), new Set(), false);
    expect(tables).toHaveLength(1);
    expect(tableRows(tables[0]).slice(-2)).toEqual([
      ['North', '1,204', '40.5%'],
      ['South', '9,876', '60.1%'],
    ]);
  });

  it('keep its column borders apart from a dotted leader elsewhere on the page drawn as slivers', () => {
    // A leader of dots a point apart, each drawn as a tiny box, runs across the page above a grid
    // whose column borders stand at 100, 200, 300 and 400.
    const slivers = Array.from({ length: 400 }, (_, i) => 80 + i * 0.75).flatMap((x) => [v(x, 40, 40.75), v(x + 0.75, 40, 40.75)]);
    const segments = [100, 120, 140, 160].map((y) => h(y, 100, 400)).concat([100, 200, 300, 400].map((x) => v(x, 100, 160)));
    const table = [
      ['Name', 'Units', 'Share'],
      ['North', '12', '40%'],
      ['South', '18', '60%'],
    ];
    const words = table.flatMap((row, r) => row.map((text, c) => word(text, 105 + c * 100, 105 + r * 20)));
    const { tables } = findTables(page(words), graphics([...slivers, ...segments]), new Set(), false);
    expect(tables.map(tableRows)).toEqual([table]);
    const borders = tables[0].cells.filter((c) => c.row === 0).map((c) => c.box?.x0);
    [100, 200, 300].forEach((x, i) => expect(borders[i]).toBeCloseTo(x, 0));
  });

  it('leave out the lines of two page columns of prose under the last rule, whose words run over a column border', () => {
    // A grid at x 100-400 (borders at 200 and 300), y 100-160. Right under it, lines of prose in
    // two page columns: the left one starts where the first column's text does and runs over the
    // border at 200; the right one starts where the third column's text does.
    const segments = [100, 120, 140, 160].map((y) => h(y, 100, 400)).concat([100, 200, 300, 400].map((x) => v(x, 100, 160)));
    const table = [
      ['Name', 'Units', 'Share'],
      ['North', '12', '40%'],
      ['South', '18', '60%'],
    ];
    const cells = table.flatMap((row, r) => row.map((text, c) => word(text, 105 + c * 100, 105 + r * 20)));
    const prose = [...lineWords('Sales grew across all the regions', 105, 163), ...lineWords('Costs fell in', 305, 163), ...lineWords('and the year ended well', 105, 176), ...lineWords('the north', 305, 176)];
    const { tables } = findTables(page([...cells, ...prose]), graphics(segments), new Set(), false);
    expect(tables.map(tableRows)).toEqual([table]);
  });

  it('are not framed by a design printed off the sheet (a rule across the whole sheet, a panel running off its foot), nor made of the points, paragraph and panel words standing level inside it', () => {
    // A cover's lower half: rules from edge to edge of the sheet at y 228 and 603, a coloured panel
    // down the right margin from the upper rule off the foot, its left edge stroked; short bold
    // lines at the left, prose beside them, a few words on the panel. The prose's lines break as a
    // paragraph's do (its next word would not have fitted), so its column is no table's.
    const segments = [h(228, 0, 612), h(603, 0, 612), v(446, 228, 792), v(611.5, 228, 792)];
    const rects = [{ box: { x0: 446, y0: 228, x1: 612, y1: 792 }, filled: true, stroked: false, fill: 0xff0000 }];
    const lines = ['This report tells how the', 'service reads a page and', 'what it leaves out of the', 'text it gives back to you', 'when the page is a cover'];
    const words = [
      ...['Read pages', 'and tables', 'Leave out', 'the design'].flatMap((t, i) => lineWords(t, 30, 240 + i * 13, { bold: true })),
      ...lines.flatMap((t, i) => lineWords(t, 130, 240 + i * 13)),
      ...['INTERNATIONAL', 'ORGANIZATION'].flatMap((t, i) => lineWords(t, 460, 240 + i * 13)),
      ...lineWords('REDP-5110-00', 200, 640),
    ];
    expect(findTables(page(words), { ...NO_GRAPHICS, segments, rects }, new Set(), false).tables).toEqual([]);
  });

  it('keep the rules of a table too wide for the page, which run off one side of the sheet only', () => {
    const segments = [100, 120, 140, 160].map((y) => h(y, 400, 612)).concat([400, 500, 600].map((x) => v(x, 100, 160)));
    const table = [
      ['Name', 'Units'],
      ['North', '12'],
      ['South', '18'],
    ];
    const words = table.flatMap((row, r) => row.map((text, c) => word(text, 405 + c * 100, 105 + r * 20)));
    expect(findTables(page(words), graphics(segments), new Set(), false).tables.map(tableRows)).toEqual([table]);
  });

  it('start a row where a value stands under the one of the row above, though a label wrapped over several lines stands between', () => {
    // Rules above and under the header and under the body only; the body's rows set at one
    // pitch. The first row's label wraps over three lines, its amount's currency sign stands
    // alone at the end of the first line (the amount did not fit beside it); the second row's
    // figures stand under the first row's, three lines down.
    const segments = [h(100, 100, 260), h(115, 100, 260), h(180, 100, 260), ...[100, 140, 200, 260].map((x) => v(x, 100, 180))];
    const words = [
      word('Study', 105, 103),
      word('Charge', 145, 103),
      word('Small', 205, 103),
      ...[word('Fixed', 105, 118), word('29.8%', 145, 118), word('¥', 245, 118)],
      ...[word('right', 105, 130), word('38,135.79', 210, 130)],
      word('trend', 105, 142),
      ...[word('This', 105, 154), word('17.4%', 145, 154), word('2,107', 230, 154)],
      word('index', 105, 166),
    ];
    const { tables } = findTables(page(words), graphics(segments), new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Study', 'Charge', 'Small'],
        ['Fixed right trend', '29.8%', '¥ 38,135.79'],
        ['This index', '17.4%', '2,107'],
      ],
    ]);
  });

  it('part rows whose cells are set at the foot, a wrapped cell starting the row above its label, where the pitches tell', () => {
    // Rules above and under the header and under the body only. A cell's lines stand 12 apart,
    // rows 18: the first and last rows' dates wrap, their first lines standing alone above the
    // rows' labels and figures, which are set level with the dates' last lines.
    const segments = [h(100, 100, 340), h(118, 100, 340), h(195, 100, 340), ...[100, 150, 210, 270, 340].map((x) => v(x, 100, 195))];
    const full = (cells: string[], y: number) => cells.flatMap((text, c) => lineWords(text, [105, 155, 215, 275][c], y));
    const words = [
      ...full(['Name', 'Amount', 'Count', 'Date'], 103),
      ...lineWords('15 May', 275, 121),
      ...full(['Alpha', '36.5', '42', '2024'], 133),
      ...full(['Beta', '11.2', '9', '2017'], 151),
      ...lineWords('3 June', 275, 169),
      ...full(['Gamma', '8.1', '7', '2019'], 181),
    ];
    expect(findTables(page(words), graphics(segments), new Set(), false).tables.map(tableRows)).toEqual([
      [
        ['Name', 'Amount', 'Count', 'Date'],
        ['Alpha', '36.5', '42', '15 May 2024'],
        ['Beta', '11.2', '9', '2017'],
        ['Gamma', '8.1', '7', '3 June 2019'],
      ],
    ]);
  });

  it('keep rows that leave the same cell empty apart, though they stand closer than the groups of rows do', () => {
    // A receipt's totals: rows 12 apart in groups 20 apart, most leaving the middle column empty.
    // Each starts a label of its own (capitalised), so none runs on from the row above.
    const rows = [
      ['Total RM Including GST', '', '22.00'],
      ['Rounding Adj.', '', '0.00'],
      ['Total Rounded', '', '22.00'],
      ['Cash', '', '-22.00'],
      ['6% GST SR', '22.00', '1.25'],
      ['Amt. Excl. GST', '', '20.75'],
    ];
    const ys = [200, 212, 224, 244, 264, 276];
    const words = rows.flatMap((cells, r) => cells.flatMap((text, c) => (text ? lineWords(text, [60, 200, 260][c], ys[r]) : [])));
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([rows]);
  });

  it("keep a stub's header set at the foot of a cell drawn down two header rows one cell, where the pitches part the rows beside it", () => {
    // The header's drawn row holds two lines at the rows' pitch (18), its stub's name on the
    // lower; a date wrapped at a cell's pitch (12) in the body lets the pitches tell.
    const segments = [h(100, 100, 340), h(136, 100, 340), h(195, 100, 340), ...[100, 150, 210, 270, 340].map((x) => v(x, 100, 195))];
    const full = (cells: string[], y: number) => cells.flatMap((text, c) => (text ? lineWords(text, [105, 155, 215, 275][c], y) : []));
    const words = [
      ...full(['', 'Charge', '2021', 'Index'], 103),
      ...full(['Target', 'Closed', 'Trend', 'Key'], 121),
      ...lineWords('15 May', 275, 139),
      ...full(['Alpha', '36.5', '42', '2024'], 151),
      ...full(['Beta', '11.2', '9', '2017'], 169),
    ];
    const [table] = findTables(page(words), graphics(segments), new Set(), false).tables;
    expect(tableRows(table)).toEqual([
      ['Target', 'Charge', '2021', 'Index'],
      ['', 'Closed', 'Trend', 'Key'],
      ['Alpha', '36.5', '42', '15 May 2024'],
      ['Beta', '11.2', '9', '2017'],
    ]);
    expect(table.cells.find((c) => c.text === 'Target')).toMatchObject({ row: 0, rowSpan: 2 });
  });

  it('read two cells of a row wrapped side by side, their lines filling the same few cells, as one row by its pitches', () => {
    // As above; the first row's note wraps over four lines and its label over three, both set at
    // the foot: two lines hold both and nothing else, which tells no more or fewer cells filled.
    const segments = [h(100, 100, 340), h(118, 100, 340), h(210, 100, 340), ...[100, 150, 210, 270, 340].map((x) => v(x, 100, 210))];
    const full = (cells: string[], y: number) => cells.flatMap((text, c) => (text ? lineWords(text, [105, 155, 215, 275][c], y) : []));
    const words = [
      ...full(['Name', 'Amount', 'Count', 'Note'], 103),
      ...full(['', '', '', 'runs'], 121),
      ...full(['Alpha', '', '', 'on'], 133),
      ...full(['beta', '', '', 'and'], 145),
      ...full(['gamma', '36.5', '42', 'ends'], 157),
      ...full(['Delta', '11.2', '9', 'kept'], 175),
      ...full(['Omega', '8.1', '7', 'last'], 193),
    ];
    expect(findTables(page(words), graphics(segments), new Set(), false).tables.map(tableRows)).toEqual([
      [
        ['Name', 'Amount', 'Count', 'Note'],
        ['Alpha beta gamma', '36.5', '42', 'runs on and ends'],
        ['Delta', '11.2', '9', 'kept'],
        ['Omega', '8.1', '7', 'last'],
      ],
    ]);
  });

  it("read a group's name centred over three columns in the table's first line, inside one of them, as spanning the three", () => {
    // One drawn row holds both header lines; "2028" stands inside the middle column, centred over
    // the three it heads, and crosses no border.
    const segments = [...[100, 130, 150, 170].map((y) => h(y, 100, 340)), ...[100, 160, 220, 280, 340].map((x) => v(x, 100, 170))];
    const words = [
      word('Year', 105, 103),
      word('2028', 240, 103),
      ...[word('Index', 165, 116), word('Count', 225, 116), word('Share', 285, 116)],
      ...['North', '12', '40', '7%'].map((text, c) => word(text, 105 + c * 60, 134)),
      ...['South', '18', '60', '9%'].map((text, c) => word(text, 105 + c * 60, 154)),
    ];
    const { tables } = findTables(page(words), graphics(segments), new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Year', '2028', '', ''],
        ['', 'Index', 'Count', 'Share'],
        ['North', '12', '40', '7%'],
        ['South', '18', '60', '9%'],
      ],
    ]);
    expect(tables[0].cells.find((c) => c.text === '2028')).toMatchObject({ row: 0, column: 1, columnSpan: 3 });
    expect(tables[0].cells.find((c) => c.text === 'Year')).toMatchObject({ row: 0, rowSpan: 2 });
  });

  it("read a group's name centred over two columns of unequal width, inside the wider one, as spanning the two", () => {
    // "2028" stands inside the wide "Index" column, centred over it and the narrow "Share" column
    // beside it, and crosses no border.
    const segments = [...[100, 130, 150, 170].map((y) => h(y, 100, 320)), ...[100, 160, 280, 320].map((x) => v(x, 100, 170))];
    const words = [
      word('Year', 105, 103),
      word('2028', 230, 103),
      ...[word('Index', 165, 116), word('Share', 285, 116)],
      ...['North', '12', '7%'].map((text, c) => word(text, [105, 165, 285][c], 134)),
      ...['South', '18', '9%'].map((text, c) => word(text, [105, 165, 285][c], 154)),
    ];
    const { tables } = findTables(page(words), graphics(segments), new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Year', '2028', ''],
        ['', 'Index', 'Share'],
        ['North', '12', '7%'],
        ['South', '18', '9%'],
      ],
    ]);
    expect(tables[0].cells.find((c) => c.text === '2028')).toMatchObject({ row: 0, column: 1, columnSpan: 2 });
  });

  it('read a table of two columns ruled across a cell at a time, its one column border only implied by the joints', () => {
    // Rules above, under the header and below, each drawn as two pieces meeting at x 200; no
    // vertical ruling at all. A value wraps onto a second line.
    const rule = (y: number) => [h(y, 100, 200), h(y, 200, 300)];
    const segments = [...rule(100), ...rule(115), ...rule(172)];
    const words = [
      word('Liability', 105, 103),
      word('Account', 205, 103),
      ...[...lineWords('National method', 105, 119), ...lineWords('us so come on', 205, 119)],
      ...lineWords('because high', 205, 131),
      ...[...lineWords('Net supplier', 105, 145), word('variance', 205, 145)],
      ...[...lineWords('Open plan', 105, 158), word('committee', 205, 158)],
    ];
    const { tables } = findTables(page(words), graphics(segments), new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Liability', 'Account'],
        ['National method', 'us so come on because high'],
        ['Net supplier', 'variance'],
        ['Open plan', 'committee'],
      ],
    ]);
  });

  it('read a right-to-left drawn table by its labels, in its rightmost column: a label with no value is a row', () => {
    // One drawn row holds the body; the middle row's value is empty.
    const segments = [100, 115, 160].map((y) => h(y, 100, 300)).concat([100, 200, 300].map((x) => v(x, 100, 160)));
    const words = [word('קוד', 280, 103), word('שם', 180, 103), word('אור', 280, 119), word('12', 180, 119), word('ארץ', 280, 131), word('עיר', 280, 143), word('34', 180, 143)];
    const { tables } = findTables(page(words), graphics(segments), new Set(), true);
    expect(tables.map(tableRows)).toEqual([
      [
        ['קוד', 'שם'],
        ['אור', '12'],
        ['ארץ', ''],
        ['עיר', '34'],
      ],
    ]);
  });

  it('keep the options set side by side in a cell, each a check box and its label, in that cell', () => {
    // A grid of two drawn columns; the second holds two options a wide space apart in every row.
    const segments = [100, 120, 140, 160, 180].map((y) => h(y, 100, 400)).concat([100, 200, 400].map((x) => v(x, 100, 180)));
    const choice = (first: boolean, y: number) => [word(first ? '☒' : '☐', 205, y), word('yes', 217, y), word(first ? '☐' : '☒', 280, y), word('no', 292, y)];
    const words = [word('Name', 105, 105), word('Member', 205, 105), ...['North', 'South', 'East'].flatMap((name, r) => [word(name, 105, 125 + r * 20), ...choice(r !== 1, 125 + r * 20)])];
    const { tables } = findTables(page(words), graphics(segments), new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Name', 'Member'],
        ['North', '☒ yes ☐ no'],
        ['South', '☐ yes ☒ no'],
        ['East', '☒ yes ☐ no'],
      ],
    ]);
  });

  it('keep options a scan read without their check boxes in their cell: the same words on both sides in every row', () => {
    // OCR lost some boxes and made letters or signs of others: "O yes   no", "yes   © no".
    const segments = [100, 120, 140, 160, 180, 200].map((y) => h(y, 100, 400)).concat([100, 200, 400].map((x) => v(x, 100, 200)));
    const marks = [['O', ''], ['', '©'], ['0', ''], ['', 'O']];
    const choice = ([before, after]: string[], y: number) => [...(before ? [word(before, 205, y)] : []), word('yes', 217, y), ...(after ? [word(after, 280, y)] : []), word('no', 292, y)];
    const names = ['North', 'South', 'East', 'West'];
    const words = [word('Name', 105, 105), word('Member', 205, 105), ...names.flatMap((name, r) => [word(name, 105, 125 + r * 20), ...choice(marks[r], 125 + r * 20)])];
    const { tables } = findTables(page(words), graphics(segments), new Set(), false);
    expect(tables.map(tableRows)).toEqual([[['Name', 'Member'], ['North', 'O yes no'], ['South', 'yes © no'], ['East', '0 yes no'], ['West', 'yes O no']]]);
    // Boxes read as two letters ("Dd no", "OJ no"): the label after each box is still the same.
    const lettered = [['O', ''], ['', 'Dd'], ['El', ''], ['', 'OJ']];
    const letteredWords = [word('Name', 105, 105), word('Member', 205, 105), ...names.flatMap((name, r) => [word(name, 105, 125 + r * 20), ...choice(lettered[r], 125 + r * 20)])];
    expect(findTables(page(letteredWords), graphics(segments), new Set(), false).tables.map(tableRows)).toEqual([
      [['Name', 'Member'], ['North', 'O yes no'], ['South', 'yes Dd no'], ['East', 'El yes no'], ['West', 'yes OJ no']],
    ]);
    // Where the words vary down the rows on one side, the text makes a column of its own (a currency's sign beside figures).
    const figures = ['1,204', '87', '3,310', '455'];
    const priced = [word('Name', 105, 105), word('Price', 205, 105), ...names.flatMap((name, r) => [word(name, 105, 125 + r * 20), word('EUR', 205, 125 + r * 20), word(figures[r], 292, 125 + r * 20)])];
    expect(findTables(page(priced), graphics(segments), new Set(), false).tables.map(tableRows)[0][1]).toEqual(['North', 'EUR', '1,204']);
  });

  it("leave out the shading behind a listing that touches the table's top rule", () => {
    // A grid of three columns (x 100-400) and three rows (y 200-260); a listing shaded at x
    // 250-500, y 150-198.5, its bottom edge within a snap of the table's top rule, as a browser
    // sets a code block right above a table.
    const segments = [200, 220, 240, 260].map((y) => h(y, 100, 400)).concat([100, 200, 300, 400].map((x) => v(x, 200, 260)));
    const mono = (w: Word): Word => ({ ...w, fontName: 'DejaVuSansMono' });
    const listing = [...lineWords('let total = 0;', 260, 160), ...lineWords('total += rate;', 260, 176)].map(mono);
    const table = [
      ['Name', 'Units', 'Share'],
      ['North', '12', '40%'],
      ['South', '18', '60%'],
    ];
    const cells = table.flatMap((row, r) => row.map((text, c) => word(text, 105 + c * 100, 205 + r * 20)));
    const shade = { box: { x0: 250, y0: 150, x1: 500, y1: 198.5 }, filled: true, stroked: false, fill: 0xf3f3f3 };
    const { tables } = findTables(page([...listing, ...cells]), { ...NO_GRAPHICS, segments, rects: [shade] }, new Set(), false, 1, (w) => w.fontName === 'DejaVuSansMono');
    expect(tables.map(tableRows)).toEqual([table]);
  });

  it('start a row at each line of a ruled body whose lines stand further apart than the prose around them', () => {
    // Rules drawn cell by cell (joints at x 175) over the header and under it; the body's lines,
    // set in 8 points, stand 15 apart, the paragraphs' 10-point lines 12: no cell's text wraps
    // there, though each label's next word would not have fitted on the line above ("Karin" after
    // "Elena Fischer") and each amount reads on.
    const small = { size: 8 };
    const paragraph = (y0: number) => Array.from({ length: 4 }, (_, r) => lineWords('the quick brown fox jumps over the lazy dog', 100, y0 + r * 12)).flat();
    const body = [
      ['Elena Fischer', 'CHF 15,027.65'],
      ['Karin Andersen', 'CHF925'],
      ['Ben Hansen', '929'],
    ];
    const words = [
      ...paragraph(100),
      ...lineWords('Inventory', 100, 183, small),
      ...lineWords('Large shipment', 180, 183, small),
      ...body.flatMap(([label, value], r) => [...lineWords(label, 100, 200 + r * 15, small), ...lineWords(value, 180, 200 + r * 15, small)]),
      ...paragraph(280),
    ];
    const segments = [h(180, 95, 175), h(180, 175, 260), h(196, 95, 175), h(196, 175, 260), h(244, 95, 175), h(244, 175, 260)];
    const tables = findTables(page(words), graphics(segments), new Set(), false).tables.map(tableRows);
    expect(tables).toEqual([[['Inventory', 'Large shipment'], ...body]]);
  });


  it('run on from a shaded header band over body rows that stand a row pitch apart, more than a font size between them', () => {
    // Each header cell filled on its own (x 100-400, y 100-124), a rule under the body only; the
    // body's cells set at the foot of rows 24 tall, their lines 14 apart, as a word processor
    // sets a table whose rows are taller than their text. The first body row stands closer under
    // the header than the others stand under each other.
    const header = ['Protocol', 'Fund', 'Quarter'];
    const body = [
      ['Strategic policy', '8,770.18', '7,195.21'],
      ['Global estimate', '51,839.03', '127'],
      ['Main dose', '46,611.69', '10,956.11'],
      ['Long member', '30,503.07', '87,700.71'],
    ];
    const xs = [105, 225, 325];
    const words = [
      ...header.flatMap((text, c) => lineWords(text, xs[c], 107)),
      ...body.flatMap((row, r) => row.flatMap((text, c) => lineWords(text, xs[c], 131 + r * 24))),
    ];
    const fills = [100, 200, 300].map((x0) => ({ box: { x0, y0: 100, x1: x0 + 100, y1: 124 }, filled: true, stroked: false, fill: 0xdddddd }));
    const { tables } = findTables(page(words), { ...NO_GRAPHICS, segments: [h(124, 100, 400), h(220, 100, 400)], rects: fills }, new Set(), false);
    expect(tables.map(tableRows)).toEqual([[header, ...body]]);
  });


  it('run on from a zebra band over the rows above and below it that stand one band height apart', () => {
    // Rows 25 apart, their lines 15 apart, more than a font size; the only drawing is the band
    // shading the third row (each cell filled on its own), 25 tall: a row of the table.
    const rows = [
      ['Method', 'Contract', 'Vector'],
      ['Net margin', '194', '65.7%'],
      ['Active product', '99,550.45', '-8.4%'],
      ['Rosa Ivanova', '60,602.61', '81.2%'],
      ['Total', '160,347.06', '-1.5%'],
    ];
    const xs = [105, 225, 325];
    const words = rows.flatMap((row, r) => row.flatMap((text, c) => lineWords(text, xs[c], 200 + r * 25)));
    const band = [100, 200, 300].map((x0) => ({ box: { x0, y0: 242.5, x1: x0 + 100, y1: 267.5 }, filled: true, stroked: false, fill: 0xeeeeee }));
    const { tables } = findTables(page(words), { ...NO_GRAPHICS, rects: band }, new Set(), false);
    expect(tables.map(tableRows)).toEqual([rows]);
  });

  it('keep a row whose label stands alone, its figures empty, among the rows run on from a shaded header', () => {
    // As above: each header cell filled on its own, body rows 24 apart under it; the third and
    // fourth body rows hold their labels only.
    const header = ['Department', 'Threshold', 'Design'];
    const body = [
      ['Financial revenue', '3,519', '904'],
      ['Passive signal', '312', '3,904'],
      ['David Costa', '', ''],
      ['Net inventory', '', ''],
      ['Low figure', '1,250', '1,500'],
      ['Operational risk', '62', '1,282'],
      ['Public treatment', '1,668', '3,371'],
    ];
    const xs = [105, 225, 325];
    const words = [
      ...header.flatMap((text, c) => lineWords(text, xs[c], 107)),
      ...body.flatMap((row, r) => row.flatMap((text, c) => (text ? lineWords(text, xs[c], 131 + r * 24) : []))),
    ];
    const fills = [100, 200, 300].map((x0) => ({ box: { x0, y0: 100, x1: x0 + 100, y1: 124 }, filled: true, stroked: false, fill: 0xdddddd }));
    const { tables } = findTables(page(words), { ...NO_GRAPHICS, segments: [h(124, 100, 400), h(294, 100, 400)], rects: fills }, new Set(), false);
    expect(tables.map(tableRows)).toEqual([[header, ...body]]);
  });

});

describe('tables found from aligned text', () => {
  /** Three lines of prose in each of two page columns (60-290 and 320-550) from y0. */
  const twoColumnProse = (y0: number) => [0, 1, 2].flatMap((r) => [...lineWords('the quick brown fox jumps over the lazy dog', 60, y0 + r * 14), ...lineWords('a slow red hen walks past the sleeping cat', 320, y0 + r * 14)]);
  /** The rows of the tables found in `table` set at y 200 (a row every 16 pt, each cell from `x`) between two-column prose above and below. */
  const tablesBetweenProse = (table: string[][], x: (text: string, column: number) => number) => {
    const cells = table.flatMap((row, r) => row.flatMap((text, c) => lineWords(text, x(text, c), 200 + r * 16)));
    return findTables(page([...twoColumnProse(100), ...cells, ...twoColumnProse(300)]), NO_GRAPHICS, new Set(), false).tables.map(tableRows);
  };

  const rows = [
    ['Country', 'Signed', 'Paid'],
    ['Algeria', '6.19', '5.10'],
    ['Egypt', '6.60', '4.02'],
    ['Jordan', '4.20', '4.20'],
  ];
  const grid = (cells: string[][], y0 = 200): Word[] => cells.flatMap((row, r) => row.flatMap((text, c) => lineWords(text, 100 + c * 120, y0 + r * 16)));

  /** The words of `text` set flush right against x1 (lineWords: a letter 5 wide, a space 3). */
  const flushRight = (text: string, x1: number, y: number) => {
    const spaces = text.split(' ').length - 1;
    return lineWords(text, x1 - (text.length - spaces) * 5 - spaces * 3, y);
  };

  it('part a column of figures set flush right from the words set flush left one space after it', () => {
    // Figures ending at x 250, words starting a word space later at 253: no band stays open
    // between the two columns, but their edges line up row after row.
    const table = [
      ['Plan', 'Estimate', 'Minor chapter', 'Total'],
      ['Paul Andersen', '67,049.60', 'charge', '137'],
      ['Small baseline', '219', 'shipment', '3,302.36'],
      ['Irene Schmidt', '47,242.35', 'pattern', '50,935.34'],
      ['Hugo Jensen', '108', 'vector', '596'],
      ['Annual dose', '95,553.03', 'baseline', '42,031.62'],
    ];
    const words = table.flatMap(([label, figure, text, total], r) => [...lineWords(label, 100, 200 + r * 16), ...flushRight(figure, 250, 200 + r * 16), ...lineWords(text, 253, 200 + r * 16), ...flushRight(total, 400, 200 + r * 16)]);
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([table]);
  });

  it('keep a date set flush right in one cell, though its year lines up on both edges', () => {
    const table = [
      ['Plan', 'Date', 'Total'],
      ['Paul Andersen', '16 April 2017', '137'],
      ['Small baseline', '5 November 2022', '3,302.36'],
      ['Irene Schmidt', '5 May 2015', '50,935.34'],
      ['Hugo Jensen', '24 May 2023', '596'],
    ];
    const words = table.flatMap(([label, date, total], r) => [...lineWords(label, 100, 200 + r * 16), ...flushRight(date, 300, 200 + r * 16), ...flushRight(total, 400, 200 + r * 16)]);
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([table]);
  });

  it('read columns from the gaps no row crosses, and keep text above and below out', () => {
    const words = [...lineWords('The table below lists the amounts by country.', 100, 170), ...grid(rows), ...lineWords('Source: annual report.', 100, 280)];
    const { tables, words: held } = findTables(page(words), NO_GRAPHICS, new Set(), false);
    expect(tables).toHaveLength(1);
    expect(tableRows(tables[0])).toEqual(rows);
    expect(tables[0].source).toBe('aligned');
    expect(tables[0].headerRows).toBe(1);
    expect(held[0].map((i) => words[i].text)).not.toContain('Source:');
  });


  it("keep the columns under a group's name set over two of them in the top row", () => {
    // "Goal total" is centred over "Measure" and "Forecast", across the gap between them that
    // every row below leaves open; it spans the two columns.
    const words = [...groupHeader(200, 216), ...groupRow(['General result', '81.7%', '95,061', '421'], 232), ...groupRow(['Local plan', '12.0%', '4,200', '77'], 248)];
    const tables = findTables(page(words), NO_GRAPHICS, new Set(), false).tables;
    expect(tables.map(tableRows)).toEqual([
      [
        ['Period', 'Goal total', '', 'Graph'],
        ['', 'Measure', 'Forecast', 'Index'],
        ['General result', '81.7%', '95,061', '421'],
        ['Local plan', '12.0%', '4,200', '77'],
      ],
    ]);
    expect(tables[0].cells.find((c) => c.text === 'Goal total')).toMatchObject({ row: 0, column: 1, columnSpan: 2 });
  });

  it("are not a table of contents whose leader dots run up to the page numbers, under a chapter's entry", () => {
    // The chapter's entry, set from the left edge, crosses the gap between the sections' numbers
    // and their titles.
    const chapter = [...lineWords('2 Manifolds and complexes', 100, 186), word('24', 400, 186)];
    const entries = [
      ['2.1', 'Topological manifolds', '24'],
      ['2.2', 'Smooth manifolds', '29'],
      ['2.3', 'Simplicial complexes', '34'],
      ['2.4', 'Exercises', '43'],
    ];
    const words = entries.flatMap(([number, title, page], r) => [
      word(number, 100, 200 + r * 14),
      ...lineWords(`${title} . . . . . . . . . . ${page}`, 130, 200 + r * 14),
    ]);
    expect(findTables(page([...chapter, ...words]), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
  });

  it('are two rows under a header of three columns only when a rule drawn across them separates the header', () => {
    // A header and one row (a table cut short by the page's end), then the same two lines with no
    // rule: authors' names over their affiliations line up as well.
    const two = [
      ['Board', 'Supplier', 'Campaign'],
      ['Primary region', '31.5%', '57.2%'],
    ];
    const words = grid(two);
    const ruled = findTables(page(words), graphics([h(213, 95, 560)]), new Set(), false).tables;
    expect(ruled.map(tableRows)).toEqual([two]);
    expect(ruled[0].headerRows).toBe(1);
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
    // A rule under both lines (a signature line) separates no header from anything.
    expect(findTables(page(words), graphics([h(230, 95, 560)]), new Set(), false).tables).toEqual([]);
  });

  it('are two rows of four columns or more, labels over a row with figures in half its columns, with no rule and no bold (a scan\'s table of one row)', () => {
    const two = [
      ['Board', 'Supplier', 'Tree', 'Campaign'],
      ['Primary region', '31.5%', '426', 'open'],
    ];
    expect(findTables(page(grid(two)), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([two]);
    // Figures in fewer than half the columns, or a figure among the labels (two lines of a listing, of a form), stay text.
    const fewFigures = [two[0], ['Primary region', '31.5%', 'shared', 'open']];
    expect(findTables(page(grid(fewFigures)), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
    const figureAbove = [['Board', '2024', 'Tree', 'Campaign'], two[1]];
    expect(findTables(page(grid(figureAbove)), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
  });
  it("keep a header row set in the page's top margin band when rows of as many cells follow close under it, and leave a running head out", () => {
    // 792 units tall: the top 6% ends at 47.5. The header stands at 40, its rows at 56 and 72.
    const rows = [
      ['Column', 'Measure', 'Product', 'Value'],
      ['Direct liability', '965', '7 July 2023', '5,599.32'],
      ['Nils Torres', '4,008', '10.04.2026', '55,359.64'],
      ['Open cost', '12', '01.02.2027', '310.10'],
    ];
    expect(findTables(page(grid(rows, 40)), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([rows]);
    // A running head (a title across from a page number) over the same rows is no row of theirs.
    const head = [...lineWords('Annual report', 100, 30), ...lineWords('12', 500, 30)];
    expect(findTables(page([...head, ...grid(rows.slice(1), 56)]), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([rows.slice(1)]);
  });

  it('are not the labels of a diagram drawn with arrows between them (a commutative diagram)', () => {
    // The same aligned words with a diagonal arrow drawn among them (25 units each way) are a
    // diagram; a small icon (8 units) in a row leaves the table a table.
    const words = grid(rows);
    const arrow = { ...NO_GRAPHICS, shapes: [{ x0: 180, y0: 220, x1: 205, y1: 245 }] };
    expect(findTables(page(words), arrow, new Set(), false).tables).toEqual([]);
    const icon = { ...NO_GRAPHICS, shapes: [{ x0: 180, y0: 218, x1: 188, y1: 226 }] };
    expect(findTables(page(words), icon, new Set(), false).tables).toHaveLength(1);
  });

  it('join a cell wrapped onto a second line back into its row', () => {
    // "Signed (EURm)" wraps under itself, closer to it than the rows are to one another.
    const words = [...grid(rows.slice(0, 1)), ...lineWords('(EURm)', 220, 211), ...grid(rows.slice(1), 232)];
    const [table] = findTables(page(words), NO_GRAPHICS, new Set(), false).tables;
    expect(tableRows(table)).toEqual([['Country', 'Signed (EURm)', 'Paid'], ...rows.slice(1)]);
  });

  it('join a label run on in lower case at the rows\' own pitch, and keep a capitalised label with no value a row', () => {
    // Every line 16 apart: "Reduces costs where / possible" wraps; "Previous asset" is a row of its own, its value empty.
    const lines: [string, string][] = [
      ['Change', 'Net fund'],
      ['Direct revenue', '431'],
      ['Reduces costs where', '1,004'],
      ['possible', ''],
      ['Previous asset', ''],
      ['Median asset', '4,161'],
    ];
    const words = lines.flatMap(([label, value], r) => [...lineWords(label, 100, 200 + r * 16), ...(value ? lineWords(value, 300, 200 + r * 16) : [])]);
    const [table] = findTables(page(words), NO_GRAPHICS, new Set(), false).tables;
    expect(tableRows(table)).toEqual([['Change', 'Net fund'], ['Direct revenue', '431'], ['Reduces costs where possible', '1,004'], ['Previous asset', ''], ['Median asset', '4,161']]);
  });

  it("are not a table of contents set in a narrow column, whose last entry's title wraps under its section's number", () => {
    // "4.2.1" stands alone beside its page number; its title runs on in the lines below it.
    const entries: [string, string][] = [['1 Financial process', '4'], ['2 Partial transfer', '7'], ['3 Absolute member', '11'], ['4.1 External transfer', '12'], ['4.2.1', '13']];
    const words = [
      ...entries.flatMap(([entry, number], r) => [...lineWords(entry, 60, 200 + r * 16), ...lineWords(number, 190, 200 + r * 16)]),
      ...lineWords('External decline', 90, 280),
      ...lineWords('for query', 90, 292),
    ];
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
  });

  it("are not a scanned table of contents whose page numbers go down only where OCR read one with doubt, or once among entries numbered as sections", () => {
    // "11" misread as "31": read with doubt, the order is judged without it.
    const entries: [string, string][] = [['1 Fixed process', '6'], ['1.1 Global budget', '7'], ['1.2 Main tax', '9'], ['2 Positive dose', '31'], ['2.1 Key patient', '11'], ['2.2 Total period', '12']];
    const contents = (confidence: number, numbered = true) =>
      entries.flatMap(([entry, number], r) => [
        ...lineWords(numbered ? entry : entry.replace(/^[\d.]+ /, ''), 100, 200 + r * 16, { confidence: 96 }),
        ...lineWords(number, 480, 200 + r * 16, { confidence: number === '31' ? confidence : 96 }),
      ]);
    expect(findTables(page(contents(70)), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
    // Read surely, the entries' sections' numbers still tell a table of contents with one number misread.
    expect(findTables(page(contents(95)), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
    // Labels beside counts that rise but once are a table's.
    expect(findTables(page(contents(95, false)), NO_GRAPHICS, new Set(), false).tables).toHaveLength(1);
  });

  it('are two where a caption stands between two tables stacked in one column', () => {
    const first = [['Protocol', 'Region'], ['National trial', '569'], ['Absolute station', '81,564'], ['Open record', '1,203']];
    const second = [['Method', 'Fee'], ['Total coefficient', '1,438'], ['Annual matrix', '2,973'], ['Direct index', '411']];
    const rowsAt = (table: string[][], y0: number) => table.flatMap(([label, value], r) => [...lineWords(label, 100, y0 + r * 16), ...lineWords(value, 260, y0 + r * 16)]);
    const words = [...rowsAt(first, 200), ...lineWords('Table 2: High fee by method', 100, 264), ...rowsAt(second, 282)];
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([first, second]);
  });

  it('are two where a line set at a heading size stands between two stretches of rows', () => {
    const first = [['Protocol', 'Region'], ['National trial', '569'], ['Absolute station', '81,564']];
    const second = [['Method', 'Fee'], ['Total coefficient', '1,438'], ['Annual matrix', '2,973']];
    const rowsAt = (table: string[][], y0: number) => table.flatMap(([label, value], r) => [...lineWords(label, 100, y0 + r * 16), ...lineWords(value, 260, y0 + r * 16)]);
    const words = [...rowsAt(first, 200), ...lineWords('Costs by method', 100, 250, { size: 14 }), ...rowsAt(second, 270)];
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([first, second]);
  });

  it('part figures from a column of words set a font size after them, in every row', () => {
    // Amounts end at x 236, words start at 246: a font size apart, no wider than a cell's padding.
    const body = [['Elena Andersen', '48,699.39', 'total'], ['Secondary estimate', '629', 'system'], ['Short station', '13,151.56', 'node'], ['Rosa Becker', '(19,315.63)', 'order'], ['Final office', '69,640.08', 'dose']];
    const words = body.flatMap(([label, amount, word], r) => [...lineWords(label, 52, 200 + r * 16), ...lineWords(amount, 236 - amount.length * 5, 200 + r * 16), ...lineWords(word, 246, 200 + r * 16)]);
    const [table] = findTables(page(words), NO_GRAPHICS, new Set(), false).tables;
    expect(tableRows(table)).toEqual(body);
  });

  it('join a line holding the wrapped ends of some cells to its row where its pitch is the rows\' own', () => {
    // Every line 12 apart. The first row's label and note break where the next word would not
    // fit in their columns' widest lines; the line holding their ends leaves the figure's column empty.
    const lines = [
      ['Name', 'Count', 'Note'],
      ['With made', '353', 'like special'],
      ['process on loan', '', 'has over'],
      ['Paul Keller', '28', 'loan'],
      ['Net graph', '711', 'same'],
      ['Open deposit', '95', 'kept'],
    ];
    const words = lines.flatMap((cells, r) => cells.flatMap((text, c) => (text ? lineWords(text, [60, 150, 200][c], 200 + r * 12) : [])));
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([
      [['Name', 'Count', 'Note'], ['With made process on loan', '353', 'like special has over'], ['Paul Keller', '28', 'loan'], ['Net graph', '711', 'same'], ['Open deposit', '95', 'kept']],
    ]);
  });

  it('join a label wrapped onto a second line by the pitch of its lines, and keep a row with an empty cell apart', () => {
    // Rows stand 16 apart, the lines of one cell 11: "Egypt / (Upper)" is one label; "Jordan" below
    // it, at the rows' pitch, starts a row though it leaves "Paid" empty.
    const words = [
      ...grid(rows.slice(0, 2)),
      ...grid([['Egypt', '6.60', '4.02']], 232),
      ...lineWords('(Upper)', 100, 243),
      ...grid([['Jordan', '4.20']], 259),
      ...grid([['Libya', '1.10', '0.90']], 275),
    ];
    const [table] = findTables(page(words), NO_GRAPHICS, new Set(), false).tables;
    expect(tableRows(table)).toEqual([...rows.slice(0, 2), ['Egypt (Upper)', '6.60', '4.02'], ['Jordan', '4.20', ''], ['Libya', '1.10', '0.90']]);
  });

  it('run across the gutter of a two-column page when every row has cells on both sides', () => {
    // Two columns of prose (left 60-290, right 320-550) above and below a table whose labels stand
    // in the left column and its figures in the right one.
    const table = [
      ['Region', 'Sales', 'Share'],
      ['North', '120', '40%'],
      ['South', '90', '30%'],
      ['East', '90', '30%'],
    ];
    expect(tablesBetweenProse(table, (_, c) => [60, 400, 500][c])).toEqual([table]);
  });

  it('run across the gutter when a column of figures stands on it and one label runs long', () => {
    // The same two page columns (gutter at 290-320); the table's figures stand across the gutter
    // (295-320) and one of its labels holds seven words, as long as a line of prose.
    const table = [
      ['Region', 'Sales', 'Note'],
      ['North', '12,120', 'up'],
      ['the south coast and its many small harbours', '9,090', 'flat'],
      ['East', '9,590', 'down'],
    ];
    expect(tablesBetweenProse(table, (text, c) => [60, 320 - text.length * 5, 420][c])).toEqual([table]);
  });

  it("run across the gutter when the cell of a two-row head that spans both rows stands between them, on one side", () => {
    // The head's top row names two groups of two columns each, one group in each page column, its
    // second row the columns; "Region" spans both rows, set at their middle: a row of its own, with
    // text on the left of the gutter only.
    const x = [60, 160, 230, 400, 480];
    const head = [...lineWords('Retail', 180, 200), ...lineWords('Online', 420, 200), ...lineWords('Region', 60, 210), ...['Units', 'Share', 'Units', 'Share'].flatMap((text, c) => lineWords(text, x[c + 1], 220))];
    const body = [
      ['North', '120', '40%', '80', '20%'],
      ['South', '90', '30%', '60', '15%'],
      ['East', '90', '30%', '70', '18%'],
    ];
    const bodyWords = body.flatMap((row, r) => row.flatMap((text, c) => lineWords(text, x[c], 236 + r * 16)));
    const tables = findTables(page([...twoColumnProse(150), ...head, ...bodyWords, ...twoColumnProse(300)]), NO_GRAPHICS, new Set(), false).tables.map(tableRows);
    expect(tables).toHaveLength(1);
    expect(tables[0].slice(-3)).toEqual(body);
    expect(tables[0].flat()).toEqual(expect.arrayContaining(['Retail', 'Online', 'Region', 'Units', 'Share']));
  });

  it('read two columns of words as a table under a caption that names one, and as text without it', () => {
    // Both columns hold short phrases of words, as a list set in two columns does.
    const cells = [
      ['Product', 'Method'],
      ['Strategic issue', 'total reach'],
      ['Public design', 'good great get'],
      ['Transfer item', 'years shows supplier'],
      ['Full service', 'assumes first system'],
    ].flatMap((row, r) => row.flatMap((text, c) => lineWords(text, [100, 250][c], 220 + r * 14)));
    const caption = lineWords('Table 8: Old analysis in item', 100, 204);
    expect(findTables(page(cells), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
    const [table] = findTables(page([...caption, ...cells]), NO_GRAPHICS, new Set(), false).tables;
    expect(tableRows(table)).toEqual([
      ['Product', 'Method'],
      ['Strategic issue', 'total reach'],
      ['Public design', 'good great get'],
      ['Transfer item', 'years shows supplier'],
      ['Full service', 'assumes first system'],
    ]);
  });

  it("keep the rows of a symbol list apart where a math symbol's loose box reaches into the next row", () => {
    // PDF readers give a math symbol the font's full ascent and descent: on GeoTopo's list of
    // symbols (page 112) cmsy's "×" is 19 pt tall at a 13.6 pt line pitch, and the rows here copy
    // those points. Before, each such box chained its row to the next into one. "Pot(M)" is set closer than a font
    // size to its text and ends inside the column gap: still a cell of its own, not one spanning
    // both columns. The "∈" of the last description, drawn with the same loose box, stays in place.
    const list = [
      ['AC', 'Komplement von A'],
      ['A×B', 'Kreuzprodukt'],
      ['Pot(M)', 'Potenzmenge von M'],
      ['A∪B', 'Vereinigung'],
      ['π1', 'Raum X um x ∈ X'],
    ];
    // Text boxes 13.7 pt tall at that pitch, as PDFium gives them, touch the next row's.
    const loose = (w: Word, top: number, height: number): Word => ({ ...w, box: { ...w.box, y0: top, y1: top + height } });
    const words = list.flatMap(([symbol, text], r) => {
      const y = 200 + r * 13.6;
      const sign = symbol.length === 3 ? loose(word(symbol, 100, y), y - 0.2, 19) : loose(word(symbol, 100, y), y - 2, 13.7);
      const description = lineWords(text, symbol === 'Pot(M)' ? 136 : 140, y).map((w) => (w.text === '∈' ? loose(w, y - 0.1, 19) : w.text.length === 1 ? loose(w, y + 0.1, 10.9) : loose(w, y - 2, 13.7)));
      return [sign, ...description];
    });
    const [table] = findTables(page(words), NO_GRAPHICS, new Set(), false).tables;
    expect(tableRows(table)).toEqual(list);
    expect(table.cells.every((c) => c.columnSpan === 1)).toBe(true);
  });

  it('keep a column of short descriptions, one a row and ending well inside their column, as a table', () => {
    const rows = [
      ['alpha', '12', 'the first of the runs'],
      ['beta', '7', 'a second run made late at night'],
      ['gamma', '31', 'runs kept for the record'],
      ['delta', '4', 'the last run of all'],
    ];
    const words = rows.flatMap(([name, count, text], r) => [word(name, 60, 200 + r * 14), word(count, 130, 200 + r * 14), ...lineWords(text, 170, 200 + r * 14)]);
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([rows]);
  });

  /** Words justified across `measure` from x0: every space between them alike, the last word ending at the measure's end. */
  const justified = (texts: string[], x0: number, y0: number, measure: number) => {
    const width = texts.reduce((sum, t) => sum + t.length * 5, 0);
    return texts.map((t, i) => word(t, x0 + texts.slice(0, i).reduce((sum, u) => sum + u.length * 5, 0) + (i * (measure - width)) / (texts.length - 1), y0));
  };
  /** Words spread across a 150-wide page column, as a justified line sets a few long words. */
  const spreadAcross = (texts: string[], x0: number, y0: number) => texts.map((t, i) => word(t, x0 + (i * (150 - texts[texts.length - 1].length * 5)) / (texts.length - 1), y0));
  /** A title across three narrow page columns (x 60, 240, 420; 150 wide), each of nine lines made by `line`. */
  const threeColumns = (line: (r: number, x: number, y: number) => Word[]) => [
    ...lineWords('An annual report on the state of the mill and the river', 60, 60, { size: 14 }),
    ...[60, 240, 420].flatMap((x) => Array.from({ length: 9 }, (_, r) => line(r, x, 110 + r * 14)).flat()),
  ];

  it('are not made of three narrow page columns of justified prose under a title set across them', () => {
    // Justified: a line of a few long words is spread across its column, its spaces wider than a font size.
    const words = threeColumns((r, x, y) =>
      r % 3 === 0 ? lineWords('the quick brown fox jumps over', x, y) : spreadAcross(r % 3 === 1 ? ['agreements', 'between', 'neighbours'] : ['throughout', 'generations', 'afterwards'], x, y),
    );
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
  });

  it('are not made of three narrow page columns whose lines hold five words at most', () => {
    // No line runs to six words: the lines of three to five words tell the gutters.
    const words = threeColumns((r, x, y) =>
      r % 3 === 0 ? lineWords('the quick brown fox jumps', x, y) : r % 3 === 1 ? spreadAcross(['agreements', 'between', 'neighbours'], x, y) : lineWords('over the lazy dog', x, y),
    );
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
  });

  it('run across three narrow page columns and stop at the lines of prose that follow right under them', () => {
    // A table across the page (x 60-570) over three page columns of prose (x 60, 240, 420) whose
    // lines hold four words, fewer than a long cell: each such line runs on level with its
    // neighbours in the other page columns, a row of three chunks that looks like a table's.
    const table = [
      ['Region', 'Units', 'Share', 'Sales', 'Costs', 'Margin'],
      ['North', '120', '40%', '4,520', '985', '8.1%'],
      ['South', '90', '30%', '2,683', '3,803', '9.3%'],
      ['East coast', '75', '25%', '1,150', '402', '7.7%'],
    ];
    const cells = table.flatMap((row, r) => row.flatMap((text, c) => lineWords(text, [60, 150, 250, 340, 430, 520][c], 300 + r * 14)));
    const prose = [60, 240, 420].flatMap((x) => Array.from({ length: 6 }, (_, r) => lineWords(r % 2 ? 'over the lazy dog' : 'the quick brown fox', x, 372 + r * 14)).flat());
    const above = threeColumns((r, x, y) => lineWords(r % 2 ? 'over the lazy dog' : 'the quick brown fox', x, y));
    expect(findTables(page([...above, ...cells, ...prose]), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([table]);
  });

  it('are not made of justified lines of a narrow page column that hold a figure among their words', () => {
    // In the third page column, three lines of three words justified across it, the first and
    // last with a figure: each line's words stand under the words of the next, as cells do.
    const spreadLines = [
      ['national', '279', 'français'],
      ['review', 'are', 'large'],
      ['parameter', 'from', '19.2%'],
    ];
    const words = threeColumns((r, x, y) => (x === 420 && r >= 3 && r < 6 ? justified(spreadLines[r - 3], x, y, 150) : lineWords('the quick brown fox jumps over', x, y)));
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
  });

  it("are not made of a list's justified lines, the marker at the list's own indent", () => {
    // Justified in a 200-wide column: the spaces widened past a font size; the last line of the
    // first item is short, and the second item's marker stands 4 pt before its first word.
    const justify = (texts: string[], x0: number, y0: number) => justified(texts, x0, y0, 200);
    const words = [
      ...lineWords('3.', 300, 100),
      ...justify(['Must', 'gross', 'by', 'final', 'review'], 314, 100),
      ...justify(['protocol', 'previous', 'great', 'year'], 314, 114),
      ...lineWords('local some.', 314, 128),
      ...lineWords('4.', 300, 142),
      ...justify(['Measures', 'is', 'measures', 'also'], 314, 142),
    ];
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
  });

  it('are not made of justified lines that stand level across the gutter of a two-column page', () => {
    // Two page columns (x 60 and 320, 230 wide) of justified prose: on three lines running level
    // on both sides the setter widened the spaces past a font size, so each breaks into words.
    const spread = (texts: string[], x0: number, y0: number) => justified(texts, x0, y0, 230);
    const words: Word[] = [];
    for (const x of [60, 320]) {
      for (let r = 0; r < 9; r++) {
        const y = 100 + r * 14;
        words.push(...(r >= 3 && r < 6 ? spread(['agreements', 'between', 'neighbours', 'across', 'time'], x, y) : lineWords('the quick brown fox jumps over the lazy dog', x, y)));
      }
    }
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
  });

  it("leave out a note set right under the last row of a table ruled under its header, and the note's wrapped second line", () => {
    const rows = [
      ['Region', 'Units', 'Share'],
      ['North', '12', '40%'],
      ['South', '18', '60%'],
    ];
    // Ruled above and below the header only.
    const cells = rows.flatMap((cells, r) => cells.map((t, c) => word(t, [60, 160, 230][c], 200 + r * 12)));
    // The note's words happen to fall inside the columns, as a row's would.
    const note = [...lineWords('Source: offices', 60, 236), ...lineWords('and the', 160, 236), ...lineWords('survey in', 230, 236), ...lineWords('the spring, rounded', 60, 248)];
    const rules = graphics([h(198, 55, 280), h(211, 55, 280)]);
    expect(findTables(page([...cells, ...note]), rules, new Set(), false).tables.map(tableRows)).toEqual([rows]);
  });

  // Rows of cells set at `xs` from `top`, each `pitch` below the last; an empty cell holds no word.
  const rowsAt = (rows: string[][], xs: number[], top: number, pitch = 14) => rows.flatMap((cells, r) => cells.flatMap((t, c) => (t ? [word(t, xs[c], top + r * pitch)] : [])));

  // Two tables stacked in one column, the second narrower, each row `pitch` below the last.
  const stacked = {
    first: [
      ['Region', 'Units', 'Share', 'Trend'],
      ['North', '12', '40%', 'up'],
      ['South', '18', '60%', 'down'],
    ],
    second: [
      ['Item', 'Cost'],
      ['Paper', '3,176'],
      ['Ink', '4,447'],
    ],
    cells: (rows: string[][], top: number, pitch: number) => rowsAt(rows, [60, 160, 230, 300], top, pitch),
  };

  it("end at a note: two unruled tables stacked with the first one's note between them are two tables", () => {
    const { first, second, cells } = stacked;
    // The note's line and the second table follow at the rows' own spacing.
    const note = lineWords('Note: units in thousands.', 60, 236);
    const tables = findTables(page([...cells(first, 200, 12), ...note, ...cells(second, 254, 12)]), NO_GRAPHICS, new Set(), false).tables;
    expect(tables.map(tableRows)).toEqual([first, second]);
  });

  it('end at a rule that another rule follows with no text between: two tables ruled across, stacked', () => {
    const { first, second, cells } = stacked;
    // Each table ruled over and under its header and under its last row; the first one's foot
    // and the second one's head 6 points apart, the tables at their rows' own spacing.
    const lines = [h(198, 55, 340), h(211, 55, 340), h(240, 55, 340), h(246, 55, 200), h(259, 55, 200), h(288, 55, 200)];
    const tables = findTables(page([...cells(first, 200, 14), ...cells(second, 248, 14)]), graphics(lines), new Set(), false).tables;
    expect(tables.map(tableRows)).toEqual([first, second]);
    // One rule between two rows (or a cell's border over the next one's, two points apart) is a
    // row's border: the rows stay one table.
    const more = [
      ['East', '9', '30%', 'flat'],
      ['West', '21', '45%', 'up'],
      ['Centre', '7', '25%', 'down'],
    ];
    const one = findTables(page(cells([...first, ...more], 200, 14)), graphics([h(198, 55, 340), h(211, 55, 340), h(240, 55, 340), h(242, 55, 340)]), new Set(), false).tables;
    expect(one).toHaveLength(1);
    expect(tableRows(one[0])).toHaveLength(6);
  });

  it('part where the columns change: two unruled tables stacked with nothing between them are two', () => {
    // At the rows' own spacing, no rule, note or caption between. The second one's descriptions
    // run right across the first one's column gaps, and the first one's office names across the
    // second one's gap after its items.
    const first = [
      ['Office', 'Units', 'Share', 'Trend'],
      ['Northern region', '12', '40%', 'up'],
      ['Southern region', '18', '60%', 'down'],
      ['Eastern region', '9', '30%', 'flat'],
    ];
    const second = [
      ['Item', 'Description', 'Qty', 'Cost'],
      ['Paper', 'stock for spring print', '40', '3,176'],
      ['Ink', 'black and four colours', '12', '4,447'],
      ['Toner', 'cartridges for printers', '6', '1,210'],
      ['Card', 'white for the covers', '25', '2,020'],
    ];
    const words = [...rowsAt(first, [60, 160, 230, 300], 200), ...rowsAt(second, [60, 110, 250, 300], 256)];
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([first, second]);
    // The first one's last office name wraps onto a line of its own, closer to its row than to
    // the second table: it stays in the first.
    const wrapped = [...rowsAt(first, [60, 160, 230, 300], 200), word('office', 60, 253), ...rowsAt(second, [60, 110, 250, 300], 270)];
    const [upper, lower] = findTables(page(wrapped), NO_GRAPHICS, new Set(), false).tables.map(tableRows);
    expect(upper.flat()).toContain('Eastern region office');
    expect(lower).toEqual(second);
  });

  it('part a table of narrow columns stacked under one of wide columns whose text falls within them, and a narrower table under a wider one', () => {
    // Nothing between them, at the rows' own spacing. The upper one's text stands within the lower
    // one's columns and the lower one's within the upper one's, so neither runs across a gap of
    // the other; but every lower row sets text in the two gaps that every upper row keeps open.
    const first = [
      ['Item', 'Charge', 'Layer'],
      ['Median', '61.0%', '83.07'],
      ['Small', '52.1%', '8.86'],
      ['Public', '20.0%', '6.76'],
    ];
    const second = [
      ['Design', 'Margin', 'Primary', 'Chapter', 'Board'],
      ['Quarter', '656', '35', '40.12', '1,950'],
      ['Irene', '617', '19.26', '50.64', '1,019'],
      ['Hugo', '16.04', '634', '240', '2,774'],
    ];
    const words = [...rowsAt(first, [60, 230, 400], 200), ...rowsAt(second, [60, 140, 230, 320, 400], 256)];
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([first, second]);
    // A narrower table under a wider one, its columns under the wider one's first three: every
    // row of the wider one (its total too) holds text right of the narrower one's last column.
    const wide = [
      ['Program', 'Order', 'Issue', 'Sensor', 'Agency'],
      ['Partial plan', '4,439', '89.7%', '4,637', '188'],
      ['Tara Novak', '86,994', '35.5%', '2,637', '642'],
      ['Total', '91,433', '', '7,274', '830'],
    ];
    const narrow = [
      ['Charge', 'Balance', 'Matrix'],
      ['Global signal', '68,246', '92,138'],
      ['Small goal', '3,599', '67,774'],
      ['Jonas Costa', '87', '388'],
    ];
    const wideWords = rowsAt(wide, [60, 160, 230, 300, 370], 200);
    const stackedNarrow = [...wideWords, ...rowsAt(narrow, [60, 160, 230], 256)];
    expect(findTables(page(stackedNarrow), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([wide, narrow]);
    // The last rows of one table whose figures a scan's reading lost stop short of its last
    // columns too, but hold no figures: they stay its rows.
    const lost = [
      ['Report', 'Goal', 'Board', 'Share'],
      ['Financial record', 'service', '2,655', '12%'],
      ['Tara Torres', 'result', '1,879', '8%'],
      ['Annual growth', 'fee', '952', '4%'],
      ['Karin Andersen', 'item', '', ''],
      ['Current field', 'design', '', ''],
      ['Annual discount', 'committee', '', ''],
    ];
    const lostWords = rowsAt(lost, [60, 160, 230, 300], 200);
    expect(findTables(page(lostWords), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([lost]);
    // One table whose column stands empty in its first rows under its header's name, or whose
    // last rows (a subtotal, a tax, a total) leave columns empty, stays one.
    const late = [
      ['Design', 'Margin', 'Primary', 'Chapter', 'Board'],
      ['Quarter', '', '35', '', '1,950'],
      ['Irene', '', '19.26', '', '1,019'],
      ['Hugo', '', '634', '', '2,774'],
      ['Olga', '12.5', '71', '3.2', '1,230'],
      ['Nils', '16.04', '88', '240', '2,010'],
      ['Rosa', '617', '19', '50.64', '1,880'],
      ['Subtotal', '', '', '', '12,863'],
      ['Tax', '', '', '', '2,573'],
      ['Total', '', '', '', '15,436'],
    ];
    const lateWords = rowsAt(late, [60, 140, 230, 320, 400], 200);
    expect(findTables(page(lateWords), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([late]);
  });

  it('part a table of a header and one row from a table stacked under it in columns of its own', () => {
    // At the rows' own spacing, nothing between. The lower one's labels run right across the
    // upper one's column gaps; both upper lines set text in the gap after the lower one's labels.
    const first = [
      ['Sample', 'Method', 'Agency', 'Item', 'Record'],
      ['Long design', '737', '15.9%', '41.5%', '(979)'],
    ];
    const second = [
      ['Agency', 'Large customer', 'Transfer'],
      ['Rosa Rossi', '23,985.80', '272'],
      ['Then which method minor after', '56,832.39', '3,809'],
      ['Assumes indicates supports', '6,345.60', '3,052'],
      ['Global invoice', '42,821.12', '2,018'],
    ];
    const words = [...rowsAt(first, [60, 130, 175, 225, 275], 200), ...rowsAt(second, [60, 340, 420], 228)];
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([first, second]);
  });

  it('stay one where a column\'s text is short in some rows and long in others, or a column is empty in the first rows', () => {
    const rows = [
      ['Item', 'Notes', 'Qty', 'Cost'],
      ['Paper', 'stock', '', '3,176'],
      ['Ink', 'black', '', '4,447'],
      ['Card', 'white', '', '2,020'],
      ['Toner', 'cartridges for printers', '12', '1,210'],
      ['Labels', 'sheets of forty-eight', '40', '310'],
      ['Folders', 'blue with two pockets', '25', '575'],
    ];
    const words = rowsAt(rows, [60, 110, 250, 290], 200);
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables.map(tableRows)).toEqual([rows]);
  });

  it('are not a listing read from a scan, its words at one width per character and carrying program syntax', () => {
    // No font names a code face (the words are OCR's): the test's words are all set at one width
    // per character, and the listing's lines carry braces, semicolons and calls.
    // Comments aligned after the code make a third column.
    const listing = [
      ['1', 'let total = 0;', '// sum'],
      ['2', 'for (const row of rows) {', '// each row'],
      ['3', 'total += price(row);', '// add'],
      ['4', '}', '// done'],
      ['5', 'return total;', '// result'],
    ];
    const words = listing.flatMap(([number, code, comment], r) => [word(number, 100, 200 + r * 14), ...lineWords(code, 140, 200 + r * 14), ...lineWords(comment, 300, 200 + r * 14)]);
    expect(findTables(page(words), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
  });

  it('are a small table whose words stand at one width per character, though OCR glued a unit to its name', () => {
    // A header and one row under a rule, every word at one width per character as the test's
    // words are; "Tax(CHF)" reads like a call, but one word is no listing.
    const words = [...lineWords('Region name', 100, 200), word('Tax(CHF)', 200, 200), ...lineWords('Secondary fund', 280, 200), ...lineWords('Maria Hansen', 100, 220), word('89,383.24', 200, 220), word('87', 280, 220)];
    const { tables } = findTables(page(words), graphics([h(196, 95, 360), h(214, 95, 360), h(234, 95, 360)]), new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Region name', 'Tax(CHF)', 'Secondary fund'],
        ['Maria Hansen', '89,383.24', '87'],
      ],
    ]);
  });

  it('are not made of two columns of prose, a bulleted list, or display formulas', () => {
    const prose: Word[] = [];
    for (let i = 0; i < 8; i++) {
      prose.push(...lineWords('the quick brown fox jumps over the dog', 72, 100 + i * 14), ...lineWords('a lazy afternoon in the quiet garden path', 320, 100 + i * 14));
    }
    expect(findTables(page(prose), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
    const list = ['Reported as not relevant', 'Generates many questions', 'Patients choose one answer'].flatMap((t, i) => [word('•', 100, 100 + i * 14), ...lineWords(t, 130, 100 + i * 14)]);
    expect(findTables(page(list), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
    const formula = [
      ['f(x)', '=', 'x + 1'],
      ['g(x)', '=', '2x'],
      ['h(x)', '⇒', 'f ∘ g'],
    ];
    expect(findTables(page(grid(formula)), NO_GRAPHICS, new Set(), false).tables).toEqual([]);
  });
});

describe('tables in papers', () => {
  const proseLine = (x0: number, y: number): Word[] => Array.from({ length: 7 }, (_, i) => word(['alpha', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'theta'][i], x0 + i * 28, y));
  const resultRow = (cells: string[], y: number): Word[] => cells.flatMap((text, i) => (text ? lineWords(text, [109, 160, 205, 240, 275][i], y) : []));
  // Results in groups, each group's name in its first row alone.
  const groupedResults = [
    ['Data', 'Method', 'P', 'R', 'F1'],
    ['Alpha', 'Base', '88.2', '86.1', '87.1'],
    ['', 'Ours', '91.4', '90.7', '91.0'],
    ['', 'Large', '92.8', '91.9', '92.3'],
    ['Beta', 'Base', '84.0', '83.2', '83.6'],
    ['', 'Ours', '90.1', '90.4', '90.2'],
  ];
  const resultRows = (rows: string[][], ys: number[]): Word[] => rows.flatMap((cells, k) => resultRow(cells, ys[k]));

  it('find a table in one page column beside prose in the other, the columns set only a font size apart', () => {
    // Two columns of prose whose lines end 10 points (one font size) short of the next column's:
    // TeX's default gap, too narrow to part a line into cells, but no line's own spaces are so wide.
    const words: Word[] = [];
    for (let k = 0; k < 20; k++) words.push(...proseLine(312, 100 + 12 * k));
    for (let k = 0; k < 6; k++) words.push(...proseLine(109, 100 + 12 * k));
    words.push(...resultRow(['Data', 'Method', 'P', 'R', 'F1'], 176));
    words.push(...resultRow(['Alpha', 'Base', '88.2', '86.1', '87.1'], 190));
    words.push(...resultRow(['Beta', 'Ours', '91.4', '90.7', '91.0'], 204));
    words.push(...resultRow(['Gamma', 'Base', '84.0', '83.2', '83.6'], 218));
    for (let k = 0; k < 6; k++) words.push(...proseLine(109, 244 + 12 * k));
    const { tables } = findTables(page(words), NO_GRAPHICS, new Set(), false);
    expect(tables).toHaveLength(1);
    expect(tableRows(tables[0])).toEqual([
      ['Data', 'Method', 'P', 'R', 'F1'],
      ['Alpha', 'Base', '88.2', '86.1', '87.1'],
      ['Beta', 'Ours', '91.4', '90.7', '91.0'],
      ['Gamma', 'Base', '84.0', '83.2', '83.6'],
    ]);
  });

  it('find a table in one page column of 12-point type set 10 points from the next, as LaTeX sets columns whatever the size', () => {
    const size = 12;
    const prose = (x0: number, y: number) => lineWords('alfa beta gama dela omga sigm', x0, y, { size });
    const [left, right] = [50, 222];
    const words: Word[] = [];
    for (let k = 0; k < 16; k++) words.push(...prose(left, 100 + 15 * k));
    for (let k = 0; k < 4; k++) words.push(...prose(right, 100 + 15 * k));
    const row = (cells: string[], y: number) => cells.flatMap((text, i) => lineWords(text, [right, 290, 340][i], y, { size }));
    words.push(...row(['Data', 'Base', 'Ours'], 170), ...row(['Alpha', '88.2', '91.4'], 186), ...row(['Beta', '84.0', '90.1'], 202), ...row(['Gamma', '79.5', '85.3'], 218));
    for (let k = 0; k < 4; k++) words.push(...prose(right, 245 + 15 * k));
    const { tables } = findTables(page(words), NO_GRAPHICS, new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Data', 'Base', 'Ours'],
        ['Alpha', '88.2', '91.4'],
        ['Beta', '84.0', '90.1'],
        ['Gamma', '79.5', '85.3'],
      ],
    ]);
  });

  it('keep a table across the page between two columns of prose whole, a long label wrapped onto a line of its own', () => {
    // Prose in two page columns above and below; the table runs across the gutter, its labels'
    // column 160 points wide, one label wrapped over two lines.
    const size = 10;
    const prose = (x0: number, y: number) => lineWords('alfa beta gama dela omga sigm teta kapa', x0, y, { size });
    const words: Word[] = [];
    for (let k = 0; k < 6; k++) words.push(...prose(50, 100 + 12 * k), ...prose(300, 100 + 12 * k));
    const xs = [50, 210, 270, 330, 390, 450, 510];
    const row = (cells: string[], y: number) => cells.flatMap((text, i) => (text ? lineWords(text, xs[i], y, { size }) : []));
    words.push(...row(['Name', 'North', 'South', 'East', 'West', 'Mid', 'All'], 190));
    words.push(...row(['Alpha', '12', '40', '7', '3', '9', '71'], 204));
    // Its cells set at the foot of the row: the label's first line stands alone, six words long.
    words.push(...row(['Own priv net inv mig by', '', '', '', '', '', ''], 218));
    words.push(...row(['provides', '31', '22', '8', '5', '2', '68'], 230));
    words.push(...row(['Gamma', '19', '11', '6', '4', '1', '41'], 244));
    for (let k = 0; k < 6; k++) words.push(...prose(50, 274 + 12 * k), ...prose(300, 274 + 12 * k));
    const { tables } = findTables(page(words), NO_GRAPHICS, new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Name', 'North', 'South', 'East', 'West', 'Mid', 'All'],
        ['Alpha', '12', '40', '7', '3', '9', '71'],
        ['Own priv net inv mig by provides', '31', '22', '8', '5', '2', '68'],
        ['Gamma', '19', '11', '6', '4', '1', '41'],
      ],
    ]);
  });

  it("keep the rows of a group whose name stands in its first row only apart: a figure under a figure starts a row", () => {
    const words = resultRows(groupedResults, [100, 114, 126, 138, 152, 164]);
    const { tables } = findTables(page(words), NO_GRAPHICS, new Set(), false);
    expect(tables).toHaveLength(1);
    expect(tableRows(tables[0])).toEqual(groupedResults);
  });

  it('keep such rows apart in a table ruled only above and under its header and body, as a browser sets it', () => {
    // Rules drawn a cell at a time (their joints part the columns) above and under the header and
    // under the body; the body's rows stand at one pitch, no rule between them.
    const cuts = [100, 155, 200, 235, 270, 300];
    const rule = (y: number) => cuts.slice(0, -1).map((x, i) => h(y, x, cuts[i + 1]));
    const rules = graphics([...rule(94), ...rule(112), ...rule(174)]);
    const words = resultRows(groupedResults, [100, 114, 126, 138, 150, 162]);
    const { tables } = findTables(page(words), rules, new Set(), false);
    expect(tables.map(tableRows)).toEqual([groupedResults]);
  });

  it('keep a label wrapped beside two ruled rows of figures whole', () => {
    // Each label's cell spans two rows, ruled apart in the other columns only: "Count" and
    // "Percentage" rows of figures, the label's second line beside the second row.
    const xs = [100, 180, 240, 290, 340];
    const segments = [
      ...[100, 130, 160].map((y) => h(y, 100, 340)),
      ...[115, 145].map((y) => h(y, 180, 340)),
      ...xs.map((x) => v(x, 100, 160)),
    ];
    const words = [
      ...lineWords('Chronic fatigue', 103, 102), ...lineWords('Count', 183, 102), word('19', 243, 102), word('4', 293, 102),
      word('syndrome', 103, 117), ...lineWords('Percentage', 183, 117), word('3.8%', 243, 117), word('0.8%', 293, 117),
      word('Asthma', 103, 132), ...lineWords('Count', 183, 132), word('31', 243, 132), word('22', 293, 132),
      ...lineWords('Percentage', 183, 147), word('6.3%', 243, 147), word('4.4%', 293, 147),
    ];
    const { tables } = findTables(page(words), graphics(segments), new Set(), false);
    expect(tables).toHaveLength(1);
    expect(tables[0].cells.find((c) => c.text.startsWith('Chronic'))).toMatchObject({ text: 'Chronic fatigue syndrome', row: 0, rowSpan: 2 });
    expect(tables[0].cells.find((c) => c.text === 'Asthma')).toMatchObject({ row: 2, rowSpan: 2 });
  });

  it('keep the rows of a shaded body apart when its first rows continue a group from the page before', () => {
    // Every cell filled on its own, as a browser paints cell backgrounds: the header's grey, the
    // body's one tint (its rows' fills touch, so no border parts them). The body's first row has
    // no label (its group's name stands on the page before), so no label starts it: figures under
    // figures do.
    const cuts = [100, 155, 200, 235, 270, 310];
    const fillRow = (y0: number, y1: number, colour: number) => cuts.slice(0, -1).map((x0, i) => ({ box: { x0, y0, x1: cuts[i + 1], y1 }, filled: true, stroked: false, fill: colour }));
    const words = [
      ...resultRow(['Data', 'Method', 'P', 'R', 'F1'], 102),
      ...resultRow(['', 'Ours', '91.4', '90.7', '91.0'], 118),
      ...resultRow(['Alpha', 'Base', '88.2', '86.1', '87.1'], 130),
      ...resultRow(['', 'Ours', '90.1', '90.4', '90.2'], 142),
      ...resultRow(['Beta', 'Base', '84.0', '83.2', '83.6'], 154),
      ...resultRow(['', 'Ours', '89.5', '88.8', '89.1'], 166),
    ];
    const { tables } = findTables(page(words), { ...NO_GRAPHICS, rects: [...fillRow(98, 115, 0xdddddd), ...[115, 127, 139, 151, 163].flatMap((y) => fillRow(y, y + 12, 0xfdf3e0))] }, new Set(), false);
    expect(tables).toHaveLength(1);
    expect(tableRows(tables[0]).map((row) => row.slice(-3))).toEqual([
      ['P', 'R', 'F1'],
      ['91.4', '90.7', '91.0'],
      ['88.2', '86.1', '87.1'],
      ['90.1', '90.4', '90.2'],
      ['84.0', '83.2', '83.6'],
      ['89.5', '88.8', '89.1'],
    ]);
  });

  it('count only whole figures, each with one sign of its unit, as figures under figures', () => {
    // Each pair: the upper line's words and the lower's, all in one column.
    const level = (upper: string[], lower: string[]) => {
      const words = [...upper.map((t, i) => word(t, 100 + i * 30, 100)), ...lower.map((t, i) => word(t, 100 + i * 30, 112))];
      return figuresLevel(upper.map((_, i) => i), lower.map((_, i) => upper.length + i), () => 0, words);
    };
    expect(level(['88.2'], ['91.4'])).toBe(true);
    expect(level(['€', '1,204.50'], ['(3.5%)'])).toBe(true);
    expect(level(['(90,244.6'], ['8)'])).toBe(false);
    expect(level(['46.1%', '€'], ['76,224.71'])).toBe(false);
    expect(level(['1,204.'], ['50'])).toBe(false);
    expect(level(['North'], ['12'])).toBe(false);
  });

  it('keep the halves of a figure a narrow column broke in one cell', () => {
    // "(90,244.6" over "8)": neither half is a whole figure, so the lines are one cell's, as the
    // pitch of the cell's lines (tighter than the rows') tells.
    const words = [
      ...resultRow(['Name', 'Units', 'Amount'], 100),
      ...resultRow(['North', '12', '(90,244.6'], 114),
      ...resultRow(['', '', '8)'], 123),
      ...resultRow(['South', '40', '(1,204.1'], 137),
      ...resultRow(['', '', '5)'], 146),
      ...resultRow(['East', '7', '302.5'], 160),
    ];
    const { tables } = findTables(page(words), NO_GRAPHICS, new Set(), false);
    expect(tables.map(tableRows)).toEqual([
      [
        ['Name', 'Units', 'Amount'],
        ['North', '12', '(90,244.6 8)'],
        ['South', '40', '(1,204.1 5)'],
        ['East', '7', '302.5'],
      ],
    ]);
  });
});
