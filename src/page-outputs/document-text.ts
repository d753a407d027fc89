// The text and markdown of a whole document as `include=text` and `include=markdown` give them (and
// the model reads the text), from what each page stored, and the marker a page's text holds where
// a figure is shown.

/** Where a shown figure stands in a page's text: the n-th marker is the figure with figure_index n-1. */
export const FIGURE_MARKER = '[FIGURE]';

/** `include=text`: every page under a `=== Page N ===` line. */
export function documentText(pages: { page_number: number; text: string }[]): string {
  return pages.map((p) => `${pageHeading(p.page_number)}${p.text}`).join('\n\n');
}

/** The length of `documentText` from the pages' numbers and text lengths alone (their texts being in the store). */
export function documentTextLength(pages: readonly { number: number; textLength: number }[]): number {
  let length = Math.max(0, 2 * (pages.length - 1));
  for (const page of pages) length += pageHeading(page.number).length + page.textLength;
  return length;
}

function pageHeading(page: number): string {
  return `=== Page ${page} ===\n`;
}

/** `include=markdown`: the pages' markdown, empty pages left out, a blank line apart. */
export function documentMarkdown(pages: string[]): string {
  return pages.filter((p) => p.length > 0).join('\n\n') + '\n';
}
