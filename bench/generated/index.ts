// Generated documents with exact truth, read by Folio and scored (docs/generated-bench.md).
//
//   npm run bench:generated -- [--seed N] [--count K] [--only tables,furniture,...] [--keep DIR]
//                               [--with variation,...] [--without variation,...]
//   npm run bench:generated -- --rescore DIR        (scores a --keep run's documents again, no Folio)
//   npm run bench:generated -- --rescore DIR --reread  (its born-digital documents, and scans whose OCR'd pages a reread kept, read again by this checkout, in process)
//   npm run bench:generated -- --rescore DIR --reread --ocr  (its scans too: OCR'd once, the OCR'd pages kept beside each scan)
//   npm run bench:generated -- --rescore DIR --reread --remeasure  (kept scan pages' rulings, fills and check boxes measured again by this checkout)
//
// Draws K documents from seed N (a fresh seed from the clock when none is given: say it again to
// see the same documents), each laid out by its producer with its truth recorded as it was placed,
// a quarter of them sent as scans; starts Folio (`folio serve`, on SQLite, or on PostgreSQL with
// FOLIO_TEST_STORE=postgres) with a test key, sends every document through the API while the next ones are drawn, and
// scores each feature against the truth. Prints the mean of each score by feature, producer and
// variant, which variations the run covered, and the twenty worst documents with the seed and
// index that regenerate each; writes bench/results/generated-<ISO date>.json. --only limits the
// scores printed; --keep writes the documents, their truth and what Folio read of each to DIR.
// Nothing asserts on scores.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChromiumProducer } from './chromium.js';
import { LatexProducer } from './latex.js';
import { LibreOfficeProducer } from './libreoffice.js';
import { composeDocument, LISTED_VARIATIONS } from './compose.js';
import { tesseractDocument } from './peer-ocr.js';
import { findTool } from '../speed/peers.js';
import { loadConfig } from '../../src/config.js';
import { unpackModels, type OcrEngine } from '../../src/models/ocr/index.js';
import { TesseractCli } from '../../src/models/ocr/tesseract-cli.js';
import { generateDocument, type Generated } from './generate.js';
import { PdfLibProducer } from './pdflib.js';
import { readInProcess, scanEngine, type ScanSource } from './reread.js';
import { overall, scoreDocument, type DocumentScores, type Output } from './score.js';
import type { Truth } from './truth.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FEATURES = ['text', 'ocr', 'tables', 'furniture', 'headings', 'order', 'code', 'time'] as const;
type Feature = (typeof FEATURES)[number];

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

interface Scored {
  id: string;
  producer: string;
  variant: string;
  kind: string;
  pages: number;
  status: string;
  error?: string;
  scores: DocumentScores | null;
  overall: number;
}

export interface RunOptions {
  seed: number;
  count: number;
  /** Where the documents go; a temporary folder when null (removed after). */
  keep: string | null;
  concurrency: number;
  /**
   * Only the documents that draw one of these variations (names of `features`, such as
   * `scan:strips`); a variation written `a+b` asks for documents that draw both.
   */
  variations?: string[];
  /** Not the documents that draw one of these variations (`scan:pdf,scan:tiff,scan:png,scan:jpeg`: no scans). */
  without?: string[];
  log: (line: string) => void;
}

