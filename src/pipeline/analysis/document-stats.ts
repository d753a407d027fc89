// What a page is judged against that only the whole document can say: its body and heading sizes
// and body font (headings are set apart from the document's own body text), and the lines that run
// along the top or bottom edge of its pages (running heads and feet recur at one place, page after
// page, with only their numbers changing). Each page is tallied where it is read, in whichever
// thread reads it, or by OCR later; the tallies add up to the document's statistics before any
// page is analysed, so pages analysed in separate threads are judged alike.
import type { RawPage, Word } from '../page-model.js';
import { monospacedFaces, pitchTally, type PitchTally } from './font-pitch.js';

/** Type this many times the body's size or larger is set at a heading's size. */
export const HEADING_SIZE = 1.15;

export interface DocumentStats {
  bodyFontSize: number;
  /** The font most of the document's text is set in. */
  bodyFont: string;
  /** Faces measured to set every character at one advance (font-pitch.ts), whatever their names say. */
  monospacedFonts: string[];
  /** Distinct heading sizes, largest first. */
  headingSizes: number[];
  /** Lines at a page's top or bottom edge that recur at the same place on other pages (page-furniture.ts). */
  runningLines: EdgeLine[];
  /** Where the body's running text runs across the page, keyed as pageFrames names them, where the document has enough of it to say. */
  typeAreas: Record<string, BodyEnvelope>;
}

/** Where a page's body text runs across it: the text-weighted 5th and 95th percentiles of its lines' edges. */
export interface BodyEnvelope {
  x0: number;
  x1: number;
}

/** Characters, below which text says too little of where the body runs. */
export const ENVELOPE_MIN_CHARS = 400;

/**
 * The keys of the pages a page shares its type area with, nearest first: those of its width on the
 * same side of a spread (books mirror their margins), then all those of its width.
 */
export function pageFrames(page: Pick<RawPage, 'number' | 'width'>): [string, string] {
  const width = String(Math.round(page.width));
  return [`${width}:${page.number % 2}`, width];
}

/** A weighted quantile of values. */
function weightedQuantile(values: { value: number; weight: number }[], q: number): number {
  const sorted = [...values].sort((a, b) => a.value - b.value);
  const total = sorted.reduce((sum, v) => sum + v.weight, 0);
  let seen = 0;
  for (const v of sorted) {
    seen += v.weight;
    if (seen >= total * q) return v.value;
  }
  return sorted[sorted.length - 1]?.value ?? 0;
}

/** Where text runs across a page: the character-weighted 5th percentile of its pieces' left edges and 95th of their right. */
export function envelopeOf(pieces: { x0: number; x1: number; chars: number }[]): BodyEnvelope {
  return {
    x0: weightedQuantile(pieces.map((p) => ({ value: p.x0, weight: p.chars })), 0.05),
    x1: weightedQuantile(pieces.map((p) => ({ value: p.x1, weight: p.chars })), 0.95),
  };
}

