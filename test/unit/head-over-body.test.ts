// A drawn head over a body found from alignment, joined into one grid (head-over-body.ts).
import { describe, expect, it } from 'vitest';
import type { Word } from '../../src/pipeline/page-model.js';
import { fillGrid, tableRows, type CellRegion, type GridTable } from '../../src/pipeline/analysis/tables/grid.js';
import { headOverBody } from '../../src/pipeline/analysis/tables/head-over-body.js';
import { lineWords, word } from '../helpers/words.js';

const cell = (row: number, column: number, x0: number, y0: number, x1: number, y1: number, columnSpan = 1): CellRegion => ({ row, column, rowSpan: 1, columnSpan, box: { x0, y0, x1, y1 } });
const grid = (cells: CellRegion[], source: GridTable['source'], headerRows: number): GridTable => ({
  box: { x0: Math.min(...cells.map((c) => c.box.x0)), y0: Math.min(...cells.map((c) => c.box.y0)), x1: Math.max(...cells.map((c) => c.box.x1)), y1: Math.max(...cells.map((c) => c.box.y1)) },
  rowCount: Math.max(...cells.map((c) => c.row + c.rowSpan)),
  columnCount: Math.max(...cells.map((c) => c.column + c.columnSpan)),
  cells,
  source,
  headerRows,
});

// The head: "Rate", and "2023" over "Low dose" and "New forecast" in one drawn cell (x 100-200,
// 200-400; y 100-126). The body: four rows 14 apart, a label and two figures.
const body = [
  ['Financial revenue', '3,519', '904'],
  ['Passive signal', '312', '3,904'],
  ['Quarterly warehouse', '1,981', '4,195'],
  ['Secondary query', '566', '1,199'],
];
const headWords = [...lineWords('Rate', 105, 114), ...lineWords('2023', 290, 102), ...lineWords('Low dose', 215, 114), ...lineWords('New forecast', 315, 114)];
const bodyWords = body.flatMap((row, r) => [...lineWords(row[0], 105, 132 + r * 14), word(row[1], 225, 132 + r * 14), word(row[2], 345, 132 + r * 14)]);
const head = grid([cell(0, 0, 100, 100, 200, 126), cell(0, 1, 200, 100, 400, 126)], 'ruled', 1);
const bodyGrid = (top: number) =>
  grid(
    body.flatMap((_, r) => [cell(r, 0, 100, top + r * 14, 215, top + (r + 1) * 14), cell(r, 1, 215, top + r * 14, 300, top + (r + 1) * 14), cell(r, 2, 300, top + r * 14, 400, top + (r + 1) * 14)]),
    'aligned',
    0,
  );

describe('a drawn head over a body found from alignment', () => {
  it("is one table: the group's name spans the body's columns over their own headers, parted from it into a row of their own", () => {
    const words: Word[] = [...headWords, ...bodyWords];
    const whole = headOverBody(head, bodyGrid(130), words, words.map((_, i) => i));
    expect(whole).not.toBeNull();
    const filled = fillGrid(whole!, words, words.map((_, i) => i), false);
    expect(tableRows(filled!.table)).toEqual([['Rate', '2023', ''], ['', 'Low dose', 'New forecast'], ...body]);
    expect(filled!.table.cells.find((c) => c.text === '2023')).toMatchObject({ row: 0, column: 1, columnSpan: 2 });
    expect(filled!.table.cells.find((c) => c.text === 'Rate')).toMatchObject({ row: 0, rowSpan: 2 });
    expect(filled!.table.headerRows).toBe(2);
  });

  it('is two tables where text stands between them, or the body stands further down than one of its rows', () => {
    const caption = lineWords('Table 2: Rates', 105, 128);
    const words: Word[] = [...headWords, ...caption, ...bodyWords.map((w) => ({ ...w, box: { ...w.box, y0: w.box.y0 + 12, y1: w.box.y1 + 12 } }))];
    expect(headOverBody(head, bodyGrid(142), words, words.map((_, i) => i))).toBeNull();
    const apart = [...headWords, ...bodyWords.map((w) => ({ ...w, box: { ...w.box, y0: w.box.y0 + 30, y1: w.box.y1 + 30 } }))];
    expect(headOverBody(head, bodyGrid(160), apart, apart.map((_, i) => i))).toBeNull();
  });

  it("is two tables where a border of the head's cells runs through a column of the body's text", () => {
    const crossed = grid([cell(0, 0, 100, 100, 240, 126), cell(0, 1, 240, 100, 400, 126)], 'ruled', 1);
    const words: Word[] = [...headWords, ...bodyWords];
    expect(headOverBody(crossed, bodyGrid(130), words, words.map((_, i) => i))).toBeNull();
  });
});
