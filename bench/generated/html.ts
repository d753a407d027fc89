// A DocSpec as an HTML page for Chromium to lay out and print: the blocks in reading order in a
// source container, and the styles of the document's type, columns, tables and furniture. The
// page script (paginate.browser.js) moves the blocks onto fixed-size page boxes and reports where
// every element landed; each element the truth needs carries its kind and order in data attributes.
import type { Block, Cell, DocSpec, Masthead, Run, TableSpec } from './spec.js';
import { isRightToLeft } from './words.js';

const FAMILIES = {
  serif: '"Liberation Serif", "DejaVu Serif", serif',
  sans: '"Liberation Sans", "DejaVu Sans", sans-serif',
  mono: '"Liberation Mono", "DejaVu Sans Mono", monospace',
  narrow: '"Liberation Sans Narrow", "Liberation Sans", sans-serif',
} as const;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function runHtml(run: Run): string {
  const text = escapeHtml(run.decomposed ? run.text.normalize('NFD') : run.text);
  if (run.bold) return `<b>${text}</b>`;
  if (run.italic) return `<i>${text}</i>`;
  return text;
}

/** Each cell's place in the grid, spans taken into account (HTML leaves that to the layout). */
export function placeCells(rows: Cell[][], columns: number, taken: boolean[][] = []): { cell: Cell; row: number; col: number }[][] {
  const placed: { cell: Cell; row: number; col: number }[][] = [];
  rows.forEach((cells, r) => {
    taken[r] ??= [];
    let c = 0;
    placed.push(
      cells.map((cell) => {
        while (taken[r][c]) c++;
        const at = { cell, row: r, col: c };
        for (let dr = 0; dr < (cell.rowSpan ?? 1); dr++) {
          taken[r + dr] ??= [];
          for (let dc = 0; dc < (cell.colSpan ?? 1); dc++) taken[r + dr][c + dc] = true;
        }
        c += cell.colSpan ?? 1;
        return at;
      }),
    );
  });
  void columns;
  return placed;
}

function tableHtml(table: TableSpec, order: number, spanColumns: boolean): string {
  const { style } = table;
  const classes = [`rules-${style.rules}`, `cells-${style.cellAlign}`, style.zebra ? 'zebra' : '', style.coloured ? 'coloured' : '', style.headerShade ? 'head-shade' : '', style.shadedCells ? 'shaded-cells' : '', `width-${table.width}`].filter(Boolean).join(' ');
  const cellHtml = (tag: 'th' | 'td', p: { cell: Cell; row: number; col: number }) => {
    const { cell } = p;
    const spans = `${cell.rowSpan && cell.rowSpan > 1 ? ` rowspan="${cell.rowSpan}"` : ''}${cell.colSpan && cell.colSpan > 1 ? ` colspan="${cell.colSpan}"` : ''}`;
    return `<${tag}${spans} data-row="${p.row}" data-col="${p.col}" data-rowspan="${cell.rowSpan ?? 1}" data-colspan="${cell.colSpan ?? 1}" style="text-align:${cell.align ?? 'left'}">${escapeHtml(cell.text)}</${tag}>`;
  };
  const taken: boolean[][] = [];
  const header = placeCells(table.header, table.columns, taken);
  const body = placeCells(table.body, table.columns, []).map((row) => row.map((p) => ({ ...p, row: p.row + table.header.length })));
  const caption = table.caption ? `<div class="caption table-caption" data-kind="caption">${escapeHtml(table.caption)}</div>` : '';
  const note = table.note ? `<div class="table-note" data-kind="table-note">${escapeHtml(table.note)}</div>` : '';
  return (
    `<div class="block table-block${spanColumns ? ' span-all' : ''}" data-order="${order}" data-kind="table-block" style="font-size:${style.fontScale}em">` +
    (table.captionBelow ? '' : caption) +
    `<table class="${classes}" data-kind="table" data-columns="${table.columns}" data-features="${table.features.join(' ')}" data-header-rows="${table.header.length}">` +
    `<thead>${header.map((row) => `<tr>${row.map((p) => cellHtml('th', p)).join('')}</tr>`).join('')}</thead>` +
    `<tbody>${body.map((row) => `<tr>${row.map((p) => cellHtml('td', p)).join('')}</tr>`).join('')}</tbody>` +
    `</table>${table.captionBelow ? caption : ''}${note}</div>`
  );
}

