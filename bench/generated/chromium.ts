// The Chromium producer: a DocSpec laid out as HTML and CSS by headless Chromium (Debian's, as the
// playground tests use it), paginated by the page script, printed to PDF; the truth is what the
// browser's own layout says of each element. Chromium gives born-digital PDFs as browsers and
// most web-to-PDF services make them: real fonts (Liberation, DejaVu) embedded as subsets, text in
// layout order, tables, multi-column flow, SVG drawings as vectors, and its own header and footer
// templates for running heads and page numbers.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { documentHtml, escapeHtml } from './html.js';
import type { DocSpec } from './spec.js';
import type { TruthBlock, TruthFurniture, TruthTable } from './truth.js';

export const CHROMIUM = process.env.FOLIO_CHROMIUM ?? '/usr/bin/chromium';

const PAGINATE = fileURLToPath(new URL('./paginate.browser.js', import.meta.url));

export interface Laid {
  pdf: Buffer;
  pages: number;
  blocks: TruthBlock[];
  tables: TruthTable[];
  furniture: TruthFurniture[];
  /** Variations the producer itself drew (how it wrote the file), beside the spec's. */
  features?: string[];
}

export class ChromiumProducer {
  private constructor(
    private readonly browser: Browser,
    private readonly script: string,
  ) {}

  static async start(): Promise<ChromiumProducer> {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--font-render-hinting=none'],
    });
    return new ChromiumProducer(browser, await readFile(PAGINATE, 'utf8'));
  }

  async produce(doc: DocSpec): Promise<Laid> {
    const context = await this.browser.newContext();
    try {
      const page = await context.newPage();
      await page.setContent(documentHtml(doc), { waitUntil: 'load' });
      await page.evaluate('document.fonts.ready');
      await page.addScriptTag({ content: this.script });
      const f = doc.furniture;
      const config = {
        page: doc.page,
        templates: f.templates,
        lineHeightPt: doc.type.size * 1.3,
        furniture: { head: f.head, foot: f.foot, pageNumber: f.pageNumber, stamp: f.stamp, lineNumbers: f.lineNumbers, sideTab: f.sideTab, bleed: f.bleed },
      };
      const laid = (await page.evaluate(`window.folioPaginate(${JSON.stringify(config)})`)) as Omit<Laid, 'pdf'>;
      const furniture = [...laid.furniture];
      let pdfOptions: Parameters<typeof page.pdf>[0] = { preferCSSPageSize: true, printBackground: true };
      if (f.templates) {
        // Chromium's own templates draw the heads, feet and numbers in the page's margins.
        const style = 'font-size:8px;color:#444;width:100%;padding:0 40px;font-family:sans-serif;';
        const number = f.pageNumber === 'page-of' ? 'Page <span class="pageNumber"></span> of <span class="totalPages"></span>' : f.pageNumber === 'none' ? '' : '<span class="pageNumber"></span>';
        const head = `<div style="${style}text-align:right">${f.head ? escapeHtml(f.head) : ''}${f.pageNumber === 'top-outer' ? ` ${number}` : ''}</div>`;
        const foot = `<div style="${style}text-align:center">${f.foot ? `${escapeHtml(f.foot)} ` : ''}${f.pageNumber !== 'top-outer' ? number : ''}</div>`;
        pdfOptions = { ...pdfOptions, displayHeaderFooter: true, headerTemplate: head, footerTemplate: foot, margin: { top: `${doc.page.margin / 72}in`, bottom: `${doc.page.margin / 72}in`, left: '0', right: '0' } };
        await page.addStyleTag({ content: `@page { margin: ${doc.page.margin}pt 0; }` });
        for (let n = 1; n <= laid.pages; n++) {
          if (f.head) furniture.push({ kind: 'running-head', text: f.head, page: n });
          if (f.foot) furniture.push({ kind: 'running-foot', text: f.foot, page: n });
          if (f.pageNumber !== 'none') furniture.push({ kind: 'page-number', text: f.pageNumber === 'page-of' ? `Page ${n} of ${laid.pages}` : String(n), page: n });
        }
      }
      const printed = await page.pdf(pdfOptions);
      const pdf = doc.features.includes('type:code-face-unnamed') ? withMonospacedFacesRenamed(printed) : printed;
      return { ...laid, furniture, pdf };
    } finally {
      await context.close();
    }
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

/**
 * The PDF with its monospaced faces renamed to names that do not say so, as files name a house
 * face for listings: the names are written plainly in the font dictionaries, and a name of the same
 * length keeps every offset of the file.
 */
function withMonospacedFacesRenamed(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1').replaceAll('DejaVuSansMono', 'HouseListFaceA').replaceAll('LiberationMono', 'HouseListFaceB');
  return Buffer.from(text, 'latin1');
}
