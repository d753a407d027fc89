// Markdown from the page model: title and headings by level, list items, paragraphs, tables as
// pipe tables, code fenced, display formulas between $$, figures as `<!-- image -->`; page
// furniture (headers, footers, marginal notes) is left out of the flow.
import { blockText } from '../analysis/analyze-page.js';
import type { Block, Page } from '../page-model.js';
import { isFurniture } from '../../page-outputs/shapes.js';
import { tableMarkdown } from './tables.js';

const BULLET = /^[•●○◦▪■□‣⁃∙·*–—-]\s*/;
const ENUMERATOR = /^(\()?(\d{1,3})([.)])\s+/;

export function pageMarkdown(page: Page): string {
  let out = '';
  let previousList: 'bullet' | 'ordered' | null = null;
  for (const block of page.blocks) {
    const rendered = blockMarkdown(block, page);
    if (!rendered) continue;
    // Items of one list stay together (a tight list); other blocks, and a list of the other kind,
    // are a blank line apart.
    const list = block.type !== 'list_item' ? null : /^\s*\d+[.)]/.test(rendered) ? 'ordered' : 'bullet';
    if (out) out += list !== null && list === previousList ? '\n' : '\n\n';
    out += rendered;
    previousList = list;
  }
  return out;
}

function blockMarkdown(block: Block, page: Page): string {
  if (isFurniture(block.type)) return '';
  switch (block.type) {
    case 'figure':
      return page.figures[block.figure!]?.index !== null ? '<!-- image -->' : '';
    case 'table':
      return tableMarkdown(page.tables[block.table!]);
    case 'code':
      return codeFence(blockText(block, page));
    case 'formula':
      return displayFormula(blockText(block, page));
    case 'title':
      return `# ${oneLine(escapeInline(blockText(block, page)))}`;
    case 'heading':
      return `${'#'.repeat(Math.min(6, (block.level ?? 1) + 1))} ${oneLine(escapeInline(blockText(block, page)))}`;
    case 'list_item': {
      const text = oneLine(blockText(block, page));
      // Nested items are indented under their parent's text.
      const indent = '    '.repeat(block.depth ?? 0);
      const enumerated = ENUMERATOR.exec(text);
      // The number keeps the delimiter it is printed with where markdown has it ("1." or "1)");
      // "(1)" has no markdown form and is written "1.".
      if (enumerated) return `${indent}${enumerated[2]}${enumerated[1] ? '.' : enumerated[3]} ${escapeInline(text.slice(enumerated[0].length))}`;
      return `${indent}- ${escapeInline(text.replace(BULLET, ''))}`;
    }
    default:
      return escapeInline(blockText(block, page))
        .split('\n')
        .map(escapeLineStart)
        .join('\n');
  }
}

/** A fenced code block, its fence longer than any run of backticks in the code. */
function codeFence(code: string): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${code}\n${fence}`;
}

/** A display formula between $$, its equation number, where it has one, as \tag. */
function displayFormula(text: string): string {
  const flat = oneLine(text).trim();
  const number = /\((\d{1,3}(?:\.\d{1,3})?[a-z]?)\)$/.exec(flat);
  const body = number ? flat.slice(0, number.index).trim() : flat;
  return `$$\n${body}${number ? ` \\tag{${number[1]}}` : ''}\n$$`;
}

/**
 * Keeps the page's own characters from reading as markup: underscores (a form's blank
 * "Name ______", an identifier "QIBM_DB_SECADM") would open emphasis, and a backslash before
 * punctuation would escape it. Asterisks are left as they are, as Docling leaves them.
 */
function escapeInline(text: string): string {
  let out = '';
  let from = 0;
  // An equation read from an Office file is LaTeX between dollars: its underscores and
  // backslashes are its own. A span between dollars is taken for one only when it holds LaTeX's
  // marks, so prices ("$5 and $10") are escaped as text.
  for (const math of text.matchAll(MATH_SPAN)) {
    if (!/[\\^_{}]/.test(math[1] ?? math[2])) continue;
    out += escapeText(text.slice(from, math.index)) + math[0];
    from = math.index! + math[0].length;
  }
  return out + escapeText(text.slice(from));
}

const MATH_SPAN = /\$\$([\s\S]+?)\$\$|\$([^$\n]+?)\$/g;

function escapeText(text: string): string {
  return text.replace(/\\(?=[!-\/:-@[-`{-~])/g, '\\\\').replace(/_/g, '\\_');
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * Keeps running text from turning into markup by accident: lines starting "# ", "## ", "1. ", or a
 * rule, and a "#" alone on its line (a symbol font's glyph), which would be an empty heading.
 */
function escapeLineStart(line: string): string {
  if (/^\s*([-=*_])\1{2,}\s*$/.test(line)) return `\\${line.trimStart()}`;
  return line.replace(/^(\s*)(#{1,6}(?=\s|$)|[>+*-](?=\s))/, '$1\\$2').replace(/^(\s*\d+)([.)])(\s)/, '$1\\$2$3');
}
