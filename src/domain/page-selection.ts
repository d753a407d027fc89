// The `pages` option (issue 26): which pages of a file are read, charged, drawn, embedded and given
// to the model, written as page numbers and inclusive ranges ("1-3,7"). The selection is kept
// normalized (ascending, overlaps merged), so "7,1-3,2" and "1-3,7" are one selection.

/** Inclusive runs of page numbers, ascending and apart. */
export type PageSelection = readonly (readonly [number, number])[];

/** Longest `pages` text accepted. */
export const MAX_SELECTION_LENGTH = 1_000;

const ITEM = /^(\d{1,7})(?:\s*-\s*(\d{1,7}))?$/;

/** The selection a `pages` text names, or what is wrong with it. */
export function parsePageSelection(text: string): { selection: PageSelection } | { problem: string } {
  if (text.length > MAX_SELECTION_LENGTH) return { problem: `must be at most ${MAX_SELECTION_LENGTH} characters` };
  const runs: [number, number][] = [];
  for (const item of text.split(',')) {
    const match = ITEM.exec(item.trim());
    if (!match) return { problem: 'must be page numbers and inclusive ranges from 1, comma-separated, such as "1-3,7"' };
    const first = Number(match[1]);
    const last = Number(match[2] ?? match[1]);
    if (first < 1 || last < first) return { problem: `"${item.trim()}" is not a page or a range from a lower page to a higher one` };
    runs.push([first, last]);
  }
  runs.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [first, last] of runs) {
    const previous = merged[merged.length - 1];
    if (previous && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else merged.push([first, last]);
  }
  return { selection: merged };
}

/** The selection written back as text ("1-3,7"). */
export function formatPageSelection(selection: PageSelection): string {
  return selection.map(([first, last]) => (first === last ? String(first) : `${first}-${last}`)).join(',');
}

/** How many pages the selection names. */
export function selectedPageCount(selection: PageSelection): number {
  return selection.reduce((sum, [first, last]) => sum + last - first + 1, 0);
}

/** The problem with a selection for a file of `pageCount` pages, or null when every page it names exists. */
export function selectionOutOfRange(selection: PageSelection, pageCount: number): string | null {
  const last = selection[selection.length - 1]?.[1] ?? 0;
  return last > pageCount ? `names page ${last}, but the file has ${pageCount} page${pageCount === 1 ? '' : 's'}` : null;
}

export function isSelected(selection: PageSelection, page: number): boolean {
  return selection.some(([first, last]) => page >= first && page <= last);
}
