// The LaTeX producer (Debian's texlive-latex-base, -latex-recommended and -fonts-recommended): a
// DocSpec written as a LaTeX article and set by pdflatex. It gives what the other producers do
// not, and what most papers are: pages as TeX sets them, whose text holds no space characters (a
// gap between words is only a position), Computer Modern in its old seven-bit encoding or Times,
// Helvetica and Courier in T1, paragraphs justified by TeX, and tables as `tabular` sets them:
// booktabs' rules of three weights, rows shaded by colortbl, columns that wrap their text
// (`p`, `m` and `b` columns, set at the top, middle or foot of a row), and tables scaled down to
// the width of their column. Two- and three-column pages flow in `multicols`; a table wider than a
// column ends the columns, stands across the page and starts them again, as in the other
// producers. TeX decides where pages break and nothing here reads its output back, so, as with
// Writer, the truth has no boxes and no pages: a block's page is 0, "somewhere in the document".
// Not drawn: page furniture, margin notes, letter spacing (the spec's furniture and type
// variations other than family and size).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Laid } from './chromium.js';
import { placeCells } from './html.js';
import { Random } from './random.js';
import type { Block, Cell, DocSpec, Run, TableSpec } from './spec.js';
import type { BlockKind, TruthBlock, TruthTable } from './truth.js';

const exec = promisify(execFile);

export const PDFLATEX = process.env.FOLIO_PDFLATEX ?? 'pdflatex';

/** Tables of more rows than this are set by longtable, which breaks across pages (and never in a column). */
const LONG_ROWS = 24;

type Face = 'cm' | 'times' | 'helvetica' | 'courier';

/** Characters no text face of these has, set as TeX sets them in papers: in math, or by a text command. */
const SYMBOLS: Record<string, string> = {
  '∇': '$\\nabla$', '∑': '$\\sum$', '√': '$\\surd$', '∫': '$\\int$', '∞': '$\\infty$', '−': '$-$', '·': '$\\cdot$', '±': '$\\pm$',
  '²': '$^2$', 'ᵏ': '$^k$', '₀': '$_0$', '₁': '$_1$', '₂': '$_2$', '₊': '$_+$', 'ᵢ': '$_i$', 'ₖ': '$_k$', 'ₜ': '$_t$',
  'α': '$\\alpha$', 'β': '$\\beta$', 'γ': '$\\gamma$', 'δ': '$\\delta$', 'ε': '$\\varepsilon$', 'η': '$\\eta$', 'θ': '$\\theta$', 'λ': '$\\lambda$',
  'μ': '$\\mu$', 'π': '$\\pi$', 'ρ': '$\\rho$', 'σ': '$\\sigma$', 'τ': '$\\tau$', 'φ': '$\\phi$', 'χ': '$\\chi$', 'ω': '$\\omega$',
  'ŷ': '$\\hat{y}$', '☐': '$\\square$', '☒': '$\\boxtimes$', '©': '\\textcopyright{}', '—': '\\textemdash{}', '–': '\\textendash{}',
  '€': '\\texteuro{}', '£': '\\pounds{}', '¥': '\\textyen{}', '…': '\\ldots{}', '\u2003': '\\quad{}', '\u2002': '\\enspace{}', '\u2009': '\\,', '\u00a0': '~',
  ...greekLetters(),
};

/** Every Greek letter as TeX's math sets it; capitals TeX has no symbol for are the Latin letters they look like. */
function greekLetters(): Record<string, string> {
  const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi', 'rho', 'sigma', 'tau', 'upsilon', 'phi', 'chi', 'psi', 'omega'];
  const lower = 'αβγδεζηθικλμνξοπρστυφχψω';
  const upper = 'ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ';
  // Capitals drawn as the Latin letters (Alpha is an A), in the same order as these.
  const alike = ['ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ', 'ABEZHIKMNOPTYX'];
  const out: Record<string, string> = {};
  [...lower].forEach((ch, i) => (out[ch] = names[i] === 'omicron' ? 'o' : `$\\${names[i]}$`));
  [...upper].forEach((ch, i) => {
    const at = alike[0].indexOf(ch);
    out[ch] = at >= 0 ? alike[1][at] : `$\\${names[i][0].toUpperCase()}${names[i].slice(1)}$`;
  });
  out['ς'] = '$\\varsigma$';
  return out;
}

