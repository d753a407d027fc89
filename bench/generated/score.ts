// Scores of one generated document: what Folio read (its text, markdown, pages' text and tables)
// against what the producer placed (truth.ts). Each score is null where the document has nothing
// of its kind. Pure functions; no I/O.
import { adjacencyF1, cer, normalizeText, similarity, stripMarkdown, stripPageHeaders, stripTableMarkup } from '../quality/metrics.js';
import { teds, type TedsCell } from './teds.js';
import { tableGrid, truthText, type Truth, type TruthBlock, type TruthTable } from './truth.js';

/** What the bench fetched of a document. */
export interface Output {
  text: string;
  markdown: string;
  pages: { page: number; text: string; tables: OutputTable[] }[];
  seconds: number;
}

export interface OutputTable {
  rows: string[][];
  cells?: { row: number; column: number; row_span: number; column_span: number; text: string }[];
}

export interface DocumentScores {
  text: {
    similarity: number;
    /** The markdown without its markup against the truth without figures' labels (markdown shows a figure as a picture): text a figure swallowed is missing here. */
    markdownSimilarity: number | null;
    gluedPer1000: number;
    splitPer1000: number;
    accentsKept: number | null;
  } | null;
  cer: number | null;
  /** The same measure for the tesseract command on the scan's own pictures (peer-ocr.ts), where it read them. */
  tesseractCer: number | null;
  furniture: { total: number; leaked: number; byKind: Record<string, { total: number; leaked: number }> } | null;
  /** `levels`: the share of pairs of headings found whose relative levels agree with the truth's. */
  headings: { precision: number | null; recall: number | null; levels: number | null; truth: number; output: number; falseByKind: Record<string, number> } | null;
  order: { tau: number; blocks: number } | null;
  tables: { f1: number; teds: number; truth: number; missed: number; falseTables: number; /** Each truth table's scores and the variations it draws. */ each: TableScore[] } | null;
  falseTables: number;
  /** False tables on pages that hold no truth table (nor any whose page the producer does not know): prose, lists or code read as a table. */
  falseTablesOnPagesWithout: number;
  code: { asCode: number; asTable: number; total: number } | null;
  equations: { found: number; asFormula: number; asHeading: number; asTable: number; total: number } | null;
  /**
   * Contents entries: the share that stand on a markdown line (or table row) of their own, as
   * printed, rather than run into their neighbours; and the shares typed as headings or table rows.
   */
  contents: { apart: number; asHeading: number; asTable: number; total: number } | null;
  /**
   * For a page with no text or almost none (blank, a word or two, handwriting nobody can read):
   * the letters and digits the output holds beyond the truth's, which a reader invented from
   * paper grain, show-through or scribbles.
   */
  blank: { invented: number } | null;
  secondsPerPage: number;
}

const FIGURE = /\[FIGURE\]/g;

function words(text: string): string[] {
  return normalizeText(text)
    .split(' ')
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
}

/** Three dots or more, spaced or not: leaders, which lead the eye and say nothing (the truth has none). */
const LEADERS = /(?:\.\s*){3,}/g;

/** Output text as plain words: page markers out, tables as rows of cells, figure markers and leader dots out. */
function plainOutput(text: string): string {
  return stripTableMarkup(stripPageHeaders(text)).replace(FIGURE, ' ').replace(LEADERS, ' ');
}

