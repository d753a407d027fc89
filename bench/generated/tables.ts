// Tables drawn at random: their shape (columns, header rows with spanning cells, long bodies), their
// contents (labels that wrap, empty cells, amounts with currencies, percentages, negatives in
// parentheses, a currency symbol in a column of its own, totals) and their style (no rules,
// horizontal rules, full grid, zebra or coloured rows, shaded header, cells shaded instead of
// ruled). Every choice is recorded in the document's features.
import type { Random } from './random.js';
import type { Cell, TableSpec, TableStyle } from './spec.js';
import { capitalise, type Words } from './words.js';

export interface TableOptions {
  /** A long table, to run over pages (its header repeated on each). */
  long: boolean;
  /** Set in its page column of a multi-column document, whatever its width. */
  inColumn?: boolean;
  wide: boolean;
  narrow: boolean;
}

function style(random: Random, features: Set<string>, multiline: boolean): TableStyle {
  const rules = random.weighted([
    ['none', 2],
    ['horizontal', 3],
    ['grid', 3],
    ['header-only', 1],
  ] as const);
  const shadedCells = rules === 'none' && random.chance(0.4);
  const zebra = !shadedCells && random.chance(0.3);
  const coloured = (zebra || random.chance(0.15)) && random.chance(0.5);
  const headerShade = random.chance(0.45);
  features.add(`table:rules-${rules}`);
  if (shadedCells) features.add('table:shaded-cells');
  if (zebra) features.add('table:zebra');
  if (coloured) features.add('table:coloured-rows');
  if (headerShade) features.add('table:shaded-header');
  const cellAlign = random.weighted([
    ['top', 3],
    ['middle', 1],
    ['bottom', 1.5],
  ] as const);
  // Only a row taller than one of its cells shows where that cell's text stands.
  if (multiline && cellAlign !== 'top') features.add(`table:cells-${cellAlign}`);
  return { rules, zebra, headerShade, coloured, shadedCells, cellAlign, fontScale: random.pick([0.8, 0.85, 0.9, 1]), trimmedRules: random.fork(1).chance(0.5) };
}

type ColumnKind = 'label' | 'amount' | 'percent' | 'count' | 'text' | 'date' | 'currency-symbol';

