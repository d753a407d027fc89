// Accepting documents (SPEC.md POST /documents): an upload (one `file`, or up to ten `files[]`,
// each its own document) or a URL. Uploads stream to a temporary file — never whole into memory
// — and stop at the plan's max_upload_bytes; the type is sniffed from the bytes; PDFs are counted
// so the estimate is real; the document row and its credit hold are written in one transaction.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import type { DocumentOptions, ResolvedOptions } from './schemas/options.js';
import { DocumentOptions as DocumentOptionsSchema } from './schemas/options.js';
import type { Accepted } from './schemas/resources.js';
import { estimateMicro, modelUsed } from '../domain/billing.js';
import { addDetail, FolioError, invalidRequest, type ErrorDetails } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { SUPPORTED_LIST, type SupportedMediaType } from '../domain/media-types.js';
import { assertEntitled, resolveOptions } from '../domain/options.js';
import { holdCredit, insertDocument } from '../store/documents.js';
import { detectFile } from '../pipeline/detect.js';
import { filenameFromUrl } from '../pipeline/fetch-url.js';
import type { AppDeps } from './app.js';
import type { Principal } from './auth.js';
import { acceptedToWire } from './serialize.js';
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

/** Options checked against the schema, the rules and the plan; throws 422 or 403. */
export function checkOptions(raw: unknown, principal: Principal, prefix = 'options'): ResolvedOptions {
  const input = raw === undefined ? {} : raw;
  if (!validateOptions(input)) throw invalidRequest(errorDetails(validateOptions.errors, prefix));
  const { options, details } = resolveOptions(input as DocumentOptions, principal.plan);
  if (Object.keys(details).length) throw invalidRequest(details);
  assertEntitled(options, principal.plan);
  return options;
}

function availableCredit(principal: Principal): number {
  return principal.balanceMicro - principal.heldMicro;
}

function insufficient(available: number, deps: AppDeps, message: string): FolioError {
  return new FolioError('insufficient_credits', message, { balance_micro: available, top_up_url: deps.config.topUpUrl });
}

