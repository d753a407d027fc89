// Output quality of Folio over the evaluation corpus (../shared/corpus), through the HTTP API as a
// user would call it.
//
//   npm run bench:quality                       (builds, then runs this file with tsx)
//   npm run bench:quality -- --compare bench/results/quality-<time>.json
//   npx tsx bench/quality.ts --cases pypdf-crazyones,icdar2013-eu-002   (a subset; no build)
//   npx tsx bench/quality.ts --results new.json --compare old.json       (compare two files, no run)
//   options: --no-peers (skip PDFium, pdftotext and tesseract), --dump DIR (write Folio's outputs per case, every page whole)
//
// Starts `folio serve` on a fresh installation (SQLite), creates an unthrottled plan and a
// workspace, submits every case's document with the TEST key (never charged), four in flight,
// waits for each, reads the outputs back and scores them against the case's truth with the
// metrics in bench/quality/metrics.ts. Then runs the peers: PDFium's own page text
// (FPDFText_GetText, through the binding Folio links) on text_pdf and layout_markdown, scored with
// the same metric and scope as Folio, so that a case below plain PDFium shows; and the tools that
// are installed (pdftotext on text_pdf and layout_markdown, tesseract on ocr_scans with Folio's
// languages and model files). It prints a per-case table, a per-category table and one
// `quality:` summary line, and writes the same figures to bench/results/quality-<time>.json.
//
// What is scored, per category (the metric of each case is named in its row):
//   text_pdf, office     similarity = 1 − Levenshtein / longer length on normalised text
//                        (`include=text` without the `=== Page N ===` lines, and tables, which
//                        page text carries as markdown, as plain cells) against truth.txt;
//                        office truth is truth.md with the markup stripped. samplefiles-multicolumn
//                        is scored on PAGE 1 ONLY against truth.page1.layout.txt read column by
//                        column (left column, then right), since that truth is a character grid.
//   layout_markdown      the same similarity on `include=markdown` (options {"markdown": true})
//                        against truth.md, markup stripped from both; the note gives how many of
//                        the output's headings are headings of the truth (text alike).
//   ocr_scans            CER = Levenshtein(output, truth) / truth length (lower is better).
//   tables               ICDAR 2013 adjacency-relation F1 of each truth table against the best
//                        returned table on its pages, averaged over the case's truth tables.
//   forms_kv             share of truth values found among the returned key/values; the receipts
//                        (sroie-*) are sent with a four-field schema (company, date, address,
//                        total) and scored as the share of fields the model layer got right.
//   unsupported          legacy .doc/.xls/.ppt and WebP must be refused with 415; counted apart
//                        and left out of their category's mean.
// A document whose type had no reader (in results of earlier builds) failed with processing_failed;
// it scores 0 (CER 1) and is marked "not read (reader missing)".
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { Client, CORPUS, Installation, type Server } from '../test/helpers/folio.js';
import {
  adjacencyF1,
  bestTableMatch,
  cer,
  codePointLength,
  headingMatch,
  kvRecall,
  layoutToReadingOrder,
  levenshteinRatio,
  mean,
  normalizeText,
  round3,
  round5,
  similarity,
  stripMarkdown,
  stripPageHeaders,
  stripTableMarkup,
  receiptFields,
  valuesInText,
  type Grid,
} from './quality/metrics.js';
import { findTools, pdfiumText, pdftotext, tesseract, type TesseractModels, type Tool } from './quality/peers.js';
import { RECEIPT_SCHEMA } from './quality/receipts.js';
import { loadConfig } from '../src/config.js';
import { unpackModels } from '../src/models/ocr/index.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const RESULTS_DIR = path.join(HERE, 'results');
const IN_FLIGHT = 4;
/** Longest wait for one document (the 117-page book takes a few seconds today). */
const DOCUMENT_TIMEOUT_MS = 5 * 60_000;

const CATEGORIES = ['text_pdf', 'layout_markdown', 'office', 'ocr_scans', 'tables', 'forms_kv'] as const;
type Category = (typeof CATEGORIES)[number];
/** Types SPEC.md does not accept: Folio must answer 415. */
const UNSUPPORTED_EXTENSIONS = ['.doc', '.xls', '.ppt', '.webp'];
const MULTICOLUMN_PAGE1 = 'samplefiles-multicolumn';

const log = (message: string) => process.stderr.write(`[bench:quality] ${message}\n`);

// ---------------------------------------------------------------------------------------------
// Corpus

interface IndexCase {
  id: string;
  category: Category;
  dir: string;
  document: string;
  truth: string[];
  other: string[];
  description: string;
}

const caseFile = (c: IndexCase, name: string) => path.join(CORPUS, c.dir, name);
const isUnsupported = (c: IndexCase) => UNSUPPORTED_EXTENSIONS.includes(path.extname(c.document).toLowerCase());
const isReceipt = (c: IndexCase) => c.category === 'forms_kv' && c.id.startsWith('sroie-');


/** The truth as plain text, for the text metrics. */
async function truthText(c: IndexCase): Promise<{ text: string; file: string; raw?: string }> {
  if (c.truth.includes('truth.txt')) return { text: await readFile(caseFile(c, 'truth.txt'), 'utf8'), file: 'truth.txt' };
  if (c.truth.includes('truth.page1.layout.txt')) {
    const raw = await readFile(caseFile(c, 'truth.page1.layout.txt'), 'utf8');
    return { text: layoutToReadingOrder(raw), file: 'truth.page1.layout.txt', raw };
  }
  if (c.truth.includes('truth.md')) return { text: stripMarkdown(await readFile(caseFile(c, 'truth.md'), 'utf8')), file: 'truth.md' };
  throw new Error(`${c.id}: no text truth among ${c.truth.join(', ')}`);
}

