// The LibreOffice producer (Debian's `libreoffice-writer-nogui`): a DocSpec written as plain semantic
// HTML (headings, paragraphs with bold and italic, lists, quotes, preformatted code, tables with
// spanning cells), imported by Writer and saved either as a Word document, which Folio reads with
// its Office reader, or as Writer's own PDF. It gives what neither browser nor hand-made PDFs do:
// documents as word processors make them, with heading and list styles, Writer's table layout and
// its PDF writer's text encoding. Writer decides where pages break, and nothing here reads its
// output back, so the truth has no boxes and no pages: a block's page is 0, "somewhere in the
// document", and tables are matched against every page. No page furniture is drawn.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Laid } from './chromium.js';
import { escapeHtml, placeCells } from './html.js';
import { Random } from './random.js';
import type { Block, DocSpec, Run, TableSpec } from './spec.js';
import type { BlockKind, TruthBlock, TruthTable } from './truth.js';
import { isRightToLeft } from './words.js';

const exec = promisify(execFile);

export const SOFFICE = process.env.FOLIO_SOFFICE ?? 'soffice';

export interface Written extends Laid {
  /** What the file is: a Word document or a PDF. */
  format: 'docx' | 'pdf';
}

const FAMILIES = { serif: 'Liberation Serif', sans: 'Liberation Sans', mono: 'Liberation Mono', narrow: 'Liberation Sans Narrow' } as const;

function runHtml(run: Run): string {
  const text = escapeHtml(run.text);
  return run.bold ? `<b>${text}</b>` : run.italic ? `<i>${text}</i>` : text;
}

/**
 * The type size of a table's text in Writer: the table's own scale of the body size, as the other
 * producers set it; a wide table (eight columns or more) at 7 points or less (6 for eleven columns),
 * as a Writer user fits one to the page: Writer lets a table too wide for the line run off the
 * page's edge, and breaks a figure in a column too narrow for it.
 */
function writerTableSize(doc: DocSpec, t: TableSpec): number {
  return t.columns >= 8 ? Math.round(Math.min(7, 66 / t.columns) * 2) / 2 : Math.round(doc.type.size * t.style.fontScale * 2) / 2;
}

/**
 * A cell's fill as the table's style asks, the same colours as Chromium's tables: the header
 * shaded, every other body row (zebra), every body row (coloured) or every cell (shaded cells).
 */
function writerCellFill(t: TableSpec, tag: 'th' | 'td', row: number): string {
  const { style } = t;
  const fill =
    tag === 'th'
      ? style.headerShade
        ? '#d9d9d9'
        : style.shadedCells
          ? '#e4e8ee'
          : null
      : style.zebra
        ? row % 2 === 1
          ? style.coloured
            ? '#dfeaf6'
            : '#eeeeee'
          : style.shadedCells
            ? '#e4e8ee'
            : null
        : style.coloured
          ? '#fdf3e1'
          : style.shadedCells
            ? '#e4e8ee'
            : null;
  return fill ? ` bgcolor="${fill}"` : '';
}

/**
 * The table's rules in what Writer's HTML import keeps of them: a border round every cell (grid),
 * rules over and under the header and under the last row (horizontal: the frame's sides and the
 * rule between row groups), or under the header only. Cells padded as Writer pads a table it
 * inserts (0.1 cm each side); HTML's cells have none.
 */
function writerTableRules(t: TableSpec): string {
  const rules = { grid: ' border="1"', horizontal: ' border="1" frame="hsides" rules="groups"', 'header-only': ' border="1" frame="void" rules="groups"', none: '' }[t.style.rules];
  return `${rules} cellspacing="0" cellpadding="4"`;
}

