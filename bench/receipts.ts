// Receipt field finding apart from OCR: the built-in engine fills the receipt schema of the quality
// bench on each SROIE receipt of the corpus (forms_kv/sroie-*) from two texts, and each is scored
// as bench/quality.ts scores it (receiptFields):
//   truth  the receipt's truth OCR lines (truth.ocr-lines.csv), the right text, laid out by
//          Folio's own layout analysis (bench/quality/receipts.ts);
//   folio  Folio's own OCR, as a `bench/quality.ts --dump DIR` run wrote it (DIR/<id>.pages.json).
// For each it also counts the truth values present in the text, so that a field missed because the
// text lacks it is told apart from a field the engine did not find. With `--rendered`, the
// receipts generated in code (test/helpers/receipts.ts) are drawn as scans (300 dpi, turned a
// little, blurred, speckled) and read through Folio's own OCR and layout analysis, then scored the
// same way against what each says: the rules on receipts beyond the corpus, with OCR's errors.
//
//   npm run bench:receipts -- [--dump DIR] [--cases sroie-000,sroie-013] [--verbose] [--rendered]
//
// No server and no OCR but with --rendered (about a minute): it runs in a few seconds. Writes
// bench/results/receipts-<time>.json.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { BuiltinProvider } from '../src/models/llm/builtin/index.js';
import type { PageOutputs } from '../src/page-outputs/shapes.js';
import { PageTexts } from '../src/pipeline/extraction/grounding.js';
import { conform, groundData, resultSchema } from '../src/pipeline/extraction/result.js';
import { CORPUS } from '../test/helpers/folio.js';
import { createOcrEngine, type OcrEngine } from '../src/models/ocr/index.js';
import { readScan } from '../src/pipeline/scans/read-scan.js';
import { decodeImagePage, readImage } from '../src/pipeline/formats/image.js';
import { analyzeDocument } from '../src/pipeline/analysis/analyze-page.js';
import { pageOutputs } from '../src/pipeline/outputs/page-outputs.js';
import { RECEIPTS, receiptPdf } from '../test/helpers/receipts.js';
import { receiptFields, valuesInText } from './quality/metrics.js';
import { outputsFromOcrLines, outputsFromWire, RECEIPT_SCHEMA } from './quality/receipts.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CORPUS_RECEIPTS = path.join(CORPUS, 'forms_kv');

interface Truth {
  fields: { key: string; value: string }[];
}

interface Scored {
  right: number;
  total: number;
  in_text: number;
  fields: Record<string, boolean>;
  data: Record<string, unknown>;
}

/** The data the extracting stage keeps: the engine's reply, grounded and conformed to the schema. */
async function extract(pages: PageOutputs[]): Promise<Record<string, unknown>> {
  const reply = await new BuiltinProvider().run({
    tier: 'swift',
    pages,
    fields: [],
    schema: RECEIPT_SCHEMA,
    instructions: null,
    questions: [],
    pictures: [],
    maxOutputTokens: 4096,
    signal: new AbortController().signal,
  });
  const kept = groundData(reply, new Set(Object.keys(RECEIPT_SCHEMA.properties)), new PageTexts(pages));
  return conform(kept.data, resultSchema([], RECEIPT_SCHEMA)) ?? {};
}

async function score(pages: PageOutputs[], truth: Truth): Promise<Scored> {
  const data = await extract(pages);
  const fields = receiptFields(truth.fields, data);
  const inText = valuesInText(truth.fields, pages.map((p) => p.text).join('\n'));
  return { right: fields.right, total: fields.total, in_text: inText.found, fields: fields.per_field, data };
}

const mark = (s: Scored | null) => (s ? `${s.right}/${s.total} (text ${s.in_text}/${s.total}) ${Object.entries(s.fields).map(([k, ok]) => (ok ? k[0].toUpperCase() : '.')).join('')}` : 'n/a');