/**
 * Text as TeX sets it: its special characters escaped, and the characters Computer Modern's
 * seven-bit encoding draws as something else (`<`, `>`, `|`, `"`) taken from the typewriter face
 * there, where T1 has them. Runs of hyphens and quotes are kept from ligatures.
 */
export function escapeTex(text: string, face: Face): string {
  const oldEncoding = face === 'cm';
  let out = '';
  for (const ch of text) {
    switch (ch) {
      case '\\': out += '\\textbackslash{}'; break;
      case '{': case '}': case '$': case '&': case '#': case '%': case '_': out += `\\${ch}`; break;
      case '^': out += '\\textasciicircum{}'; break;
      case '~': out += '\\textasciitilde{}'; break;
      case '-': out += '-{}'; break;
      case "'": case '`': out += `{${ch}}`; break;
      case '<': case '>': case '|': case '"': out += oldEncoding ? `\\texttt{${ch}}` : ch === '"' ? '\\textquotedbl{}' : `\\text${ch === '<' ? 'less' : ch === '>' ? 'greater' : 'bar'}{}`; break;
      default: out += SYMBOLS[ch] ?? ch;
    }
  }
  return out;
}

function runTex(run: Run, face: Face): string {
  const text = escapeTex(run.text, face);
  return run.bold ? `\\textbf{${text}}` : run.italic ? `\\textit{${text}}` : text;
}

/**
 * The face a document is set in: Computer Modern for half of the serif ones whose text holds no
 * accented letter and no currency sign but the dollar, else the T1 faces. Computer Modern's seven-bit encoding has no accented letters, and TeX
 * Live without cm-super draws its euro and yen from bitmap fonts that name no character (a reader
 * sees a "C"), and its pound as an italic dollar: a file whose text no reader could recover.
 */
function faceOf(doc: DocSpec): Face {
  if (doc.type.family === 'mono') return 'courier';
  if (doc.type.family === 'sans' || doc.type.family === 'narrow') return 'helvetica';
  const plain = !/[\u00c0-\u024f€£¥]/u.test(JSON.stringify(doc.blocks));
  return plain && Random.forDocument(doc.seed ^ 0x7e4, doc.index).chance(0.5) ? 'cm' : 'times';
}

const PREAMBLE_FACES: Record<Face, string> = {
  cm: '',
  times: '\\usepackage[T1]{fontenc}\\usepackage{mathptmx}',
  helvetica: '\\usepackage[T1]{fontenc}\\usepackage[scaled=0.92]{helvet}\\renewcommand{\\familydefault}{\\sfdefault}',
  courier: '\\usepackage[T1]{fontenc}\\usepackage{courier}\\renewcommand{\\familydefault}{\\ttdefault}',
};

/** A column's letter: wrapping (`p`, `m`, `b` by where the row sets its text) where its longest cell is long, else its cells' alignment. */
function columnSpec(table: TableSpec, placed: { cell: Cell; col: number }[], col: number): string {
  const own = placed.filter((p) => p.col === col && (p.cell.colSpan ?? 1) === 1);
  const longest = Math.max(0, ...own.map((p) => p.cell.text.length));
  if (longest > 30) {
    const letter = { top: 'p', middle: 'm', bottom: 'b' }[table.style.cellAlign];
    const width = Math.min(16, Math.max(7, Math.round(longest * 0.32)));
    const align = own.some((p) => p.cell.align === 'right') ? '\\raggedleft' : '\\raggedright';
    return `>{${align}\\arraybackslash}${letter}{${width}em}`;
  }
  const right = own.filter((p) => p.cell.align === 'right').length;
  const centre = own.filter((p) => p.cell.align === 'center').length;
  return right * 2 > own.length ? 'r' : centre * 2 > own.length ? 'c' : 'l';
}

