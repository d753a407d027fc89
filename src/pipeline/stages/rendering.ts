// `rendering`: pictures of figures and of picture-like pages, per docs/api.md's picture rules.
// They are planned from the page models as each batch of pages is analysed, and a batch's
// pictures are given to the threads as soon as it is stored, at most one task a thread at a time,
// behind the analysis tasks already queued, so they mostly fill the threads as analysis runs out
// (the pool does not keep its queue's order strictly); the stage itself waits for what remains
// once every page is analysed. Each picture goes to
// the blob store as soon as its thread hands it back, under a fresh id, so a document's pictures
// never sit in memory together; if the run does not complete they are removed (discardPictures),
// and nothing refers to them.
import { newId } from '../../domain/ids.js';
import { DocumentFailure, type PictureWork, type RunContext, type StoredPicture } from '../context.js';
import { MAX_PICTURE_SIDE, type PictureRequest } from '../outputs/pictures.js';
import { pictureFromSketch, type Sketch } from '../formats/page-sketch.js';
import type { RenderedPicture } from '../threads/reader-thread.js';

/** Most pictures one thread renders in one task, so a task's pictures stay few. */
const PICTURES_PER_TASK = 24;

/** A picture's place in the document's plan: null for a picture started before its page was analysed and not planned yet. */
interface Slot {
  order: number | null;
}

/** The pictures of a run, rendered as their pages are analysed. */
export class PictureRenderer implements PictureWork {
  /** Stored pictures with their place in the document's plan, to be put back in page order. */
  private readonly stored: { slot: Slot; picture: StoredPicture }[] = [];
  /** Tasks not yet given to the threads; at most one per thread is given at a time, so a run that stops leaves little to wait for. */
  private readonly waiting: { requests: PictureRequest[]; slots: Slot[] }[] = [];
  /** Pictures started before their pages were analysed, by their request. */
  private readonly early = new Map<string, Slot>();
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
   * Starts a picture the plan is known to ask for before its page is analysed (a page read by
   * OCR: pictures.ts scannedPagePicture), so it is made while the engine reads other pages; the
   * plan then takes it instead of rendering it again.
   */
  startEarly(request: PictureRequest, sketched?: { sketch: Sketch; degrees: number }): void {
    const key = JSON.stringify(request);
    if (this.early.has(key)) return;
    const slot: Slot = { order: null };
    this.early.set(key, slot);
    // A page with words is never blank, so its sketch makes its picture without a thread.
    if (sketched && request.hasWords) {
      const task = this.fromSketch(request, slot, sketched.sketch, sketched.degrees);
      task.catch(() => undefined);
      this.tasks.push(task);
      return;
    }
    this.waiting.push({ requests: [request], slots: [slot] });
    this.run();
  }

  private async fromSketch(request: PictureRequest, slot: Slot, sketch: Sketch, degrees: number): Promise<void> {
    if (this.stopped) return;
    const picture = await pictureFromSketch(sketch, degrees, MAX_PICTURE_SIDE);
    this.keep(slot, { request, mediaType: 'image/jpeg', ...picture });
  }

  /**
   * Plans `requests` (one batch's, in page order) and starts rendering those not started early. A
   * document with few pictures still has them shared among all the threads.
   */
  add(requests: PictureRequest[]): void {
    const fresh: { request: PictureRequest; slot: Slot }[] = [];
    for (const request of requests) {
      const order = this.planned++;
      const started = this.early.get(JSON.stringify(request));
      if (started && started.order === null) started.order = order;
      else fresh.push({ request, slot: { order } });
    }
    const size = Math.max(1, Math.min(PICTURES_PER_TASK, Math.ceil(fresh.length / this.threads)));
    for (let i = 0; i < fresh.length; i += size) {
      const task = fresh.slice(i, i + size);
      this.waiting.push({ requests: task.map((t) => t.request), slots: task.map((t) => t.slot) });
    }
    this.run();
  }

  private get threads(): number {
    return Math.max(1, this.ctx.config.readerThreads);
  }

  /** Gives waiting tasks to the threads, at most one per thread at a time. */
  private run(): void {
    while (this.running < this.threads && this.waiting.length > 0) {
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
      for (let task = this.waiting.shift(); task && !this.stopped; task = this.waiting.shift()) await this.render(task.requests, task.slots);
    } catch (error) {
      this.stopped = true;
      throw error;
    } finally {
      this.running--;
    }
  }

  private async render(requests: PictureRequest[], slots: Slot[]): Promise<void> {
    const { ctx } = this;
    const outcome = await ctx.pool.render(ctx.mediaType!, ctx.bytes!, requests, ctx.doc.id, ctx.signal);
    if (!outcome.ok) throw new DocumentFailure(outcome.errorType, outcome.message, { cause: outcome.detail });
    for (const picture of outcome.value) this.keep(slots[picture.index], picture);
  }

  /** Stores a finished picture under a fresh id. */
  private keep(slot: Slot, picture: Pick<RenderedPicture, 'request' | 'mediaType' | 'width' | 'height' | 'bytes'>): void {
    const { ctx } = this;
    const id = newId('img');
    const blobKey = `images/${ctx.doc.id}/${id}.${picture.mediaType === 'image/png' ? 'png' : 'jpg'}`;
    // Recorded before it is written, so that a failed write is removed with the rest.
    this.stored.push({
      slot,
      picture: { id, blobKey, request: picture.request, mediaType: picture.mediaType, width: picture.width, height: picture.height, byteSize: picture.bytes.byteLength },
    });
    // Written while the threads render the next pictures. A failed write is met when every
    // write is settled in `finish`; until then it must not count as an unhandled rejection,
    // which would stop the process.
    const write = ctx.store.blobs.put(blobKey, Buffer.from(picture.bytes.buffer, picture.bytes.byteOffset, picture.bytes.byteLength));
    write.catch(() => undefined);
    this.writes.push(write);
  }

  /** Waits for every picture planned to be rendered and written; the stored pictures in page order, or the first failure. */
  async finish(): Promise<StoredPicture[]> {
    const outcomes = await this.settle();
    const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failure) throw failure.reason;
    // A picture started early that the plan did not ask for after all is not kept.
    const unplanned = this.stored.filter((entry) => entry.slot.order === null);
    await Promise.all(unplanned.map((entry) => this.ctx.store.blobs.delete(entry.picture.blobKey)));
    const pictures = this.pictures();
    this.stored.splice(0, this.stored.length, ...this.stored.filter((entry) => entry.slot.order !== null));
    return pictures;
  }

  /** Stops giving tasks to the threads and removes whatever was stored, once nothing is rendering or being written (the run does not complete). */
  async discard(): Promise<void> {
    this.stopped = true;
    await this.settle();
    const pictures = this.stored.map((entry) => entry.picture);
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

  /** The planned pictures in the plan's order. */
  private pictures(): StoredPicture[] {
    const planned = this.stored.filter((entry): entry is { slot: { order: number }; picture: StoredPicture } => entry.slot.order !== null);
    return planned.sort((a, b) => a.slot.order - b.slot.order).map((entry) => entry.picture);
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
