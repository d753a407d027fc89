// `rendering`: pictures of figures and of picture-like pages, per docs/api.md's picture rules.
// They were planned from the page models as each span was analysed (ctx.pictureRequests). Each
// picture goes to the blob store as soon as its thread hands it back, under a fresh id, so a
// document's pictures never sit in memory together; if the run does not complete they are removed
// (discardPictures), and nothing refers to them.
import { newId } from '../../domain/ids.js';
import { DocumentFailure, type RunContext, type StoredPicture } from '../context.js';
import type { PictureRequest } from '../outputs/pictures.js';

/** Most pictures one thread renders in one task, so a task's pictures stay few. */
const PICTURES_PER_TASK = 24;

export async function renderPictures(ctx: RunContext): Promise<void> {
  // A document with few pictures still has them shared among all the threads.
  const size = Math.min(PICTURES_PER_TASK, Math.ceil(ctx.pictureRequests.length / Math.max(1, ctx.config.readerThreads)));
  const tasks: PictureRequest[][] = [];
  for (let i = 0; i < ctx.pictureRequests.length; i += size) tasks.push(ctx.pictureRequests.slice(i, i + size));
  // Pictures come back in page order: each task's are stored in its own slot.
  const stored: StoredPicture[][] = tasks.map(() => []);
  const writes: Promise<void>[] = [];
  let next = 0;
  let stopped = false;
  const worker = async () => {
    for (let task = next++; task < tasks.length && !stopped; task = next++) {
      const outcome = await ctx.pool.render(ctx.mediaType!, ctx.bytes!, tasks[task], ctx.doc.id, ctx.signal);
      if (!outcome.ok) {
        stopped = true;
        throw new DocumentFailure(outcome.errorType, outcome.message, { cause: outcome.detail });
      }
      for (const picture of outcome.value) {
        const id = newId('img');
        const blobKey = `images/${ctx.doc.id}/${id}.${picture.mediaType === 'image/png' ? 'png' : 'jpg'}`;
        // Recorded before it is written, so that a failed write is removed with the rest.
        stored[task].push({ id, blobKey, request: picture.request, mediaType: picture.mediaType, width: picture.width, height: picture.height, byteSize: picture.bytes.byteLength });
        // Written while the threads render the next pictures. A failed write is met when every
        // write is settled below; until then it must not count as an unhandled rejection, which
        // would stop the process.
        const write = ctx.store.blobs.put(blobKey, Buffer.from(picture.bytes.buffer, picture.bytes.byteOffset, picture.bytes.byteLength));
        write.catch(() => undefined);
        writes.push(write);
      }
    }
  };
  const threads = Math.max(1, Math.min(ctx.config.readerThreads, tasks.length));
  const rendered = await Promise.allSettled(Array.from({ length: threads }, worker));
  const written = await Promise.allSettled(writes);
  // Whatever was stored, in page order; discardPictures removes it if the run does not complete.
  ctx.pictures = stored.flat();
  const failure = [...rendered, ...written].find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}

/** Removes the pictures a run stored, when it ends without completing (failed, hold lost, fault). */
export async function discardPictures(ctx: RunContext): Promise<void> {
  const pictures = ctx.pictures;
  ctx.pictures = [];
  await Promise.all(pictures.map((picture) => ctx.store.blobs.delete(picture.blobKey).catch(() => undefined)));
}
