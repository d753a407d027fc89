// Accepting documents (docs/api.md POST /documents): an upload (one `file`, or up to ten `files[]`,
// each its own document) or a URL. Uploads stream to a temporary file — never whole into memory
// — and stop at the plan's max_upload_bytes; the type is sniffed from the bytes; PDFs are counted
// so the estimate is real; the document rows, their credit holds and the remembered answer
// (Idempotency-Key) are written in one transaction.
import { createHash, randomUUID, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CountTimeout } from '../pipeline/threads/page-counter.js';
import type { Multipart } from '@fastify/multipart';
import type { DocumentOptions, ResolvedOptions } from '../domain/option-shapes.js';
import { DocumentOptions as DocumentOptionsSchema } from '../domain/option-shapes.js';
import type { Accepted } from './schemas/resources.js';
import { estimateMicro, modelUsed } from '../domain/billing.js';
import { addDetail, FolioError, invalidRequest, type ErrorDetails } from '../domain/errors.js';
import { cleanFilename } from '../domain/filenames.js';
import { maxScannedPages, sizeInWords } from '../domain/scan-budget.js';
import { newId } from '../domain/ids.js';
import { holdsNul, jsonTextDepth, MAX_JSON_DEPTH, NUL_REFUSED } from '../domain/json-limits.js';
import { isOffice, SUPPORTED_LIST, type SupportedMediaType } from '../domain/media-types.js';
import { assertEntitled, pageSelectionOf, resolveOptions, schemaShapeProblems } from '../domain/options.js';
import { selectedPageCount, selectionOutOfRange } from '../domain/page-selection.js';
import { availableCredit, clearPendingUpload, holdCredit, insertDocument, recordPendingUpload } from '../store/documents.js';
import { detectFile } from '../pipeline/intake/detect.js';
import { filenameFromUrl } from '../pipeline/intake/fetch-url.js';
import { schemaProblem } from '../pipeline/extraction/result.js';
import type { AppDeps } from './deps.js';
import type { Principal } from './auth.js';
import { acceptedToWire } from './serialize.js';
import type { Remember } from './idempotency.js';
import type { Tx } from '../store/database.js';
import { compileBody, errorDetails } from './validation.js';
import * as clock from '../domain/clock.js';

export const MAX_BATCH_FILES = 10;
const validateOptions = compileBody<DocumentOptions>(DocumentOptionsSchema);

interface ReceivedFile {
  tempPath: string;
  filename: string;
  bytes: number;
  truncated: boolean;
}

export type BatchEntry = Accepted | { error: { type: string; message: string } & Record<string, unknown> };

/** What is wrong with a client's schema (an extraction's or a question's): its outline, then whether it compiles. */
export function clientSchemaIssues(schema: Record<string, unknown>): string[] {
  const shape = schemaShapeProblems(schema);
  if (shape.length) return shape;
  const compiled = schemaProblem(schema);
  return compiled ? [compiled] : [];
}

/** Options checked against the schema, the rules and the plan; throws 422 or 403. */
export function checkOptions(raw: unknown, principal: Principal, prefix = 'options'): ResolvedOptions {
  const input = raw === undefined ? {} : raw;
  if (!validateOptions(input)) throw invalidRequest(errorDetails(validateOptions.errors, prefix));
  const { options, details } = resolveOptions(input as DocumentOptions, principal.plan);
  // Compiled now, so a schema that cannot be used is the client's 422, not a failed document.
  const schemaIssue = !details['options.extraction.schema'] && options.extraction?.schema ? schemaProblem(options.extraction.schema as Record<string, unknown>) : null;
  if (schemaIssue) addDetail(details, 'options.extraction.schema', schemaIssue);
  if (Object.keys(details).length) throw invalidRequest(details);
  assertEntitled(options, principal.plan);
  return options;
}

function insufficient(available: number, deps: AppDeps, message: string): FolioError {
  return new FolioError('insufficient_credits', message, { balance_micro: available, top_up_url: deps.config.topUpUrl });
}

