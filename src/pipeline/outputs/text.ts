// Page text: blocks in reading order, one blank line apart; each shown figure is a [FIGURE]
// marker, so the n-th marker is the figure image with figure_index n-1 (SPEC.md, Page.text).
import { blockText } from '../layout.js';
import type { Page } from '../page-model.js';

export const FIGURE_MARKER = '[FIGURE]';

export function pageText(page: Page): string {
  const parts: string[] = [];
  for (const block of page.blocks) {
    if (block.type === 'figure') {
      if (page.figures[block.figure!]?.index !== null) parts.push(FIGURE_MARKER);
      continue;
    }
    const text = blockText(block, page);
    if (text) parts.push(text);
  }
  return parts.join('\n\n');
}

/** `include=text`: every page under a `=== Page N ===` line. */
export function documentText(pages: { page_number: number; text: string }[]): string {
  return pages.map((p) => `=== Page ${p.page_number} ===\n${p.text}`).join('\n\n');
}
