// A document read in spans of pages, each analysed in its own task (issue 25), gives the same
// outputs as the whole document read and analysed at once: the font statistics are the whole
// document's, the raw pages come back from the spool as they were read, and tables running across
// a span border are joined like any other.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeDocument, continuedTables } from '../../src/pipeline/analysis/analyze-page.js';
import { documentStats } from '../../src/pipeline/analysis/document-stats.js';
import { readPdf } from '../../src/pipeline/formats/pdf.js';
import { markContinued, marksAcrossBatches, type BatchOptions, type PageBatch } from '../../src/pipeline/outputs/page-batch.js';
import { pageOutputs } from '../../src/pipeline/outputs/page-outputs.js';
import { pageSpans } from '../../src/pipeline/stages/analyzing.js';
import { PageSpool, removeDeadSpools, type SpooledPage } from '../../src/pipeline/threads/page-spool.js';
import run from '../../src/pipeline/threads/reader-thread.js';
import { CORPUS } from '../helpers/folio.js';
import { tablePdf } from '../helpers/pdfs.js';

const PDF = 'application/pdf';
const batch: BatchOptions = { markdown: true, mediaType: PDF, images: true, uploadBytes: 0, joinsTables: true };

let dataDir = '';
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'folio-spans-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/**
 * The document as the pipeline reads it: spans read to the spool, statistics from all pages, spans
 * analysed, tables across span borders marked as page-rows.ts marks them in the store.
 */
async function bySpans(key: string, bytes: Uint8Array, spans: { first: number; last: number }[]) {
  const spool = await PageSpool.create(dataDir, key);
  const read: SpooledPage[] = [];
  for (const range of spans) {
    const outcome = await run({ kind: 'readRange', mediaType: PDF, bytes, range, spool: spool.nextFile(), key });
    if (!outcome.ok) throw new Error(outcome.message);
    read.push(...(outcome.value as SpooledPage[]));
  }
  const stats = documentStats(read.map((page) => page.weights));
  const batches: PageBatch[] = [];
  for (const range of spans) {
    const pages = read.filter((page) => page.number >= range.first && page.number <= range.last);
    const outcome = await run({ kind: 'analyze', pages, stats, analysis: 'layout', batch });
    if (!outcome.ok) throw new Error(outcome.message);
    batches.push(outcome.value as PageBatch);
  }
  await spool.remove();
  const outputs = batches.flatMap((b) => b.outputs);
  for (const mark of marksAcrossBatches(batches)) markContinued(outputs[mark.page - 1].tables[mark.table], mark);
  return { outputs, summaries: batches.flatMap((b) => b.summaries) };
}

async function whole(bytes: Uint8Array) {
  return analyzeDocument(await readPdf(bytes)).map((page) => pageOutputs(page, true));
}

describe('a document read in spans', () => {
  it('gives the outputs of the whole document read at once (a book of 117 pages)', async () => {
    const bytes = new Uint8Array(await readFile(path.join(CORPUS, 'text_pdf/pypdfbench-geotopo-book/GeoTopo-komprimiert.pdf')));
    const spans = pageSpans(117, 2);
    expect(spans.length).toBeGreaterThan(1);
    const joined = await bySpans('book', bytes, spans);
    expect(joined.outputs).toEqual(await whole(bytes));
    expect(joined.summaries.map((s) => s.number)).toEqual(Array.from({ length: 117 }, (_, i) => i + 1));
  }, 60_000);

  it('joins a table that runs across the border between two spans', async () => {
    const header = ['Region', 'Quarter', 'Sales'];
    const rows = (from: number) => Array.from({ length: 10 }, (_, i) => [`Region ${from + i}`, `Q${(i % 4) + 1}`, `${100 + from + i}`]);
    const bytes = await tablePdf([
      { header, rows: rows(0), ruled: true },
      { header, rows: rows(10), ruled: true },
      { header, rows: rows(20), ruled: true },
    ]);
    const joined = await bySpans('table', bytes, [{ first: 1, last: 1 }, { first: 2, last: Number.MAX_SAFE_INTEGER }]);
    expect(joined.outputs).toEqual(await whole(bytes));
    const flags = joined.outputs.map((page) => page.tables.map((t) => [t.continued_from_previous_page, t.continues_on_next_page]));
    expect(flags).toEqual([[[false, true]], [[true, true]], [[true, false]]]);
    // Each continuation names the table it continues on the page before.
    expect(joined.outputs.map((page) => page.tables.map((t) => t.continues_table))).toEqual([[null], [0], [0]]);
  });

  it('join no table across pages that do not follow each other (a page selection left those between out)', () => {
    const edge = (page: number) => ({ page, first: { table: 0, columns: 3 }, last: { table: 0, columns: 3 } });
    expect(continuedTables([edge(2), edge(3)])).toHaveLength(2);
    expect(continuedTables([edge(3), edge(5)])).toEqual([]);
    expect(marksAcrossBatches([{ ends: { first: edge(1), last: edge(3) } }, { ends: { first: edge(5), last: edge(6) } }])).toEqual([]);
    expect(marksAcrossBatches([{ ends: { first: edge(1), last: edge(3) } }, { ends: { first: edge(4), last: edge(6) } }]).map((m) => m.page)).toEqual([3, 4]);
  });

  it('leave nothing in the spool, and a spool left by a process that died is removed when a worker starts', async () => {
    await bySpans('tidy', await tablePdf([{ header: ['A', 'B'], rows: [['1', '2']], ruled: true }]), [{ first: 1, last: Number.MAX_SAFE_INTEGER }]);
    expect(await readdir(path.join(dataDir, 'spool'))).toEqual([]);
    // A pid no process has (above Linux's pid_max), and this process's own run in progress.
    const dead = await PageSpool.create(dataDir, 'doc_dead');
    const renamed = path.join(path.dirname(dead.dir), `4194305-${path.basename(dead.dir).split('-').slice(1).join('-')}`);
    await rm(renamed, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.rename(dead.dir, renamed));
    const alive = await PageSpool.create(dataDir, 'doc_alive');
    await removeDeadSpools(dataDir);
    expect(await readdir(path.join(dataDir, 'spool'))).toEqual([path.basename(alive.dir)]);
    await alive.remove();
  });

  it('are contiguous, cover every page and let the last read to the end of the file', () => {
    for (const [pages, threads] of [[1, 2], [7, 1], [117, 2], [1053, 2], [5000, 8]]) {
      const spans = pageSpans(pages, threads);
      expect(spans[0].first).toBe(1);
      for (let i = 1; i < spans.length; i++) expect(spans[i].first).toBe(spans[i - 1].last + 1);
      expect(spans.at(-1)!.last).toBe(Number.MAX_SAFE_INTEGER);
      expect(spans.length).toBeLessThanOrEqual(Math.ceil(pages / 8));
    }
  });
});
