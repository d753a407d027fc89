// Pagination for the pdf-lib producer: blocks, measured into chunks, poured into columns and pages
// in reading order. Paragraphs, headings and figures are never broken (as the Chromium producer's
// `break-inside: avoid` keeps them); lists, code listings and tables break between their items,
// lines and rows wherever a column or page ends. A block that spans the columns first balances the
// columns above it, as CSS columns do. Footnotes take room from the bottom of the page their
// paragraph lands on; a paragraph whose note would push the page's content out moves on with it.
import type { Entry, Mark } from './pdflib-text.js';

/** A block, or part of one, measured at its width: marks and truth relative to its top left. */
export interface Chunk {
  /** Room above it, dropped at the top of a page or column. */
  before: number;
  height: number;
  after: number;
  marks: Mark[];
  entries: Entry[];
  footnote: { mark: string; text: string } | null;
  marginNote: string | null;
}

/** A block as the flow sees it: `pieces` it may be broken between, any run of which it can build. */
export interface Flowable {
  span: boolean;
  pieces: number;
  /** Room the next block needs beside this one at the bottom of a column (a heading's first lines). */
  keep: number;
  build(from: number, to: number): Chunk;
}

export interface Placement {
  chunk: Chunk;
  x: number;
  y: number;
  /** The column it stands in, -1 for a block across all of them. */
  column: number;
}

export interface LaidPage {
  placements: Placement[];
  footnotes: Chunk[];
}

export interface Frame {
  left: number;
  top: number;
  bottom: number;
  width: number;
  columns: number;
  gap: number;
}

/** Room between the body and the first footnote, the rule drawn in it. */
export const FOOTNOTE_GAP = 6;

export class Flow {
  readonly pages: LaidPage[] = [];
  private page!: LaidPage;
  private column = 0;
  private y = 0;
  private bandTop = 0;
  /** At the top of a page or column, where a block's room above is dropped. */
  private fresh = true;
  private band: Placement[] = [];
  private readonly notes = new WeakMap<Chunk, Chunk>();
  readonly columnWidth: number;

  constructor(
    private readonly frame: Frame,
    private readonly footnoteChunk: (note: { mark: string; text: string }) => Chunk,
  ) {
    this.columnWidth = (frame.width - frame.gap * (frame.columns - 1)) / frame.columns;
    this.newPage();
  }

  place(flowable: Flowable): void {
    if (flowable.span && this.frame.columns > 1) this.balance();
    let from = 0;
    while (from < flowable.pieces) {
      const fit = this.largestFit(flowable, from);
      if (fit) {
        this.commit(fit.chunk, fit.top, flowable.span);
        from = fit.to;
      } else if (this.pageEmpty()) {
        // Larger than an empty page: left out, and so out of the truth.
        return;
      } else {
        this.advance(flowable.span);
      }
    }
  }

  /** The pages laid, without a last page left empty by a block that fit nowhere. */
  finish(): LaidPage[] {
    if (this.pages.length > 1 && this.pageEmpty()) this.pages.pop();
    return this.pages;
  }

  private newPage(): void {
    this.page = { placements: [], footnotes: [] };
    this.pages.push(this.page);
    this.column = 0;
    this.y = this.frame.top;
    this.bandTop = this.frame.top;
    this.band = [];
    this.fresh = true;
  }

  private pageEmpty(): boolean {
    return this.page.placements.length === 0 && this.page.footnotes.length === 0;
  }

  private advance(span: boolean): void {
    if (span || this.column >= this.frame.columns - 1) {
      this.newPage();
      return;
    }
    this.column++;
    this.y = this.bandTop;
    this.fresh = true;
  }

  private noteOf(chunk: Chunk): Chunk | null {
    if (!chunk.footnote) return null;
    let note = this.notes.get(chunk);
    if (!note) {
      note = this.footnoteChunk(chunk.footnote);
      this.notes.set(chunk, note);
    }
    return note;
  }

  /** Where the body ends on the page with `notes` at its foot. */
  private limit(notes: Chunk[]): number {
    return this.frame.bottom - (notes.length ? FOOTNOTE_GAP + notes.reduce((sum, n) => sum + n.height, 0) : 0);
  }