/** Generates, reads and scores; returns every document's scores. The test suite runs it on a few documents. */
export async function runBench(options: RunOptions): Promise<{ documents: Scored[]; seconds: number; features: Set<string> }> {
  const { Client, Installation } = await import('../../test/helpers/folio.js');
  const started = performance.now();
  const dir = options.keep ?? (await mkdtemp(path.join(tmpdir(), 'folio-generated-')));
  await mkdir(dir, { recursive: true });
  const install = await Installation.create();
  const server = await install.start();
  const producers = { chromium: await ChromiumProducer.start(), pdflib: await PdfLibProducer.start(), libreoffice: await LibreOfficeProducer.start(), latex: new LatexProducer() };
  const features = new Set<string>();
  // The tesseract command beside Folio's OCR, with the models and languages Folio reads with.
  const ocr = loadConfig(install.env).ocr;
  const version = findTool('tesseract').version;
  const peerModels = path.join(install.dataDir, 'peer-ocr-models');
  if (version) await unpackModels(ocr.languages, peerModels);
  const peer = version ? new TesseractCli('tesseract', version, ocr.languages, {}, peerModels, 1) : null;
  if (!peer) options.log('tesseract is not installed: the scans are not read by it beside Folio (apt-get install tesseract-ocr)');
  try {
    await install.admin('plan', 'create', '--id', 'bench', '--name', 'Bench', '--rate-limit-per-second', '100000', '--max-concurrent-jobs', '8');
    const client = new Client(server.url, (await install.workspace({ plan: 'bench' })).test);
    const documents: Scored[] = [];
    const inFlight = new Set<Promise<void>>();
    const read = async (generated: Generated) => {
      const { truth } = generated;
      const upload = await client.upload([['file', truth.file, await readFile(generated.path)]], { markdown: true });
      if (upload.status !== 202) {
        documents.push({ id: truth.id, producer: truth.producer, variant: truth.variant, kind: truth.kind, pages: truth.pages, status: `refused ${upload.status}`, error: upload.json?.error?.message, scores: null, overall: 0 });
        return;
      }
      const doc = await client.waitFor(upload.json.id, 600_000);
      if (doc.status !== 'completed') {
        documents.push({ id: truth.id, producer: truth.producer, variant: truth.variant, kind: truth.kind, pages: truth.pages, status: doc.status, error: doc.error?.message, scores: null, overall: 0 });
        return;
      }
      const full = (await client.get(`/api/v1/documents/${doc.id}?include=text,markdown`)).json;
      const pages = (await client.get(`/api/v1/documents/${doc.id}/pages?include=tables&page=1-${Math.max(1, doc.page_count)}`)).json.data;
      const output: Output = {
        text: full.text ?? '',
        markdown: full.markdown ?? '',
        pages: pages.map((p: { page: number; text: string; tables: Output['pages'][number]['tables'] }) => ({ page: p.page, text: p.text, tables: p.tables ?? [] })),
        seconds: (Date.parse(doc.completed_at) - Date.parse(doc.started_at ?? doc.created_at)) / 1000,
      };
      // Kept beside the file and its truth, what Folio read of it, to look at a bad score.
      if (options.keep) await writeFile(path.join(dir, `${truth.id}.output.json`), `${JSON.stringify(output, null, 1)}\n`);
      const peerText = generated.scan && generated.spec.scan?.textLayer === 'none' && peer ? await tesseractDocument(generated.scan.pictures, generated.scan.dpi, peer) : null;
      if (peerText !== null && options.keep) await writeFile(path.join(dir, `${truth.id}.tesseract.txt`), peerText);
      const scores = scoreDocument(truth, output, peerText);
      documents.push({ id: truth.id, producer: truth.producer, variant: truth.variant, kind: truth.kind, pages: truth.pages, status: 'completed', scores, overall: overall(scores) });
    };
    for (let index = 0; index < options.count; index++) {
      const drawn = composeDocument(options.seed, index).features;
      if (options.variations && !options.variations.some((wanted) => wanted.split('+').every((f) => drawn.includes(f)))) continue;
      if (options.without && drawn.some((f) => options.without!.includes(f))) continue;
      const generated = await generateDocument(options.seed, index, producers, dir);
      for (const f of generated.truth.features) features.add(f);
      while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
      const job: Promise<void> = read(generated)
        .catch((error) => {
          documents.push({ id: generated.truth.id, producer: generated.truth.producer, variant: generated.truth.variant, kind: generated.truth.kind, pages: generated.truth.pages, status: 'bench error', error: String(error), scores: null, overall: 0 });
        })
        .finally(() => inFlight.delete(job));
      inFlight.add(job);
      if ((index + 1) % 20 === 0) options.log(`  ${index + 1} of ${options.count} drawn, ${documents.length} read (${Math.round((performance.now() - started) / 1000)} s)`);
    }
    await Promise.all(inFlight);
    documents.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
    return { documents, seconds: (performance.now() - started) / 1000, features };
  } finally {
    await producers.chromium.close();
    await producers.pdflib.close();
    await producers.libreoffice.close();
    await server.stop();
    await install.destroy();
    if (!options.keep) await rm(dir, { recursive: true, force: true });
  }
}