/**
 * The size a long table is set in: longtable cannot be scaled as a box, so the largest of the
 * usual sizes at which its columns' text, at half an em a character, fits the line (a guess that
 * errs small: a table too wide would lose its last columns off the page).
 */
function longSize(placed: { cell: Cell; col: number }[], columns: string[], count: number, lineWidth: number, asked: string): string {
  const sizes: [string, number][] = [['', 10], ['\\small', 9], ['\\footnotesize', 8], ['\\scriptsize', 7], ['\\tiny', 5]];
  const ems = columns.reduce((sum, spec, c) => {
    const wrap = /\{(\d+)em\}$/.exec(spec);
    const longest = Math.max(0, ...placed.filter((p) => p.col === c && (p.cell.colSpan ?? 1) === 1).map((p) => p.cell.text.length));
    return sum + (wrap ? Number(wrap[1]) : longest * 0.5) + 1.2;
  }, 0);
  void count;
  const start = Math.max(0, sizes.findIndex(([name]) => name === asked));
  return sizes.slice(start).find(([, pt]) => ems * pt * 1.1 <= lineWidth)?.[0] ?? '\\tiny';
}

const ROW_COLOURS = ['blue!10', 'orange!15', 'green!10', 'red!8'];

/** One table as LaTeX, and whether it is long enough to be set by longtable. */
export function tableTex(table: TableSpec, face: Face, lineWidth: number): { tex: string; long: boolean } {
  const { style } = table;
  const header = placeCells(table.header, table.columns);
  const body = placeCells(table.body, table.columns).map((row) => row.map((p) => ({ ...p, row: p.row + table.header.length })));
  const rows = [...header, ...body];
  const long = rows.length > LONG_ROWS;
  const grid = style.rules === 'grid' || style.shadedCells;
  const bar = grid ? '|' : '';
  const columns = Array.from({ length: table.columns }, (_, c) => columnSpec(table, rows.flat(), c));
  const lines: string[] = [];
  if (style.rules === 'grid' || style.shadedCells) lines.push('\\hline');
  else if (style.rules !== 'none') lines.push('\\toprule');
  // Where a cell spans down into the next row, a rule under the row leaves that cell's columns open.
  const ruleUnder = (r: number, booktabs: boolean): string => {
    const open = new Set<number>();
    for (const p of rows.flat()) if (p.row <= r && p.row + (p.cell.rowSpan ?? 1) - 1 > r) for (let c = p.col; c < p.col + (p.cell.colSpan ?? 1); c++) open.add(c);
    if (open.size === 0) return booktabs ? '\\midrule' : '\\hline';
    const parts: string[] = [];
    for (let c = 0; c < table.columns; c++) {
      if (open.has(c)) continue;
      let end = c;
      while (end + 1 < table.columns && !open.has(end + 1)) end++;
      parts.push(booktabs ? `\\cmidrule${style.trimmedRules ? '(lr)' : ''}{${c + 1}-${end + 1}}` : `\\cline{${c + 1}-${end + 1}}`);
      c = end;
    }
    return parts.join('');
  };
  rows.forEach((row, r) => {
    const isHeader = r < table.header.length;
    const colour = isHeader && style.headerShade ? 'gray!25' : !isHeader && style.coloured ? ROW_COLOURS[r % ROW_COLOURS.length] : !isHeader && style.zebra && (r - table.header.length) % 2 === 1 ? 'gray!12' : null;
    const cells: string[] = [];
    let c = 0;
    for (const p of row) {
      // The columns a cell spanning down from a row above covers are left empty here.
      while (c < p.col) {
        cells.push('');
        c++;
      }
      const span = p.cell.colSpan ?? 1;
      let text = escapeTex(p.cell.text, face);
      if (isHeader && !style.headerShade && style.rules !== 'grid') text = text ? `\\textbf{${text}}` : text;
      if (style.shadedCells) text = `\\cellcolor{gray!18}${text}`;
      cells.push(span > 1 ? `\\multicolumn{${span}}{${bar}c${bar}}{${text}}` : text);
      c += span;
    }
    while (c < table.columns) {
      cells.push(style.shadedCells ? '\\cellcolor{gray!18}' : '');
      c++;
    }
    lines.push(`${colour ? `\\rowcolor{${colour}}` : ''}${cells.join(' & ')} \\\\`);
    const last = r === rows.length - 1;
    if (long && r === table.header.length - 1) lines.push(`${style.rules === 'none' ? '' : ruleUnder(r, !grid)}\\endhead`);
    else if (grid && !last) lines.push(ruleUnder(r, false));
    else if (!last && style.rules === 'horizontal') lines.push(ruleUnder(r, true));
    else if (!last && style.rules === 'header-only' && r === table.header.length - 1) lines.push(ruleUnder(r, true));
  });
  if (grid) lines.push('\\hline');
  else if (style.rules !== 'none') lines.push('\\bottomrule');
  // Shaded cells are parted by white rules.
  const fontSize = style.fontScale < 0.8 ? '\\footnotesize' : style.fontScale < 0.95 ? '\\small' : '';
  const rules = style.shadedCells ? '\\setlength{\\arrayrulewidth}{2pt}\\arrayrulecolor{white}' : '';
  const size = `${fontSize}${rules}`;
  const spec = `${bar}${columns.join(bar)}${bar}`;
  if (long) return { tex: `{${longSize(rows.flat(), columns, table.columns, lineWidth, fontSize)}${rules}\\begin{longtable}{${spec}}\n${lines.join('\n')}\n\\end{longtable}}`, long };
  // As wide as the line where the spec asks it, else its own width, scaled down to the line where that is wider.
  const natural = `\\begin{tabular}{${spec}}\n${lines.join('\n')}\n\\end{tabular}`;
  const fitting = table.width === 'full' && !grid ? `\\begin{tabular*}{\\linewidth}{@{\\extracolsep{\\fill}}${spec}}\n${lines.join('\n')}\n\\end{tabular*}` : '\\usebox0';
  return { tex: `{${size}\\sbox0{${natural}}\\ifdim\\wd0>\\linewidth\\resizebox{\\linewidth}{!}{\\usebox0}\\else${fitting}\\fi}`, long };
}