  private contentBottom(): number {
    return this.page.placements.reduce((m, p) => Math.max(m, p.y + p.chunk.height), this.frame.top);
  }

  /** The top `chunk` would stand at here, or null when it does not fit. */
  private fits(chunk: Chunk, keep: number): number | null {
    const top = this.fresh ? this.y : this.y + chunk.before;
    const note = this.noteOf(chunk);
    const limit = this.limit(note ? [...this.page.footnotes, note] : this.page.footnotes);
    if (top + chunk.height > limit) return null;
    if (note && this.contentBottom() > limit) return null;
    if (keep && !this.pageEmpty() && top + chunk.height + keep > limit) return null;
    return top;
  }

  /** The longest run of pieces from `from` that fits here, built. */
  private largestFit(flowable: Flowable, from: number): { to: number; chunk: Chunk; top: number } | null {
    const attempt = (to: number) => {
      const chunk = flowable.build(from, to);
      const top = this.fits(chunk, to === flowable.pieces ? flowable.keep : 0);
      return top === null ? null : { to, chunk, top };
    };
    const whole = attempt(flowable.pieces);
    if (whole || flowable.pieces - from === 1) return whole;
    let best = attempt(from + 1);
    if (!best) return null;
    // Taller with every piece added: the last run that fits lies between one that does and one that does not.
    let fitting = from + 1;
    let failing = flowable.pieces;
    while (failing - fitting > 1) {
      const mid = Math.floor((fitting + failing) / 2);
      const fit = attempt(mid);
      if (fit) {
        best = fit;
        fitting = mid;
      } else failing = mid;
    }
    return best;
  }

  private commit(chunk: Chunk, top: number, span: boolean): void {
    const x = span ? this.frame.left : this.frame.left + this.column * (this.columnWidth + this.frame.gap);
    const placement: Placement = { chunk, x, y: top, column: span ? -1 : this.column };
    this.page.placements.push(placement);
    const note = this.noteOf(chunk);
    if (note) this.page.footnotes.push(note);
    this.y = top + chunk.height + chunk.after;
    this.fresh = false;
    if (span && this.frame.columns > 1) {
      this.bandTop = this.y;
      this.column = 0;
      this.band = [];
    } else this.band.push(placement);
  }

  /**
   * The blocks above a spanning one spread over the columns as evenly as they go: the shortest
   * height at which they still fit, so that the spanning block follows right below.
   */
  private balance(): void {
    const band = this.band;
    if (band.length === 0) return;
    const arrange = (height: number) => {
      const at: { column: number; y: number }[] = [];
      let column = 0;
      let y = 0;
      let fresh = true;
      for (const { chunk } of band) {
        let top = fresh ? y : y + chunk.before;
        if (top + chunk.height > height && !fresh) {
          column++;
          y = 0;
          top = 0;
        }
        if (column >= this.frame.columns || top + chunk.height > height) return null;
        at.push({ column, y: top });
        y = top + chunk.height + chunk.after;
        fresh = false;
      }
      return at;
    };
    const used = band.reduce((m, p) => Math.max(m, p.y + p.chunk.height - this.bandTop), 0);
    let lo = band.reduce((m, p) => Math.max(m, p.chunk.height), 0);
    // A hair over the height used, as sums in another order round otherwise.
    let hi = used + 0.01;
    const balanced = arrange(hi);
    if (balanced) {
      while (hi - lo > 0.5) {
        const mid = (lo + hi) / 2;
        if (arrange(mid)) hi = mid;
        else lo = mid;
      }
      const at = arrange(hi)!;
      band.forEach((p, i) => {
        p.column = at[i].column;
        p.x = this.frame.left + at[i].column * (this.columnWidth + this.frame.gap);
        p.y = this.bandTop + at[i].y;
      });
    }
    const bottom = band.reduce((m, p) => Math.max(m, p.y + p.chunk.height + p.chunk.after), this.bandTop);
    this.y = bottom;
    this.bandTop = bottom;
    this.column = 0;
    this.band = [];
    this.fresh = false;
  }
}
