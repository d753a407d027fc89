// What a page is judged against that only the whole document can say: its body and heading sizes
// and body font (headings are set apart from the document's own body text), and the lines that run
// along the top or bottom edge of its pages (running heads and feet recur at one place, page after
// page, with only their numbers changing). Each page is tallied where it is read, in whichever
// thread reads it, or by OCR later; the tallies add up to the document's statistics before any
// page is analysed, so pages analysed in separate threads are judged alike.
import type { RawPage } from '../page-model.js';

export interface DocumentStats {
  bodyFontSize: number;
  /** The font most of the document's text is set in. */
  bodyFont: string;
  /** Distinct heading sizes, largest first. */
  headingSizes: number[];
  /** Lines at a page's top or bottom edge that recur at the same place on other pages (page-furniture.ts). */
  runningLines: EdgeLine[];
}

/** A line of text near the top or bottom edge of a page. */
export interface EdgeLine {
  /** Its text, lower case, with every run of digits as one '#' (page numbers change, the line does not). */
  key: string;
  /** The height of its middle, as a share of the page's height. */
  y: number;
  /** The numbers in it, in order (only in a page's tally). */
  numbers?: number[];
}

/** One page's share of the document's statistics. */
export interface PageTally {
  /** Characters set in each font size (to the half point) and in each font. */
  bySize: [number, number][];
  byFont: [string, number][];
  edges: EdgeLine[];
}

/** The outer share of a page, top and bottom, where running heads and feet are looked for. */
export const EDGE_BAND = 0.12;
/** How far a running line may move between pages (scans are skewed and shifted), as a share of the page's height. */
export const EDGE_TOLERANCE = 0.02;

export function edgeKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/** Upright words in the page's outer bands, gathered into rows left to right. */
function edgeLines(page: RawPage): EdgeLine[] {
  const height = page.height || 1;
  const inBand = page.words
    .filter((w) => !w.turn && w.text.trim())
    .map((w) => ({ word: w, y: (w.box.y0 + w.box.y1) / 2 }))
    .filter(({ y }) => y <= height * EDGE_BAND || y >= height * (1 - EDGE_BAND))
    .sort((a, b) => a.y - b.y);
  const rows: { y: number; size: number; words: typeof inBand }[] = [];
  for (const item of inBand) {
    const row = rows[rows.length - 1];
    if (row && Math.abs(item.y - row.y) <= Math.min(row.size, item.word.fontSize || row.size) * 0.4) row.words.push(item);
    else rows.push({ y: item.y, size: item.word.fontSize || 1, words: [item] });
  }
  return rows.map((row) => ({
    key: edgeKey(
      row.words
        .sort((a, b) => a.word.box.x0 - b.word.box.x0)
        .map((w) => w.word.text)
        .join(' '),
    ),
    y: row.y / height,
    numbers: (row.words.map((w) => w.word.text).join(' ').match(/\d+/g) ?? []).slice(0, 6).map(Number),
  }));
}

export function pageTally(page: RawPage): PageTally {
  const bySize = new Map<number, number>();
  const byFont = new Map<string, number>();
  for (const word of page.words) {
    const size = Math.round(word.fontSize * 2) / 2;
    bySize.set(size, (bySize.get(size) ?? 0) + word.text.length);
    byFont.set(word.fontName, (byFont.get(word.fontName) ?? 0) + word.text.length);
  }
  return { bySize: [...bySize], byFont: [...byFont], edges: edgeLines(page) };
}

/**
 * Edge lines found at the same height on at least three pages (on every page of a shorter
 * document), their numbers the same or moving with the page: "Page 7 of 12" and "78 Chapter 4"
 * run on as pages turn, "Definition 54" opening page 60 and "Definition 70" opening page 93 do not,
 * and a line that opens two pages alike ("Proof:") is text.
 */
function runningLines(pages: PageTally[]): EdgeLine[] {
  const needed = Math.min(3, pages.length);
  if (needed < 2) return [];
  const seen = new Map<string, { y: number; page: number; numbers: number[] }[]>();
  pages.forEach((page, index) => {
    for (const edge of page.edges) {
      if (!/\p{L}|#/u.test(edge.key)) continue;
      const list = seen.get(edge.key) ?? [];
      list.push({ y: edge.y, page: index, numbers: edge.numbers ?? [] });
      seen.set(edge.key, list);
    }
  });
  const running: EdgeLine[] = [];
  for (const [key, places] of seen) {
    if (places.length < needed) continue;
    places.sort((a, b) => a.y - b.y);
    let from = 0;
    for (const place of places) {
      while (places[from].y < place.y - EDGE_TOLERANCE) from++;
      if (running.some((r) => r.key === key && Math.abs(r.y - place.y) <= EDGE_TOLERANCE)) continue;
      const pagesAlike = new Set([place.page]);
      for (let j = from; j < places.length && places[j].y <= place.y + EDGE_TOLERANCE && pagesAlike.size < needed; j++) {
        const other = places[j];
        if (other.page === place.page) continue;
        const turn = other.page - place.page;
        if (other.numbers.every((n, k) => n === place.numbers[k] || n - place.numbers[k] === turn)) pagesAlike.add(other.page);
      }
      if (pagesAlike.size >= needed) running.push({ key, y: place.y });
    }
  }
  return running;
}

/** The document's statistics from every page's tally, in page order. */
export function documentStats(pages: PageTally[]): DocumentStats {
  const weightBySize = new Map<number, number>();
  const weightByFont = new Map<string, number>();
  for (const page of pages) {
    for (const [size, weight] of page.bySize) weightBySize.set(size, (weightBySize.get(size) ?? 0) + weight);
    for (const [font, weight] of page.byFont) weightByFont.set(font, (weightByFont.get(font) ?? 0) + weight);
  }
  const bodyFont = [...weightByFont].reduce((a, b) => (b[1] > a[1] ? b : a), ['', -1])[0];
  let bodyFontSize = 10;
  let best = -1;
  for (const [size, weight] of weightBySize) {
    if (weight > best) {
      best = weight;
      bodyFontSize = size;
    }
  }
  const headingSizes = [...weightBySize.keys()].filter((s) => s >= bodyFontSize * 1.15).sort((a, b) => b - a);
  return { bodyFontSize, bodyFont, headingSizes, runningLines: runningLines(pages) };
}
