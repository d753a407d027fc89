// Rows and columns of tables read from PDFs drawn the way reports set them (issue 23, scope 4):
// the mechanisms that decide a table's rows and columns, each checked on tables made here rather
// than on one corpus file.
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/pipeline/formats/pdf.js';
import { analyzeDocument } from '../../src/pipeline/layout.js';
import { tableRows } from '../../src/pipeline/tables/index.js';
import { drawnTablePdf, type DrawnTable } from '../helpers/table-pdfs.js';

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

describe('drawn tables whose body rows are not ruled', () => {
  it('read one row per label, a label wrapped onto a second line staying in its row', async () => {
    // Only the frame, the column borders and the rule under the header are drawn: the rulings
    // alone make the whole body one row. Two labels wrap in their column.
    for (const rules of ['frame', 'grid'] as const) {
      const [rows] = await tablesOf({ ...budget, rules });
      expect(rows, rules).toEqual([budget.header, ...budget.rows]);
    }
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
});