/** A receipt PDF drawn as a scan: 300 dpi grey, turned `degrees`, blurred and speckled. */
async function scanned(pdf: Uint8Array, degrees: number, seed: number): Promise<{ width: number; height: number; data: Uint8Array }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-receipt-'));
  try {
    await writeFile(path.join(dir, 'r.pdf'), pdf);
    await promisify(execFile)('pdftoppm', ['-r', '300', '-gray', '-png', '-singlefile', path.join(dir, 'r.pdf'), path.join(dir, 'r')]);
    const turned = await sharp(path.join(dir, 'r.png')).rotate(degrees, { background: '#ffffff' }).blur(0.6).greyscale().raw().toBuffer({ resolveWithObject: true });
    const data = new Uint8Array(turned.data);
    let state = seed;
    for (let i = 0; i < data.length; i++) {
      state = (state * 1103515245 + 12345) >>> 0;
      const r = state / 2 ** 32;
      // Grey paper grain everywhere, and a dark speck now and then.
      data[i] = Math.max(0, Math.min(255, data[i] - Math.round(r * 40) + (r < 0.002 ? -150 : 0)));
    }
    return { width: turned.info.width, height: turned.info.height, data };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Each generated receipt, scanned and read through Folio's OCR and layout analysis. */
async function rendered(verbose: boolean): Promise<void> {
  const engine: OcrEngine = await createOcrEngine({ engine: 'auto', languages: ['eng'], scripts: {}, workers: 1, tesseractPath: 'tesseract', modelDir: path.join(os.tmpdir(), 'folio-bench-ocr-models') });
  let right = 0;
  let total = 0;
  let inText = 0;
  const rows: { name: string; right: number; in_text: number; data: Record<string, unknown> }[] = [];
  try {
    for (const [i, receipt] of RECEIPTS.entries()) {
      const image = await scanned(await receiptPdf(receipt.spec), i % 2 ? 1.2 : -0.8, i + 1);
      const reading = await readScan(engine, image, 300, 1);
      const raw = { number: 1, width: reading.width, height: reading.height, unit: 'px' as const, dpi: reading.dpi, rotation: reading.rotation, skew: reading.skew, words: reading.words, graphics: { segments: reading.segments, rects: [], shapes: [], images: [] }, formFields: [], textSource: 'ocr' as const };
      const pages = analyzeDocument([raw]).map((page) => pageOutputs(page, false));
      const truth = { fields: Object.entries(receipt.truth).map(([key, value]) => ({ key, value })) };
      const scored = await score(pages, truth);
      right += scored.right;
      total += scored.total;
      inText += scored.in_text;
      rows.push({ name: receipt.name, right: scored.right, in_text: scored.in_text, data: scored.data });
      console.log(`${mark(scored).padEnd(24)}  ${receipt.name}`);
      if (verbose) for (const field of truth.fields) if (!scored.fields[field.key]) console.log(`    ${field.key.padEnd(8)} want ${JSON.stringify(field.value)} got ${JSON.stringify(scored.data[field.key] ?? null)}`);
    }
  } finally {
    await engine.close();
  }
  console.log(`\nrendered receipts: fields right ${right}/${total}; truth values in OCR text ${inText}/${total}`);
  await writeResults({ rendered: rows });
}

/**
 * Each corpus receipt read in this process through Folio's own OCR (readScan, the engine and
 * languages a default installation uses) and layout analysis, without a server: the readings made
 * and the one kept are printed, so a change to how scans are read can be judged on the receipts in
 * a minute instead of a whole quality run.
 */
async function readCorpus(ids: string[], verbose: boolean): Promise<void> {
  const engine: OcrEngine = await createOcrEngine({ engine: 'auto', languages: ['eng', 'deu', 'fra', 'spa'], scripts: {}, workers: 2, tesseractPath: 'tesseract', modelDir: path.join(os.tmpdir(), 'folio-bench-ocr-models') });
  const rows: { id: string; scored: Scored; readings: string[]; kept: string }[] = [];
  try {
    const queue = [...ids];
    const worker = async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        const dir = path.join(CORPUS_RECEIPTS, id);
        const truth = JSON.parse(await readFile(path.join(dir, 'truth.kv.json'), 'utf8')) as Truth;
        const file = (await readdir(dir)).find((f) => /\.(jpe?g|png)$/i.test(f))!;
        const bytes = new Uint8Array(await readFile(path.join(dir, file)));
        const type = /\.png$/i.test(file) ? 'image/png' : 'image/jpeg';
        const [page] = await readImage(bytes, type);
        const reading = await readScan(engine, await decodeImagePage(bytes, type, 1), page.dpi ?? null, 1);
        const raw = { ...page, width: reading.width, height: reading.height, dpi: reading.dpi, rotation: reading.rotation, skew: reading.skew, words: reading.words, graphics: { segments: reading.segments, rects: [], shapes: [], images: [] } };
        const scored = await score(analyzeDocument([raw]).map((p) => pageOutputs(p, false)), truth);
        rows.push({ id, scored, readings: reading.readings, kept: reading.kept });
        console.log(`${id.padEnd(10)}  ${mark(scored).padEnd(24)}  kept ${reading.kept} of ${reading.readings.length}: ${reading.readings.join(' | ')}`);
        if (verbose) for (const field of truth.fields) if (!scored.fields[field.key]) console.log(`    ${field.key.padEnd(8)} want ${JSON.stringify(field.value)} got ${JSON.stringify(scored.data[field.key] ?? null)}`);
      }
    };
    await Promise.all([worker(), worker()]);
  } finally {
    await engine.close();
  }
  const right = rows.reduce((s, r) => s + r.scored.right, 0);
  const inText = rows.reduce((s, r) => s + r.scored.in_text, 0);
  const total = rows.reduce((s, r) => s + r.scored.total, 0);
  console.log(`\nfolio ocr in process: fields right ${right}/${total}; truth values in OCR text ${inText}/${total}; readings ${rows.reduce((s, r) => s + r.readings.length, 0)}`);
  await writeResults({ read: rows.sort((a, b) => a.id.localeCompare(b.id)).map((r) => ({ id: r.id, right: r.scored.right, in_text: r.scored.in_text, fields: r.scored.fields, data: r.scored.data, readings: r.readings, kept: r.kept })) });
}

