// `rendering`: pictures of figures and of picture-like pages, per docs/api.md's picture rules.
// They are planned from the page models as each batch of pages is analysed, and a batch's
// pictures are rendered as soon as it is stored, while the reader threads analyse the rest
// (the thread pool takes tasks in the order given, so they fill the threads as analysis tasks run
// out); the stage itself waits for what remains once every page is analysed. Each picture goes to
// the blob store as soon as its thread hands it back, under a fresh id, so a document's pictures
// never sit in memory together; if the run does not complete they are removed (discardPictures),
// and nothing refers to them.
import { newId } from '../../domain/ids.js';
import { DocumentFailure, type PictureWork, type RunContext, type StoredPicture } from '../context.js';
import type { PictureRequest } from '../outputs/pictures.js';

/** Most pictures one thread renders in one task, so a task's pictures stay few. */
const PICTURES_PER_TASK = 24;

/** The pictures of a run, rendered as their pages are analysed. */
export class PictureRenderer implements PictureWork {
  /** Stored pictures with the place of their request in the document's plan, to be put back in page order. */
  private readonly stored: { order: number; picture: StoredPicture }[] = [];
  /** Tasks not yet given to the threads; at most one per thread is given at a time, so a run that stops leaves little to wait for. */
  private readonly waiting: { requests: PictureRequest[]; order: number }[] = [];
  private readonly tasks: Promise<void>[] = [];
  private readonly writes: Promise<void>[] = [];
  private running = 0;
  private stopped = false;
  private planned = 0;

  constructor(private readonly ctx: RunContext) {}

  /** Pictures planned so far. */
  get count(): number {
    return this.planned;
  }

  /**
   * Plans `requests` (one batch's, in page order) and starts rendering them. A document with few
   * pictures still has them shared among all the threads.
   */
  add(requests: PictureRequest[]): void {
    const threads = Math.max(1, this.ctx.config.readerThreads);
    const size = Math.max(1, Math.min(PICTURES_PER_TASK, Math.ceil(requests.length / threads)));
    for (let i = 0; i < requests.length; i += size) this.waiting.push({ requests: requests.slice(i, i + size), order: this.planned + i });
    this.planned += requests.length;
    while (this.running < threads && this.waiting.length > 0) {
      this.running++;
      const task = this.next();
      // A failure is met in `finish`; until then it must not count as an unhandled rejection.
      task.catch(() => undefined);
      this.tasks.push(task);
    }
  }

  /** Renders waiting tasks one after another until none is left or the run stops. */
  private async next(): Promise<void> {
    try {
      for (let task = this.waiting.shift(); task && !this.stopped; task = this.waiting.shift()) await this.render(task.requests, task.order);
    } catch (error) {
      this.stopped = true;
      throw error;
    } finally {
      this.running--;
    }
  }

  private async render(requests: PictureRequest[], order: number): Promise<void> {
    const { ctx } = this;
    const outcome = await ctx.pool.render(ctx.mediaType!, ctx.bytes!, requests, ctx.doc.id, ctx.signal);
    if (!outcome.ok) throw new DocumentFailure(outcome.errorType, outcome.message, { cause: outcome.detail });
    for (const picture of outcome.value) {
      const id = newId('img');
      const blobKey = `images/${ctx.doc.id}/${id}.${picture.mediaType === 'image/png' ? 'png' : 'jpg'}`;
      // Recorded before it is written, so that a failed write is removed with the rest.
      this.stored.push({
        order: order + picture.index,
        picture: { id, blobKey, request: picture.request, mediaType: picture.mediaType, width: picture.width, height: picture.height, byteSize: picture.bytes.byteLength },
      });
      // Written while the threads render the next pictures. A failed write is met when every
      // write is settled in `finish`; until then it must not count as an unhandled rejection,
      // which would stop the process.
      const write = ctx.store.blobs.put(blobKey, Buffer.from(picture.bytes.buffer, picture.bytes.byteOffset, picture.bytes.byteLength));
      write.catch(() => undefined);
      this.writes.push(write);
    }
  }

  /** Waits for every picture planned to be rendered and written; the stored pictures in page order, or the first failure. */
  async finish(): Promise<StoredPicture[]> {
    const outcomes = await this.settle();
    const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failure) throw failure.reason;
    return this.pictures();
  }

  /** Stops giving tasks to the threads and removes whatever was stored, once nothing is rendering or being written (the run does not complete). */
  async discard(): Promise<void> {
    this.stopped = true;
    await this.settle();
    const pictures = this.pictures();
    this.stored.length = 0;
    await Promise.all(pictures.map((picture) => this.ctx.store.blobs.delete(picture.blobKey).catch(() => undefined)));
  }

  private async settle(): Promise<PromiseSettledResult<void>[]> {
    // A task loop may have been started while the earlier ones were awaited.
    let rendered: PromiseSettledResult<void>[] = [];
    while (rendered.length < this.tasks.length) rendered = await Promise.allSettled([...this.tasks]);
    // Every write was started by a task that has now ended.
    return [...rendered, ...(await Promise.allSettled(this.writes))];
  }

  private pictures(): StoredPicture[] {
    return [...this.stored].sort((a, b) => a.order - b.order).map((entry) => entry.picture);
  }
}

export async function renderPictures(ctx: RunContext): Promise<void> {
  if (ctx.pictureWork) ctx.pictures = await ctx.pictureWork.finish();
}

/** Removes the pictures a run stored, when it ends without completing (failed, hold lost, fault). */
export async function discardPictures(ctx: RunContext): Promise<void> {
  ctx.pictures = [];
  await ctx.pictureWork?.discard();
}
