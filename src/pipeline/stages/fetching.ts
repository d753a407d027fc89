// `fetching`: a URL document is downloaded, sniffed and stored like an upload.
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { detectFile } from '../intake/detect.js';
import { fetchToFile, FetchFailure } from '../intake/fetch-url.js';
import { DocumentFailure, HoldLost, type RunContext } from '../context.js';
import { SUPPORTED_LIST } from '../../domain/media-types.js';

export async function fetchDocument(ctx: RunContext): Promise<void> {
  const { store, doc, config } = ctx;
  const temp = path.join(store.blobs.tempDir, `${randomUUID()}.download`);
  let bytes: number;
  try {
    ({ bytes } = await fetchToFile(doc.source_url!, temp, {
      maxBytes: ctx.plan.max_upload_bytes,
      timeoutMs: config.fetch.timeoutMs,
      maxRedirects: config.fetch.maxRedirects,
      allowPrivate: config.fetch.allowPrivate,
      signal: ctx.signal,
    }));
  } catch (error) {
    if (error instanceof FetchFailure) throw new DocumentFailure(error.type, error.message, { cause: error.cause });
    throw error;
  }
  try {
    const detected = await detectFile(temp, doc.filename);
    if (!detected.supported) {
      throw new DocumentFailure(
        'unsupported_media_type',
        `The file at the URL is ${detected.mediaType ?? 'of an unknown type'}; supported types are ${SUPPORTED_LIST}.`,
      );
    }
    const key = `uploads/${doc.id}`;
    await store.blobs.putFile(key, temp);
    const changes = { byte_size: bytes, content_type: detected.supported, upload_key: key };
    if (!(await ctx.hold.update(store.db, changes))) throw new HoldLost();
    Object.assign(doc, changes);
    ctx.mediaType = detected.supported;
  } finally {
    await rm(temp, { force: true });
  }
}