/** A mean over the documents that have the score, with its standard error: what a change must move it by to be more than noise. */
export interface Stat {
  mean: number | null;
  se: number | null;
  n: number;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

const mean = (values: (number | null | undefined)[]): Stat => {
  const xs = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (!xs.length) return { mean: null, se: null, n: 0 };
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.length > 1 ? xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1) : 0;
  return { mean: round3(m), se: xs.length > 1 ? round3(Math.sqrt(variance / xs.length)) : null, n: xs.length };
};

function shown(value: Stat | number | null): string {
  if (value === null) return '–';
  if (typeof value === 'number') return String(value);
  if (value.mean === null) return '–';
  return `${value.mean}${value.se !== null ? ` ±${value.se}` : ''} (${value.n})`;
}

/** The mean of every score over `docs`, by feature. */
export function summarize(docs: Scored[]): Record<Feature, Record<string, Stat | number | null>> {
  const s = docs.map((d) => d.scores).filter((x): x is DocumentScores => x !== null);
  const sum = (f: (x: DocumentScores) => number | undefined) => s.reduce((n, x) => n + (f(x) ?? 0), 0);
  const furnitureTotal = sum((x) => x.furniture?.total);
  const headingsFalse = (kind: string) => sum((x) => x.headings?.falseByKind[kind]);
  return {
    text: {
      similarity: mean(s.filter((x) => !x.cer && x.cer !== 0).map((x) => x.text?.similarity)),
      markdown_similarity: mean(s.filter((x) => !x.cer && x.cer !== 0).map((x) => x.text?.markdownSimilarity ?? undefined)),
      glued_per_1000_words: mean(s.map((x) => x.text?.gluedPer1000)),
      split_per_1000_words: mean(s.map((x) => x.text?.splitPer1000)),
      accents_kept: mean(s.map((x) => x.text?.accentsKept)),
    },
    ocr: {
      cer: mean(s.map((x) => x.cer)),
      // Folio and the tesseract command on the same scans (those the command read).
      cer_where_tesseract_read: mean(s.filter((x) => x.tesseractCer !== null).map((x) => x.cer)),
      tesseract_cer: mean(s.map((x) => x.tesseractCer)),
      similarity: mean(s.filter((x) => x.cer !== null).map((x) => x.text?.similarity)),
      blank_documents: s.filter((x) => x.blank).length,
      blank_documents_with_invented_text: s.filter((x) => (x.blank?.invented ?? 0) > 0).length,
      invented_characters_per_blank_document: mean(s.map((x) => x.blank?.invented)),
    },
    tables: {
      adjacency_f1: mean(s.map((x) => x.tables?.f1)),
      teds: mean(s.map((x) => x.tables?.teds)),
      truth_tables: sum((x) => x.tables?.truth),
      missed: sum((x) => x.tables?.missed),
      false_tables: sum((x) => x.falseTables),
      documents_with_false_tables: s.filter((x) => x.falseTables > 0).length,
      false_tables_on_pages_without: sum((x) => x.falseTablesOnPagesWithout),
    },
    furniture: {
      leaked_share: furnitureTotal ? Math.round((sum((x) => x.furniture?.leaked) / furnitureTotal) * 1000) / 1000 : null,
      ...Object.fromEntries(
        ['running-head', 'running-foot', 'page-number', 'stamp', 'line-number', 'margin-note', 'side-tab'].map((kind) => {
          const total = sum((x) => x.furniture?.byKind[kind]?.total);
          return [`${kind}_leaked`, total ? Math.round((sum((x) => x.furniture?.byKind[kind]?.leaked) / total) * 1000) / 1000 : null];
        }),
      ),
    },
    headings: {
      precision: mean(s.map((x) => x.headings?.precision)),
      recall: mean(s.map((x) => x.headings?.recall)),
      level_agreement: mean(s.map((x) => x.headings?.levels)),
      false_from_furniture: ['running-head', 'running-foot', 'page-number', 'stamp', 'line-number', 'margin-note', 'side-tab'].reduce((n, k) => n + headingsFalse(k), 0),
      false_from_equations: headingsFalse('equation'),
      false_from_figure_labels: headingsFalse('figure-label'),
      false_from_table_cells: headingsFalse('table-cell'),
      false_from_captions: headingsFalse('caption'),
      false_other: headingsFalse('paragraph') + headingsFalse('list-item') + headingsFalse('code') + headingsFalse('other') + headingsFalse('footnote') + headingsFalse('quote') + headingsFalse('table-note'),
    },
    order: { kendall_tau: mean(s.map((x) => x.order?.tau)) },
    code: {
      code_lines_as_code: mean(s.map((x) => x.code?.asCode)),
      code_lines_as_table: mean(s.map((x) => x.code?.asTable)),
      equations_found: mean(s.map((x) => x.equations?.found)),
      equations_as_formula: mean(s.map((x) => x.equations?.asFormula)),
      equations_as_heading: mean(s.map((x) => x.equations?.asHeading)),
      equations_as_table: mean(s.map((x) => x.equations?.asTable)),
      contents_entries_apart: mean(s.map((x) => x.contents?.apart)),
      contents_entries_as_heading: mean(s.map((x) => x.contents?.asHeading)),
      contents_entries_as_table: mean(s.map((x) => x.contents?.asTable)),
    },
    time: { seconds_per_page: mean(s.map((x) => x.secondsPerPage)) },
  };
}