export function scoreText(truth: Truth, output: Output): DocumentScores['text'] {
  const expected = truthText(truth);
  if (!normalizeText(expected)) return null;
  const got = plainOutput(output.text);
  const truthWords = words(expected);
  const outWords = words(got);
  const truthSet = new Set(truthWords);
  const outSet = new Set(outWords);
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < truthWords.length; i++) pairs.add(truthWords[i] + truthWords[i + 1]);
  const outPairs = new Set<string>();
  for (let i = 0; i + 1 < outWords.length; i++) outPairs.add(outWords[i] + outWords[i + 1]);
  // Glued: an output word that is two truth words written together; split: a truth word the
  // output has only as two words.
  const glued = outWords.filter((w) => !truthSet.has(w) && pairs.has(w)).length;
  const split = [...truthSet].filter((w) => w.length >= 4 && !outSet.has(w) && outPairs.has(w)).length;
  // Accented words kept: each occurrence in the truth matched by one in the output (a word spelt
  // right once and broken elsewhere is broken there).
  const accented = truthWords.filter((w) => /[^\u0000-\u007f]/.test(w) && /\p{Script=Latin}/u.test(w));
  const outNfc = new Map<string, number>();
  for (const w of outWords.map((o) => o.normalize('NFC'))) outNfc.set(w, (outNfc.get(w) ?? 0) + 1);
  let kept = 0;
  for (const w of accented.map((a) => a.normalize('NFC'))) {
    const left = outNfc.get(w) ?? 0;
    if (left > 0) {
      kept++;
      outNfc.set(w, left - 1);
    }
  }
  const per1000 = (n: number) => Math.round((n / Math.max(1, truthWords.length)) * 1000 * 10) / 10;
  const markdown = output.markdown ? normalizeText(stripMarkdown(output.markdown).replace(LEADERS, ' ')) : '';
  return {
    similarity: similarity(normalizeText(got), normalizeText(expected)),
    markdownSimilarity: markdown ? similarity(markdown, normalizeText(truthText({ ...truth, blocks: truth.blocks.filter((b) => b.kind !== 'figure-label') }))) : null,
    gluedPer1000: per1000(glued), splitPer1000: per1000(split), accentsKept: accented.length ? kept / accented.length : null };
}

export function scoreCer(truth: Truth, output: Output): number | null {
  const expected = normalizeText(truthText(truth));
  return expected ? cer(normalizeText(plainOutput(output.text)), expected) : null;
}

/**
 * Whether furniture text stands in a page's text: long strings anywhere, short ones (a bare page
 * number) as a line of their own. A short one at a line's start or end is not counted: "1
 * Introduction" is a numbered heading and "3 for (…)" a numbered code line far more often than a
 * page number run into text (a number printed beside a running head leaks with the head, which is
 * counted on its own).
 */
function standsIn(pageText: string, text: string): boolean {
  const wanted = normalizeText(text);
  const lines = pageText.split('\n').map((l) => normalizeText(l)).filter(Boolean);
  if (wanted.length >= 6) return lines.some((l) => l.includes(wanted)) || normalizeText(pageText).includes(wanted);
  return lines.some((l) => l === wanted);
}

export function scoreFurniture(truth: Truth, output: Output): DocumentScores['furniture'] {
  if (!truth.furniture.length) return null;
  const byKind: Record<string, { total: number; leaked: number }> = {};
  let leaked = 0;
  for (const item of truth.furniture) {
    const page = output.pages.find((p) => p.page === item.page);
    const found = page ? standsIn(page.text, item.text) : false;
    byKind[item.kind] ??= { total: 0, leaked: 0 };
    byKind[item.kind].total++;
    if (found) {
      byKind[item.kind].leaked++;
      leaked++;
    }
  }
  return { total: truth.furniture.length, leaked, byKind };
}

