// `extracting`: the model reads the page outputs (docs/api.md "Model choice", ExtractionResult,
// picture rule 6) and fills the requested fields and schema and answers the submitted questions.
// The tier is chosen from the document's length; every value and answer goes through the
// grounding check before it is kept, and the tokens read and written are charged per SKU.
import {
  chooseTier,
  contextExceeded,
  MAX_OUTPUT_TOKENS_PER_REQUEST,
  modelLabel,
  PER_PAGE_MAX_PAGES,
  pictureTokens,
  picturesForRequest,
  promptTokens,
  textTokens,
  tokenCharges,
} from '../../domain/model.js';
import { modelProvider, MODEL_VERSION } from '../../models/llm/index.js';
import { BUILTIN_FIELDS, ModelUnavailable, type BuiltinField, type JsonSchema, type ModelPicture, type ModelReply, type ModelTask } from '../../models/llm/types.js';
import { DocumentFailure, type RunContext, type StoredPicture } from '../context.js';
import { storedOutputs } from '../page-rows.js';
import { PageTexts } from '../extraction/grounding.js';
import { conform, groundAnswer, groundData, resultSchema, type ExtractionResult, type PageResult, type WireAnswer } from '../extraction/result.js';
import type { PageOutputs } from '../../page-outputs/shapes.js';
import { documentText } from '../../page-outputs/document-text.js';

const MAX_OUTPUT_TOKENS = MAX_OUTPUT_TOKENS_PER_REQUEST;


/** The document's pictures the model may read, when the configured provider reads pictures; their bytes stay in the blob store until a request carries them. */
function documentPictures(ctx: RunContext): StoredPicture[] {
  if (!modelProvider(ctx.config.model, ctx.doc.mode).readsPictures) return [];
  return ctx.pictures;
}

/** Tokens of the pictures the model reads (picture rule 6), for the credit hold. */
export function documentPictureTokens(ctx: RunContext): number {
  const perRequest = documentPictures(ctx).reduce((sum, p) => sum + pictureTokens(p.width, p.height), 0);
  // Per-page extraction and the questions are separate requests that each read the pictures.
  return ctx.options.extraction?.per_page && ctx.options.queries.length > 0 ? 2 * perRequest : perRequest;
}

/** The pictures one request carries (picture rule 6), read from the blob store. */
async function carriedPictures(ctx: RunContext, pictures: StoredPicture[]): Promise<{ kept: ModelPicture[]; leftOut: number }> {
  const { kept, leftOut } = picturesForRequest(pictures.map((picture) => ({ picture, width: picture.width, height: picture.height, bytes: { length: picture.byteSize } })));
  return {
    kept: await Promise.all(
      kept.map(async ({ picture }) => ({
        page: picture.request.page,
        mediaType: picture.mediaType,
        width: picture.width,
        height: picture.height,
        bytes: await ctx.store.blobs.get(picture.blobKey),
        caption: picture.request.caption,
      })),
    ),
    leftOut,
  };
}

/** Tokens of the text the model reads: every page under its `=== Page N ===` line. */
export function documentTokens(outputs: readonly PageOutputs[]): number {
  return textTokens(documentText(outputs.map((p) => ({ page_number: p.page, text: p.text }))));
}