/**
 * Table scores by the generator's variation, over tables rather than documents: each truth table
 * counts under every variation it draws (a grid-ruled table with a spanning header under both).
 */
export function byTableVariation(docs: Scored[]): Record<string, { adjacency_f1: Stat; teds: Stat; missed: number }> {
  const tables = docs.flatMap((d) => d.scores?.tables?.each ?? []);
  const names = ['all tables', ...[...new Set(tables.flatMap((t) => t.features))].sort()];
  return Object.fromEntries(
    names.map((name) => {
      const own = name === 'all tables' ? tables : tables.filter((t) => t.features.includes(name));
      return [name, { adjacency_f1: mean(own.map((t) => t.f1)), teds: mean(own.map((t) => t.teds)), missed: own.filter((t) => t.missed).length }];
    }),
  );
}

function printVariations(groups: [string, Scored[]][], log: (line: string) => void): void {
  const byGroup = groups.map(([name, docs]) => [name, byTableVariation(docs)] as const);
  const names = [...new Set(byGroup.flatMap(([, v]) => Object.keys(v)))];
  if (names.length <= 1) return;
  log('\ntables by variation (adjacency F1 / structure (TEDS) / missed, over tables)');
  log(`| variation | ${byGroup.map(([name]) => name).join(' | ')} |`);
  log(`|---|${byGroup.map(() => '---').join('|')}|`);
  for (const name of names) {
    log(`| ${name} | ${byGroup.map(([, v]) => (v[name] ? `${shown(v[name].adjacency_f1)} / ${v[name].teds.mean ?? '–'} / ${v[name].missed}` : '–')).join(' | ')} |`);
  }
}

function printTable(title: string, groups: [string, Scored[]][], only: Set<Feature>, log: (line: string) => void): void {
  log(`\n${title}`);
  const summaries = groups.map(([name, docs]) => [name, docs.length, summarize(docs)] as const);
  log(`| score | ${summaries.map(([name, n]) => `${name} (${n})`).join(' | ')} |`);
  log(`|---|${summaries.map(() => '---').join('|')}|`);
  for (const feature of FEATURES) {
    if (only.size && !only.has(feature)) continue;
    for (const key of Object.keys(summaries[0][2][feature])) {
      log(`| ${feature}: ${key} | ${summaries.map(([, , s]) => shown(s[feature][key])).join(' | ')} |`);
    }
  }
}

