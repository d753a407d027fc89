// The text and markdown of a whole document as `include=text` and `include=markdown` give them (and
// the model reads the text), from what each page stored, and the marker a page's text holds where
// a figure is shown.

/** Where a shown figure stands in a page's text: the n-th marker is the figure with figure_index n-1. */
export const FIGURE_MARKER = '[FIGURE]';

/** `include=text`: every page under a `=== Page N ===` line. */
export function documentText(pages: { page_number: number; text: string }[]): string {
  return pages.map((p) => `=== Page ${p.page_number} ===\n${p.text}`).join('\n\n');
}

/** `include=markdown`: the pages' markdown, empty pages left out, a blank line apart. */
export function documentMarkdown(pages: string[]): string {
  return pages.filter((p) => p.length > 0).join('\n\n') + '\n';
}