/** A run of running text on a page: its size to the half point, its edges and its characters. */
export interface ProseRun {
  size: number;
  x0: number;
  x1: number;
  chars: number;
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
  /** The same, counting only running text (proseRuns). */
  proseBySize: [number, number][];
  proseByFont: [string, number][];
  /** The page's runs of running text. */
  proseRuns: ProseRun[];
  /** The keys of the pages it shares its type area with (pageFrames). */
  frames: [string, string];
  edges: EdgeLine[];
  /** Its words by face and advance per character (font-pitch.ts). */
  pitch: PitchTally;
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

/** Characters set in each font size (to the half point) and in each font. */
function tally(words: Word[]): { bySize: [number, number][]; byFont: [string, number][] } {
  const bySize = new Map<number, number>();
  const byFont = new Map<string, number>();
  for (const word of words) {
    const size = Math.round(word.fontSize * 2) / 2;
    bySize.set(size, (bySize.get(size) ?? 0) + word.text.length);
    byFont.set(word.fontName, (byFont.get(word.fontName) ?? 0) + word.text.length);
  }
  return { bySize: [...bySize], byFont: [...byFont] };
}

/** Words in a row of at least this many, each within a word space of the next: running text. */
const PROSE_RUN = 5;

/**
 * The runs of the page's running text: rows of PROSE_RUN words or more on one
 * baseline, each less than an em from the next. A table's cells, a form's labels and a figure's
 * labels stand a column's gap apart in short runs, so a page of tables does not make its cells'
 * smaller type the document's body size.
 */
function proseRuns(words: Word[]): Word[][] {
  const upright = words.filter((w) => !w.turn && w.text.trim()).sort((a, b) => a.box.y1 - b.box.y1);
  const rows: Word[][] = [];
  for (const word of upright) {
    const row = rows[rows.length - 1];
    if (row && Math.abs(word.box.y1 - row[0].box.y1) <= row[0].fontSize * 0.3 && Math.abs(word.fontSize - row[0].fontSize) <= 0.5) row.push(word);
    else rows.push([word]);
  }
  const prose: Word[][] = [];
  for (const row of rows) {
    row.sort((a, b) => a.box.x0 - b.box.x0);
    let run: Word[] = [];
    const close = () => {
      if (run.length >= PROSE_RUN) prose.push(run);
      run = [];
    };
    for (const word of row) {
      const last = run[run.length - 1];
      if (last && word.box.x0 - last.box.x1 > Math.max(last.fontSize, word.fontSize)) close();
      run.push(word);
    }
    close();
  }
  return prose;
}

export function pageTally(page: RawPage): PageTally {
  const all = tally(page.words);
  const runs = proseRuns(page.words);
  const prose = tally(runs.flat());
  const extents = runs.map((run): ProseRun => ({
    size: Math.round(run[0].fontSize * 2) / 2,
    x0: run[0].box.x0,
    x1: run[run.length - 1].box.x1,
    chars: run.reduce((n, w) => n + w.text.length, 0),
  }));
  return { ...all, proseBySize: prose.bySize, proseByFont: prose.byFont, proseRuns: extents, frames: pageFrames(page), edges: edgeLines(page), pitch: pitchTally(page) };
}

/**
 * Where the body's running text runs on each frame of page (a type area): the edges of its runs
 * of running text at the body's size over every page of the frame, so a page whose own body text
 * fills one column of two still has the other in its type area, and notes set smaller outside
 * it stand in its margin. Said only from two pages or more: a frame with one page is said by all
 * pages of its width (both sides of the spread), keyed by the width alone.
 */
function typeAreas(pages: PageTally[], bodyFontSize: number): Record<string, BodyEnvelope> {
  const byKey = new Map<string, { runs: ProseRun[]; pages: number }>();
  for (const page of pages) {
    const runs = page.proseRuns.filter((run) => Math.abs(run.size - bodyFontSize) <= 0.5);
    if (runs.length === 0) continue;
    for (const key of page.frames) {
      const entry = byKey.get(key) ?? { runs: [], pages: 0 };
      entry.runs.push(...runs);
      entry.pages++;
      byKey.set(key, entry);
    }
  }
  const areas: Record<string, BodyEnvelope> = {};
  for (const [key, { runs, pages: count }] of byKey) {
    if (count >= 2 && runs.reduce((n, r) => n + r.chars, 0) >= ENVELOPE_MIN_CHARS) areas[key] = envelopeOf(runs);
  }
  return areas;
}

/** The type area of a page's frame, or of all pages of its width when its frame has too few pages to say. */
export function typeArea(stats: Pick<DocumentStats, 'typeAreas'>, page: Pick<RawPage, 'number' | 'width'>): BodyEnvelope | undefined {
  const [frame, width] = pageFrames(page);
  return stats.typeAreas[frame] ?? stats.typeAreas[width];
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

/** Characters of running text below which a document's body is told from all its text (slides, forms). */
const MIN_PROSE_CHARS = 200;

function sum<K>(lists: [K, number][][]): Map<K, number> {
  const out = new Map<K, number>();
  for (const list of lists) for (const [key, weight] of list) out.set(key, (out.get(key) ?? 0) + weight);
  return out;
}

function most<K>(weights: Map<K, number>, fallback: K): K {
  let best = fallback;
  let weight = -1;
  for (const [key, w] of weights) {
    if (w > weight) [best, weight] = [key, w];
  }
  return best;
}

/**
 * The document's statistics from every page's tally, in page order. Its body size and font are
 * those of most of its running text (proseRuns), or of all its text when it has little running text.
 */
export function documentStats(pages: PageTally[]): DocumentStats {
  const weightBySize = sum(pages.map((p) => p.bySize));
  const proseBySize = sum(pages.map((p) => p.proseBySize));
  const enough = [...proseBySize.values()].reduce((n, w) => n + w, 0) >= MIN_PROSE_CHARS;
  const bodyFont = most(enough ? sum(pages.map((p) => p.proseByFont)) : sum(pages.map((p) => p.byFont)), '');
  const bodyFontSize = most(enough ? proseBySize : weightBySize, 10);
  const headingSizes = [...weightBySize.keys()].filter((s) => s >= bodyFontSize * HEADING_SIZE).sort((a, b) => b - a);
  return { bodyFontSize, bodyFont, monospacedFonts: monospacedFaces(pages.map((p) => p.pitch)), headingSizes, runningLines: runningLines(pages), typeAreas: typeAreas(pages, bodyFontSize) };
}