/** DECISIONS D8: with no credit left, a live POST that would be charged is refused at once. */
export function assertSomeCredit(principal: Principal, deps: AppDeps): void {
  const available = availableCredit(principal);
  if (principal.key.mode === 'live' && available <= 0) {
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

export async function submitUrl(deps: AppDeps, principal: Principal, body: { url: string; options?: unknown }, baseUrl: string): Promise<Accepted> {
  const protocol = new URL(body.url).protocol;
  if (protocol !== 'http:' && protocol !== 'https:') throw invalidRequest({ url: ['must be an http or https URL'] });
  const options = checkOptions(body.options, principal);
  assertSomeCredit(principal, deps);
  const id = newId('doc');
  await insertDocument(deps.store.db, {
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
  await deps.wakeup.notify();
  return acceptedToWire(id, null, baseUrl);
}

export interface ReceivedUpload {
  details: ErrorDetails;
  single: ReceivedFile[];
  batch: ReceivedFile[];
  optionsText: string | undefined;
  /** SHA-256 over every part in order, for Idempotency-Key. */
  hash: string;
}

/** Reads the multipart request to the end, keeping files on disk and the other fields in hand. */
export async function receiveUpload(request: FastifyRequest, principal: Principal, tempDir: string): Promise<ReceivedUpload> {
  const details: ErrorDetails = {};
  const hash = createHash('sha256');
  const single: ReceivedFile[] = [];
  const batch: ReceivedFile[] = [];
  let optionsText: string | undefined;
  const parts = request.parts({
    limits: { fileSize: principal.plan.max_upload_bytes, files: MAX_BATCH_FILES + 2, fields: 20, fieldSize: 1024 * 1024, parts: 40 },
  });
  for await (const part of parts) {
    if (part.type === 'file') {
      const target = part.fieldname === 'file' ? single : part.fieldname === 'files[]' ? batch : null;
      // Repeated `file` parts collapse into one upload (SPEC.md): the first one is kept.
      if (!target || (target === single && single.length > 0) || batch.length >= MAX_BATCH_FILES) {
        if (!target) addDetail(details, part.fieldname, 'is not a field of the upload form (use "file" or "files[]")');
        if (target === batch) addDetail(details, 'files[]', `at most ${MAX_BATCH_FILES} files per request`);
        part.file.resume();
        await new Promise((resolve) => part.file.once('end', resolve));
        continue;
      }
      const tempPath = path.join(tempDir, `${randomUUID()}.upload`);
      let bytes = 0;
      hash.update(`file:${part.fieldname}:${part.filename}\n`);
      part.file.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        hash.update(chunk);
      });
      await pipeline(part.file, createWriteStream(tempPath));
      target.push({ tempPath, filename: part.filename || 'upload', bytes, truncated: part.file.truncated });
    } else if (part.fieldname === 'options') {
      optionsText = String(part.value);
      hash.update(`field:options\n${optionsText}\n`);
    } else if (part.fieldname === 'url') {
      addDetail(details, 'url', 'is not part of the upload form; send a URL as JSON {"url": ...}');
    } else {
      addDetail(details, part.fieldname, 'is not a field of the upload form');
    }
  }
  return { details, single, batch, optionsText, hash: hash.digest('hex') };
}

export async function discardUpload(upload: ReceivedUpload): Promise<void> {
  await Promise.all([...upload.single, ...upload.batch].map((file) => rm(file.tempPath, { force: true })));
}

/** Turns a received upload into documents; the caller discards the temporary files after. */
export async function acceptUpload(
  deps: AppDeps,
  principal: Principal,
  upload: ReceivedUpload,
  baseUrl: string,
): Promise<{ single: Accepted } | { batch: BatchEntry[] }> {
  const { details, single, batch, optionsText } = upload;
  const received = [...single, ...batch];
  if (single.length && batch.length) addDetail(details, 'file', 'send either "file" or "files[]", not both');
  if (!received.length && !details['files[]']) addDetail(details, 'file', 'is required: send the document in a "file" part, or several in "files[]" parts');
  if (Object.keys(details).length) throw invalidRequest(details);
  let rawOptions: unknown;
  if (optionsText !== undefined) {
    try {
      rawOptions = JSON.parse(optionsText);
    } catch {
      throw invalidRequest({ options: ['must be a JSON object (the DocumentOptions as a JSON string)'] });
    }
  }
  const options = checkOptions(rawOptions, principal);
  assertSomeCredit(principal, deps);
  if (single.length) return { single: await acceptFile(deps, principal, options, single[0], baseUrl) };
  const entries: BatchEntry[] = [];
  for (const file of batch) {
    try {
      entries.push(await acceptFile(deps, principal, options, file, baseUrl));
    } catch (error) {
      if (!(error instanceof FolioError)) throw error;
      entries.push({ error: { type: error.type, message: error.message, ...error.extra } });
    }
  }
  return { batch: entries };
}

async function acceptFile(deps: AppDeps, principal: Principal, options: ResolvedOptions, file: ReceivedFile, baseUrl: string): Promise<Accepted> {
  const { plan } = principal;
  if (file.truncated) {
    throw new FolioError('payload_too_large', `"${file.filename}" is larger than the plan's limit of ${plan.max_upload_bytes} bytes.`);
  }
  const detected = await detectFile(file.tempPath, file.filename);
  if (!detected.supported) {
    const what = detected.mediaType ? `a ${detected.mediaType} file` : 'not a file type Folio recognizes';
    throw new FolioError('unsupported_media_type', `"${file.filename}" is ${what}. Supported types: ${SUPPORTED_LIST}.`);
  }
  const pageCount = await countPages(deps, detected.supported, file.tempPath);
  if (pageCount > plan.max_pages_per_document) {
    throw invalidRequest(
      { file: [`"${file.filename}" has ${pageCount} pages; the plan allows at most ${plan.max_pages_per_document}`] },
      `The document has ${pageCount} pages; the plan allows at most ${plan.max_pages_per_document}.`,
    );
  }
  const mode = principal.key.mode;
  const estimate = estimateMicro(Math.max(1, pageCount), options, deps.config.prices, mode);
  const id = newId('doc');
  const key = `uploads/${id}`;
  await deps.store.blobs.putFile(key, file.tempPath);
  try {
    const held = await deps.store.writeTransaction(async (tx) => {
      if (!(await holdCredit(tx, principal.workspaceId, estimate))) return false;
      await insertDocument(tx, {
        ...baseRow(principal, options, clock.now()),
        id,
        byte_size: file.bytes,
        content_type: detected.supported!,
        filename: file.filename,
        source_url: null,
        page_count: pageCount,
        estimated_micro: estimate,
        hold_micro: estimate,
        upload_key: key,
      });
      return true;
    });
    if (!held) {
      const available = await deps.store.db
        .selectFrom('workspaces')
        .select(['balance_micro', 'held_micro'])
        .where('id', '=', principal.workspaceId)
        .executeTakeFirstOrThrow();
      throw insufficient(
        available.balance_micro - available.held_micro,
        deps,
        `"${file.filename}" is estimated at ${estimate} micro-USD, more than the available credit.`,
      );
    }
  } catch (error) {
    await deps.store.blobs.delete(key).catch(() => undefined);
    throw error;
  }
  await deps.wakeup.notify();
  return acceptedToWire(id, estimate, baseUrl);
}

/** Types with pages of their own are counted now; one-page pictures are 1. */
async function countPages(deps: AppDeps, mediaType: SupportedMediaType, filePath: string): Promise<number> {
  if (mediaType === 'application/pdf' || mediaType === 'image/tiff' || mediaType.startsWith('application/vnd.openxmlformats-officedocument.')) {
    const outcome = await deps.pool.countPages(mediaType, await readFile(filePath));
    // A file that cannot be opened is still accepted; it fails in `analyzing` with the reason.
    return outcome.ok ? outcome.value : 0;
  }
  if (mediaType === 'image/png' || mediaType === 'image/jpeg' || mediaType === 'image/bmp' || mediaType === 'image/heic' || mediaType === 'image/heif') return 1;
  return 0;
}
