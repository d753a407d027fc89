// One finished document: each page's picture (rendered on demand by the preview endpoint) with
// its layout boxes, beside the page's text, tables, key/values, figures and layout elements; the
// document's markdown; its chunks for retrieval on the same pictures; and cited quotes shown where
// they stand.
import type { Document, FolioClient, Page } from 'folio-api/client';
import { isOffice } from '../domain/media-types.js';
import { quoteSpan } from '../page-outputs/text-matching.js';
import { ChunksView } from './chunks.js';
import { byId, fill, h, svg, tabs } from './dom.js';
import { renderMarkdown } from './markdown.js';
import { Overlay, type Box } from './overlay.js';

export interface Citation {
  page: number;
  quote: string;
  bbox?: Box | null;
}

type Table = NonNullable<Page['tables']>[number];
type LayoutElement = NonNullable<Page['layout']>[number];

const PREVIEW_SIZE = 1400;
/** A4 portrait: the shape given to pages drawn from their layout (Office files have no drawing). */
const SKETCH_RATIO = 297 / 210;

export class DocumentViewer {
  private client: FolioClient | null = null;
  private document: Document | null = null;
  private readonly pages = new Map<number, Promise<Page>>();
  /** Object URLs of the page's pictures by image id, and of each page's preview by page number. */
  private readonly pictures = new Map<string, Promise<string>>();
  private readonly previews = new Map<number, Promise<{ url: string; sketch: boolean }>>();
  private current = 0;
  private citation: Citation | null = null;
  private readonly overlay = new Overlay(byId('page-overlay') as unknown as SVGSVGElement);
  private readonly chunks = new ChunksView((page) => this.renderedPreview(page));
  // The chunks are cut only when asked for: most documents opened are never looked at that way.
  private readonly viewTabs = tabs(byId('view-tabs'), (tab) => {
    if (tab.id === 'tab-chunks') void this.chunks.show();
  });
  private readonly pageTabs = tabs(byId('page-tabs'));
  /** The page being shown; a slower load of an earlier page must not overwrite it. */
  private showing = 0;

  constructor() {
    byId('page-prev').addEventListener('click', () => void this.showPage(this.current - 1));
    byId('page-next').addEventListener('click', () => void this.showPage(this.current + 1));
    const number = byId<HTMLInputElement>('page-number');
    number.addEventListener('change', () => void this.showPage(Number(number.value)));
    const boxes = byId<HTMLInputElement>('show-boxes');
    boxes.addEventListener('change', () => this.overlay.setLayoutVisible(boxes.checked));
    byId<HTMLInputElement>('markdown-source').addEventListener('change', () => this.renderMarkdownView());
  }

  /** Shows a completed document, from its first page. */
  async open(client: FolioClient, document: Document): Promise<void> {
    this.close();
    this.client = client;
    this.document = document;
    this.chunks.open(client, document);
    const viewer = byId('viewer');
    viewer.hidden = false;
    fill(byId('viewer-heading'), document.filename ?? document.id);
    fill(
      byId('viewer-summary'),
      `${document.page_count} page${document.page_count === 1 ? '' : 's'} · ${document.content_type} · ${document.analysis} · `,
      document.cost.settled_micro === null ? '' : `US$${(document.cost.settled_micro / 1e6).toFixed(4)} · `,
      h('code', {}, document.id),
    );
    byId<HTMLInputElement>('page-number').max = String(document.page_count);
    fill(byId('page-count'), `of ${document.page_count}`);
    byId('tab-markdown').hidden = typeof document.markdown !== 'string';
    this.viewTabs.select('tab-pages');
    this.renderMarkdownView();
    await this.showPage(1);
    byId('viewer-heading').focus();
  }

  close(): void {
    this.chunks.close();
    for (const url of this.pictures.values()) void url.then((u) => URL.revokeObjectURL(u), () => {});
    for (const shown of this.previews.values()) void shown.then((p) => URL.revokeObjectURL(p.url), () => {});
    this.pictures.clear();
    this.previews.clear();
    this.pages.clear();
    this.document = null;
    this.citation = null;
    this.current = 0;
    this.overlay.clear();
  }