// ---------------------------------------------------------------------------------------------
// Folio

interface WirePage {
  page: number;
  text: string;
  tables?: { rows: string[][]; columns: number; markdown: string }[];
  key_values?: Record<string, { value: string }>;
}

interface FolioRun {
  http_status: number;
  document_id: string | null;
  /** completed | failed | refused (4xx at upload) | timeout | error (the bench could not talk to it) */
  status: 'completed' | 'failed' | 'refused' | 'timeout' | 'error';
  error_type: string | null;
  error_message: string | null;
  content_type: string | null;
  page_count: number | null;
  seconds: number;
  text?: string;
  markdown?: string;
  pages?: WirePage[];
  /** `result.data` of a document sent with extraction. */
  data?: Record<string, unknown>;
}

async function json(client: Client, url: string): Promise<any> {
  const response = await client.get(url);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${response.text.slice(0, 300)}`);
  return response.json;
}

async function runFolio(client: Client, c: IndexCase): Promise<FolioRun> {
  const bytes = await readFile(caseFile(c, c.document));
  const options = c.category === 'layout_markdown' ? { markdown: true } : isReceipt(c) ? { extraction: { schema: RECEIPT_SCHEMA } } : undefined;
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  let accepted = await client.upload([['file', c.document, bytes]], options);
  for (let attempt = 0; accepted.status === 429 && attempt < 5; attempt++) {
    await new Promise((r) => setTimeout(r, 1000 * Number(accepted.headers.get('retry-after') ?? 1)));
    accepted = await client.upload([['file', c.document, bytes]], options);
  }
  const base = { http_status: accepted.status, content_type: null, page_count: null };
  if (accepted.status !== 202) {
    return {
      ...base,
      document_id: null,
      status: 'refused',
      error_type: accepted.json?.error?.type ?? null,
      error_message: accepted.json?.error?.message ?? accepted.text.slice(0, 200),
      seconds: seconds(),
    };
  }
  const id: string = accepted.json.id;
  let done: any;
  try {
    done = await client.waitFor(id, DOCUMENT_TIMEOUT_MS);
  } catch (error) {
    const timeout = /still/.test(String(error));
    return { ...base, document_id: id, status: timeout ? 'timeout' : 'error', error_type: null, error_message: String(error), seconds: seconds() };
  }
  const run: FolioRun = {
    ...base,
    document_id: id,
    status: done.status,
    error_type: done.error?.type ?? null,
    error_message: done.error?.message ?? null,
    content_type: done.content_type ?? null,
    page_count: done.page_count ?? null,
    seconds: seconds(),
  };
  if (done.status !== 'completed') return run;

  // Outputs, as a client reads them.
  const docPath = `/api/v1/documents/${id}`;
  const include = c.category === 'layout_markdown' ? 'text,markdown' : 'text';
  const doc = await json(client, `${docPath}?include=${include}`);
  run.text = doc.text ?? '';
  if (doc.result?.data) run.data = doc.result.data;
  if (c.category === 'layout_markdown') run.markdown = doc.markdown ?? '';
  // A receipt's pages whole (tables and layout too), so bench/receipts.ts can rerun the built-in
  // engine on what a `--dump` of this run wrote.
  const pageIncludes = dumpingAll || isReceipt(c) ? '?include=key_values,tables,layout' : c.category === 'tables' ? '?include=tables' : c.category === 'forms_kv' ? '?include=key_values' : '';
  if (pageIncludes || c.id === MULTICOLUMN_PAGE1) {
    run.pages = (await json(client, `${docPath}/pages${pageIncludes}`)).data as WirePage[];
  }
  return run;
}

/** Runs `worker` over `items`, `limit` at a time, keeping the order of the results. */
async function pool<T, R>(items: T[], limit: number, worker: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await worker(items[index]!, index);
    }
  });
  await Promise.all(lanes);
  return results;
}

// ---------------------------------------------------------------------------------------------
// Scoring

type Outcome = 'scored' | 'not_read' | 'failed' | 'refused_415' | 'not_refused' | 'n/a';

interface PeerScore {
  tool: string;
  score: number | null;
  note?: string;
}

interface CaseResult {
  id: string;
  category: Category;
  document: string;
  truth_file: string | null;
  metric: string;
  lower_is_better: boolean;
  /** null when the case is not scored (n/a, or an unsupported type counted apart). */
  score: number | null;
  outcome: Outcome;
  /** Counted in its category's mean. */
  in_mean: boolean;
  note: string;
  scope: string | null;
  folio: {
    http_status: number;
    status: FolioRun['status'];
    error_type: string | null;
    error_message: string | null;
    content_type: string | null;
    page_count: number | null;
    seconds: number;
  };
  peer: PeerScore | null;
  /** PDFium's own page text scored the same way (text_pdf and layout_markdown). */
  pdfium: PeerScore | null;
  reference_scores: unknown;
  details: Record<string, unknown>;
}

function metricOf(c: IndexCase): { metric: string; lower: boolean } {
  if (isUnsupported(c)) return { metric: 'refused 415', lower: false };
  switch (c.category) {
    case 'text_pdf':
    case 'office':
      return { metric: 'similarity', lower: false };
    case 'layout_markdown':
      return { metric: 'md similarity', lower: false };
    case 'ocr_scans':
      return { metric: 'CER', lower: true };
    case 'tables':
      return { metric: 'adjacency F1', lower: false };
    case 'forms_kv':
      return isReceipt(c) ? { metric: '4-field extraction', lower: false } : { metric: 'kv value recall', lower: false };
  }
}

function readerMissing(run: FolioRun): boolean {
  return run.status === 'failed' && run.error_type === 'processing_failed' && /reader/i.test(run.error_message ?? '');
}

function folioSummary(run: FolioRun): CaseResult['folio'] {
  return {
    http_status: run.http_status,
    status: run.status,
    error_type: run.error_type,
    error_message: run.error_message,
    content_type: run.content_type,
    page_count: run.page_count,
    seconds: round3(run.seconds)!,
  };
}

const FIGURE_MARKER = /\[FIGURE\]/g;

async function scoreCase(c: IndexCase, run: FolioRun): Promise<CaseResult> {
  const { metric, lower } = metricOf(c);
  const result: CaseResult = {
    id: c.id,
    category: c.category,
    document: c.document,
    truth_file: null,
    metric,
    lower_is_better: lower,
    score: null,
    outcome: 'scored',
    in_mean: true,
    note: '',
    scope: null,
    folio: folioSummary(run),
    peer: null,
    pdfium: null,
    reference_scores: null,
    details: {},
  };
  const worst = lower ? 1 : 0;

  if (isUnsupported(c)) {
    result.in_mean = false;
    if (run.http_status === 415) {
      result.outcome = 'refused_415';
      result.score = 1;
      result.note = `refused 415 ${run.error_type ?? ''} as required (unsupported type, not in the ${c.category} mean)`.replace('  ', ' ');
    } else {
      result.outcome = 'not_refused';
      result.score = 0;
      result.note = `NOT refused: upload answered ${run.http_status}${run.status !== 'refused' ? `, document ${run.status}` : ''} (expected 415)`;
    }
    return result;
  }

  if (isReceipt(c)) {
    result.truth_file = 'truth.kv.json';
    if (run.status !== 'completed') {
      result.score = worst;
      result.outcome = 'failed';
      result.note = `${run.status}: ${run.error_type ?? ''} ${(run.error_message ?? '').slice(0, 80)}`.trim();
      return result;
    }
    // The four fields the built-in model extracted with the receipt schema, each right when it
    // matches the truth after normalising (amounts by value, dates by day), and what OCR read:
    // are the four values in the text at all?
    const truth = JSON.parse(await readFile(caseFile(c, 'truth.kv.json'), 'utf8')) as { fields: { key: string; value: string }[] };
    const fields = receiptFields(truth.fields, run.data ?? {});
    result.score = fields.right / fields.total;
    result.details.fields = fields.per_field;
    const inText = valuesInText(truth.fields, stripPageHeaders(run.text ?? ''));
    result.details.values_in_text = inText.found;
    result.details.truth_fields = inText.total;
    result.note = `${fields.right}/${fields.total} fields right (${fields.soft}/${fields.total} within 0.9 similarity); OCR text holds ${inText.found}/${inText.total} truth values`;
    return result;
  }

  if (run.status !== 'completed') {
    result.score = worst;
    if (readerMissing(run)) {
      result.outcome = 'not_read';
      const reader = /The (\S+) reader/.exec(run.error_message ?? '')?.[1];
      result.note = `not read (${reader ? `${reader} ` : ''}reader missing)`;
    } else {
      result.outcome = 'failed';
      result.note =
        run.status === 'refused'
          ? `refused ${run.http_status} ${run.error_type ?? ''}`.trim()
          : run.status === 'failed'
            ? `failed: ${run.error_type}`
            : `${run.status}: ${(run.error_message ?? '').slice(0, 80)}`;
    }
    if (c.id === MULTICOLUMN_PAGE1) result.scope = 'page 1 only';
    if (c.category === 'tables') result.truth_file = 'truth.tables.json';
    if (c.category === 'forms_kv') result.truth_file = 'truth.kv.json';
    return result;
  }

  // Page text marks each shown figure with [FIGURE] (SPEC.md); like `<!-- image -->` in Markdown it
  // is a placeholder, not text of the page, so it is counted and left out of the comparison.
  const rawText = stripTableMarkup(stripPageHeaders(run.text ?? ''));
  const figures = (rawText.match(FIGURE_MARKER) ?? []).length;
  const text = rawText.replace(FIGURE_MARKER, ' ');
  const notes: string[] = [];
  result.details.folio_pages = run.page_count;
  result.details.figure_markers = figures;
  result.details.folio_seconds = round3(run.seconds);

  switch (c.category) {
    case 'text_pdf':
    case 'office':
    case 'ocr_scans': {
      const truth = await truthText(c);
      result.truth_file = truth.file;
      let output = text;
      if (c.id === MULTICOLUMN_PAGE1) {
        output = stripTableMarkup(run.pages?.find((p) => p.page === 1)?.text ?? '').replace(FIGURE_MARKER, ' ');
        result.scope = 'page 1 only';
        notes.push('page 1 only, truth read column by column');
        result.details.similarity_to_raw_layout_grid = round3(similarity(output, truth.raw ?? ''));
      }
      const outLen = codePointLength(normalizeText(output));
      const truthLen = codePointLength(normalizeText(truth.text));
      result.details.output_chars = outLen;
      result.details.truth_chars = truthLen;
      if (lower) {
        result.score = cer(output, truth.text);
        result.details.cer_case_insensitive = round3(cer(output.toLowerCase(), truth.text.toLowerCase()));
      } else {
        result.score = similarity(output, truth.text);
      }
      if (outLen === 0) notes.push(c.category === 'ocr_scans' ? 'no text (no OCR)' : 'no text');
      else if (outLen < truthLen * 0.8) notes.push(`output ${outLen} chars vs truth ${truthLen}`);
      else if (outLen > truthLen * 1.2) notes.push(`output ${outLen} chars vs truth ${truthLen}`);
      if (figures) notes.push(`${figures} [FIGURE] marker${figures > 1 ? 's' : ''} in text (not scored)`);
      if (c.other.includes('reference_scores.json')) {
        result.reference_scores = JSON.parse(await readFile(caseFile(c, 'reference_scores.json'), 'utf8'));
        result.details.levenshtein_ratio = round3(levenshteinRatio(output, truth.text));
      }
      break;
    }
    case 'layout_markdown': {
      const truthMd = await readFile(caseFile(c, 'truth.md'), 'utf8');
      result.truth_file = 'truth.md';
      const output = stripMarkdown(run.markdown ?? '');
      const truth = stripMarkdown(truthMd);
      result.score = similarity(output, truth);
      result.details.text_similarity = round3(similarity(text, truth));
      const outLen = codePointLength(normalizeText(output));
      const truthLen = codePointLength(normalizeText(truth));
      result.details.output_chars = outLen;
      result.details.truth_chars = truthLen;
      const headings = headingMatch(run.markdown ?? '', truthMd);
      result.details.headings = headings;
      notes.push(`headings ${headings.matched} right of ${headings.output}, truth ${headings.truth}`);
      if (outLen === 0) notes.push('no markdown');
      else if (outLen < truthLen * 0.8 || outLen > truthLen * 1.2) notes.push(`output ${outLen} chars vs truth ${truthLen}`);
      break;
    }
    case 'tables': {
      result.truth_file = 'truth.tables.json';
      const truth = JSON.parse(await readFile(caseFile(c, 'truth.tables.json'), 'utf8')) as { tables: { id: string; pages: number[]; grid: Grid }[] };
      const pages = run.pages ?? [];
      const returned = pages.reduce((n, p) => n + (p.tables?.length ?? 0), 0);
      const perTable = truth.tables.map((t) => {
        const candidates = pages.filter((p) => t.pages.includes(p.page)).flatMap((p) => (p.tables ?? []).map((x) => x.rows));
        const best = bestTableMatch(t.grid, candidates);
        return { id: t.id, pages: t.pages, candidates: candidates.length, f1: round3(best.f1), precision: round3(best.precision), recall: round3(best.recall) };
      });
      result.score = mean(perTable.map((t) => t.f1 ?? 0)) ?? 0;
      result.details.truth_tables = truth.tables.length;
      result.details.returned_tables = returned;
      result.details.per_table = perTable;
      notes.push(returned === 0 ? `no tables returned (${truth.tables.length} in truth)` : `${returned} returned, ${truth.tables.length} in truth`);
      // Sanity: the truth against itself must score 1.
      if (truth.tables.some((t) => adjacencyF1(t.grid, t.grid).f1 !== 1)) notes.push('truth grid with no relations');
      break;
    }
    case 'forms_kv': {
      result.truth_file = 'truth.kv.json';
      const truth = JSON.parse(await readFile(caseFile(c, 'truth.kv.json'), 'utf8')) as { fields: { key: string; value: string }[]; note?: string };
      const values = (run.pages ?? []).flatMap((p) => Object.values(p.key_values ?? {}).map((kv) => kv.value));
      const recall = kvRecall(truth.fields, values);
      result.score = recall.recall ?? 0;
      result.details.found = recall.found;
      result.details.truth_fields = recall.total;
      result.details.returned_values = values.length;
      notes.push(values.length === 0 ? 'no key/values returned' : `${recall.found}/${recall.total} found among ${values.length} returned`);
      if (/partial/i.test(truth.note ?? '')) notes.push('truth partial: recall only');
      break;
    }
  }
  result.note = notes.join('; ');
  return result;
}

// ---------------------------------------------------------------------------------------------
// Peers

async function runPeers(cases: IndexCase[], results: CaseResult[], tools: Awaited<ReturnType<typeof findTools>>) {
  const peerJobs = cases.map((c, i) => ({ c, r: results[i]! }));
  // Tesseract reads with Folio's languages and model files, unpacked as Folio unpacks them.
  const languages = loadConfig().ocr.languages;
  const modelDir = await mkdtemp(path.join(os.tmpdir(), 'folio-quality-models-'));
  if (tools.tesseract.version && cases.some((c) => c.category === 'ocr_scans')) await unpackModels(languages, modelDir);
  try {
    await runPeerTools(peerJobs, tools, { dir: modelDir, languages });
  } finally {
    await rm(modelDir, { recursive: true, force: true });
  }
}

async function runPeerTools(peerJobs: { c: IndexCase; r: CaseResult }[], tools: Awaited<ReturnType<typeof findTools>>, models: TesseractModels) {
  for (const { c, r } of peerJobs) {
    if (c.category === 'text_pdf' || c.category === 'layout_markdown') {
      // PDFium's own text: the floor Folio's reading of a born-digital PDF must reach on every case.
      try {
        const truth = await truthText(c);
        const pages = c.id === MULTICOLUMN_PAGE1 ? { first: 1, last: 1 } : undefined;
        r.pdfium = { tool: 'pdfium', score: similarity(await pdfiumText(caseFile(c, c.document), pages), truth.text) };
      } catch (error) {
        r.pdfium = { tool: 'pdfium', score: null, note: String((error as Error).message ?? error).split('\n')[0]!.slice(0, 120) };
      }
    }
    try {
      if ((c.category === 'text_pdf' || c.category === 'layout_markdown') && tools.pdftotext.version) {
        // On layout_markdown, pdftotext's plain text against the Markdown truth without markup.
        const truth = await truthText(c);
        const pages = c.id === MULTICOLUMN_PAGE1 ? { first: 1, last: 1 } : undefined;
        const output = await pdftotext(caseFile(c, c.document), pages);
        r.peer = { tool: 'pdftotext', score: similarity(output, truth.text) };
        if (r.reference_scores) r.details.pdftotext_levenshtein_ratio = round3(levenshteinRatio(output, truth.text));
      } else if (c.category === 'ocr_scans' && tools.tesseract.version) {
        const truth = await truthText(c);
        const output = await tesseract(caseFile(c, c.document), tools.pdftoppm.version !== null, models);
        r.peer = { tool: 'tesseract', score: cer(output, truth.text) };
      }
    } catch (error) {
      const tool = c.category === 'ocr_scans' ? 'tesseract' : 'pdftotext';
      r.peer = { tool, score: null, note: String((error as Error).message ?? error).split('\n')[0]!.slice(0, 120) };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Categories and summary

interface CategoryResult {
  category: Category | 'unsupported';
  metric: string;
  lower_is_better: boolean;
  /** Mean over the cases counted (not read and failed ones included as 0, or CER 1). */
  mean: number | null;
  cases: number;
  counted: number;
  not_read: number;
  failed: number;
  /** Completed, but with no text at all (e.g. a scan without OCR). */
  no_text: number;
  /** Cases left out of the mean, and why. */
  excluded: { n_a: number; unsupported: number };
  peer: { tool: string; mean: number | null; cases: number } | null;
  /** PDFium's own text over the same cases, and how many cases Folio reads below it. */
  pdfium?: { mean: number | null; cases: number; below: number } | null;
  /** unsupported only */
  refused_415?: number;
}

function pdfiumSummary(counted: CaseResult[]): CategoryResult['pdfium'] {
  const rows = counted.filter((r) => r.pdfium && r.pdfium.score !== null);
  if (rows.length === 0) return null;
  return { mean: round3(mean(rows.map((r) => r.pdfium!.score!))), cases: rows.length, below: rows.filter((r) => (r.score ?? 0) < r.pdfium!.score!).length };
}

function categoryResults(results: CaseResult[]): CategoryResult[] {
  const out: CategoryResult[] = [];
  for (const category of CATEGORIES) {
    const rows = results.filter((r) => r.category === category);
    if (rows.length === 0) continue;
    const counted = rows.filter((r) => r.in_mean);
    const lower = category === 'ocr_scans';
    const peerRows = counted.filter((r) => r.peer && r.peer.score !== null);
    out.push({
      category,
      metric: counted[0]?.metric ?? rows[0]!.metric,
      lower_is_better: lower,
      mean: round3(mean(counted.map((r) => r.score ?? (lower ? 1 : 0)))),
      cases: rows.length,
      counted: counted.length,
      not_read: counted.filter((r) => r.outcome === 'not_read').length,
      failed: counted.filter((r) => r.outcome === 'failed').length,
      no_text: counted.filter((r) => r.outcome === 'scored' && r.details.output_chars === 0).length,
      excluded: { n_a: rows.filter((r) => r.outcome === 'n/a').length, unsupported: rows.filter((r) => r.outcome === 'refused_415' || r.outcome === 'not_refused').length },
      peer: peerRows.length ? { tool: peerRows[0]!.peer!.tool, mean: round3(mean(peerRows.map((r) => r.peer!.score!))), cases: peerRows.length } : null,
      pdfium: pdfiumSummary(counted),
    });
  }
  const unsupported = results.filter((r) => r.outcome === 'refused_415' || r.outcome === 'not_refused');
  if (unsupported.length) {
    const refused = unsupported.filter((r) => r.outcome === 'refused_415').length;
    out.push({
      category: 'unsupported',
      metric: 'refused 415',
      lower_is_better: false,
      mean: round3(refused / unsupported.length),
      cases: unsupported.length,
      counted: unsupported.length,
      not_read: 0,
      failed: unsupported.length - refused,
      no_text: 0,
      excluded: { n_a: 0, unsupported: 0 },
      peer: null,
      refused_415: refused,
    });
  }
  return out;
}

const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '-' : v.toFixed(3));
/** Case scores carry five decimals (see round5). */
const fmt5 = (v: number | null | undefined) => (v === null || v === undefined ? '-' : v.toFixed(5));

function categoryNote(cat: CategoryResult): string {
  if (cat.category === 'unsupported') return `${cat.refused_415}/${cat.cases} refused with 415`;
  const parts: string[] = [];
  if (cat.not_read) parts.push(`${cat.not_read} not read`);
  if (cat.failed) parts.push(`${cat.failed} failed`);
  if (cat.no_text) parts.push(`${cat.no_text} completed with no text`);
  if (cat.excluded.n_a) parts.push(`${cat.excluded.n_a} n/a, not in mean`);
  if (cat.excluded.unsupported) parts.push(`${cat.excluded.unsupported} unsupported type (415), not in mean`);
  return parts.join('; ');
}

function summaryLine(categories: CategoryResult[], cases: CaseResult[]): string {
  const parts = categories.map((cat) => {
    if (cat.category === 'unsupported') return `unsupported 415 ${cat.refused_415}/${cat.cases}`;
    const label = cat.category === 'ocr_scans' ? 'ocr_scans CER' : cat.category === 'tables' ? 'tables F1' : cat.category;
    const notes: string[] = [];
    if (cat.counted > 0 && cat.not_read === cat.counted) notes.push('not read');
    else if (cat.not_read) notes.push(`${cat.not_read} not read`);
    if (cat.failed) notes.push(`${cat.failed} failed`);
    if (cat.no_text) notes.push(`${cat.no_text} no text`);
    if (cat.excluded.n_a) notes.push(`${cat.excluded.n_a} n/a`);
    if (cat.pdfium) notes.push(`pdfium ${fmt(cat.pdfium.mean)}, folio below it on ${cat.pdfium.below}/${cat.pdfium.cases}`);
    return `${label} ${fmt(cat.mean)}${notes.length ? ` (${notes.join(', ')})` : ''}`;
  });
  const receipts = cases.filter((c) => c.details.values_in_text !== undefined);
  if (receipts.length) {
    const complete = receipts.filter((c) => c.details.values_in_text === c.details.truth_fields).length;
    parts.push(`receipts with all values in OCR text ${complete}/${cases.filter((c) => c.category === 'forms_kv' && c.id.startsWith('sroie-')).length}`);
    const found = receipts.reduce((sum, c) => sum + (c.details.values_in_text as number), 0);
    const total = receipts.reduce((sum, c) => sum + (c.details.truth_fields as number), 0);
    parts.push(`receipt values in OCR text ${found}/${total} (${Math.round((found / total) * 100)}%)`);
    const fields = receipts.flatMap((c) => Object.values((c.details.fields as Record<string, boolean> | undefined) ?? {}));
    if (fields.length) parts.push(`receipt fields extracted right ${fields.filter(Boolean).length}/${fields.length}`);
  }
  return `quality: ${parts.join(' | ')}`;
}

// ---------------------------------------------------------------------------------------------
// Printing

function table(headers: string[], rows: string[][], rightAligned: number[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (rightAligned.includes(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function peerCell(peer: PeerScore | null): string {
  if (!peer) return '';
  return peer.score === null ? `${peer.tool} error` : `${peer.tool} ${fmt5(peer.score)}`;
}

/** PDFium's score, marked `<` where Folio reads the case below it. */
function pdfiumCell(r: CaseResult): string {
  if (!r.pdfium) return '';
  if (r.pdfium.score === null) return 'error';
  const below = r.score !== null && r.score < r.pdfium.score;
  return `${below ? '< ' : ''}${fmt5(r.pdfium.score)}`;
}

function caseScoreCell(r: CaseResult): string {
  if (r.outcome === 'n/a') return 'n/a';
  if (r.outcome === 'refused_415') return '415 yes';
  if (r.outcome === 'not_refused') return `${r.folio.http_status} NO`;
  return fmt5(r.score);
}

function printCases(results: CaseResult[]): string {
  return table(
    ['case', 'category', 'metric', 'folio', 'pdfium', 'peer', 's', 'note'],
    results.map((r) => [
      r.id,
      r.category,
      r.metric + (r.lower_is_better ? ' (lower better)' : ''),
      caseScoreCell(r),
      pdfiumCell(r),
      peerCell(r.peer),
      r.folio.seconds.toFixed(1),
      [r.scope === 'page 1 only' && !r.note.includes('page 1') ? 'page 1 only' : '', r.note, r.peer?.note ? `peer: ${r.peer.note}` : '', r.pdfium?.note ? `pdfium: ${r.pdfium.note}` : '']
        .filter(Boolean)
        .join('; '),
    ]),
    [3, 4, 6],
  );
}

function printCategories(categories: CategoryResult[]): string {
  return table(
    ['category', 'metric', 'mean', 'cases', 'pdfium mean', 'peer mean', 'note'],
    categories.map((cat) => [
      cat.category,
      cat.metric + (cat.lower_is_better ? ' (lower better)' : ''),
      cat.category === 'unsupported' ? `${cat.refused_415}/${cat.cases}` : fmt(cat.mean),
      cat.category === 'unsupported' ? String(cat.cases) : `${cat.counted}/${cat.cases}`,
      cat.pdfium ? `${fmt(cat.pdfium.mean)} (${cat.pdfium.cases}, folio below on ${cat.pdfium.below})` : '',
      cat.peer ? `${cat.peer.tool} ${fmt(cat.peer.mean)} (${cat.peer.cases})` : '',
      categoryNote(cat),
    ]),
    [2, 3],
  );
}

function printReferences(results: CaseResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    const ref = r.reference_scores as { metric?: string; source?: string; scores?: Record<string, { this_document?: number }> } | null;
    if (!ref?.scores) continue;
    const published = Object.entries(ref.scores)
      .map(([tool, s]) => `${tool} ${s.this_document?.toFixed(2) ?? '-'}`)
      .join(', ');
    out.push(`published reference scores for ${r.id} (${ref.metric ?? 'see reference_scores.json'}):`);
    out.push(`  ${published}`);
    const here = [`folio ${fmt(r.details.levenshtein_ratio as number | undefined)}`];
    if (r.details.pdftotext_levenshtein_ratio !== undefined) here.push(`pdftotext (this machine) ${fmt(r.details.pdftotext_levenshtein_ratio as number)}`);
    out.push(`  same ratio (2*LCS/(len a + len b)) on our normalised text: ${here.join(', ')}`);
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Compare

interface Report {
  format: 'folio-quality-v1';
  started_at: string;
  finished_at: string;
  duration_s: number;
  machine: { cpus: number; node: string; platform: string };
  folio: { version: string; commit: string | null };
  corpus: string;
  peers: Record<string, string | null>;
  cases: CaseResult[];
  categories: CategoryResult[];
  summary: string;
}

function delta(now: number | null, before: number | null, lower: boolean): string {
  if (now === null || before === null) return '';
  const d = now - before;
  if (Math.abs(d) < 0.0005) return '=';
  const better = lower ? d < 0 : d > 0;
  return `${d > 0 ? '+' : ''}${d.toFixed(3)} ${better ? 'better' : 'worse'}`;
}

function printCompare(now: Report, before: Report, beforeFile: string): string {
  const out: string[] = [`compared with ${beforeFile} (${before.started_at}, ${before.folio.commit?.slice(0, 10) ?? 'unknown commit'}):`, ''];
  const beforeCases = new Map(before.cases.map((c) => [c.id, c]));
  const caseRows = now.cases.map((c) => {
    const b = beforeCases.get(c.id);
    return [c.id, c.metric, b ? caseScoreCell(b) : 'new', caseScoreCell(c), b ? delta(c.score, b.score, c.lower_is_better) : ''];
  });
  for (const b of before.cases) if (!now.cases.some((c) => c.id === b.id)) caseRows.push([b.id, b.metric, caseScoreCell(b), 'gone', '']);
  out.push(table(['case', 'metric', 'before', 'now', 'delta'], caseRows, [2, 3]));
  out.push('');
  const beforeCats = new Map(before.categories.map((c) => [c.category, c]));
  out.push(
    table(
      ['category', 'before', 'now', 'delta'],
      now.categories.map((c) => {
        const b = beforeCats.get(c.category);
        const show = (x: CategoryResult) => (x.category === 'unsupported' ? `${x.refused_415}/${x.cases}` : `${fmt(x.mean)} (${x.counted})`);
        return [c.category, b ? show(b) : 'new', show(c), b ? delta(c.mean, b.mean, c.lower_is_better) : ''];
      }),
      [1, 2],
    ),
  );
  out.push('');
  out.push(`before  ${before.summary}`);
  out.push(`now     ${now.summary}`);
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main

async function gitCommit(): Promise<string | null> {
  try {
    const { stdout } = await promisify(execFile)('git', ['rev-parse', 'HEAD'], { cwd: ROOT });
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

async function measure(cases: IndexCase[]): Promise<FolioRun[]> {
  let install: Installation | null = null;
  let server: Server | null = null;
  let cleaned: Promise<void> | null = null;
  const cleanup = () =>
    (cleaned ??= (async () => {
      try {
        await server?.stop();
      } finally {
        await install?.destroy();
      }
    })());
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    stopping = true;
    log(`${signal}: stopping the server and removing the installation`);
    void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    install = await Installation.create();
    await install.admin('plan', 'create', '--id', 'bench', '--name', 'Bench', '--rate-limit-per-second', '100000', '--max-pages-per-document', '5000');
    const workspace = await install.workspace({ plan: 'bench' });
    server = await install.start();
    log(`folio serve at ${server.url} (data ${install.dataDir}); ${cases.length} cases, ${IN_FLIGHT} in flight`);
    const client = new Client(server.url, workspace.test);
    let done = 0;
    return await pool(cases, IN_FLIGHT, async (c) => {
      let run: FolioRun;
      try {
        run = await runFolio(client, c);
      } catch (error) {
        run = { http_status: 0, document_id: null, status: 'error', error_type: null, error_message: String(error), content_type: null, page_count: null, seconds: 0 };
      }
      done++;
      if (stopping) return run;
      log(`${String(done).padStart(2)}/${cases.length} ${c.id}: ${run.status}${run.error_type ? ` ${run.error_type}` : ''} (${run.http_status}, ${run.seconds.toFixed(1)} s)`);
      return run;
    });
  } catch (error) {
    if (server) log(`server log (last 3000 characters):\n${server.logs.slice(-3000)}`);
    throw error;
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * With `--dump`, every case's pages are read whole (tables, key/values and layout), so two dumps
 * compare every output of two builds (a change meant to change no reading).
 */
let dumpingAll = false;

/** `--dump DIR`: Folio's outputs per case, for looking at what was scored. */
async function dumpOutputs(dir: string, cases: IndexCase[], runs: FolioRun[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < cases.length; i++) {
    const run = runs[i]!;
    const base = path.join(dir, cases[i]!.id);
    if (run.text !== undefined) await writeFile(`${base}.text.txt`, run.text);
    if (run.markdown !== undefined) await writeFile(`${base}.md`, run.markdown);
    if (run.pages !== undefined) await writeFile(`${base}.pages.json`, JSON.stringify(run.pages, null, 2));
    if (run.data !== undefined) await writeFile(`${base}.data.json`, JSON.stringify(run.data, null, 2));
  }
  log(`outputs written to ${dir}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      compare: { type: 'string' },
      results: { type: 'string' },
      cases: { type: 'string' },
      'no-peers': { type: 'boolean', default: false },
      dump: { type: 'string' },
    },
  });

  let report: Report;
  let file: string | null = null;
  if (values.results) {
    report = JSON.parse(await readFile(values.results, 'utf8')) as Report;
    file = values.results;
  } else {
    const index = JSON.parse(await readFile(path.join(CORPUS, 'index.json'), 'utf8')) as { cases: IndexCase[] };
    let cases = index.cases;
    if (values.cases) {
      const wanted = new Set(values.cases.split(',').map((s) => s.trim()));
      cases = cases.filter((c) => wanted.has(c.id) || wanted.has(c.category));
      if (cases.length === 0) throw new Error(`no case matches --cases ${values.cases}`);
    }
    const startedAt = new Date();
    const t0 = performance.now();
    dumpingAll = values.dump !== undefined;
    const runs = await measure(cases);
    if (values.dump) await dumpOutputs(values.dump, cases, runs);
    const folioSeconds = (performance.now() - t0) / 1000;
    log(`Folio done in ${folioSeconds.toFixed(1)} s; scoring`);
    const results: CaseResult[] = [];
    for (let i = 0; i < cases.length; i++) results.push(await scoreCase(cases[i]!, runs[i]!));

    const tools = await findTools();
    const peers: Record<string, string | null> = {};
    if (values['no-peers']) {
      log('peers skipped (--no-peers)');
    } else {
      peers.pdfium = `@embedpdf/pdfium ${JSON.parse(await readFile(path.join(ROOT, 'node_modules/@embedpdf/pdfium/package.json'), 'utf8')).version} (FPDFText_GetText)`;
      for (const tool of [tools.pdftotext, tools.tesseract] as Tool[]) {
        peers[tool.name] = tool.version;
        if (!tool.version) log(`${tool.name}: not installed (${tool.install})`);
      }
      if (tools.tesseract.version && !tools.pdftoppm.version) log(`pdftoppm: not installed (${tools.pdftoppm.install}); tesseract skips the PDF scans`);
      log('running peer tools');
      await runPeers(cases, results, tools);
    }
    const categories = categoryResults(results); // means of the unrounded scores
    for (const r of results) {
      r.score = round5(r.score);
      if (r.peer) r.peer.score = round5(r.peer.score);
      if (r.pdfium) r.pdfium.score = round5(r.pdfium.score);
    }
    const finishedAt = new Date();
    report = {
      format: 'folio-quality-v1',
      started_at: startedAt.toISOString(),
      finished_at: finishedAt.toISOString(),
      duration_s: round3((finishedAt.getTime() - startedAt.getTime()) / 1000)!,
      machine: { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.arch()}` },
      folio: { version: JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')).version, commit: await gitCommit() },
      corpus: CORPUS,
      peers,
      cases: results,
      categories,
      summary: summaryLine(categories, results),
    };
    await mkdir(RESULTS_DIR, { recursive: true });
    file = path.join(RESULTS_DIR, `quality-${startedAt.toISOString().replace(/:/g, '-')}.json`);
    await writeFile(file, JSON.stringify(report, null, 2) + '\n');
  }

  const out: string[] = [];
  out.push('', `Folio output quality over ${report.cases.length} corpus cases (${report.corpus})`, '');
  const missing = Object.entries(report.peers).filter(([, v]) => v === null);
  for (const [name] of missing) out.push(`${name}: not installed (apt-get install ${name === 'pdftotext' ? 'poppler-utils' : 'tesseract-ocr'})`);
  const present = Object.entries(report.peers).filter(([, v]) => v !== null);
  if (present.length) out.push(`peers: ${present.map(([n, v]) => `${n} (${v})`).join(', ')}`);
  if (missing.length || present.length) out.push('');
  out.push(printCases(report.cases), '');
  const refs = printReferences(report.cases);
  if (refs) out.push(refs, '');
  out.push(printCategories(report.categories), '');
  out.push(
    'Notes: similarity = 1 - Levenshtein/longer length after NFKC and whitespace collapsing; CER = Levenshtein/truth length;',
    'page text is compared without its "=== Page N ===" lines and [FIGURE] markers, Markdown without its markup;',
    'not read and failed cases count as 0 (CER 1) in the means; n/a and unsupported-type cases are left out of them;',
    `${MULTICOLUMN_PAGE1} is scored on page 1 only. Seconds (s) are upload to completed, ${IN_FLIGHT} documents in flight.`,
    '',
  );
  if (file && !values.results) out.push(`wrote ${path.relative(process.cwd(), file)} (the bench took ${report.duration_s.toFixed(0)} s without the build)`, '');
  if (values.compare) {
    const before = JSON.parse(await readFile(values.compare, 'utf8')) as Report;
    out.push(printCompare(report, before, values.compare), '');
  }
  out.push(report.summary);
  process.stdout.write(out.join('\n') + '\n');
}

main().catch((error) => {
  log(`failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
});