export function drawTable(random: Random, words: Words, options: TableOptions, documentFeatures: Set<string>, placement: string | null = null): TableSpec {
  // This table's own variations; the document's features gather those of all its tables.
  const features = new Set<string>(placement ? [placement] : []);
  const dataColumns = options.wide ? random.int(8, 11) : options.narrow ? random.int(2, 3) : random.int(3, 6);
  const currency = random.chance(0.4) ? random.pick(['$', '€', '£', 'CHF', '¥']) : null;
  const negatives = random.weighted([
    [null, 3],
    ['parentheses', 1],
    ['minus', 1],
  ] as const);
  const kinds: ColumnKind[] = ['label'];
  for (let c = 1; c < dataColumns; c++) {
    kinds.push(
      random.weighted([
        ['amount', 4],
        ['percent', 1.5],
        ['count', 2],
        ['text', 1],
        ['date', 0.7],
      ] as const),
    );
  }
  // A currency printed in a column of its own before the amount it belongs to.
  const symbolColumn = currency !== null && currency.length === 1 && random.chance(0.3);
  if (symbolColumn) {
    const at = kinds.indexOf('amount');
    if (at > 0) kinds.splice(at, 0, 'currency-symbol');
  }
  const columns = kinds.length;
  const rowCount = options.long ? random.int(35, 70) : random.int(3, 14);
  const multiline = random.chance(0.35);
  const empties = random.chance(0.35);

  const headerText = (kind: ColumnKind): string => {
    if (kind === 'currency-symbol') return '';
    if (kind === 'label') return capitalise(words.noun());
    const unit = kind === 'amount' && currency ? ` (${currency})` : kind === 'percent' ? ' (%)' : '';
    return `${capitalise(random.chance(0.5) ? `${words.adjective()} ${words.noun()}` : words.noun())}${unit}`;
  };
  const header: Cell[][] = [];
  const headerCell = (kind: ColumnKind): Cell => ({ text: headerText(kind), align: kind === 'label' || kind === 'text' ? 'left' : 'right' });
  // Spanning header cells: a top row grouping the data columns two or three at a time, the label
  // column's header standing in both rows.
  if (columns >= 4 && random.chance(0.35)) {
    features.add('table:spanning-header');
    const top: Cell[] = [{ ...headerCell('label'), rowSpan: 2 }];
    let c = 1;
    while (c < columns) {
      const span = Math.min(columns - c, random.int(2, 3));
      top.push({ text: random.chance(0.5) ? String(random.int(2019, 2029)) : capitalise(words.noun()), colSpan: span, align: 'center' });
      c += span;
    }
    header.push(top, kinds.slice(1).map(headerCell));
  } else {
    header.push(kinds.map(headerCell));
  }

  const value = (kind: ColumnKind, row: number): string => {
    switch (kind) {
      case 'label':
        return multiline && random.chance(0.3) ? capitalise(words.words(random.int(5, 9))) : random.chance(0.3) ? words.name() : capitalise(`${words.adjective()} ${words.noun()}`);
      case 'amount': {
        const negative = negatives && random.chance(0.2) ? negatives : null;
        return words.amount({ currency: symbolColumn ? null : currency && random.chance(0.6) ? currency : null, negative });
      }
      case 'percent':
        return `${negatives === 'minus' && random.chance(0.2) ? '-' : ''}${(random.int(0, 1000) / 10).toFixed(1)}%`;
      case 'count':
        return random.int(0, 5000).toLocaleString('en-US');
      case 'date':
        return words.date();
      case 'text':
        return multiline && random.chance(0.4) ? words.words(random.int(4, 8)) : words.noun();
      case 'currency-symbol':
        return row >= 0 ? currency! : '';
    }
  };
  const body: Cell[][] = [];
  for (let r = 0; r < rowCount; r++) {
    body.push(
      kinds.map((kind, c) => {
        const blank = empties && c > 0 && kind !== 'currency-symbol' && random.chance(0.12);
        return { text: blank ? '' : value(kind, r), align: kind === 'label' || kind === 'text' ? 'left' : 'right', shaded: random.chance(0.5) };
      }),
    );
  }
  // Rows in groups, the group named in the first column of its first row only, the label cells
  // of the rows under it left empty (results by dataset, figures by region): a row with no label
  // is a row of its own, not the wrapped end of the one above.
  const grouping = random.fork(2);
  if (rowCount >= 4 && grouping.chance(0.2)) {
    features.add('table:row-groups');
    for (let r = 0; r < body.length; ) {
      const size = Math.min(body.length - r, grouping.int(2, 4));
      for (let k = r + 1; k < r + size; k++) body[k][0] = { ...body[k][0], text: '' };
      r += size;
    }
  }
  if (random.chance(0.3) && kinds.some((k) => k === 'amount' || k === 'count')) {
    features.add('table:total-row');
    body.push(kinds.map((kind, c) => ({ text: c === 0 ? 'Total' : kind === 'amount' ? words.amount({ currency: symbolColumn ? null : currency }) : kind === 'count' ? random.int(1000, 90000).toLocaleString('en-US') : kind === 'currency-symbol' ? currency! : '', align: c === 0 ? 'left' : 'right' })));
  }
  if (currency) features.add('table:currency');
  if (symbolColumn) features.add('table:currency-column');
  if (kinds.includes('percent')) features.add('table:percent');
  if (negatives === 'parentheses') features.add('table:negative-parentheses');
  if (negatives === 'minus') features.add('table:negative-minus');
  if (multiline) features.add('table:multiline-cells');
  if (empties) features.add('table:empty-cells');
  if (options.long) features.add('table:long');
  if (options.wide) features.add('table:wide');
  if (options.narrow) features.add('table:narrow');
  const caption = random.chance(0.6) ? `Table ${random.int(1, 12)}: ${words.headingText()}` : null;
  // A note, or the table's source, set under it.
  const note = random.chance(0.25) ? `${random.pick(['Note:', 'Notes:', 'Source:', 'Sources:'])} ${words.sentence(6, 14)}` : null;
  if (caption) features.add('table:caption');
  if (note) features.add('table:note');
  const table: TableSpec = {
    header,
    body,
    columns,
    style: style(random, features, multiline),
    width: options.wide ? 'full' : options.narrow ? 'narrow' : random.pick(['auto', 'full'] as const),
    ...(options.inColumn ? { inColumn: true } : {}),
    caption,
    captionBelow: random.chance(0.3),
    note,
    features: [],
  };
  // A column of choices in a ruled table (Chromium only: the boxes are no WinAnsi glyphs).
  if (table.style.rules === 'grid' && !options.wide && !options.long && documentFeatures.has('producer:chromium') && random.chance(0.3)) {
    addChoiceColumn(table, random, words);
    features.add('table:choice-cells');
  }
  table.features = [...features].sort();
  for (const f of features) documentFeatures.add(f);
  return table;
}

/**
 * A last column whose cells each hold two options set a wide space apart, the chosen one's box
 * checked ("☒ yes   ☐ no"), as forms print them: the two pieces of one cell's line are read in
 * the script's direction, and the gap between them is no column.
 */
function addChoiceColumn(table: TableSpec, random: Random, words: Words): void {
  const first = words.noun();
  let second = words.noun();
  while (second === first) second = words.noun();
  table.header[0].push({ text: capitalise(words.noun()), align: 'left', ...(table.header.length > 1 ? { rowSpan: table.header.length } : {}) });
  for (const row of table.body) {
    const firstChosen = random.chance(0.5);
    row.push({ text: `${firstChosen ? '☒' : '☐'} ${first}\u2003\u2003\u2003${firstChosen ? '☐' : '☒'} ${second}`, align: 'left' });
  }
  table.columns += 1;
}