/** docs/decisions.md#money: with no credit left, a live POST that would be charged is refused at once. */
export async function assertSomeCredit(principal: Principal, deps: AppDeps): Promise<void> {
  if (principal.key.mode !== 'live') return;
  const available = await availableCredit(deps.store.db, principal.workspaceId);
  if (available <= 0) {
    throw insufficient(available, deps, 'The workspace has no credit left. Top up to submit documents.');
  }
}

function baseRow(principal: Principal, options: ResolvedOptions, now: number) {
  return {
    workspace_id: principal.workspaceId,
    mode: principal.key.mode,
    status: 'queued',
    stage: 'received',
    analysis: options.analysis,
    model_requested: options.model,
    model_used: modelUsed(options.model, 0),
    settled_micro: null,
    retention_seconds: options.retention_seconds,
    options: JSON.stringify(options),
    timings: '{}',
    error_type: null,
    error_message: null,
    error_stage: null,
    created_at: now,
    started_at: null,
    completed_at: null,
    failed_at: null,
    expires_at: null,
    purged_at: null,
    retrieved_at: null,
    run_at: now,
    attempts: 0,
    locked_by: null,
    lease_token: null,
    lease_expires_at: null,
  };
}

export async function submitUrl(deps: AppDeps, principal: Principal, body: { url: string; options?: unknown }, baseUrl: string, remember: Remember): Promise<Accepted> {
  const protocol = new URL(body.url).protocol;
  if (protocol !== 'http:' && protocol !== 'https:') throw invalidRequest({ url: ['must be an http or https URL'] });
  const options = checkOptions(body.options, principal);
  await assertSomeCredit(principal, deps);
  const id = newId('doc');
  const accepted = acceptedToWire(id, null, baseUrl);
  await deps.store.writeTransaction(async (tx) => {
    await insertDocument(tx, {
      ...baseRow(principal, options, clock.now()),
      id,
      byte_size: 0,
      content_type: '',
      filename: filenameFromUrl(body.url),
      source_url: body.url,
      page_count: 0,
      estimated_micro: 0,
      hold_micro: 0,
      upload_key: null,
    });
    await remember(tx, { status: 202, body: accepted });
  });
  await deps.wakeup.notify();
  return accepted;
}

export interface ReceivedUpload {
  details: ErrorDetails;
  single: ReceivedFile[];
  batch: ReceivedFile[];
  optionsText: string | undefined;
  /** SHA-256 over every part in order, each framed (framePart), for Idempotency-Key. */
  hash: string;
}

/** What the upload form has given so far, while its parts are read. */
interface FormSoFar {
  details: ErrorDetails;
  single: ReceivedFile[];
  batch: ReceivedFile[];
  optionsText: string | undefined;
  hash: Hash;
}

/** Reads the multipart request to the end, keeping files on disk and the other fields in hand. */
export async function receiveUpload(request: FastifyRequest, principal: Principal, tempDir: string): Promise<ReceivedUpload> {
  const form: FormSoFar = { details: {}, single: [], batch: [], optionsText: undefined, hash: createHash('sha256') };
  const parts = request.parts({
    limits: { fileSize: principal.plan.max_upload_bytes, files: MAX_BATCH_FILES + 2, fields: 20, fieldSize: 1024 * 1024, parts: 40 },
  });
  try {
    await readParts(parts, form, tempDir);
  } catch (error) {
    await discardUpload(form);
    // The multipart parser's own errors (a missing boundary, a form cut short) carry no code;
    // the disk's do (ENOSPC), and Fastify's limits have theirs (FST_*), answered as they are.
    if (error instanceof FolioError || (error as { code?: unknown }).code !== undefined) throw error;
    request.log.info({ err: error }, 'malformed upload form');
    throw invalidRequest({ body: ['is not a well-formed multipart/form-data upload form'] });
  }
  const { details, single, batch, optionsText, hash } = form;
  return { details, single, batch, optionsText, hash: hash.digest('hex') };
}

/**
 * Every part goes into the request's fingerprint as one JSON line: its kind, name, filename, and
 * for a file its length and its bytes' own SHA-256. Each part is framed by its own line, so no
 * file's bytes can imitate the parts after it (two different forms never share a fingerprint),
 * and parts the form ignores count too.
 */
