// Charts embedded in Office files (DrawingML chart parts) keep the data they plot in their parts:
// each series' name, categories (or x values) and values are cached there. A chart is read, in
// DOCX, PPTX and XLSX alike, as a figure captioned by its title, a line naming its kind ("Bar
// chart", "Bar and line chart"), and a table of its data: the categories (or x values) as the axis
// shows them down the first column, then one column per series headed by its name, holding the
// values as stored. So the numbers behind the picture can be read, searched and cited.
import SSF from 'ssf';
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

const NONE: XmlNode = { name: '', attrs: {}, children: [] };

/**
 * The cached points of a reference (strRef/numRef/multiLvlStrRef) or literal (strLit/numLit), by
 * index; with `formatted`, numbers shown in the cache's number format (dates as dates), else as
 * stored. Of multi-level categories the innermost level, the labels next to the axis, is read.
 */
function points(node: XmlNode | undefined, formatted = false): string[] {
  if (!node) return [];
  const reference = child(node, 'c:strRef') ?? child(node, 'c:numRef') ?? child(node, 'c:multiLvlStrRef') ?? node;
  const multiLevel = child(reference, 'c:multiLvlStrCache');
  const data = child(reference, 'c:strCache') ?? child(reference, 'c:numCache') ?? child(node, 'c:strLit') ?? child(node, 'c:numLit') ?? child(multiLevel, 'c:lvl') ?? NONE;
  const format = textOf(child(data, 'c:formatCode') ?? NONE).trim();
  const out: string[] = [];
  for (const pt of children(data, 'c:pt')) {
    const value = textOf(child(pt, 'c:v') ?? pt).trim();
    out[Number(pt.attrs.idx ?? out.length)] = formatted ? display(value, pt.attrs.formatCode ?? format) : value;
  }
  return out;
}

/** A cached number as its number format shows it; text, and numbers in the General format, as they are. */
function display(value: string, format: string): string {
  const number = Number(value);
  if (!format || format === 'General' || value === '' || !Number.isFinite(number)) return value;
  try {
    return SSF.format(format, number);
  } catch {
    return value;
  }
}

/** The chart's title: its own text, or the cell it refers to; a title without text shows the one series' name, as Office does. */
function titleOf(chart: XmlNode, series: XmlNode[]): string {
  const title = child(chart, 'c:title');
  if (!title) return '';
  const rich = descendants(title, 'a:p')
    .map((p) => descendants(p, 'a:t').map(textOf).join(''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (rich) return rich;
  const linked = points(child(title, 'c:tx')).join(' ').trim();
  if (linked) return linked;
  return series.length === 1 ? seriesName(series[0], 0) : '';
}

function seriesName(series: XmlNode, index: number): string {
  const tx = child(series, 'c:tx');
  return points(tx).join(' ').trim() || textOf(child(tx, 'c:v') ?? NONE).trim() || `Series ${index + 1}`;
}

/** "Bar chart", or for a combination of plots "Bar and line chart". */
function kindOf(plots: XmlNode[]): string {
  const kinds = [...new Set(plots.map((plot) => PLOTS[plot.name]))];
  if (kinds.length === 0) return 'Chart';
  const words = kinds.map((kind) => kind.replace(/ chart$/, ''));
  return `${[words[0], ...words.slice(1).map((w) => w.toLowerCase())].join(' and ')} chart`;
}

export function readChart(pkg: OfficePackage, part: string): OfficeItem[] {
  const chartSpace = pkg.xml(part);
  const chart = child(chartSpace ?? undefined, 'c:chart');
  if (!chart) return [];
  const plotArea = child(chart, 'c:plotArea');
  const plots = (plotArea?.children ?? []).filter((c) => PLOTS[c.name]);
  const series = plots.flatMap((plot) => children(plot, 'c:ser'));
  const title = titleOf(chart, series);
  const kind = kindOf(plots);
  // The title captions the figure; without one, the kind does.
  const items: OfficeItem[] = title ? [{ kind: 'figure', caption: null }, { kind: 'caption', text: title }, { kind: 'paragraph', text: kind }] : [{ kind: 'figure', caption: null }, { kind: 'caption', text: kind }];
  if (series.length === 0) return items;
  const columns = series.map((s, i) => ({
    name: seriesName(s, i),
    categories: points(child(s, 'c:cat') ?? child(s, 'c:xVal'), true),
    values: points(child(s, 'c:val') ?? child(s, 'c:yVal')),
  }));
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
