// `rendering`: pictures of figures and of picture-like pages, per docs/api.md's picture rules.
import { DocumentFailure, type RunContext } from '../context.js';
import { planPictures } from '../outputs/pictures.js';

export function picturesPlanned(ctx: RunContext) {
  return planPictures(ctx.pages ?? [], ctx.doc.content_type, ctx.options.images, ctx.doc.byte_size);
}

/** Fewer pictures than this are rendered by one thread; more are shared among the threads. */
const PER_THREAD_MIN = 4;

export async function renderPictures(ctx: RunContext): Promise<void> {
  const requests = picturesPlanned(ctx);
  // Pictures are independent: contiguous shares go to the reader threads at once, and come back
  // in page order.
  const shares = Math.max(1, Math.min(ctx.config.readerThreads, Math.floor(requests.length / PER_THREAD_MIN)));
  const size = Math.ceil(requests.length / shares);
  const chunks = Array.from({ length: shares }, (_, i) => requests.slice(i * size, (i + 1) * size)).filter((c) => c.length > 0);
  const outcomes = await Promise.all(chunks.map((chunk) => ctx.pool.render(ctx.mediaType!, ctx.bytes!, chunk, ctx.signal)));
  const pictures = [];
  for (const outcome of outcomes) {
    if (!outcome.ok) throw new DocumentFailure(outcome.errorType, outcome.message, { cause: outcome.detail });
    pictures.push(...outcome.value);
  }
  ctx.pictures = pictures;
}
