// Page text: blocks in reading order, one blank line apart; tables as markdown; each shown figure
// is a [FIGURE] marker, so the n-th marker is the figure image with figure_index n-1 (docs/api.md,
// Page.text). Page furniture (running heads and feet, page numbers, marginal notes: blocks typed
// page_header, page_footer or marginal_note; analysis/page-furniture.ts) is left out, as from the
// markdown and the chunks: it belongs to the page, not to the document's text. The layout keeps it.
import { blockText } from '../analysis/analyze-page.js';
import type { Page } from '../page-model.js';
import { FIGURE_MARKER } from '../../page-outputs/document-text.js';
import { isFurniture } from '../../page-outputs/shapes.js';
import { tableMarkdown } from './tables.js';

export function pageText(page: Page): string {
  const parts: string[] = [];
  for (const block of page.blocks) {
    if (block.type === 'figure') {
      const figure = page.figures[block.figure!];
      if (figure?.index !== null) parts.push(FIGURE_MARKER);
      // Labels drawn in a chart or diagram stay readable, after its marker.
      if (figure?.text) parts.push(figure.text);
      continue;
    }
    if (isFurniture(block.type)) continue;
    if (block.type === 'table') {
      parts.push(tableMarkdown(page.tables[block.table!]));
      continue;
    }
    const text = blockText(block, page);
    if (text) parts.push(text);
  }
  return parts.join('\n\n');
}
