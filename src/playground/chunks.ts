// The Chunks view: a completed document as GET /documents/{id}/chunks cuts it for retrieval, so a
// person choosing `max_tokens` for their index can see where each cut falls and what a chunk
// carries (its headings, pages and tokens) before writing code against it. A chunk's boxes are
// drawn on the pictures of its pages the way the Pages view draws layout boxes, because a cut is
// judged best against the page it was read from.
import { FolioApiError, type Chunk, type Document, type FolioClient } from 'folio-api/client';
import { byId, fill, h, svg } from './dom.js';
import { rect, type Box } from './overlay.js';

import { DEFAULT_CHUNK_TOKENS as DEFAULT_TOKENS, MAX_CHUNK_TOKENS as MAX_TOKENS, MIN_CHUNK_TOKENS as MIN_TOKENS } from '../domain/chunk-limits.js';

/** A page's picture, or null for a file with no drawing of its own (Office): given by the viewer, which keeps them. */
export type PictureOf = (page: number) => Promise<string> | null;

/** One page shown beside the list, kept while the document is open so switching chunks does not reload it. */
interface PagePicture {
  figure: HTMLElement;
  canvas: HTMLElement;
  image: HTMLImageElement;
  regions: SVGGElement;
  selected: SVGGElement;
  hovered: SVGGElement;
}

type PageBox = Chunk['boxes'][number];

export class ChunksView {
  private client: FolioClient | null = null;
  private document: Document | null = null;
  private chunks: Chunk[] = [];
  /** Each page's boxes with the chunk they belong to, for drawing other chunks and finding the one under the pointer. */
  private byPage = new Map<number, { chunk: number; box: PageBox }[]>();
  private options: HTMLLIElement[] = [];
  private selected = -1;
  private hovered: number | null = null;
  /** The cut asked for last (shown or on its way): a `change` and a submit of the same value fetch once. */
  private wanted: number | null = null;
  /** What the status says of the cut shown, once it has come (empty while one is on its way). */
  private summary = '';
  /** Answers to an earlier request, or for another document, are dropped. */
  private ticket = 0;
  private readonly pictures = new Map<number, PagePicture>();
  private readonly input = byId<HTMLInputElement>('chunks-max-tokens');
  private readonly list = byId<HTMLOListElement>('chunk-list');
  private readonly pane = byId('chunk-pictures');