  get openDocument(): Document | null {
    return this.document;
  }

  /** Goes to the citation's page, draws its box and marks its quote in the page text. */
  async showCitation(citation: Citation): Promise<void> {
    this.citation = citation;
    this.viewTabs.select('tab-pages');
    this.pageTabs.select('ptab-text');
    await this.showPage(citation.page, true);
    byId('page-canvas').scrollIntoView({ block: 'nearest' });
    byId('ppanel-text').querySelector('mark')?.scrollIntoView({ block: 'nearest' });
  }

  async showPage(number: number, keepCitation = false): Promise<void> {
    const document = this.document;
    const client = this.client;
    if (!document || !client) return;
    number = Math.min(Math.max(1, Math.round(number) || 1), document.page_count);
    if (!keepCitation) this.citation = null;
    this.current = number;
    this.showing = number;
    byId<HTMLInputElement>('page-number').value = String(number);
    byId<HTMLButtonElement>('page-prev').disabled = number <= 1;
    byId<HTMLButtonElement>('page-next').disabled = number >= document.page_count;
    fill(byId('page-caption'), `Loading page ${number}…`);

    let page: Page;
    try {
      page = await this.page(number);
    } catch (error) {
      if (this.showing === number) fill(byId('page-caption'), `Page ${number} could not be read: ${(error as Error).message}`);
      return;
    }
    const picture = await this.preview(number, page).catch(() => null);
    if (this.showing !== number) return;

    const image = byId<HTMLImageElement>('page-image');
    const canvas = byId('page-canvas');
    if (picture) {
      image.src = picture.url;
      image.alt = `Page ${number}${picture.sketch ? ', drawn from its layout' : ''}`;
      canvas.classList.toggle('sketch', picture.sketch);
    }
    this.overlay.showLayout(page.layout ?? []);
    this.overlay.setLayoutVisible(byId<HTMLInputElement>('show-boxes').checked);
    this.overlay.focus(null);
    const cited = this.citation?.page === number ? this.citation : null;
    this.overlay.cite(cited?.bbox);
    fill(
      byId('page-caption'),
      `Page ${number}: ${page.word_count} words, ${page.tables?.length ?? 0} tables, ${Object.keys(page.key_values ?? {}).length} key/values, ${page.layout?.length ?? 0} layout elements`,
      picture?.sketch ? ' (drawn from the layout: this type of file has no page picture)' : '',
    );

    this.renderText(page, cited);
    this.renderTables(page.tables ?? []);
    this.renderKeyValues(page);
    this.renderFigures(page);
    this.renderLayout(page.layout ?? []);
  }

  private page(number: number): Promise<Page> {
    let loaded = this.pages.get(number);
    if (!loaded) {
      loaded = this.client!.getPages(this.document!.id, { page: number, include: ['tables', 'key_values', 'layout', 'images'] }).then((list) => list.data[0]);
      loaded.catch(() => this.pages.delete(number));
      this.pages.set(number, loaded);
    }
    return loaded;
  }

  /**
   * The page's rendered preview, or for Office files (no drawing of their own) a sketch from its
   * layout; kept per page for as long as the document is open. A failed load is tried again.
   */
  private preview(number: number, page: Page): Promise<{ url: string; sketch: boolean }> {
    return this.keptPreview(number, () => (isOffice(this.document!.content_type) ? Promise.resolve({ url: sketchOf(page), sketch: true }) : this.rendered(number)));
  }

  /**
   * The page's rendered preview for the chunk view, from the same store as the Pages view's, so a
   * page is fetched once; null for Office files, whose chunks are listed without pictures: they
   * have no drawing to check a cut against, and a sketch made from the layout the chunks were cut
   * from would only restate their boxes.
   */
  renderedPreview(number: number): Promise<string> | null {
    if (!this.document || isOffice(this.document.content_type)) return null;
    return this.keptPreview(number, () => this.rendered(number)).then((shown) => shown.url);
  }

  private keptPreview(number: number, make: () => Promise<{ url: string; sketch: boolean }>): Promise<{ url: string; sketch: boolean }> {
    let shown = this.previews.get(number);
    if (!shown) {
      shown = make();
      shown.catch(() => this.previews.delete(number));
      this.previews.set(number, shown);
    }
    return shown;
  }

