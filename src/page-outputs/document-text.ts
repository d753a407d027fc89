// The text and markdown of a whole document as `include=text` and `include=markdown` give them (and
// the model reads the text), from what each page stored, and the marker a page's text holds where
// a figure is shown.
import type { WireTable } from './shapes.js';

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

/**
 * `include=markdown`: the pages' markdown, empty pages left out, a blank line apart. A table that
 * goes on over a page break is one table: the rows of its continuation (continued_from_previous_page,
 * standing first on its page) follow the rows of the page before, without the header row the
 * continuation repeats.
 */
export function documentMarkdown(pages: { markdown: string; tables: readonly WireTable[] }[]): string {
  let out = '';
  // The header row of the table that ends the text so far and goes on on the next page.
  let open: string | null = null;
  for (const { markdown, tables } of pages) {
    if (markdown.length === 0) continue;
    const continuation = tables.find((t) => t.continued_from_previous_page && markdown.startsWith(t.markdown));
    if (open !== null && continuation) {
      const [header, , ...rows] = continuation.markdown.split('\n');
      out += `\n${(header === open ? rows : [header, ...rows]).join('\n')}${markdown.slice(continuation.markdown.length)}`;
    } else {
      out += (out ? '\n\n' : '') + markdown;
      open = null;
    }
    const last = tables.find((t) => t.continues_on_next_page && markdown.endsWith(t.markdown));
    if (!last) open = null;
    else if (!(open !== null && last === continuation)) open = last.markdown.split('\n')[0];
  }
  return out + '\n';
}