  constructor(private readonly pictureOf: PictureOf) {
    this.input.min = String(MIN_TOKENS);
    this.input.max = String(MAX_TOKENS);
    this.input.value = String(DEFAULT_TOKENS);
    byId<HTMLFormElement>('chunks-form').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.load();
    });
    this.input.addEventListener('change', () => void this.load());
    this.list.addEventListener('keydown', (event) => this.onKey(event));
    this.list.addEventListener('click', (event) => {
      const option = (event.target as Element).closest<HTMLLIElement>('[role="option"]');
      if (option) this.select(Number(option.dataset.index), { focus: true });
    });
  }

  /** A newly opened document: nothing is fetched until the view is shown. */
  open(client: FolioClient, document: Document): void {
    this.close();
    this.client = client;
    this.document = document;
  }

  close(): void {
    this.ticket++;
    this.client = null;
    this.document = null;
    this.wanted = null;
    this.summary = '';
    this.chunks = [];
    this.byPage.clear();
    this.options = [];
    this.selected = -1;
    this.hovered = null;
    this.pictures.clear();
    fill(this.list);
    fill(this.pane);
    fill(byId('chunks-status'));
    this.list.removeAttribute('aria-busy');
    byId('chunks-view').classList.remove('no-pictures');
  }

  /** The view's tab was selected: the document's chunks at the chosen size, fetched the first time. */
  async show(): Promise<void> {
    if (this.wanted === null) await this.load();
  }

  private async load(): Promise<void> {
    const client = this.client;
    const document = this.document;
    if (!client || !document) return;
    const status = byId('chunks-status');
    const maxTokens = Number(this.input.value);
    if (!this.input.checkValidity() || !Number.isInteger(maxTokens)) {
      this.input.setAttribute('aria-invalid', 'true');
      return fill(status, h('span', { class: 'error' }, `Max tokens is a whole number from ${MIN_TOKENS} to ${MAX_TOKENS}.`));
    }
    this.input.removeAttribute('aria-invalid');
    if (maxTokens === this.wanted) {
      // The cut shown (or on its way) already is this one; only a complaint about an earlier value goes.
      if (this.summary) fill(status, this.summary);
      return;
    }
    this.wanted = maxTokens;
    this.summary = '';
    const ticket = ++this.ticket;
    fill(status, `Cutting the document into chunks of at most ${maxTokens} tokens…`);
    this.list.setAttribute('aria-busy', 'true');
    try {
      const answer = await client.getChunks(document.id, { maxTokens });
      if (ticket !== this.ticket) return;
      const before = this.chunks[this.selected];
      this.render(answer.data);
      const count = answer.data.length;
      this.summary = `${count} chunk${count === 1 ? '' : 's'} of at most ${maxTokens} tokens.`;
      fill(status, this.summary);
      if (count) this.select(before ? this.sameSpot(before) : 0, { focus: false });
    } catch (error) {
      if (ticket !== this.ticket) return;
      // Asking again for the same size must be possible after a failure.
      this.wanted = null;
      fill(status, h('span', { class: 'error' }, error instanceof FolioApiError ? `${error.type}: ${error.message}` : `Could not cut the document: ${(error as Error).message}`));
    } finally {
      if (ticket === this.ticket) this.list.removeAttribute('aria-busy');
    }
  }

  /** After a new cut, the chunk that starts where the one selected before started, so the place in the document is kept. */
  private sameSpot(before: Chunk): number {
    const first = before.boxes[0];
    if (!first) return 0;
    const same = (b: PageBox) => b.page === first.page && b.left === first.left && b.top === first.top && b.width === first.width && b.height === first.height;
    const found = this.chunks.findIndex((c) => c.boxes.some(same));
    return found >= 0 ? found : Math.max(0, this.chunks.findIndex((c) => c.pages.includes(first.page)));
  }

  private render(chunks: Chunk[]): void {
    this.chunks = chunks;
    this.selected = -1;
    this.hovered = null;
    this.byPage = new Map();
    chunks.forEach((chunk, i) => {
      for (const box of chunk.boxes) {
        const onPage = this.byPage.get(box.page) ?? [];
        onPage.push({ chunk: i, box });
        this.byPage.set(box.page, onPage);
      }
    });
    this.options = chunks.map((chunk, i) => this.option(chunk, i));
    if (!chunks.length) {
      fill(this.list, h('li', { class: 'empty' }, 'No chunks: Folio read no text in this document.'));
      fill(this.pane);
      return;
    }
    fill(this.list, ...this.options);
  }

  private option(chunk: Chunk, i: number): HTMLLIElement {
    const id = `chunk-${i}`;
    const pages = chunk.pages.length === 0 ? 'no page' : chunk.pages.length === 1 ? `page ${chunk.pages[0]}` : `pages ${chunk.pages[0]}–${chunk.pages[chunk.pages.length - 1]}`;
    const crumbs = chunk.headings.length
      ? h('p', { class: 'breadcrumb', id: `${id}-headings` }, ...chunk.headings.flatMap((heading, n) => [n > 0 ? h('span', { class: 'sep' }, ' › ') : null, h('span', {}, heading)]))
      : null;
    return h(
      'li',
      {
        role: 'option',
        id,
        class: 'chunk',
        'data-index': i,
        'aria-selected': 'false',
        tabindex: i === 0 ? 0 : -1,
        // The summary names the option; its text is read after it, so the list stays quick to move through.
        'aria-labelledby': crumbs ? `${id}-head ${id}-headings` : `${id}-head`,
        'aria-describedby': `${id}-text`,
        onmouseenter: () => this.hover(i),
        onmouseleave: () => this.hover(null),
      },
      h('p', { class: 'chunk-head', id: `${id}-head` }, h('span', { class: 'chunk-index' }, `Chunk ${chunk.index}`), ' · ', h('span', { class: 'pages' }, pages), ' · ', h('span', { class: 'tokens' }, `${chunk.tokens} tokens`)),
      crumbs,
      h('div', { class: 'chunk-text', id: `${id}-text` }, ...blocksOf(chunk)),
    );
  }

  /** Listbox keys: arrows, Home and End move the selection and the focus with it (roving tabindex). */
  private onKey(event: KeyboardEvent): void {
    if (!this.options.length) return;
    const last = this.options.length - 1;
    const from = this.selected < 0 ? 0 : this.selected;
    const next = { ArrowDown: from + 1, ArrowUp: from - 1, Home: 0, End: last, PageDown: from + 5, PageUp: from - 5 }[event.key];
    if (next === undefined) {
      if (event.key === ' ' || event.key === 'Enter') {
        const option = (event.target as Element).closest<HTMLLIElement>('[role="option"]');
        if (option) {
          event.preventDefault();
          this.select(Number(option.dataset.index), { focus: true });
        }
      }
      return;
    }
    event.preventDefault();
    this.select(Math.min(last, Math.max(0, next)), { focus: true });
  }

  private select(i: number, how: { focus: boolean }): void {
    const chunk = this.chunks[i];
    if (!chunk) return;
    const changed = i !== this.selected;
    this.selected = i;
    this.options.forEach((option, n) => {
      option.setAttribute('aria-selected', String(n === i));
      option.tabIndex = n === i ? 0 : -1;
    });
    const option = this.options[i];
    if (how.focus) option.focus({ preventScroll: true });
    scrollWithin(this.list, option);
    if (changed) this.showPages(chunk);
  }

  /** The pictures of the chunk's pages, its boxes on them, the other chunks there faintly as places to click. */
  private showPages(chunk: Chunk): void {
    const view = byId('chunks-view');
    const shown = chunk.pages.map((page) => this.picture(page)).filter((p): p is PagePicture => p !== null);
    view.classList.toggle('no-pictures', chunk.pages.length > 0 && shown.length === 0);
    if (!shown.length) return fill(this.pane);
    fill(this.pane, ...shown.map((p) => p.figure));
    for (const page of chunk.pages) this.drawPage(page);
    this.drawHover();
    // The chunk's first box in sight: a chunk often starts low on a page or on the second one.
    const first = chunk.boxes[0];
    const picture = first && this.pictures.get(first.page);
    if (picture) {
      const reveal = () => {
        if (this.chunks[this.selected] !== chunk) return;
        const canvas = picture.canvas.getBoundingClientRect();
        const y = canvas.top - this.pane.getBoundingClientRect().top + first.top * canvas.height;
        if (y < 0 || y > this.pane.clientHeight - 40) this.pane.scrollTop += y - 40;
      };
      if (picture.image.complete && picture.image.naturalWidth) reveal();
      else picture.image.addEventListener('load', reveal, { once: true });
    }
  }

  private drawPage(page: number): void {
    const picture = this.pictures.get(page);
    if (!picture) return;
    const here = this.byPage.get(page) ?? [];
    picture.regions.replaceChildren(...here.filter((e) => e.chunk !== this.selected).map((e) => rect(e.box, 'box chunk-region')));
    picture.selected.replaceChildren(...here.filter((e) => e.chunk === this.selected).map((e) => rect(e.box, 'box chunk-box')));
  }

  /** A hovered chunk, in the list or on a picture: its boxes on the pages shown, and its place in the list. */
  private hover(i: number | null): void {
    if (i === this.hovered) return;
    this.hovered = i;
    this.options.forEach((option, n) => option.classList.toggle('hovered', n === i));
    this.drawHover();
  }

  private drawHover(): void {
    for (const [page, picture] of this.pictures) {
      const boxes = this.hovered === null ? [] : (this.byPage.get(page) ?? []).filter((e) => e.chunk === this.hovered);
      picture.hovered.replaceChildren(...boxes.map((e) => rect(e.box, 'box focused')));
    }
  }

  /** The page's figure, made once; null when the file has no pictures of its pages. */
  private picture(page: number): PagePicture | null {
    const known = this.pictures.get(page);
    if (known) return known;
    const url = this.pictureOf(page);
    if (!url) return null;
    const image = h('img', { alt: `Page ${page}` });
    const overlay = svg('svg', { viewBox: '0 0 1 1', preserveAspectRatio: 'none', 'aria-hidden': 'true' });
    const regions = svg('g', { class: 'chunk-regions' });
    const selected = svg('g', { class: 'chunk-boxes' });
    const hovered = svg('g', { class: 'focus-boxes' });
    overlay.append(regions, selected, hovered);
    const canvas = h('div', { class: 'page-canvas loading' }, image, overlay);
    const caption = h('figcaption', {}, `Page ${page}`);
    const figure = h('figure', { class: 'chunk-page', 'data-page': page }, canvas, caption);
    const picture = { figure, canvas, image, regions, selected, hovered };
    image.addEventListener('load', () => canvas.classList.remove('loading'), { once: true });
    // A picture that arrives after its document was closed is not shown (the viewer has revoked it).
    const current = () => this.pictures.get(page) === picture;
    url.then(
      (src) => {
        if (current()) image.src = src;
      },
      (error: Error) => {
        if (!current()) return;
        canvas.hidden = true;
        fill(caption, `Page ${page}: its picture could not be loaded (${error.message}).`);
      },
    );
    // Pointing at a region of the page finds the chunk read from it; a click selects that chunk.
    const at = (event: MouseEvent): number | null => {
      const bounds = canvas.getBoundingClientRect();
      if (!bounds.width || !bounds.height) return null;
      return this.chunkAt(page, (event.clientX - bounds.left) / bounds.width, (event.clientY - bounds.top) / bounds.height);
    };
    canvas.addEventListener('mousemove', (event) => {
      const i = at(event);
      canvas.classList.toggle('pointing', i !== null);
      this.hover(i);
    });
    canvas.addEventListener('mouseleave', () => this.hover(null));
    canvas.addEventListener('click', (event) => {
      const i = at(event);
      if (i !== null) this.select(i, { focus: true });
    });
    this.pictures.set(page, picture);
    return picture;
  }

  /** The chunk with a box under the point (the smallest such box, where boxes nest), or null. */
  private chunkAt(page: number, x: number, y: number): number | null {
    let best: { chunk: number; area: number } | null = null;
    for (const { chunk, box } of this.byPage.get(page) ?? []) {
      if (!contains(box, x, y)) continue;
      const area = box.width * box.height;
      if (!best || area < best.area) best = { chunk, area };
    }
    return best?.chunk ?? null;
  }
}

/** Scrolls only the container (the list, not the window) so the element is in its view: the page stays where the reader put it. */
function scrollWithin(container: HTMLElement, element: HTMLElement): void {
  const outer = container.getBoundingClientRect();
  const inner = element.getBoundingClientRect();
  if (inner.top < outer.top) container.scrollTop += inner.top - outer.top;
  else if (inner.bottom > outer.bottom) container.scrollTop += Math.min(inner.bottom - outer.bottom, inner.top - outer.top);
}

function contains(box: Box, x: number, y: number): boolean {
  return x >= box.left && x <= box.left + box.width && y >= box.top && y <= box.top + box.height;
}

/**
 * The chunk's text as it is cut: its pieces stand a blank line apart; a table (pipe rows) keeps its
 * columns as preformatted text, and a piece that is one of the chunk's own headings is shown as one.
 */
function blocksOf(chunk: Chunk): HTMLElement[] {
  return chunk.text.split('\n\n').map((block) => {
    const lines = block.split('\n');
    if (lines.every((line) => line.trimStart().startsWith('|'))) return h('pre', { class: 'chunk-table' }, block);
    return h('p', { class: chunk.headings.includes(block) ? 'chunk-heading' : null }, block);
  });
}