function framePart(hash: Hash, part: unknown[]): void {
  hash.update(`${JSON.stringify(part)}\n`);
}

async function readParts(parts: AsyncIterable<Multipart>, form: FormSoFar, tempDir: string): Promise<void> {
  const { details, single, batch, hash } = form;
  framePart(hash, ['folio-upload-form', 2]);
  for await (const part of parts) {
    if (part.type === 'file') {
      const target = part.fieldname === 'file' ? single : part.fieldname === 'files[]' ? batch : null;
      const bytesHash = createHash('sha256');
      let length = 0;
      part.file.on('data', (chunk: Buffer) => {
        length += chunk.length;
        bytesHash.update(chunk);
      });
      // Repeated `file` parts collapse into one upload (docs/api.md): the first one is kept.
      if (!target || (target === single && single.length > 0) || batch.length >= MAX_BATCH_FILES) {
        if (!target) addDetail(details, part.fieldname, 'is not a field of the upload form (use "file" or "files[]")');
        if (target === batch) addDetail(details, 'files[]', `at most ${MAX_BATCH_FILES} files per request`);
        part.file.resume();
        await new Promise((resolve) => part.file.once('end', resolve));
      } else {
        // Listed before it is written, so a form that breaks off leaves no temporary file behind.
        const received: ReceivedFile = { tempPath: path.join(tempDir, `${randomUUID()}.upload`), filename: cleanFilename(part.filename ?? '', 'upload'), bytes: 0, truncated: false };
        target.push(received);
        await pipeline(part.file, createWriteStream(received.tempPath));
        received.bytes = length;
        received.truncated = part.file.truncated;
      }
      framePart(hash, ['file', part.fieldname, part.filename ?? null, length, bytesHash.digest('hex')]);
    } else {
      const value = String(part.value);
      framePart(hash, ['field', part.fieldname, value]);
      if (part.fieldname === 'options') {
        // Two `options` parts would leave one of them unread, and the client unsure which.
        if (form.optionsText !== undefined) addDetail(details, 'options', 'was sent more than once; send the options in one part');
        else form.optionsText = value;
      } else if (part.fieldname === 'url') {
        addDetail(details, 'url', 'is not part of the upload form; send a URL as JSON {"url": ...}');
      } else {
        addDetail(details, part.fieldname, 'is not a field of the upload form');
      }
    }
  }
}

/** Aborted when the client hangs up before its answer is sent: its upload's count stops then. */
export function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort(new Error('the client has gone'));
  });
  return gone.signal;
}

export async function discardUpload(upload: Pick<ReceivedUpload, 'single' | 'batch'>): Promise<void> {
  await Promise.all([...upload.single, ...upload.batch].map((file) => rm(file.tempPath, { force: true })));
}

/** A file checked, counted and stored, waiting for its row and credit hold. */
interface PreparedFile {
  id: string;
  file: ReceivedFile;
  mediaType: SupportedMediaType;
  pageCount: number;
  estimate: number;
  blobKey: string;
}

/**
 * Turns a received upload into documents; the caller discards the temporary files after. Every
 * file is checked and stored first; then one transaction holds the credit, writes the rows and
 * remembers the answer, so the request's documents exist exactly when its answer does.
 */