/** The blocks as HTML for Writer, and the truth of each in reading order. */
function officeDocument(doc: DocSpec): { html: string; blocks: TruthBlock[]; tables: TruthTable[] } {
  const blocks: TruthBlock[] = [];
  const tables: TruthTable[] = [];
  let order = 0;
  const truth = (kind: BlockKind, text: string, level?: number) => blocks.push({ kind, text: text.replace(/\s+/g, ' ').trim(), page: 0, box: null, order: order++, ...(level ? { level } : {}) });
  const parts: string[] = [];
  // A table's type size by a class of the style sheet: Writer's import applies a size given in a
  // cell's own markup to Latin letters only, and digits in a right-to-left document, or a currency
  // sign that begins a cell, kept the body's size.
  const cellSizes = new Set<number>();
  const cellClass = (size: number) => `cell-${Math.round(size * 10)}`;
  const put = (block: Block) => {
    switch (block.kind) {
      case 'title':
        parts.push(`<h1>${escapeHtml(block.text)}</h1>`);
        truth('title', block.text);
        if (block.subtitle) {
          parts.push(`<p><i>${escapeHtml(block.subtitle)}</i></p>`);
          truth('paragraph', block.subtitle);
        }
        return;
      case 'heading': {
        const text = `${block.number ? `${block.number} ` : ''}${block.text}`;
        parts.push(`<h${block.level + 1}>${escapeHtml(text)}</h${block.level + 1}>`);
        truth('heading', text, block.level);
        return;
      }
      case 'paragraph':
        parts.push(`<p>${block.runs.map(runHtml).join(' ')}</p>`);
        truth('paragraph', block.runs.map((r) => r.text).join(' '));
        // A note Writer's HTML import cannot make a footnote of stands after its paragraph, small.
        if (block.footnote) {
          parts.push(`<p><font size="2">${escapeHtml(`${block.footnote.mark} ${block.footnote.text}`)}</font></p>`);
          truth('paragraph', `${block.footnote.mark} ${block.footnote.text}`);
        }
        return;
      case 'list': {
        const tag = block.ordered ? 'ol' : 'ul';
        parts.push(`<${tag}>${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</${tag}>`);
        for (const item of block.items) truth('list-item', item);
        return;
      }
      case 'aside':
        // Not drawn for Writer (compose.ts); its text as paragraphs all the same.
        for (const point of block.points) {
          parts.push(`<p><b>${escapeHtml(point)}</b></p>`);
          truth('paragraph', point);
        }
        parts.push(`<p>${escapeHtml(block.text)}</p>`);
        truth('paragraph', block.text);
        return;
      case 'quote':
        parts.push(`<blockquote>${escapeHtml(block.text)}</blockquote>`);
        truth('quote', block.text);
        return;
      case 'code':
        parts.push(`<pre>${block.lines.map(escapeHtml).join('\n')}</pre>`);
        blocks.push({ kind: 'code', text: block.lines.join('\n'), page: 0, box: null, order: order++ });
        return;
      case 'equation': {
        const text = `${block.text}${block.number ? ` ${block.number}` : ''}`;
        parts.push(`<p align="center"><i>${escapeHtml(text)}</i></p>`);
        truth('equation', text);
        return;
      }
      case 'contents':
        // Writer's HTML import has no tab stops: the leader dots are typed, about a line's worth.
        for (const e of block.entries) {
          const dots = ' .'.repeat(Math.max(3, Math.floor((78 - e.text.length - e.page.length) / 2)));
          parts.push(`<p${e.level > 1 ? ` style="margin-left: ${(e.level - 1) * 0.6}cm"` : ''}>${escapeHtml(e.text)}${dots} ${escapeHtml(e.page)}</p>`);
          truth('contents-entry', `${e.text} ${e.page}`);
        }
        return;
      case 'figure':
        // Writer's import keeps no drawing made in the page; the caption says a figure was there.
        if (block.caption) {
          parts.push(`<p><font size="2">${escapeHtml(block.caption)}</font></p>`);
          truth('caption', block.caption);
        }
        return;
      case 'table': {
        const t = block.table;
        if (t.caption && !t.captionBelow) {
          parts.push(`<p><font size="2">${escapeHtml(t.caption)}</font></p>`);
          truth('caption', t.caption);
        }
        const header = placeCells(t.header, t.columns);
        const body = placeCells(t.body, t.columns);
        const size = writerTableSize(doc, t);
        cellSizes.add(size);
        const cellHtml = (tag: 'th' | 'td', p: (typeof header)[number][number]) =>
          `<${tag}${(p.cell.rowSpan ?? 1) > 1 ? ` rowspan="${p.cell.rowSpan}"` : ''}${(p.cell.colSpan ?? 1) > 1 ? ` colspan="${p.cell.colSpan}"` : ''} align="${p.cell.align ?? 'left'}" valign="${t.style.cellAlign}"${writerCellFill(t, tag, p.row)}><p class="${cellClass(size)}" align="${p.cell.align ?? 'left'}">${tag === 'th' ? `<b>${escapeHtml(p.cell.text)}</b>` : escapeHtml(p.cell.text)}</p></${tag}>`;
        parts.push(`<table${writerTableRules(t)} width="${t.width === 'narrow' ? '50%' : '100%'}"><thead>${header.map((row) => `<tr>${row.map((p) => cellHtml('th', p)).join('')}</tr>`).join('')}</thead><tbody>${body.map((row) => `<tr>${row.map((p) => cellHtml('td', p)).join('')}</tr>`).join('')}</tbody></table>`);
        const cells = [...header, ...body.map((row) => row.map((p) => ({ ...p, row: p.row + t.header.length })))].flat().map((p) => ({ row: p.row, col: p.col, rowSpan: p.cell.rowSpan ?? 1, colSpan: p.cell.colSpan ?? 1, text: p.cell.text, header: p.row < t.header.length, box: null }));
        tables.push({ page: 0, rows: t.header.length + t.body.length, columns: t.columns, headerRows: t.header.length, cells, box: null, continued: false, order: order++, features: t.features });
        if (t.caption && t.captionBelow) {
          parts.push(`<p><font size="2">${escapeHtml(t.caption)}</font></p>`);
          truth('caption', t.caption);
        }
        if (t.note) {
          parts.push(`<p><font size="1">${escapeHtml(t.note)}</font></p>`);
          truth('table-note', t.note);
        }
        return;
      }
    }
  };
  for (const block of doc.blocks) put(block);
  const rtl = isRightToLeft(doc.script);
  const family = rtl ? 'DejaVu Sans' : FAMILIES[doc.type.family];
  const html = `<!doctype html><html${rtl ? ' dir="rtl"' : ''}><head><meta charset="utf-8"><title>${escapeHtml(doc.id)}</title><style>body { font-family: "${family}"; font-size: ${doc.type.size}pt; }${[...cellSizes].map((size) => ` p.${cellClass(size)} { font-size: ${size}pt; margin: 0 }`).join('')}</style></head><body>${parts.join('\n')}</body></html>`;
  return { html, blocks, tables };
}

