// The generated-documents bench end to end (issue 38; docs/generated-bench.md): a few documents of
// a fixed seed drawn, laid out, sent through the API of a real `folio serve`, read and scored. It
// checks the bench works, not what it scores: every document is read and has the scores of what it
// holds, and a born-digital document read again in process (--reread) reads as the API read it.
// On SQLite only (the store does not change what is scored), and only with Chromium, LibreOffice
// and poppler's tools, which CI installs.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CHROMIUM } from '../../bench/generated/chromium.js';
import { SOFFICE } from '../../bench/generated/libreoffice.js';
import { PDFLATEX } from '../../bench/generated/latex.js';
import { byTableVariation, runBench, summarize } from '../../bench/generated/index.js';
import { readInProcess, scanEngine, type ScanSource } from '../../bench/generated/reread.js';
import { normalizeText, similarity } from '../../bench/quality/metrics.js';
import type { Output } from '../../bench/generated/score.js';
import { STORE } from '../helpers/folio.js';

const runs = (command: string, args: string[]) => promisify(execFile)(command, args).then(() => true, () => false);
const haveTools = existsSync(CHROMIUM) && (await runs('pdftoppm', ['-v'])) && (await runs(SOFFICE, ['--version'])) && (await runs(PDFLATEX, ['--version']));
if (process.env.FOLIO_REQUIRE_BROWSER === '1' && !haveTools) throw new Error('the generated bench needs Chromium, LibreOffice, TeX and poppler-utils (apt-get install chromium libreoffice-writer-nogui texlive-latex-recommended texlive-fonts-recommended poppler-utils)');

describe.skipIf(STORE !== 'sqlite' || !haveTools)('bench:generated', () => {
  it('draws, reads and scores a fixed-seed set of documents, scans among them', async () => {
    const lines: string[] = [];
    // Seed 10's first six come from all four producers and hold scans (a JPEG of a paper's first page, a report TeX set), tables, furniture and headings.
    const keep = await mkdtemp(path.join(tmpdir(), 'folio-generated-'));
    const { documents, features } = await runBench({ seed: 10, count: 6, keep, concurrency: 2, log: (line) => lines.push(line) });
    expect(documents.map((d) => d.id)).toEqual(['g10-0', 'g10-1', 'g10-2', 'g10-3', 'g10-4', 'g10-5']);
    expect(new Set(documents.map((d) => d.producer))).toEqual(new Set(['chromium', 'pdf-lib', 'libreoffice', 'latex']));
    for (const d of documents) {
      expect(d.status, `${d.id}: ${d.error}`).toBe('completed');
      expect(d.scores).not.toBeNull();
      expect(d.overall).toBeGreaterThanOrEqual(0);
      expect(d.overall).toBeLessThanOrEqual(1);
    }
    expect(documents.some((d) => d.variant !== 'digital' && d.scores!.cer !== null)).toBe(true);
    expect(documents.some((d) => d.scores!.tables !== null)).toBe(true);
    expect(documents.some((d) => d.scores!.furniture !== null)).toBe(true);
    expect(documents.some((d) => d.scores!.headings !== null)).toBe(true);
    expect(features.has('producer:chromium')).toBe(true);
    const summary = summarize(documents);
    expect(Object.keys(summary)).toEqual(['text', 'ocr', 'tables', 'furniture', 'headings', 'order', 'code', 'time']);
    expect(summary.text.similarity).toMatchObject({ mean: expect.any(Number), n: expect.any(Number) });
    // Every truth table carries its own variations, so tables are scored by variation too.
    const tables = documents.flatMap((d) => d.scores!.tables?.each ?? []);
    expect(tables.every((t) => t.features.some((f) => f.startsWith('table:rules-')))).toBe(true);
    const variations = byTableVariation(documents);
    expect(variations['all tables'].adjacency_f1.n).toBe(tables.length);
    for (const t of tables) for (const f of t.features) expect(variations[f].adjacency_f1.n).toBeGreaterThan(0);
    // `--reread`: a born-digital document read in this process gives the text and tables the API gave.
    const digital = documents.filter((d) => d.variant === 'digital');
    expect(digital.length).toBeGreaterThan(2);
    for (const d of digital) {
      const file = [`${d.id}.pdf`, `${d.id}.docx`].map((f) => path.join(keep, f)).find((f) => existsSync(f))!;
      const served = JSON.parse(await readFile(path.join(keep, `${d.id}.output.json`), 'utf8')) as Output;
      const again = await readInProcess(file);
      expect(again?.text, d.id).toBe(served.text);
      expect(again?.pages.map((p) => p.tables.map((t) => t.rows)), d.id).toEqual(served.pages.map((p) => p.tables.map((t) => t.rows)));
    }
    // `--reread --ocr`: a scan read by OCR in this process reads as the API read it (the engine's
    // second readings run against a time budget, so not always to the letter), and the pages it
    // read are kept beside it, from which the next reread gives the same output.
    const scanned = documents.find((d) => d.variant !== 'digital')!;
    const truth = JSON.parse(await readFile(path.join(keep, `${scanned.id}.truth.json`), 'utf8')) as { file: string; mediaType: ScanSource['mediaType'] };
    const engine = scanEngine();
    const source: ScanSource = { mediaType: truth.mediaType, pages: path.join(keep, `${scanned.id}.ocr-pages.json`), engine: () => engine };
    const served = JSON.parse(await readFile(path.join(keep, `${scanned.id}.output.json`), 'utf8')) as Output;
    const first = await readInProcess(path.join(keep, truth.file), source);
    expect(existsSync(source.pages)).toBe(true);
    expect(similarity(normalizeText(first!.text), normalizeText(served.text))).toBeGreaterThan(0.9);
    const kept = await readInProcess(path.join(keep, truth.file), { ...source, engine: () => Promise.reject(new Error('the kept pages are read, not the scan')) });
    expect(kept?.text).toBe(first!.text);
    await (await engine).close();
    await rm(keep, { recursive: true, force: true });
  }, 300_000);
});