export async function acceptUpload(
  deps: AppDeps,
  principal: Principal,
  upload: ReceivedUpload,
  baseUrl: string,
  remember: Remember,
  signal: AbortSignal,
): Promise<{ single: Accepted } | { batch: BatchEntry[] }> {
  const { details, single, batch, optionsText } = upload;
  const received = [...single, ...batch];
  if (single.length && batch.length) addDetail(details, 'file', 'send either "file" or "files[]", not both');
  if (!received.length && !details['files[]']) addDetail(details, 'file', 'is required: send the document in a "file" part, or several in "files[]" parts');
  if (Object.keys(details).length) throw invalidRequest(details);
  let rawOptions: unknown;
  if (optionsText !== undefined) {
    if (jsonTextDepth(optionsText, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw invalidRequest({ options: [`is nested more than ${MAX_JSON_DEPTH} levels deep`] });
    try {
      rawOptions = JSON.parse(optionsText);
    } catch {
      throw invalidRequest({ options: ['must be a JSON object (the DocumentOptions as a JSON string)'] });
    }
    if (holdsNul(rawOptions)) throw invalidRequest({ options: [NUL_REFUSED] });
  }
  const options = checkOptions(rawOptions, principal);
  await assertSomeCredit(principal, deps);

  // A single file's refusal is the answer; in a batch it is that file's entry.
  const prepared: (PreparedFile | FolioError)[] = [];
  try {
    for (const file of single.length ? single : batch) {
      try {
        prepared.push(await prepareFile(deps, principal, options, file, signal));
      } catch (error) {
        if (!(error instanceof FolioError) || single.length) throw error;
        prepared.push(error);
      }
    }
    const entries = await deps.store.writeTransaction(async (tx) => {
      const out: (Accepted | FolioError)[] = [];
      for (const item of prepared) out.push(item instanceof FolioError ? item : await insertPrepared(tx, deps, principal, options, item, baseUrl));
      if (single.length && out[0] instanceof FolioError) return out;
      const body = single.length ? out[0] : { documents: out.map(toBatchEntry) };
      await remember(tx, { status: 202, body });
      return out;
    });
    const refused = entries.filter((e): e is FolioError => e instanceof FolioError);
    if (single.length && refused.length) throw refused[0];
    // Files whose credit ran out were stored for nothing.
    await Promise.all(prepared.map((p, i) => (!(p instanceof FolioError) && entries[i] instanceof FolioError ? discardStoredFile(deps, p.blobKey) : null)));
    if (entries.some((e) => !(e instanceof FolioError))) await deps.wakeup.notify();
    return single.length ? { single: entries[0] as Accepted } : { batch: entries.map(toBatchEntry) };
  } catch (error) {
    await Promise.all(prepared.map((p) => (p instanceof FolioError ? null : discardStoredFile(deps, p.blobKey))));
    throw error;
  }
}

/** Deletes a file stored for a document that was not created; if that fails, the sweeper deletes it later. */
async function discardStoredFile(deps: AppDeps, blobKey: string): Promise<void> {
  try {
    await deps.store.blobs.delete(blobKey);
    await clearPendingUpload(deps.store.db, blobKey);
  } catch {
    // Still pending: swept once stale.
  }
}

function toBatchEntry(entry: Accepted | FolioError): BatchEntry {
  return entry instanceof FolioError ? { error: { type: entry.type, message: entry.message, ...entry.extra } } : entry;
}

async function prepareFile(deps: AppDeps, principal: Principal, options: ResolvedOptions, file: ReceivedFile, signal: AbortSignal): Promise<PreparedFile> {
  const { plan } = principal;
  if (file.truncated) {
    throw new FolioError('payload_too_large', `"${file.filename}" is larger than the plan's limit of ${plan.max_upload_bytes} bytes.`);
  }
  const detected = await detectFile(file.tempPath, file.filename);
  if (!detected.supported) {
    const what = detected.mediaType ? `a ${detected.mediaType} file` : 'not a file type Folio recognizes';
    throw new FolioError('unsupported_media_type', `"${file.filename}" is ${what}. Supported types: ${SUPPORTED_LIST}.`);
  }
  // With a page selection, what is read (and limited, and estimated) is the selected pages; a file
  // whose count is unknown here (it cannot be opened) fails in `analyzing` with the reason.
  const selection = pageSelectionOf(options);
  // Counting goes as far as a refusal needs: past the plan's limit, or past the last page selected.
  const stopAfter = Math.max(plan.max_pages_per_document, selection ? selection[selection.length - 1][1] : 0);
  const pageCount = await countPages(deps, principal, file, detected.supported, stopAfter, signal);
  if (selection && pageCount > 0) {
    const outOfRange = selectionOutOfRange(selection, pageCount);
    if (outOfRange) throw invalidRequest({ 'options.pages': [`${outOfRange} ("${file.filename}")`] }, `The page selection ${outOfRange}.`);
  }
  const pagesRead = selection && pageCount > 0 ? selectedPageCount(selection) : pageCount;
  if (pagesRead > plan.max_pages_per_document) {
    // A count that stopped early knows only that there are more.
    const pages = pageCount > stopAfter && !selection ? `more than ${stopAfter}` : `${pagesRead}`;
    throw invalidRequest(
      { file: [`"${file.filename}" has ${pages} pages${selection ? ' selected' : ''}; the plan allows at most ${plan.max_pages_per_document}`] },
      `The document has ${pages} pages${selection ? ' selected' : ''}; the plan allows at most ${plan.max_pages_per_document}.`,
    );
  }
  // Every frame of a TIFF is read by OCR, which a small file must not buy by the thousand (scan-budget.ts).
  if (detected.supported === 'image/tiff' && pagesRead > maxScannedPages(file.bytes)) {
    const allowed = maxScannedPages(file.bytes);
    throw invalidRequest(
      { file: [`"${file.filename}" has ${pagesRead} frames in ${sizeInWords(file.bytes)}; Folio reads at most one scanned page per KiB of file (here ${allowed})`] },
      `The document has ${pagesRead} frames in ${sizeInWords(file.bytes)}; Folio reads at most ${allowed} scanned pages from a file of that size.`,
    );
  }
  const estimate = estimateMicro(Math.max(1, pagesRead), options, deps.config.prices, principal.key.mode);
  const id = newId('doc');
  const blobKey = `uploads/${id}`;
  // Recorded first: if this process stops before the document is committed, the sweeper finds the file.
  await recordPendingUpload(deps.store.db, blobKey, clock.now());
  try {
    await deps.store.blobs.putFile(blobKey, file.tempPath);
  } catch (error) {
    await discardStoredFile(deps, blobKey);
    throw error;
  }
  return { id, file, mediaType: detected.supported, pageCount, estimate, blobKey };
}

/** The document row and its credit hold; a FolioError when the credit cannot cover it. */
async function insertPrepared(tx: Tx, deps: AppDeps, principal: Principal, options: ResolvedOptions, item: PreparedFile, baseUrl: string): Promise<Accepted | FolioError> {
  if (!(await holdCredit(tx, principal.workspaceId, item.estimate))) {
    return insufficient(await availableCredit(tx, principal.workspaceId), deps, `"${item.file.filename}" is estimated at ${item.estimate} micro-USD, more than the available credit.`);
  }
  await insertDocument(tx, {
    ...baseRow(principal, options, clock.now()),
    id: item.id,
    byte_size: item.file.bytes,
    content_type: item.mediaType,
    filename: item.file.filename,
    source_url: null,
    page_count: item.pageCount,
    estimated_micro: item.estimate,
    hold_micro: item.estimate,
    upload_key: item.blobKey,
  });
  await clearPendingUpload(tx, item.blobKey);
  return acceptedToWire(item.id, item.estimate, baseUrl);
}

/**
 * Types with pages of their own are counted now, in the workspace's turn (page-counter.ts); one-page
 * pictures are 1. Past `stopAfter` the answer is stopAfter + 1: the count is refused anyway.
 */
async function countPages(deps: AppDeps, principal: Principal, file: ReceivedFile, mediaType: SupportedMediaType, stopAfter: number, signal: AbortSignal): Promise<number> {
  if (mediaType === 'application/pdf' || mediaType === 'image/tiff' || isOffice(mediaType)) {
    try {
      // A file that cannot be opened is still accepted; it fails in `analyzing` with the reason.
      return (await deps.counter.count({ mediaType, path: file.tempPath, stopAfter, tenant: principal.workspaceId, signal })) ?? 0;
    } catch (error) {
      if (!(error instanceof CountTimeout)) throw error;
      const seconds = Math.round(error.limitMs / 100) / 10;
      throw invalidRequest(
        { file: [`"${file.filename}" could not be counted within ${seconds} s; a file this hard to open is not accepted (split it, or save it again with a common tool)`] },
        `The pages of "${file.filename}" could not be counted within ${seconds} s.`,
      );
    }
  }
  if (mediaType === 'image/png' || mediaType === 'image/jpeg' || mediaType === 'image/bmp' || mediaType === 'image/heic' || mediaType === 'image/heif') return 1;
  return 0;
}