  private rendered(number: number): Promise<{ url: string; sketch: boolean }> {
    return this.client!.getPagePreview(this.document!.id, number, { size: PREVIEW_SIZE }).then((bytes) => ({ url: URL.createObjectURL(new Blob([bytes], { type: 'image/jpeg' })), sketch: false }));
  }

  private picture(imageId: string): Promise<string> {
    let url = this.pictures.get(imageId);
    if (!url) {
      url = this.client!.getImage(this.document!.id, imageId).then(({ contentType, bytes }) => URL.createObjectURL(new Blob([bytes], { type: contentType })));
      url.catch(() => this.pictures.delete(imageId));
      this.pictures.set(imageId, url);
    }
    return url;
  }

  /** Something in the panels that stands for a region of the page: hover or focus shows it. */
  private pointsAt<T extends HTMLElement>(element: T, box: Box | null | undefined): T {
    if (!box) return element;
    const show = () => this.overlay.focus(box);
    const hide = () => this.overlay.focus(null);
    element.addEventListener('mouseenter', show);
    element.addEventListener('focus', show);
    element.addEventListener('mouseleave', hide);
    element.addEventListener('blur', hide);
    return element;
  }

  private renderText(page: Page, citation: Citation | null): void {
    const panel = byId('ppanel-text');
    const text = page.text;
    const match = citation ? quoteSpan(text, citation.quote) : null;
    const pre = h('pre', { class: 'page-text' });
    if (match) {
      pre.append(text.slice(0, match.start), h('mark', { class: 'cited' }, text.slice(match.start, match.end)), text.slice(match.end));
    } else {
      pre.append(text || '(no text on this page)');
    }
    fill(panel, pre);
  }

  private renderTables(tables: Table[]): void {
    const panel = byId('ppanel-tables');
    if (!tables.length) return fill(panel, h('p', { class: 'empty' }, 'No tables on this page.'));
    fill(
      panel,
      ...tables.map((table, i) => {
        const flags = [table.continued_from_previous_page && 'continued from the previous page', table.continues_on_next_page && 'continues on the next page'].filter(Boolean).join(', ');
        const grid = h('table', { class: 'data-table' });
        const head = h('thead');
        const body = h('tbody');
        const rows = new Map<number, HTMLTableRowElement>();
        for (const cell of table.cells) {
          let row = rows.get(cell.row);
          if (!row) {
            row = h('tr');
            rows.set(cell.row, row);
          }
          const header = cell.row < table.header_rows;
          const element = h(header ? 'th' : 'td', { rowspan: cell.row_span > 1 ? cell.row_span : null, colspan: cell.column_span > 1 ? cell.column_span : null }, cell.text);
          row.append(this.pointsAt(element, cell.bbox));
        }
        for (const [index, row] of [...rows.entries()].sort((a, b) => a[0] - b[0])) (index < table.header_rows ? head : body).append(row);
        if (head.childElementCount) grid.append(head);
        grid.append(body);
        const caption = `Table ${i + 1}: ${table.rows.length} rows × ${table.columns} columns${flags ? ` (${flags})` : ''}`;
        return this.pointsAt(h('figure', { class: 'table-figure', tabindex: 0, 'aria-label': caption }, h('figcaption', {}, caption), h('div', { class: 'scroll' }, grid)), table.bbox);
      }),
    );
  }

