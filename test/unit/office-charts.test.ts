// Charts in Office files (issue 23), read alike in DOCX, PPTX and XLSX: a figure captioned by the
// chart's title, a line naming its kind, and a table of its data (categories as the axis shows
// them down the first column, one column per series headed by its name).
import { describe, expect, it } from 'vitest';
import { readDocx } from '../../src/pipeline/formats/office/docx.js';
import { readPptx } from '../../src/pipeline/formats/office/pptx.js';
import type { OfficeItem } from '../../src/pipeline/formats/office/structure.js';
import { presentationPackage, slideChart, wordChart, wordPackage } from '../helpers/office.js';

/** Items as text: tables row by row, cells joined with " | ". */
function lines(items: OfficeItem[]): string[] {
  return items.flatMap((item) => {
    if (item.kind !== 'table') return ['text' in item ? `${item.kind}:${item.text}` : item.kind];
    const rows: string[][] = Array.from({ length: item.rowCount }, () => []);
    for (const cell of item.cells) rows[cell.row][cell.column] = cell.text;
    return rows.map((row) => row.join(' | '));
  });
}

describe('charts', () => {
  it('reads a Word chart as its title, its kind and its data', () => {
    const docx = wordPackage({
      body: `<w:p><w:r><w:t>Observations follow.</w:t></w:r></w:p>${wordChart('rIdChart1')}`,
      charts: { rIdChart1: { kind: 'barChart', title: 'Wild Duck Observations by Year', categories: ['2019', '2020'], series: [{ name: 'Freshwater Ducks', values: [120, 135] }, { name: 'Saltwater Ducks', values: [80, 95.5] }] } },
    });
    expect(lines(readDocx(docx)[0])).toEqual([
      'paragraph:Observations follow.',
      'figure',
      'caption:Wild Duck Observations by Year',
      'paragraph:Bar chart',
      ' | Freshwater Ducks | Saltwater Ducks',
      '2019 | 120 | 80',
      '2020 | 135 | 95.5',
    ]);
  });

  it('names a combination chart by its kinds, shows dated categories as the axis does, and captions an untitled chart by its kind', () => {
    const pptx = presentationPackage([
      {
        title: 'Revenue',
        shapes: slideChart('rIdChart1'),
        charts: { rIdChart1: { kind: 'barChart', secondKind: 'lineChart', categories: ['43466', '43497'], categoryFormat: 'mmm yyyy', series: [{ name: 'Sales', values: [10, 12] }, { name: 'Trend', values: [11, 11.5] }] } },
      },
    ]);
    expect(lines(readPptx(pptx)[0].items)).toEqual(['title:Revenue', 'figure', 'caption:Bar and line chart', ' | Sales | Trend', 'Jan 2019 | 10 | 11', 'Feb 2019 | 12 | 11.5']);
  });
});