async function writeResults(results: unknown): Promise<void> {
  const dir = path.join(HERE, 'results');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `receipts-${new Date().toISOString().replace(/:/g, '-')}.json`);
  await writeFile(file, JSON.stringify(results, null, 2));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { dump: { type: 'string' }, cases: { type: 'string' }, verbose: { type: 'boolean', default: false }, rendered: { type: 'boolean', default: false }, read: { type: 'boolean', default: false } } });
  if (values.rendered) return rendered(values.verbose!);
  const wanted = values.cases ? new Set(values.cases.split(',')) : null;
  const ids = (await readdir(CORPUS_RECEIPTS)).filter((id) => id.startsWith('sroie-') && (!wanted || wanted.has(id))).sort();
  if (values.read) return readCorpus(ids, values.verbose!);
  const rows: { id: string; truth: Scored; folio: Scored | null }[] = [];
  for (const id of ids) {
    const dir = path.join(CORPUS_RECEIPTS, id);
    const truth = JSON.parse(await readFile(path.join(dir, 'truth.kv.json'), 'utf8')) as Truth;
    const image = (await readdir(dir)).find((f) => /\.(jpe?g|png)$/i.test(f))!;
    const { width = 0, height = 0 } = await sharp(path.join(dir, image)).metadata();
    const lines = await readFile(path.join(dir, 'truth.ocr-lines.csv'), 'utf8');
    const onTruth = await score(outputsFromOcrLines(lines, width, height), truth);
    let onFolio: Scored | null = null;
    if (values.dump) {
      const dumped = await readFile(path.join(values.dump, `${id}.pages.json`), 'utf8').catch(() => null);
      if (dumped) onFolio = await score(outputsFromWire(JSON.parse(dumped)), truth);
    }
    rows.push({ id, truth: onTruth, folio: onFolio });
    console.log(`${id.padEnd(10)}  truth text ${mark(onTruth).padEnd(24)}  folio ocr ${mark(onFolio)}`);
    if (values.verbose) {
      for (const field of truth.fields) {
        const show = (s: Scored | null) => (s ? JSON.stringify(s.data[field.key] ?? null) : '-');
        console.log(`    ${field.key.padEnd(8)} want ${JSON.stringify(field.value)}\n             truth ${show(onTruth)}${onTruth.fields[field.key] ? '' : '  WRONG'}\n             folio ${show(onFolio)}${onFolio && !onFolio.fields[field.key] ? '  WRONG' : ''}`);
      }
    }
  }
  const sum = (pick: (r: (typeof rows)[number]) => Scored | null, key: 'right' | 'in_text') => rows.reduce((s, r) => s + (pick(r)?.[key] ?? 0), 0);
  const total = rows.reduce((s, r) => s + r.truth.total, 0);
  const folioRows = rows.filter((r) => r.folio);
  const byField = (pick: (r: (typeof rows)[number]) => Scored | null) =>
    ['company', 'date', 'address', 'total'].map((k) => `${k} ${rows.filter((r) => pick(r)?.fields[k]).length}/${rows.filter((r) => pick(r)).length}`).join(', ');
  console.log(`\ntruth text: fields right ${sum((r) => r.truth, 'right')}/${total} (${byField((r) => r.truth)}); truth values in text ${sum((r) => r.truth, 'in_text')}/${total}`);
  if (folioRows.length) {
    const folioTotal = folioRows.reduce((s, r) => s + r.folio!.total, 0);
    console.log(`folio ocr:  fields right ${sum((r) => r.folio, 'right')}/${folioTotal} (${byField((r) => r.folio)}); truth values in text ${sum((r) => r.folio, 'in_text')}/${folioTotal}`);
  }
  await writeResults({ dump: values.dump ?? null, receipts: rows });
}

await main();