/**
 * The documents a `--keep` run left in `dir`, scored again from what Folio read then (for work on
 * the scores themselves), or with `reread`, its born-digital documents (and scans whose OCR'd
 * pages a reread kept) read again by this checkout in this process (reread.ts), and with `ocr`
 * every scan too.
 */
async function rescore(dir: string, reread: boolean, ocr: boolean, remeasure = false): Promise<Scored[]> {
  const { readdir } = await import('node:fs/promises');
  const files = new Set(await readdir(dir));
  const documents: Scored[] = [];
  let readAgain = 0;
  let scansLeft = 0;
  // Started at the first scan read, closed once at the end.
  let engine: Promise<OcrEngine> | undefined;
  const ocrEngine = () => (engine ??= scanEngine());
  try {
    for (const name of [...files].filter((f) => f.endsWith('.truth.json'))) {
      const truth = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as Truth;
      const scan = truth.variant !== 'digital' && files.has(truth.file);
      const file = scan ? truth.file : truth.variant === 'digital' ? [`${truth.id}.pdf`, `${truth.id}.docx`].find((f) => files.has(f)) : undefined;
      const source = scan ? { mediaType: truth.mediaType as ScanSource['mediaType'], pages: path.join(dir, `${truth.id}.ocr-pages.json`), engine: ocrEngine, remeasure } : undefined;
      // A scan whose OCR'd pages an earlier reread kept is analysed again without OCR, --ocr or not.
      const readable = !scan || ocr || files.has(`${truth.id}.ocr-pages.json`);
      const fresh = reread && file && readable ? await readInProcess(path.join(dir, file), source) : null;
      if (fresh) readAgain++;
      else if (reread && scan) scansLeft++;
      const outputFile = path.join(dir, `${truth.id}.output.json`);
      const output = fresh ?? (await readFile(outputFile, 'utf8').then((t) => JSON.parse(t) as Output, () => null));
      const peerText = await readFile(path.join(dir, `${truth.id}.tesseract.txt`), 'utf8').catch(() => null);
      const scores = output ? scoreDocument(truth, output, peerText) : null;
      documents.push({ id: truth.id, producer: truth.producer, variant: truth.variant, kind: truth.kind, pages: truth.pages, status: output ? 'completed' : 'not read', scores, overall: scores ? overall(scores) : 0 });
    }
  } finally {
    if (engine) await (await engine).close();
  }
  if (reread) console.log(`read again in this process: ${readAgain} documents; the others scored from the kept run`);
  if (scansLeft > 0) console.log(`${scansLeft} scans were NOT read again (no OCR'd pages kept beside them): their scores are the kept run's; add --ocr to read them`);
  return documents.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
}