/** A masthead of drawn shapes (no text) `width` by `height` points, set a few points above the title. */
function ornamentSvg({ width, height }: { width: number; height: number }): string {
  const mid = height / 2;
  const r = height * 0.32;
  return (
    `<svg class="ornament" viewBox="0 0 ${width} ${height}" width="${width}pt" height="${height}pt" style="display:block;margin:0 0 0.15em 0">` +
    `<path d="M0 ${mid} C${width * 0.12} 0 ${width * 0.25} ${height} ${width * 0.37} ${mid} S${width * 0.62} 0 ${width * 0.75} ${mid}" fill="none" stroke="#8a6d3b" stroke-width="2"/>` +
    `<circle cx="${width - r * 3.4}" cy="${mid}" r="${r}" fill="#4a7ab8"/><circle cx="${width - r}" cy="${mid}" r="${r * 0.66}" fill="#c0392b"/>` +
    `<path d="M${width * 0.78} ${height * 0.1} L${width} ${height * 0.9}" stroke="#333" stroke-width="1.5"/></svg>`
  );
}

/** The masthead's facts at the left and its panels at the right, under a rule; each line of text is a truth paragraph. */
function mastheadHtml(m: Masthead): string {
  const line = (text: string, style: string) => `<p data-kind="paragraph" style="margin:0;${style}">${escapeHtml(text)}</p>`;
  return (
    `<div class="masthead" style="display:flex;justify-content:space-between;align-items:flex-start;border-top:1.5pt solid #5a5a5a;padding-top:4pt;margin-bottom:14pt">` +
    `<div style="font-size:0.8em;line-height:1.35;padding-top:10pt">${m.facts.map((f) => line(f, '')).join('')}</div>` +
    `<div style="display:flex;flex-direction:column;align-items:flex-end;gap:4pt">` +
    `<div style="display:flex;align-items:center;gap:4pt"><svg width="16pt" height="16pt" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#2f5d8a"/></svg>` +
    `<div style="background:#e7eef6;border:0.75pt solid #9fb4cc;border-radius:9pt;padding:3pt 10pt">${line(m.issue, 'font-size:1.1em')}</div></div>` +
    `<div style="background:#d5e1ee;border:0.75pt solid #9fb4cc;border-radius:14pt;padding:6pt 18pt">${line(m.series, 'font-size:1.3em;font-weight:bold;color:#1d3b5c')}</div>` +
    `</div></div>`
  );
}

