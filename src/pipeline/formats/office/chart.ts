// Charts embedded in Office files (DrawingML chart parts) keep the data they plot in their parts:
// each series' name, categories (or x values) and values are cached there. A chart is read as a
// figure named by its title, followed by a table of that data, so the numbers behind the picture
// can be read, searched and cited.
import { child, children, descendants, type OfficePackage, textOf, type XmlNode } from './package.js';
import type { OfficeItem } from './structure.js';

const PLOTS: Record<string, string> = {
  'c:barChart': 'Bar chart',
  'c:bar3DChart': 'Bar chart',
  'c:lineChart': 'Line chart',
  'c:line3DChart': 'Line chart',
  'c:pieChart': 'Pie chart',
  'c:pie3DChart': 'Pie chart',
  'c:doughnutChart': 'Doughnut chart',
  'c:areaChart': 'Area chart',
  'c:area3DChart': 'Area chart',
  'c:scatterChart': 'Scatter chart',
  'c:bubbleChart': 'Bubble chart',
  'c:radarChart': 'Radar chart',
  'c:stockChart': 'Stock chart',
  'c:surfaceChart': 'Surface chart',
};

/** The cached points of a reference (strRef/numRef) or literal (strLit/numLit), by index. */
function points(node: XmlNode | undefined): string[] {
  if (!node) return [];
  const cache = child(node, 'c:strRef') ?? child(node, 'c:numRef') ?? node;
  const data = child(cache, 'c:strCache') ?? child(cache, 'c:numCache') ?? child(node, 'c:strLit') ?? child(node, 'c:numLit') ?? child(cache, 'c:multiLvlStrCache');
  const out: string[] = [];
  for (const pt of descendants(data ?? { name: '', attrs: {}, children: [] }, 'c:pt')) {
    out[Number(pt.attrs.idx ?? out.length)] = textOf(child(pt, 'c:v') ?? pt).trim();
  }
  return out;
}

export function readChart(pkg: OfficePackage, part: string): OfficeItem[] {
  const chartSpace = pkg.xml(part);
  const chart = child(chartSpace ?? undefined, 'c:chart');
  if (!chart) return [];
  const titleNode = child(chart, 'c:title');
  const title = titleNode ? descendants(titleNode, 'a:t').map(textOf).join('').trim() : '';
  const plotArea = child(chart, 'c:plotArea');
  const plots = (plotArea?.children ?? []).filter((c) => PLOTS[c.name]);
  const series = plots.flatMap((plot) => children(plot, 'c:ser'));
  const kind = plots.length ? PLOTS[plots[0].name] : 'Chart';
  const items: OfficeItem[] = [{ kind: 'figure', caption: null }, { kind: 'caption', text: title || kind }];
  if (series.length === 0) return items;
  const columns = series.map((s, i) => {
    const name = points(child(s, 'c:tx')).join(' ') || textOf(child(child(s, 'c:tx'), 'c:v') ?? { name: '', attrs: {}, children: [] }) || `Series ${i + 1}`;
    return { name, categories: points(child(s, 'c:cat') ?? child(s, 'c:xVal')), values: points(child(s, 'c:val') ?? child(s, 'c:yVal')) };
  });
  const length = Math.max(...columns.map((c) => Math.max(c.values.length, c.categories.length)));
  const categories = columns.find((c) => c.categories.length > 0)?.categories ?? [];
  const cells: Extract<OfficeItem, { kind: 'table' }>['cells'] = [];
  const header = ['', ...columns.map((c) => c.name)];
  header.forEach((text, column) => cells.push({ row: 0, column, rowSpan: 1, columnSpan: 1, text }));
  for (let i = 0; i < length; i++) {
    const row = [categories[i] ?? String(i + 1), ...columns.map((c) => c.values[i] ?? '')];
    row.forEach((text, column) => cells.push({ row: i + 1, column, rowSpan: 1, columnSpan: 1, text }));
  }
  items.push({ kind: 'table', rowCount: length + 1, columnCount: header.length, cells, headerRows: 1 });
  return items;
}