/** The blocks as a LaTeX article, and the truth of each in reading order. */
export function latexDocument(doc: DocSpec): { tex: string; blocks: TruthBlock[]; tables: TruthTable[]; longTables: boolean } {
  const face = faceOf(doc);
  const blocks: TruthBlock[] = [];
  const tables: TruthTable[] = [];
  let order = 0;
  let longTables = false;
  const truth = (kind: BlockKind, text: string, level?: number) => blocks.push({ kind, text: text.replace(/\s+/g, ' ').trim(), page: 0, box: null, order: order++, ...(level ? { level } : {}) });
  const esc = (text: string) => escapeTex(text, face);
  const columns = Math.min(3, doc.columns);
  const parts: string[] = [];
  let inColumns = false;
  const startColumns = () => {
    if (columns > 1 && !inColumns) parts.push(`\\begin{multicols}{${columns}}`);
    inColumns = columns > 1;
  };
  const endColumns = () => {
    if (inColumns) parts.push('\\end{multicols}');
    inColumns = false;
  };
  const put = (block: Block, index: number) => {
    if (block.kind !== 'title' && !(doc.kind === 'paper' && index === 1)) startColumns();
    switch (block.kind) {
      case 'title':
        parts.push(`\\begin{center}{\\LARGE\\bfseries ${esc(block.text)}\\par}${block.subtitle ? `\\vspace{4pt}{\\large\\itshape ${esc(block.subtitle)}\\par}` : ''}\\end{center}`);
        truth('title', block.text);
        if (block.subtitle) truth('paragraph', block.subtitle);
        return;
      case 'heading': {
        const text = `${block.number ? `${block.number} ` : ''}${block.text}`;
        const command = ['section', 'subsection', 'subsubsection', 'paragraph'][block.level - 1];
        parts.push(`\\${command}*{${esc(text)}}`);
        truth('heading', text, block.level);
        return;
      }
      case 'paragraph': {
        // The paper's authors stand centred under its title, across the columns.
        if (doc.kind === 'paper' && index === 1) {
          parts.push(`\\begin{center}${block.runs.map((r) => runTex(r, face)).join(' ')}\\end{center}`);
          truth('paragraph', block.runs.map((r) => r.text).join(' '));
          return;
        }
        const note = block.footnote ? `{\\renewcommand{\\thefootnote}{${esc(block.footnote.mark)}}\\footnote{${esc(block.footnote.text)}}}` : '';
        parts.push(`${block.runs.map((r) => runTex(r, face)).join(' ')}${note}\n`);
        truth('paragraph', block.runs.map((r) => r.text).join(' '));
        if (block.footnote) truth('footnote', `${block.footnote.mark} ${block.footnote.text}`);
        return;
      }
      case 'list': {
        const env = block.ordered ? 'enumerate' : 'itemize';
        parts.push(`\\begin{${env}}${block.items.map((item) => `\\item ${esc(item)}`).join('\n')}\\end{${env}}`);
        for (const item of block.items) truth('list-item', item);
        return;
      }
      case 'aside':
        for (const point of block.points) {
          parts.push(`\\noindent\\textbf{${esc(point)}}\\par`);
          truth('paragraph', point);
        }
        parts.push(`${esc(block.text)}\n`);
        truth('paragraph', block.text);
        return;
      case 'quote':
        parts.push(`\\begin{quote}${esc(block.text)}\\end{quote}`);
        truth('quote', block.text);
        return;
      case 'code': {
        const width = String(block.lines.length).length;
        const lines = block.lines.map((line, i) => (block.numbered ? `${String(i + 1).padStart(width)}  ${line}` : line));
        // Each line verbatim, in a box scaled down to the column where it is wider (a line of code in a narrow column would run into the next).
        const verb = (line: string) => {
          const delimiter = ['|', '!', '+', '@', '=', '/', '~', '^'].find((d) => !line.includes(d)) ?? '"';
          return line.trim() ? `\\verb${delimiter}${line.replace(/\t/g, '    ')}${delimiter}` : '~';
        };
        parts.push(`\\par\\smallskip\\noindent\\begin{lrbox}{0}\\small\\begin{tabular}{@{}l@{}}${lines.map(verb).join('\\\\\n')}\\end{tabular}\\end{lrbox}\\ifdim\\wd0>\\linewidth\\resizebox{\\linewidth}{!}{\\usebox0}\\else\\usebox0\\fi\\par\\smallskip`);
        blocks.push({ kind: 'code', text: block.lines.join('\n'), page: 0, box: null, order: order++ });
        return;
      }
      case 'equation': {
        parts.push(`\\par\\noindent\\hfill\\textit{${esc(block.text)}}\\hfill${block.number ? `\\llap{${esc(block.number)}}` : ''}\\par`);
        truth('equation', `${block.text}${block.number ? ` ${block.number}` : ''}`);
        return;
      }
      case 'figure': {
        const labels = block.labels.map((label) => esc(label)).join('\\quad ');
        parts.push(`\\begin{center}\\fbox{\\parbox[c][${Math.round(block.heightPt * 0.6)}pt][b]{0.85\\linewidth}{\\centering\\footnotesize ${labels}}}\\end{center}`);
        for (const label of block.labels) truth('figure-label', label);
        if (block.caption) {
          parts.push(`{\\small ${esc(block.caption)}\\par}\\medskip`);
          truth('caption', block.caption);
        }
        return;
      }
      case 'contents': {
        const fill = block.leaders === 'dots' ? '\\dotfill' : block.leaders === 'drawn' ? '\\hrulefill' : '\\hfill';
        for (const e of block.entries) {
          parts.push(`\\noindent\\hspace*{${(e.level - 1) * 1.5}em}${esc(e.text)}${fill}${esc(e.page)}\\par`);
          truth('contents-entry', `${e.text} ${e.page}`);
        }
        return;
      }
      case 'table': {
        const t = block.table;
        const { tex, long } = tableTex(t, face, doc.page.width - 2 * doc.page.margin);
        longTables ||= long;
        // A table wider than a column (or too long for one) stands across the page, between runs of columns.
        if ((t.width !== 'narrow' && !t.inColumn) || long) endColumns();
        parts.push('\\par\\medskip');
        if (t.caption && !t.captionBelow) {
          parts.push(`{\\small ${esc(t.caption)}\\par}\\smallskip`);
          truth('caption', t.caption);
        }
        parts.push(long ? tex : `\\begin{center}${tex}\\end{center}`);
        const header = placeCells(t.header, t.columns);
        const body = placeCells(t.body, t.columns).map((row) => row.map((p) => ({ ...p, row: p.row + t.header.length })));
        const cells = [...header, ...body].flat().map((p) => ({ row: p.row, col: p.col, rowSpan: p.cell.rowSpan ?? 1, colSpan: p.cell.colSpan ?? 1, text: p.cell.text, header: p.row < t.header.length, box: null }));
        tables.push({ page: 0, rows: t.header.length + t.body.length, columns: t.columns, headerRows: t.header.length, cells, box: null, continued: false, order: order++, features: t.features });
        if (t.caption && t.captionBelow) {
          parts.push(`{\\small ${esc(t.caption)}\\par}`);
          truth('caption', t.caption);
        }
        if (t.note) {
          parts.push(`{\\footnotesize ${esc(t.note)}\\par}`);
          truth('table-note', t.note);
        }
        parts.push('\\medskip');
        return;
      }
    }
  };
  doc.blocks.forEach(put);
  endColumns();
  const size = doc.type.size <= 10.5 ? 10 : doc.type.size <= 11.5 ? 11 : 12;
  const { width, height, margin } = doc.page;
  const tex = [
    `\\documentclass[${size}pt]{article}`,
    PREAMBLE_FACES[face],
    `\\usepackage[paperwidth=${width}bp,paperheight=${height}bp,margin=${margin}bp]{geometry}`,
    '\\usepackage[table]{xcolor}\\usepackage{booktabs,longtable,multicol,graphicx,array,amssymb}',
    `\\pagestyle{empty}\\setlength{\\columnsep}{${columnGap(doc)}pt}\\sloppy`,
    doc.type.justified ? '' : '\\raggedright',
    '\\begin{document}',
    ...parts,
    '\\end{document}',
  ].join('\n');
  return { tex, blocks, tables, longTables };
}