function figureSvg(block: Extract<Block, { kind: 'figure' }>, order: number): string {
  const w = 300;
  const h = block.heightPt;
  const labels = block.labels;
  let drawing = '';
  if (block.drawing === 'bars') {
    const n = Math.max(3, labels.length);
    const bw = (w - 40) / n;
    drawing = labels.map((label, i) => {
      const bh = ((i * 37) % 70) + 20;
      return `<rect x="${30 + i * bw + 4}" y="${h - 24 - bh}" width="${bw - 8}" height="${bh}" fill="#4a7ab8"/><text x="${30 + i * bw + bw / 2}" y="${h - 8}" font-size="9" text-anchor="middle" data-kind="figure-label">${escapeHtml(label)}</text>`;
    }).join('');
    drawing += `<line x1="28" y1="${h - 24}" x2="${w - 6}" y2="${h - 24}" stroke="#222"/>`;
  } else if (block.drawing === 'lines') {
    const points = Array.from({ length: 12 }, (_, i) => `${30 + i * ((w - 40) / 11)},${h - 30 - ((i * 53) % (h - 60))}`).join(' ');
    drawing = `<polyline points="${points}" fill="none" stroke="#c0392b" stroke-width="2"/><line x1="28" y1="${h - 24}" x2="${w - 6}" y2="${h - 24}" stroke="#222"/><line x1="28" y1="8" x2="28" y2="${h - 24}" stroke="#222"/>`;
    drawing += labels.map((label, i) => `<text x="${50 + i * ((w - 100) / Math.max(1, labels.length - 1))}" y="${h - 8}" font-size="9" text-anchor="middle" data-kind="figure-label">${escapeHtml(label)}</text>`).join('');
  } else if (block.drawing === 'diagram') {
    drawing = labels.map((label, i) => {
      const x = 20 + (i % 3) * 95;
      const y = 16 + Math.floor(i / 3) * 60;
      return `<rect x="${x}" y="${y}" width="80" height="34" rx="6" fill="#f4e3c1" stroke="#8a6d3b"/><text x="${x + 40}" y="${y + 21}" font-size="10" text-anchor="middle" data-kind="figure-label">${escapeHtml(label)}</text>`;
    }).join('');
  } else {
    drawing = `<defs><linearGradient id="g${order}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6b8e23"/><stop offset="0.5" stop-color="#d2b48c"/><stop offset="1" stop-color="#4682b4"/></linearGradient></defs><rect x="0" y="0" width="${w}" height="${h}" fill="url(#g${order})"/><circle cx="${w * 0.7}" cy="${h * 0.3}" r="${h * 0.15}" fill="#fff6cc" opacity="0.8"/>`;
  }
  return `<svg class="figure-drawing" viewBox="0 0 ${w} ${h}" width="100%" preserveAspectRatio="xMidYMid meet" style="max-height:${h}pt">${drawing}</svg>`;
}

function blockHtml(block: Block, order: number, doc: DocSpec): string {
  const attrs = (kind: string, extra = '') => `class="block ${kind}${extra}" data-order="${order}" data-kind="${kind}"`;
  switch (block.kind) {
    case 'title':
      return `<div ${attrs('title', doc.columns > 1 ? ' span-all' : '')}>${block.masthead ? mastheadHtml(block.masthead) : ''}${block.ornament ? ornamentSvg(block.ornament) : ''}<h1 data-kind="title">${escapeHtml(block.text)}</h1>${block.subtitle ? `<p class="subtitle" data-kind="paragraph">${escapeHtml(block.subtitle)}</p>` : ''}</div>`;
    case 'heading': {
      const text = `${block.number ? `${block.number} ` : ''}${block.text}`;
      return `<h${block.level + 1} ${attrs('heading')} data-level="${block.level}">${escapeHtml(text)}</h${block.level + 1}>`;
    }
    case 'paragraph': {
      const mark = block.footnote ? `<sup class="mark" data-skip="1">${escapeHtml(block.footnote.mark)}</sup>` : '';
      const data = `${block.footnote ? ` data-footnote="${escapeHtml(`${block.footnote.mark} ${block.footnote.text}`)}"` : ''}${block.marginNote ? ` data-margin-note="${escapeHtml(block.marginNote)}"` : ''}`;
      return `<p ${attrs('paragraph')}${data}>${block.runs.map(runHtml).join(' ')}${mark}</p>`;
    }
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      return `<${tag} ${attrs('list')}>${block.items.map((item) => `<li data-kind="list-item">${escapeHtml(item)}</li>`).join('')}</${tag}>`;
    }
    case 'aside':
      return `<div ${attrs('aside')}><div class="points">${block.points.map((p) => `<p data-kind="paragraph"><b>${escapeHtml(p)}</b></p>`).join('')}</div><p data-kind="paragraph">${escapeHtml(block.text)}</p></div>`;
    case 'quote':
      return `<blockquote ${attrs('quote')}>${escapeHtml(block.text)}</blockquote>`;
    case 'code': {
      const lines = block.lines.map((line, i) => `<div class="code-line">${block.numbered ? `<span class="gutter" data-skip="1">${i + 1}</span>` : ''}<span class="code-text">${escapeHtml(line) || ' '}</span></div>`);
      return `<div ${attrs('code', block.numbered ? ' numbered' : '')}>${lines.join('')}</div>`;
    }
    case 'equation':
      return `<div ${attrs('equation')}><span class="formula">${escapeHtml(block.text)}</span>${block.number ? ` <span class="eq-number">${escapeHtml(block.number)}</span>` : ''}</div>`;
    case 'figure':
      return `<figure ${attrs('figure')}>${figureSvg(block, order)}${block.caption ? `<figcaption class="caption" data-kind="caption">${escapeHtml(block.caption)}</figcaption>` : ''}</figure>`;
    case 'table':
      return tableHtml(block.table, order, doc.columns > 1 && block.table.width !== 'narrow');
    case 'contents': {
      const entries = block.entries.map(
        (e) => `<div class="toc-entry toc-level-${e.level}" data-kind="contents-entry"><span class="toc-text">${escapeHtml(e.text)}</span> <span class="toc-leader ${block.leaders}" data-skip="1"></span> <span class="toc-page">${escapeHtml(e.page)}</span></div>`,
      );
      return `<div ${attrs('contents')}>${entries.join('')}</div>`;
    }
  }
}

