// `include=tables` and the markdown form of a table, which page text and markdown both use.
import { fractionBox, type WireTable } from '../../page-outputs/shapes.js';
import type { Page, Table } from '../page-model.js';
import { tableRows } from '../analysis/tables/index.js';


/**
 * A GitHub-flavoured pipe table; the first row is the header row markdown requires. Markdown has
 * no merged cells, so a merged cell's text is repeated in every position it covers: each column
 * keeps its heading and each row its label (`rows` keeps it at the top-left position only).
 */
export function tableMarkdown(table: Table): string {
  const rows = Array.from({ length: table.rowCount }, () => new Array<string>(table.columnCount).fill(''));
  for (const cell of table.cells) {
    for (let r = cell.row; r < Math.min(table.rowCount, cell.row + cell.rowSpan); r++) {
      for (let c = cell.column; c < Math.min(table.columnCount, cell.column + cell.columnSpan); c++) rows[r][c] = escapeCell(cell.text);
    }
  }
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const out = [line(rows[0]), line(rows[0].map(() => '---'))];
  for (const row of rows.slice(1)) out.push(line(row));
  return out.join('\n');
}

function escapeCell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();
}

export function pageTables(page: Page): WireTable[] {
  return page.tables.map((table) => ({
    rows: tableRows(table),
    columns: table.columnCount,
    markdown: tableMarkdown(table),
    header_rows: table.headerRows,
    cells: table.cells.map((c) => ({
      row: c.row,
      column: c.column,
      row_span: c.rowSpan,
      column_span: c.columnSpan,
      text: c.text,
      bbox: c.box ? fractionBox(c.box, page.width, page.height) : null,
    })),
    bbox: fractionBox(table.box, page.width, page.height),
    continued_from_previous_page: table.continuedFromPrevious,
    continues_on_next_page: table.continuesOnNext,
    continues_table: table.continuesTable ?? null,
  }));
}