  private renderKeyValues(page: Page): void {
    const panel = byId('ppanel-kv');
    const entries = Object.entries(page.key_values ?? {});
    if (!entries.length) return fill(panel, h('p', { class: 'empty' }, 'No key/value pairs on this page.'));
    fill(
      panel,
      h(
        'table',
        { class: 'data-table kv' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Key'), h('th', {}, 'Value'), h('th', {}, 'Selection'), h('th', {}, 'Confidence (key / value)'))),
        h(
          'tbody',
          {},
          ...entries.map(([key, kv]) =>
            this.pointsAt(
              h('tr', { tabindex: kv.bbox ? 0 : null }, h('th', { scope: 'row' }, key), h('td', {}, kv.value), h('td', {}, kv.selection_status ?? ''), h('td', {}, `${Math.round(kv.key_confidence)} / ${Math.round(kv.value_confidence)}`)),
              kv.bbox,
            ),
          ),
        ),
      ),
    );
  }

  private renderFigures(page: Page): void {
    const panel = byId('ppanel-figures');
    const images = page.images ?? [];
    if (!images.length) return fill(panel, h('p', { class: 'empty' }, 'No pictures were taken of this page.'));
    const list = h('ul', { class: 'figures' });
    for (const image of images) {
      const label = image.kind === 'page' ? 'Page picture (the page is mostly picture, or has few words)' : `Figure ${(image.figure_index ?? 0) + 1}${image.caption ? `: ${image.caption}` : ''}`;
      const img = h('img', { alt: label, width: image.width, height: image.height });
      void this.picture(image.id).then((url) => (img.src = url), () => (img.alt = `${label} (could not be loaded)`));
      list.append(this.pointsAt(h('li', { tabindex: 0 }, h('figure', {}, img, h('figcaption', {}, label, ` · ${image.width}×${image.height} ${image.media_type}`))), image.bbox));
    }
    fill(panel, list);
  }

  private renderLayout(elements: LayoutElement[]): void {
    const panel = byId('ppanel-layout');
    if (!elements.length) return fill(panel, h('p', { class: 'empty' }, 'No layout elements on this page.'));
    const list = h('ol', { class: 'layout-list' });
    for (const element of elements) {
      const kind = element.type === 'heading' && element.level ? `heading ${element.level}` : element.type.replace('_', ' ');
      const text = element.text.length > 240 ? `${element.text.slice(0, 240)}…` : element.text;
      list.append(this.pointsAt(h('li', { tabindex: 0 }, h('span', { class: `tag type-${element.type}` }, kind), ' ', text), element.bbox));
    }
    fill(panel, list);
  }

  private renderMarkdownView(): void {
    const view = byId('markdown-view');
    const markdown = this.document?.markdown;
    if (typeof markdown !== 'string') return fill(view);
    if (byId<HTMLInputElement>('markdown-source').checked) return fill(view, h('pre', { class: 'markdown-source' }, markdown));
    // renderMarkdown escapes every HTML the document's text could carry (src/playground/markdown.ts).
    view.innerHTML = renderMarkdown(markdown);
  }
}

/** A picture of a page with no drawing of its own: its layout lines written where they stand. */
function sketchOf(page: Page): string {
  const width = 1000;
  const height = Math.round(width * SKETCH_RATIO);
  const root = svg('svg', { xmlns: 'http://www.w3.org/2000/svg', viewBox: `0 0 ${width} ${height}`, width, height });
  root.append(svg('rect', { width, height, fill: '#fff' }));
  const write = (line: string, box: Box, size: number, fit: boolean) => {
    const text = svg('text', { x: box.left * width, y: (box.top + box.height) * height - size * 0.25, 'font-size': size, 'font-family': 'sans-serif', fill: '#333' });
    // A line of text fills its box; other text is squeezed only when it would overflow.
    if (box.width > 0 && (fit || line.length * size * 0.55 > box.width * width)) {
      text.setAttribute('textLength', String(box.width * width));
      text.setAttribute('lengthAdjust', 'spacingAndGlyphs');
    }
    text.textContent = line;
    root.append(text);
  };
  for (const element of page.layout ?? []) {
    if (element.lines?.length) {
      for (const line of element.lines) write(line.text, line.bbox, Math.max(6, Math.min(line.bbox.height * height * 0.8, 28)), true);
      continue;
    }
    // A table (its markdown, one band per row) or an element stored without its lines.
    const rows = element.text.split('\n').filter((row) => row.trim() && !/^\|(\s*:?-+:?\s*\|)+\s*$/.test(row));
    const band = element.bbox.height / Math.max(1, rows.length);
    rows.forEach((row, i) => {
      const box = { ...element.bbox, top: element.bbox.top + i * band, height: band };
      write(row, box, Math.max(6, Math.min(band * height * 0.7, 16)), false);
    });
  }
  return URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(root)], { type: 'image/svg+xml' }));
}