export function markdownHeadings(markdown: string): { level: number; text: string }[] {
  return markdown
    .split('\n')
    .map((line) => /^(#{1,6})\s+(.*)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ level: m[1].length, text: normalizeText(m[2].replace(/[*_`]/g, '')) }));
}

const alike = (a: string, b: string) => a === b || (a.length > 8 && b.length > 8 && similarity(a, b) >= 0.9);

export function scoreHeadings(truth: Truth, output: Output): DocumentScores['headings'] {
  const hasTitle = truth.blocks.some((b) => b.kind === 'title');
  const expected = truth.blocks.filter((b) => b.kind === 'title' || b.kind === 'heading').map((b) => ({ text: normalizeText(b.text), level: b.kind === 'title' ? 1 : (b.level ?? 1) + (hasTitle ? 1 : 0) }));
  const got = markdownHeadings(output.markdown);
  if (!expected.length && !got.length) return null;
  const used = new Set<number>();
  const pairs: { truth: number; output: number }[] = [];
  for (const e of expected) {
    const at = got.findIndex((g, i) => !used.has(i) && alike(g.text, e.text));
    if (at < 0) continue;
    used.add(at);
    pairs.push({ truth: e.level, output: got[at].level });
  }
  const matched = pairs.length;
  // Levels agree when the hierarchy does: for every two headings found, the one the truth puts
  // above, beside or below the other stands so in the markdown too, whatever numbers of # it uses.
  let agreeing = 0;
  let compared = 0;
  for (let i = 0; i < pairs.length; i++) {
    for (let j = i + 1; j < pairs.length; j++) {
      compared++;
      if (Math.sign(pairs[i].truth - pairs[j].truth) === Math.sign(pairs[i].output - pairs[j].output)) agreeing++;
    }
  }
  // What became a heading though it is not one: named by what it is.
  const others: { kind: string; text: string }[] = [
    ...truth.blocks.filter((b) => b.kind !== 'title' && b.kind !== 'heading').map((b) => ({ kind: b.kind, text: normalizeText(b.text) })),
    ...truth.furniture.map((f) => ({ kind: f.kind, text: normalizeText(f.text) })),
    ...truth.tables.flatMap((t) => t.cells.map((c) => ({ kind: 'table-cell', text: normalizeText(c.text) }))),
  ].filter((o) => o.text.length >= 2);
  const falseByKind: Record<string, number> = {};
  got.forEach((g, i) => {
    if (used.has(i)) return;
    const other = others.find((o) => o.text === g.text || (g.text.length >= 8 && o.text.includes(g.text)));
    const kind = other?.kind ?? 'other';
    falseByKind[kind] = (falseByKind[kind] ?? 0) + 1;
  });
  return {
    precision: got.length ? matched / got.length : null,
    recall: expected.length ? matched / expected.length : null,
    levels: compared ? agreeing / compared : null,
    truth: expected.length,
    output: got.length,
    falseByKind,
  };
}

/** Kendall's tau between the truth's order of its blocks and where each is found in the output text. */
export function scoreOrder(truth: Truth, output: Output): DocumentScores['order'] {
  const text = normalizeText(plainOutput(output.text));
  const probes = truth.blocks
    .filter((b) => b.kind !== 'figure-label' && normalizeText(b.text).length >= 24)
    .map((b) => ({ order: b.order, probe: normalizeText(b.text).slice(0, 24) }));
  const found: { order: number; at: number }[] = [];
  for (const { order, probe } of probes) {
    const at = text.indexOf(probe);
    // A probe found twice says nothing of order.
    if (at >= 0 && text.indexOf(probe, at + 1) < 0) found.push({ order, at });
  }
  if (found.length < 3) return null;
  let concordant = 0;
  let discordant = 0;
  for (let i = 0; i < found.length; i++) {
    for (let j = i + 1; j < found.length; j++) {
      const s = Math.sign(found[i].order - found[j].order) * Math.sign(found[i].at - found[j].at);
      if (s > 0) concordant++;
      else if (s < 0) discordant++;
    }
  }
  return { tau: (concordant - discordant) / Math.max(1, concordant + discordant), blocks: found.length };
}

function truthRows(table: TruthTable): TedsCell[][] {
  const rows: TedsCell[][] = Array.from({ length: table.rows }, () => []);
  for (const cell of [...table.cells].sort((a, b) => a.row - b.row || a.col - b.col)) rows[cell.row]?.push({ text: cell.text, rowSpan: cell.rowSpan, colSpan: cell.colSpan });
  return rows;
}

function outputRows(table: OutputTable): TedsCell[][] {
  if (!table.cells) return table.rows.map((row) => row.map((text) => ({ text, rowSpan: 1, colSpan: 1 })));
  const rows: TedsCell[][] = [];
  for (const cell of [...table.cells].sort((a, b) => a.row - b.row || a.column - b.column)) (rows[cell.row] ??= []).push({ text: cell.text, rowSpan: cell.row_span, colSpan: cell.column_span });
  return Array.from({ length: rows.length }, (_, i) => rows[i] ?? []);
}

export interface TableScore {
  f1: number;
  teds: number;
  missed: boolean;
  features: string[];
}

/** Below this adjacency F1 against every truth table, an output table is a false table; a truth table with no output above it was missed. */
const TABLE_MATCH = 0.2;

/**
 * The tables a page break may have parted, joined: a page's last table with the first tables of
 * the pages after it that have as many columns, each later part without the rows that repeat the
 * first part's first rows (a header the producer set again at the top of the page). For truth
 * whose producer does not know where its pages break (page 0), which records such a table whole.
 */
function joinedAcrossPages(pages: Output['pages']): (OutputTable & { parts: OutputTable[] })[] {
  const width = (t: OutputTable) => Math.max(0, ...t.rows.map((r) => r.length));
  const same = (a: string[] | undefined, b: string[] | undefined) => !!a && !!b && a.length === b.length && a.every((x, i) => normalizeText(x) === normalizeText(b[i]));
  const joined: (OutputTable & { parts: OutputTable[] })[] = [];
  pages.forEach((page, i) => {
    const first = page.tables.at(-1);
    if (!first) return;
    const parts = [first];
    let rows = [...first.rows];
    for (const later of pages.slice(i + 1)) {
      const next = later.tables[0];
      if (!next || width(next) !== width(first)) break;
      let repeated = 0;
      while (repeated < next.rows.length - 1 && same(next.rows[repeated], first.rows[repeated])) repeated++;
      rows = [...rows, ...next.rows.slice(repeated)];
      parts.push(next);
      joined.push({ rows, parts: [...parts] });
      if (later.tables.length > 1) break;
    }
  });
  return joined;
}

export function scoreTables(truth: Truth, output: Output): { scores: DocumentScores['tables']; falseTables: number; onPagesWithout: number } {
  const byPage = new Map(output.pages.map((p) => [p.page, p.tables]));
  const matchedOutputs = new Set<OutputTable>();
  // A table on page 0 stands somewhere in the document (its producer does not know where), maybe
  // across a page break.
  const everyTable: OutputTable[] = [...output.pages.flatMap((p) => p.tables), ...joinedAcrossPages(output.pages)];
  const perTable = truth.tables.map((t) => {
    const candidates = t.page === 0 ? everyTable : (byPage.get(t.page) ?? []);
    let best: { table: OutputTable | null; f1: number } = { table: null, f1: 0 };
    for (const c of candidates) {
      const f1 = adjacencyF1(tableGrid(t), c.rows).f1;
      if (f1 > best.f1) best = { table: c, f1 };
    }
    if (best.table && best.f1 >= TABLE_MATCH) for (const part of 'parts' in best.table ? (best.table.parts as OutputTable[]) : [best.table]) matchedOutputs.add(part);
    return { f1: best.f1, teds: best.table ? teds(truthRows(t), outputRows(best.table)) : 0, missed: best.f1 < TABLE_MATCH, features: t.features ?? [] };
  });
  let falseTables = 0;
  let onPagesWithout = 0;
  for (const page of output.pages) {
    for (const table of page.tables) {
      if (matchedOutputs.has(table)) continue;
      const onPage = truth.tables.filter((t) => t.page === page.page || t.page === 0);
      if (onPage.every((t) => adjacencyF1(tableGrid(t), table.rows).f1 < TABLE_MATCH)) falseTables++;
      if (onPage.length === 0) onPagesWithout++;
    }
  }
  if (!perTable.length) return { scores: null, falseTables, onPagesWithout };
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    scores: { f1: mean(perTable.map((t) => t.f1)), teds: mean(perTable.map((t) => t.teds)), truth: perTable.length, missed: perTable.filter((t) => t.missed).length, falseTables, each: perTable },
    falseTables,
    onPagesWithout,
  };
}

/** Lines of markdown inside ``` fences, between $$ lines, of pipe tables and of headings. */
function markdownParts(markdown: string): { fenced: string; formulas: string; tables: string; headings: string } {
  const fenced: string[] = [];
  const formulas: string[] = [];
  const tables: string[] = [];
  const headings: string[] = [];
  let inFence = false;
  let inFormula = false;
  for (const line of markdown.split('\n')) {
    if (!inFormula && /^\s*```/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (!inFence && /^\s*\$\$\s*$/.test(line)) {
      inFormula = !inFormula;
      continue;
    }
    if (inFence) fenced.push(line);
    else if (inFormula) formulas.push(line.replace(/\\tag\{[^}]*\}/g, ''));
    else if (/^\s*\|/.test(line)) tables.push(line);
    else if (/^\s*#/.test(line)) headings.push(line);
  }
  return { fenced: normalizeText(fenced.join(' ')), formulas: normalizeText(formulas.join(' ')), tables: normalizeText(tables.join(' ')), headings: normalizeText(headings.join(' ')) };
}

export function scoreCode(truth: Truth, output: Output): DocumentScores['code'] {
  const blocks = truth.blocks.filter((b) => b.kind === 'code');
  if (!blocks.length) return null;
  const parts = markdownParts(output.markdown);
  const lines = blocks.flatMap((b) => b.text.split('\n').map((l) => normalizeText(l)).filter((l) => l.length >= 4));
  return {
    asCode: lines.filter((l) => parts.fenced.includes(l)).length / Math.max(1, lines.length),
    asTable: lines.filter((l) => parts.tables.includes(l)).length / Math.max(1, lines.length),
    total: blocks.length,
  };
}

export function scoreEquations(truth: Truth, output: Output): DocumentScores['equations'] {
  const blocks: TruthBlock[] = truth.blocks.filter((b) => b.kind === 'equation');
  if (!blocks.length) return null;
  const parts = markdownParts(output.markdown);
  const text = normalizeText(output.text);
  const formula = (b: TruthBlock) => normalizeText(b.text.replace(/\(\d+\)\s*$/, ''));
  return {
    found: blocks.filter((b) => text.includes(formula(b))).length / blocks.length,
    asFormula: blocks.filter((b) => parts.formulas.includes(formula(b))).length / blocks.length,
    asHeading: blocks.filter((b) => parts.headings.includes(formula(b))).length / blocks.length,
    asTable: blocks.filter((b) => parts.tables.includes(formula(b))).length / blocks.length,
    total: blocks.length,
  };
}

export function scoreContents(truth: Truth, output: Output): DocumentScores['contents'] {
  const entries = truth.blocks.filter((b) => b.kind === 'contents-entry').map((b) => normalizeText(b.text));
  if (!entries.length) return null;
  const lines = output.markdown.split('\n').map((line) => {
    const table = /^\s*\|.*\|\s*$/.test(line);
    const heading = /^\s*#/.test(line);
    const text = stripTableMarkup(line)
      .replace(/^\s*(?:#+|[-*+]|\d+[.)])\s+/, '')
      .replace(/\\([\\`*_{}[\]()#+.!|-])/g, '$1')
      .replace(LEADERS, ' ');
    return { text: normalizeText(text), table, heading };
  });
  const on = (entry: string, which: (l: (typeof lines)[number]) => boolean) => lines.some((l) => which(l) && l.text === entry);
  return {
    apart: entries.filter((e) => on(e, () => true)).length / entries.length,
    asHeading: entries.filter((e) => on(e, (l) => l.heading)).length / entries.length,
    asTable: entries.filter((e) => on(e, (l) => l.table)).length / entries.length,
    total: entries.length,
  };
}

const letterOrDigit = (text: string) => text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;

export function scoreBlank(truth: Truth, output: Output): DocumentScores['blank'] {
  if (truth.kind !== 'blank') return null;
  // Printed furniture (a page number, a footer) is real text: leaving it in is the furniture score's business.
  const printed = letterOrDigit(truthText(truth)) + truth.furniture.reduce((n, f) => n + letterOrDigit(f.text), 0);
  return { invented: Math.max(0, letterOrDigit(plainOutput(output.text)) - printed) };
}

export function scoreDocument(truth: Truth, output: Output, tesseractText: string | null = null): DocumentScores {
  const tables = scoreTables(truth, output);
  const scanned = truth.variant !== 'digital';
  return {
    text: scoreText(truth, output),
    cer: scanned ? scoreCer(truth, output) : null,
    tesseractCer: scanned && tesseractText !== null ? scoreCer(truth, { text: tesseractText, markdown: '', pages: [], seconds: 0 }) : null,
    furniture: scoreFurniture(truth, output),
    headings: scoreHeadings(truth, output),
    order: scoreOrder(truth, output),
    tables: tables.scores,
    falseTables: tables.falseTables,
    falseTablesOnPagesWithout: tables.onPagesWithout,
    code: scoreCode(truth, output),
    equations: scoreEquations(truth, output),
    contents: scoreContents(truth, output),
    blank: scoreBlank(truth, output),
    secondsPerPage: output.seconds / Math.max(1, truth.pages || output.pages.length),
  };
}

/** One number a document is ranked by among the worst: the mean of the scores it has, each 0 to 1 with 1 best. */
export function overall(scores: DocumentScores): number {
  const parts = [
    scores.text?.similarity,
    scores.tables?.f1,
    scores.tables?.teds,
    scores.furniture ? 1 - scores.furniture.leaked / scores.furniture.total : undefined,
    scores.headings?.recall ?? undefined,
    scores.headings?.precision ?? undefined,
    scores.order ? (scores.order.tau + 1) / 2 : undefined,
    scores.falseTables ? 0 : undefined,
    scores.blank ? (scores.blank.invented > 0 ? 0 : 1) : undefined,
  ].filter((v): v is number => typeof v === 'number');
  return parts.length ? parts.reduce((a, b) => a + b, 0) / parts.length : 1;
}