export class LibreOfficeProducer {
  private constructor(private readonly profile: string) {}

  static async start(): Promise<LibreOfficeProducer> {
    // A profile of its own, so that a desktop LibreOffice of the same user neither blocks nor is changed.
    return new LibreOfficeProducer(await mkdtemp(path.join(tmpdir(), 'folio-soffice-profile-')));
  }

  async produce(doc: DocSpec): Promise<Written> {
    const { html, blocks, tables } = officeDocument(doc);
    const format = Random.forDocument(doc.seed ^ 0x10ff1ce, doc.index).chance(0.5) ? 'docx' : 'pdf';
    const dir = await mkdtemp(path.join(tmpdir(), 'folio-soffice-'));
    try {
      const input = path.join(dir, `${doc.id}.html`);
      await writeFile(input, html);
      const filter = format === 'docx' ? 'docx:MS Word 2007 XML' : 'pdf:writer_pdf_Export';
      await exec(SOFFICE, [`-env:UserInstallation=file://${this.profile}`, '--headless', '--infilter=HTML (StarWriter)', '--convert-to', filter, '--outdir', dir, input], { timeout: 120_000 });
      const pdf = await readFile(path.join(dir, `${doc.id}.${format}`));
      return { pdf, pages: 0, blocks, tables, furniture: [], features: [`libreoffice:${format}`], format };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async close(): Promise<void> {
    await rm(this.profile, { recursive: true, force: true });
  }
}