export async function extractDocument(ctx: RunContext): Promise<void> {
  const { options, doc } = ctx;
  // The model reads the whole document, so its pages are read back from the store whole.
  const outputs = await storedOutputs(ctx);
  const extraction = options.extraction;
  const fields = (extraction?.fields ?? []).filter((f): f is BuiltinField => (BUILTIN_FIELDS as readonly string[]).includes(f));
  const schema = (extraction?.schema ?? null) as JsonSchema | null;
  const instructions = extraction?.instructions ?? null;
  const questions = options.queries;

  if (extraction?.per_page && outputs.length > PER_PAGE_MAX_PAGES) {
    throw new DocumentFailure('document_too_large', `Per-page extraction covers at most ${PER_PAGE_MAX_PAGES} pages; this document has ${outputs.length}.`);
  }
  const tokens = documentTokens(outputs) + promptTokens({ fields, schema, instructions, questions });
  const tier = chooseTier(options.model, tokens);
  if (!tier) {
    throw new DocumentFailure('document_too_large', contextExceeded(options.model, tokens, 'document'));
  }
  const provider = modelProvider(ctx.config.model, doc.mode);
  const pictures = documentPictures(ctx);
  const texts = new PageTexts(outputs);
  const usage = { input: 0, output: 0 };
  const warnings: string[] = [];
  let dropped = 0;
  let picturesLeftOut = 0;
  const run = async (task: Omit<ModelTask, 'tier' | 'instructions' | 'pictures' | 'maxOutputTokens' | 'signal'>): Promise<ModelReply> => {
    const pages = new Set(task.pages.map((p) => p.page));
    const carried = await carriedPictures(ctx, pictures.filter((p) => pages.has(p.request.page)));
    picturesLeftOut += carried.leftOut;
    let reply: ModelReply;
    try {
      reply = await provider.run({ ...task, tier, instructions, pictures: carried.kept, maxOutputTokens: MAX_OUTPUT_TOKENS, signal: ctx.signal });
    } catch (error) {
      if (error instanceof ModelUnavailable) throw new DocumentFailure('processing_failed', error.message, { cause: error.cause });
      throw error;
    }
    usage.input += reply.usage.inputTokens;
    usage.output += Math.min(reply.usage.outputTokens, MAX_OUTPUT_TOKENS);
    return reply;
  };
  const allowed = new Set<string>([...fields, ...Object.keys((schema?.properties as object | undefined) ?? {})]);
  const shape = resultSchema(fields, schema);
  const grounded = (reply: ModelReply): PageResult => {
    const kept = groundData(reply, allowed, texts);
    dropped += kept.dropped;
    const data = conform(kept.data, shape);
    if (!data) throw new DocumentFailure('schema_mismatch', 'The extracted data could not be made to follow the schema.');
    return { data, citations: kept.citations };
  };

  const result: ExtractionResult = {};
  const pageResults = new Map<number, PageResult>();
  const wantsData = fields.length > 0 || schema !== null;
  if (wantsData && extraction?.per_page) {
    result.per_page = true;
    result.pages = [];
    for (const page of outputs) {
      const reply = await run({ pages: [page], fields, schema, questions: [] });
      const pageResult = grounded(reply);
      pageResults.set(page.page, pageResult);
      result.pages.push({ page: page.page, ...pageResult });
    }
  }
  const inOneRequest = wantsData && !extraction?.per_page;
  if (inOneRequest || questions.length > 0) {
    const reply = await run({
      pages: outputs,
      fields: inOneRequest ? fields : [],
      schema: inOneRequest ? schema : null,
      questions: questions.map((question) => ({ question, schema: null })),
    });
    if (inOneRequest) Object.assign(result, grounded(reply));
    if (questions.length > 0) {
      result.answers = questions.map((question, i) => {
        const { answer, dropped: unverified } = groundAnswer(reply.answers[i], texts, false);
        if (unverified) dropped++;
        const first = answer.citations[0];
        const wire: WireAnswer = {
          question,
          answer: typeof answer.answer === 'string' ? answer.answer : JSON.stringify(answer.answer),
          page: first?.page ?? null,
          quote: first?.quote ?? '',
          not_found: answer.not_found,
        };
        if (first?.bbox) wire.bbox = first.bbox;
        return wire;
      });
    }
  }
  if (dropped > 0) {
    warnings.push(`${dropped} value${dropped === 1 ? ' was' : 's were'} left out because ${dropped === 1 ? 'its quote' : 'their quotes'} could not be found on the cited page or did not bear ${dropped === 1 ? 'it' : 'them'} out.`);
  }
  if (picturesLeftOut > 0) {
    warnings.push(
      `${picturesLeftOut} picture${picturesLeftOut === 1 ? ' was' : 's were'} not shown to the model: one request carries at most 20 pictures and 10 MB, and the largest were kept.`,
    );
  }
  for (const page of ctx.pages ?? []) {
    if (page.ocrRecovered) warnings.push(`OCR found almost no text on page ${page.number} at first; the text is from a second reading (${page.ocrRecovered}).`);
    if (page.ocrIllegible) warnings.push(`Page ${page.number} holds marks OCR could not read (handwriting, a drawing or a photograph); only words read with confidence were kept, and the page's picture shows the rest.`);
  }
  if (instructions && provider.name === 'builtin') {
    warnings.push('The built-in model does not follow free-text instructions; they were not applied.');
  }
  if (warnings.length) result.warnings = warnings;

  const modelUsed = modelLabel(tier, MODEL_VERSION);
  ctx.model = {
    result,
    pageResults,
    charges: tokenCharges('extraction', tier, modelUsed, usage, ctx.config.prices, doc.mode),
    modelUsed,
  };
}