export function documentHtml(doc: DocSpec): string {
  const t = doc.type;
  const rtl = isRightToLeft(doc.script);
  const family = rtl ? '"DejaVu Sans", sans-serif' : FAMILIES[t.family];
  const css = `
@page { size: ${doc.page.width}pt ${doc.page.height}pt; margin: 0; }
html, body { margin: 0; padding: 0; background: white; }
body { font-family: ${family}; font-size: ${t.size}pt; line-height: 1.3; color: #111; letter-spacing: ${t.letterSpacing}pt;
  font-variant-ligatures: ${t.ligatures ? 'common-ligatures' : 'none'}; text-align: ${t.justified ? 'justify' : 'start'}; }
#source { position: absolute; left: -10000pt; top: 0; width: ${doc.page.width}pt; }
.page { position: relative; width: ${doc.page.width}pt; height: ${doc.page.height}pt; overflow: hidden; break-after: page; background: white; }
.body { position: absolute; overflow: hidden; column-count: ${doc.columns}; column-gap: 18pt; column-fill: auto; }
.block { break-inside: avoid; margin: 0 0 0.55em 0; }
.span-all { column-span: all; }
h1 { font-size: ${t.size * 2}pt; margin: 0 0 0.3em 0; line-height: 1.15; }
.subtitle { font-size: ${t.size * 1.2}pt; font-style: italic; margin: 0 0 0.8em 0; }
h2 { font-size: ${t.size * 1.45}pt; margin: 0.8em 0 0.35em 0; }
h3 { font-size: ${t.size * 1.2}pt; margin: 0.7em 0 0.3em 0; }
h4 { font-size: ${t.size * 1.05}pt; font-style: italic; margin: 0.6em 0 0.25em 0; }
p { margin: 0 0 0.55em 0; }
sup.mark { font-size: 0.7em; }
ul, ol { margin: 0 0 0.55em 0; padding-inline-start: 1.6em; }
blockquote { margin: 0 1.5em 0.6em 1.5em; font-style: italic; color: #333; }
.code { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: ${Math.max(6.5, t.size - (doc.columns > 1 ? 2.5 : 1.5))}pt; background: #f3f3f3; padding: 4pt 6pt; white-space: pre-wrap; overflow-wrap: anywhere; text-align: left; letter-spacing: 0; }
.code .gutter { display: inline-block; width: 2.2em; color: #888; text-align: right; margin-right: 1em; }
.equation { display: flex; justify-content: center; align-items: baseline; font-family: "DejaVu Serif", serif; font-style: italic; font-size: ${t.size * 1.1}pt; margin: 0.6em 0; position: relative; }
.equation .eq-number { position: absolute; right: 0; font-style: normal; }
figure { margin: 0.4em 0 0.8em 0; }
.caption { font-size: ${t.size * 0.9}pt; margin: 0.3em 0; }
.table-note { font-size: ${t.size * 0.8}pt; margin-top: 0.2em; }
table { border-collapse: collapse; margin: 0.2em 0; text-align: left; }
table.width-full { width: 100%; }
table.width-narrow { width: auto; }
th, td { padding: 2pt 5pt; vertical-align: top; }
table.cells-middle th, table.cells-middle td { vertical-align: middle; }
table.cells-bottom th, table.cells-bottom td { vertical-align: bottom; }
table.rules-grid th, table.rules-grid td { border: 0.6pt solid #333; }
table.rules-horizontal thead tr:first-child th { border-top: 1pt solid #111; }
table.rules-horizontal thead tr:last-child th { border-bottom: 0.6pt solid #111; }
table.rules-horizontal tbody tr:last-child td { border-bottom: 1pt solid #111; }
table.rules-header-only thead tr:last-child th { border-bottom: 1pt solid #111; }
table.head-shade thead th { background: #d9d9d9; }
table.zebra tbody tr:nth-child(even) td { background: #eeeeee; }
table.zebra.coloured tbody tr:nth-child(even) td { background: #dfeaf6; }
table.coloured:not(.zebra) tbody tr td { background: #fdf3e1; }
table.shaded-cells { border-collapse: separate; border-spacing: 2pt; }
table.shaded-cells td, table.shaded-cells th { background: #e4e8ee; }
.toc-entry { display: flex; align-items: baseline; text-align: start; margin: 0 0 0.2em 0; }
.toc-level-1 { font-weight: bold; margin-top: 0.35em; }
.toc-level-2 { padding-inline-start: 1.5em; }
.toc-level-3 { padding-inline-start: 3em; }
.toc-leader { flex: 1; min-width: 1.5em; margin: 0 0.4em; }
.toc-leader.drawn { border-bottom: 1.2pt dotted #555; }
.head, .foot, .pagenum { position: absolute; font-size: ${Math.max(7, t.size - 2)}pt; color: #444; white-space: nowrap; }
.stamp { position: absolute; white-space: nowrap; font-family: "Liberation Serif", serif; font-size: 14pt; color: #888; transform-origin: left top; transform: rotate(-90deg); }
.linenos { position: absolute; font-size: 7pt; color: #777; text-align: right; }
.linenos div { height: ${t.size * 1.3}pt; line-height: ${t.size * 1.3}pt; }
.sidetab { position: absolute; background: #345; color: white; font-size: 9pt; padding: 6pt 3pt; writing-mode: vertical-rl; }
.bleed-rule { position: absolute; height: 0; border-top: 1pt solid #222; }
.bleed-panel { position: absolute; }
.aside { display: grid; grid-template-columns: 26% 1fr; column-gap: 14pt; }
.aside p { margin: 0; }
.aside .points p { margin: 0 0 0.6em 0; }
.margin-note { position: absolute; font-size: 7pt; color: #555; font-style: italic; line-height: 1.2; }
.footnotes { position: absolute; font-size: ${Math.max(6.5, t.size - 2)}pt; border-top: 0.5pt solid #777; padding-top: 2pt; }
`;
  const blocks = doc.blocks.map((block, order) => blockHtml(block, order, doc)).join('\n');
  return `<!doctype html><html lang="${doc.script === 'latin' || doc.script === 'accented' ? 'en' : doc.script}"${rtl ? ' dir="rtl"' : ''}><head><meta charset="utf-8"><style>${css}</style></head><body><div id="pages"></div><div id="source">${blocks}</div></body></html>`;
}
