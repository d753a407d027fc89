// Documents through a running Folio, timed by their own timestamps, and the scanned inputs the
// speed benches read (bench/speed.ts, bench/ocr-speed.ts).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { Client } from '../../test/helpers/folio.js';
import { countPdfPages } from '../../src/pipeline/formats/pdf.js';
import { scanPdfPage } from '../../src/pipeline/formats/pdf-render.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How often the bench polls a document while timing it, as the helper's waitFor does. Times come
 * from the document's own timestamps, so polling more often only adds load: at 20 ms the polls
 * (the API and SQLite answering 50 GETs a second) took about 3% from the OCR engine's two cores
 * (the 3 A4 scans: 6.78 s against 6.55 s at 250 ms, six interleaved runs).
 */
export const POLL_MS = 100;
const DOCUMENT_TIMEOUT_MS = 5 * 60_000;

export interface DocumentRun {
  id: string;
  status: string;
  /** Upload start until the poll that saw the final status. */
  seconds: number;
  /** Upload start until the 202 (includes the API's page count). */
  upload_ms: number;
  page_count: number;
  /** Server clock: created_at until started_at (worker pick-up), and created_at until completed_at. */
  queue_wait_ms: number | null;
  server_total_ms: number | null;
  timings: Record<string, number>;
  error: { type: string; message: string; stage?: string } | null;
}

export async function processOnce(client: Client, filename: string, bytes: Uint8Array, options?: unknown): Promise<DocumentRun> {
  const started = performance.now();
  const upload = await client.upload([['file', filename, bytes]], options);
  const uploadMs = performance.now() - started;
  if (upload.status !== 202) {
    throw Object.assign(new Error(`upload of ${filename} answered ${upload.status}: ${upload.text}`), { upload });
  }
  const id = upload.json.id as string;
  const deadline = Date.now() + DOCUMENT_TIMEOUT_MS;
  for (;;) {
    const { status, json } = await client.get(`/api/v1/documents/${id}`);
    if (status !== 200) throw new Error(`GET document ${id} answered ${status}: ${JSON.stringify(json)}`);
    if (json.status === 'completed' || json.status === 'failed') {
      const at = (value: string | undefined) => (value ? Date.parse(value) : null);
      const created = at(json.created_at);
      const startedAt = at(json.started_at);
      const ended = at(json.completed_at ?? json.failed_at);
      // The upload, then the document's own span from acceptance to its end (milliseconds, one clock).
      const seconds = created !== null && ended !== null ? (uploadMs + ended - created) / 1000 : (performance.now() - started) / 1000;
      return {
        id,
        status: json.status,
        seconds,
        upload_ms: Math.round(uploadMs),
        page_count: json.page_count,
        queue_wait_ms: created !== null && startedAt !== null ? startedAt - created : null,
        server_total_ms: created !== null && ended !== null ? ended - created : null,
        timings: json.timings ?? {},
        error: json.error ?? null,
      };
    }
    if (Date.now() > deadline) throw new Error(`document ${id} still ${json.status}/${json.stage} after ${DOCUMENT_TIMEOUT_MS / 1000} s`);
    await sleep(POLL_MS);
  }
}

/** Each page of a PDF rendered at `dpi` (300 at most) and put back into a PDF as a picture only, as a scanner would. */
export async function a4Scans(source: string, dir: string, dpi = 300): Promise<{ file: string; bytes: Uint8Array; pages: number; firstPage: string; pageFiles: string[] }> {
  const original = new Uint8Array(await readFile(source));
  const doc = await PDFDocument.create();
  const count = await countPdfPages(original);
  const pageFiles: string[] = [];
  for (let page = 1; page <= count; page++) {
    const { image } = await scanPdfPage(original, page, 0);
    const rendered = sharp(Buffer.from(image.data), { raw: { width: image.width, height: image.height, channels: 1 } });
    // Rendered at 300 dpi (scanPdfPage's resolution for an A4 page), then brought down to `dpi`.
    const picture = dpi >= 300 ? rendered : rendered.resize({ width: Math.round((image.width * dpi) / 300) });
    const png = await picture.withMetadata({ density: dpi }).png().toBuffer();
    pageFiles.push(path.join(dir, `scan-${dpi}dpi-page-${page}.png`));
    await writeFile(pageFiles[page - 1], png);
    const embedded = await doc.embedPng(png);
    doc.addPage([595.28, 841.89]).drawImage(embedded, { x: 0, y: 0, width: 595.28, height: 841.89 });
  }
  const bytes = await doc.save();
  const file = path.join(dir, `a4-scans-${dpi}dpi.pdf`);
  await writeFile(file, bytes);
  return { file, bytes, pages: count, firstPage: pageFiles[0], pageFiles };
}

/**
 * Pages the worker read by OCR more than one way (another threshold, enlarged, turned), from its
 * log lines, and how many readings beyond the first they took.
 */
export function rereadPages(logs: string): { pages: number; readings: number } {
  let pages = 0;
  let readings = 0;
  for (const line of logs.split('\n')) {
    if (!line.includes('page read by OCR more than one way')) continue;
    try {
      const entry = JSON.parse(line) as { readings?: unknown[] };
      pages++;
      readings += (entry.readings?.length ?? 1) - 1;
    } catch {
      // A line cut where the log was read.
    }
  }
  return { pages, readings };
}

