// Reading order of a page's blocks, figures and tables.
//
// Two orders are computed and one is chosen. The order in which the file drew its text (the
// "stream order") is how the author's tool wrote the page, and for most born-digital files it is
// exactly the reading order, including inside display formulas and side-by-side fragments that no
// geometric rule sorts well. But some producers draw text in an arbitrary order (headers last,
// columns interleaved, tables column by column), so the stream order is trusted only when it never
// walks backwards on the page: upwards inside one column, or leftwards (rightwards on a
// right-to-left page) along one row. Otherwise the page is read by a recursive XY-cut, with
// columns cut apart before rows when both sides hold running text. Items without text (figures,
// and tables found by their drawing) take their place from the geometric order.
import type { Box } from '../page-model.js';

export interface OrderItem {
  box: Box;
  lineCount: number;
  /** Index of the item's first word in the file's drawing order; null for figures. */
  streamRank: number | null;
  ref: number;
}

export function readingOrder(items: OrderItem[], fontSize: number, rightToLeft: boolean, pageHeight: number): OrderItem[] {
  if (items.length <= 1) return items;
  const texts = items.filter((item) => item.streamRank !== null).sort((a, b) => a.streamRank! - b.streamRank!);
  if (texts.length >= 2 && plausible(texts, fontSize, rightToLeft, pageHeight)) return streamOrder(items, texts, fontSize, rightToLeft);
  return xyCut(items, fontSize, rightToLeft);
}

/** Stream order for the text; every other item follows the text item it follows geometrically. */
function streamOrder(items: OrderItem[], texts: OrderItem[], fontSize: number, rightToLeft: boolean): OrderItem[] {
  const after = new Map<OrderItem | null, OrderItem[]>();
  let previousText: OrderItem | null = null;
  for (const item of xyCut(items, fontSize, rightToLeft)) {
    if (item.streamRank !== null) {
      previousText = item;
      continue;
    }
    const list = after.get(previousText) ?? [];
    list.push(item);
    after.set(previousText, list);
  }
  const out: OrderItem[] = [...(after.get(null) ?? [])];
  for (const item of texts) out.push(item, ...(after.get(item) ?? []));
  return out;
}

/**
 * Whether the stream order reads forwards: no item comes after one below it in the same column
 * (horizontally overlapping), and no step goes backwards along a row or up into an earlier column.
 * Items in the top and bottom margins (running headers, footers, page numbers, which producers
 * draw at any time) are left out of the test.
 */
function plausible(texts: OrderItem[], fontSize: number, rightToLeft: boolean, pageHeight: number): boolean {
  const slack = fontSize * 0.5;
  const body = texts.filter((t) => t.box.y0 > pageHeight * 0.08 && t.box.y1 < pageHeight * 0.92);
  for (let i = 0; i < body.length; i++) {
    const a = body[i].box;
    for (let j = i + 1; j < body.length; j++) {
      const b = body[j].box;
      const overlap = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const narrower = Math.min(a.x1 - a.x0, b.x1 - b.x0);
      if (overlap > narrower * 0.3 && b.y1 <= a.y0 + slack) return false;
    }
  }
  for (let i = 1; i < body.length; i++) {
    const a = body[i - 1].box;
    const b = body[i].box;
    const sameColumn = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0;
    const sameRow = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 0;
    if (sameRow && !sameColumn && (rightToLeft ? b.x0 >= a.x1 - slack : b.x1 <= a.x0 + slack)) return false;
    // Up and back against the reading direction: no column comes before the one it follows.
    if (b.y1 <= a.y0 + slack && (rightToLeft ? b.x0 >= a.x1 - slack : b.x1 <= a.x0 + slack)) return false;
  }
  return true;
}

interface Interval {
  start: number;
  end: number;
  items: OrderItem[];
}

function intervals(items: OrderItem[], axis: 'x' | 'y'): Interval[] {
  const key0 = axis === 'x' ? 'x0' : 'y0';
  const key1 = axis === 'x' ? 'x1' : 'y1';
  const sorted = [...items].sort((a, b) => a.box[key0] - b.box[key0]);
  const groups: Interval[] = [];
  for (const item of sorted) {
    const group = groups[groups.length - 1];
    // A sliver of overlap (a descender, a tight gutter) still separates.
    if (group && item.box[key0] < group.end - 0.5) {
      group.end = Math.max(group.end, item.box[key1]);
      group.items.push(item);
    } else {
      groups.push({ start: item.box[key0], end: item.box[key1], items: [item] });
    }
  }
  return groups;
}

/** One level of the XY-cut: the columns or the rows the items fall into, in reading order; null when they fall into one. */
function cut(items: OrderItem[], fontSize: number, rightToLeft: boolean): OrderItem[][] | null {
  const columns = intervals(items, 'x');
  const rows = intervals(items, 'y');
  const columnsLookLikeText = columns.length > 1 && columns.filter((c) => c.items.some((i) => i.lineCount >= 2)).length >= 2;
  const widestColumnGap = Math.max(0, ...columns.slice(1).map((c, i) => c.start - columns[i].end));
  if (columns.length > 1 && (rows.length === 1 || (columnsLookLikeText && widestColumnGap >= fontSize * 0.8))) {
    if (rightToLeft) columns.reverse();
    return columns.map((c) => c.items);
  }
  if (rows.length > 1) return rows.map((r) => r.items);
  return null;
}

function xyCut(items: OrderItem[], fontSize: number, rightToLeft: boolean): OrderItem[] {
  if (items.length <= 1) return items;
  const parts = cut(items, fontSize, rightToLeft);
  if (parts) return parts.flatMap((part) => xyCut(part, fontSize, rightToLeft));
  return [...items].sort((a, b) => a.box.y0 - b.box.y0 || (rightToLeft ? b.box.x1 - a.box.x1 : a.box.x0 - b.box.x0));
}
