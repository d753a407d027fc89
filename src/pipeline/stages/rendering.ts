// `rendering`: pictures of figures and of picture-like pages, per SPEC.md's picture rules.
import { DocumentFailure, type RunContext } from '../context.js';
import { planPictures } from '../pictures.js';

export function picturesPlanned(ctx: RunContext) {
  return planPictures(ctx.pages ?? [], ctx.doc.content_type, ctx.options.images);
}

export async function renderPictures(ctx: RunContext): Promise<void> {
  const requests = picturesPlanned(ctx);
  const outcome = await ctx.pool.render(ctx.mediaType!, ctx.bytes!, requests, ctx.signal);
  if (!outcome.ok) throw new DocumentFailure(outcome.errorType, outcome.message);
  ctx.pictures = outcome.value;
}