async function main(): Promise<void> {
  const rescored = argument('rescore');
  if (rescored) {
    const reread = process.argv.includes('--reread');
    const documents = await rescore(path.resolve(rescored), reread, reread && process.argv.includes('--ocr'), reread && process.argv.includes('--remeasure'));
    const byProducer = [...new Set(documents.map((d) => d.producer))].map((p) => [p, documents.filter((d) => d.producer === p)] as [string, Scored[]]);
    printTable(`${reread ? 'read and scored again' : 'scored again'}: ${documents.length} documents of ${rescored}`, [['all', documents], ...byProducer], new Set((argument('only') ?? '').split(',').filter(Boolean) as Feature[]), (line) => console.log(line));
    printVariations([['all', documents]], (line) => console.log(line));
    const file = path.join(ROOT, 'bench/results', `generated-${new Date().toISOString().replace(/:/g, '-')}.json`);
    await writeFile(file, `${JSON.stringify({ rescored_from: rescored, reread, count: documents.length, summary: summarize(documents), by_producer: Object.fromEntries(byProducer.map(([p, d]) => [p, summarize(d)])), documents }, null, 1)}\n`);
    console.log(`wrote ${path.relative(ROOT, file)}`);
    return;
  }
  const seed = Number(argument('seed') ?? Date.now() % 1_000_000);
  const count = Number(argument('count') ?? 200);
  const only = new Set((argument('only') ?? '').split(',').filter(Boolean) as Feature[]);
  const keep = argument('keep') ? path.resolve(argument('keep')!) : null;
  const log = (line: string) => console.log(line);
  log(`generated documents: seed ${seed}, ${count} documents${keep ? `, kept in ${keep}` : ''}`);
  const { documents, seconds, features } = await runBench({ seed, count, keep, concurrency: Number(argument('concurrency') ?? 3), variations: argument('with')?.split(','), without: argument('without')?.split(','), log });
  const pages = documents.reduce((n, d) => n + d.pages, 0);
  log(`\n${documents.length} documents, ${pages} pages, read and scored in ${Math.round(seconds)} s; ${documents.filter((d) => d.status !== 'completed').length} not completed`);
  if (documents.length === 0) {
    // --with names variations a document draws as it is composed (its producer, layout, tables...); one its producer picks later, as libreoffice:docx, selects none.
    log('no document of the seed drew what --with and --without ask for');
    process.exitCode = 1;
    return;
  }
  const byProducer = [...new Set(documents.map((d) => d.producer))].map((p) => [p, documents.filter((d) => d.producer === p)] as [string, Scored[]]);
  const byVariant = [...new Set(documents.map((d) => (d.variant === 'digital' ? 'digital' : 'scan')))].map((v) => [v, documents.filter((d) => (d.variant === 'digital') === (v === 'digital'))] as [string, Scored[]]);
  printTable('means by feature (all documents, then by producer)', [['all', documents], ...byProducer], only, log);
  printTable('by variant', byVariant, only, log);
  if (!only.size || only.has('tables')) printVariations(byVariant, log);
  const missing = LISTED_VARIATIONS.filter((v) => !features.has(v));
  log(`\nvariations covered: ${LISTED_VARIATIONS.length - missing.length} of ${LISTED_VARIATIONS.length}${missing.length ? `; not drawn this run: ${missing.join(', ')}` : ''}`);
  const worst = [...documents].sort((a, b) => a.overall - b.overall).slice(0, 20);
  log('\nthe twenty worst documents (regenerate one with --seed S --count I+1 --keep DIR: it is DIR/gS-I.*)');
  for (const d of worst) {
    const s = d.scores;
    const parts = s
      ? [
          s.text ? `text ${s.text.similarity.toFixed(2)}` : '',
          s.cer !== null ? `cer ${s.cer.toFixed(3)}` : '',
          s.blank ? `invented ${s.blank.invented}` : '',
          s.tables ? `tables f1 ${s.tables.f1.toFixed(2)} teds ${s.tables.teds.toFixed(2)}` : '',
          s.falseTables ? `false tables ${s.falseTables}` : '',
          s.furniture ? `furniture leaked ${s.furniture.leaked}/${s.furniture.total}` : '',
          s.headings ? `headings p ${s.headings.precision?.toFixed(2) ?? '–'} r ${s.headings.recall?.toFixed(2) ?? '–'}` : '',
          s.order ? `order ${s.order.tau.toFixed(2)}` : '',
        ].filter(Boolean)
      : [`${d.status}${d.error ? `: ${d.error}` : ''}`];
    log(`  ${d.id} (${d.kind}, ${d.producer}, ${d.variant}, ${d.pages} p): ${d.overall.toFixed(3)}  ${parts.join(', ')}`);
  }
  const file = path.join(ROOT, 'bench/results', `generated-${new Date().toISOString().replace(/:/g, '-')}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ seed, count, seconds: Math.round(seconds), pages, summary: summarize(documents), by_producer: Object.fromEntries(byProducer.map(([p, d]) => [p, summarize(d)])), by_variant: Object.fromEntries(byVariant.map(([v, d]) => [v, summarize(d)])), by_table_variation: Object.fromEntries(byVariant.map(([v, d]) => [v, byTableVariation(d)])), features: [...features].sort(), documents }, null, 1)}\n`);
  log(`wrote ${path.relative(ROOT, file)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