/**
 * The space between page columns: LaTeX's own 10pt (article's default, which most two-column
 * papers keep, about one font size: two columns' lines stand barely further apart than a
 * cell's gap) or wider.
 */
function columnGap(doc: DocSpec): number {
  return Random.forDocument(doc.seed ^ 0x3c5, doc.index).pick([10, 10, 14, 20]);
}

export class LatexProducer {
  async produce(doc: DocSpec): Promise<Laid> {
    const { tex, blocks, tables, longTables } = latexDocument(doc);
    const dir = await mkdtemp(path.join(tmpdir(), 'folio-latex-'));
    try {
      await writeFile(path.join(dir, `${doc.id}.tex`), tex);
      // longtable settles its columns' widths from the previous run's record, so it takes two.
      for (let run = 0; run < (longTables ? 2 : 1); run++) {
        await exec(PDFLATEX, ['-interaction=nonstopmode', '-halt-on-error', `-output-directory=${dir}`, path.join(dir, `${doc.id}.tex`)], { cwd: dir, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }).catch(async (error) => {
          const log = await readFile(path.join(dir, `${doc.id}.log`), 'utf8').catch(() => '');
          throw new Error(`pdflatex failed on ${doc.id}: ${log.split('\n').filter((l) => l.startsWith('!')).slice(0, 3).join(' ') || String(error)}`);
        });
      }
      const pdf = await readFile(path.join(dir, `${doc.id}.pdf`));
      return { pdf, pages: 0, blocks, tables, furniture: [], features: [`latex:${faceOf(doc)}`, ...(doc.columns > 1 ? [`latex:column-gap-${columnGap(doc)}pt`] : [])] };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
