// What a vendor model is told and the shape it must answer in, shared by every HTTP provider. The
// reply shape is one JSON object (data, citations, answers) given to the model as a JSON Schema
// (OpenAI's structured output, Anthropic's tool input), so a reply parses without guessing.
import { pictureTokens, promptTokens, textTokens } from '../../domain/model.js';
import { documentText } from '../../page-outputs/document-text.js';
import type { BuiltinField, JsonSchema, ModelPicture, ModelTask, RawAnswer, RawCitation } from './types.js';

const FIELD_SHAPES: Record<string, string> = {
  title: 'string',
  document_type: 'string (a short noun such as "invoice", "contract", "letter")',
  summary: 'string of two or three sentences',
  dates: 'array of {label, date}; date in ISO 8601 where possible',
  parties: 'array of {name, role}',
  amounts: 'array of {label, amount (a number), currency (ISO 4217)}',
  key_facts: 'array of short sentences',
};

export const SYSTEM_PROMPT = [
  'You read documents and report only what they say.',
  'The document is given page by page, each page under a line "=== Page N ===".',
  'Every value you report needs a citation: the page number and a quote copied exactly, word for word, from that page.',
  'Leave out any value the document does not state; never guess. A question the document does not answer gets not_found true and an empty answer.',
].join(' ');

/** Each built-in field's value as JSON Schema, so a vendor model writes the shape docs/api.md names. */
const FIELD_SCHEMAS: Record<BuiltinField, JsonSchema> = {
  title: { type: 'string' },
  document_type: { type: 'string' },
  summary: { type: 'string' },
  dates: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, date: { type: 'string' } }, required: ['label', 'date'] } },
  parties: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, role: { type: 'string' } }, required: ['name', 'role'] } },
  amounts: {
    type: 'array',
    items: { type: 'object', properties: { label: { type: 'string' }, amount: { type: 'number' }, currency: { type: 'string' } }, required: ['label', 'amount', 'currency'] },
  },
  key_facts: { type: 'array', items: { type: 'string' } },
};

/** One part of the user message: text, or a picture read in place after its page's text. */
export type MessagePart = { kind: 'text'; text: string } | { kind: 'picture'; picture: ModelPicture };

/** The user message: each page's text followed by its pictures, then the task. */
export function taskMessage(task: ModelTask): MessagePart[] {
  const parts: MessagePart[] = [];
  for (const page of task.pages) {
    parts.push({ kind: 'text', text: documentText([{ page_number: page.page, text: page.text }]) });
    for (const picture of task.pictures.filter((p) => p.page === page.page)) {
      parts.push({ kind: 'text', text: `(A picture from page ${page.page}${picture.caption ? `, captioned "${picture.caption}"` : ''}:)` });
      parts.push({ kind: 'picture', picture });
    }
  }
  parts.push({ kind: 'text', text: taskText(task) });
  // Neighbouring texts are one part: fewer blocks, the same words.
  return parts.reduce<MessagePart[]>((merged, part) => {
    const last = merged[merged.length - 1];
    if (part.kind === 'text' && last?.kind === 'text') last.text += `\n\n${part.text}`;
    else merged.push(part.kind === 'text' ? { ...part } : part);
    return merged;
  }, []);
}

/**
 * The tokens a request reads, counted the same way whichever provider answers it, so a price is
 * a price: the pages' text, the prompt, and each picture at about width x height / 750.
 */
export function requestInputTokens(task: ModelTask): number {
  const text = documentText(task.pages.map((p) => ({ page_number: p.page, text: p.text })));
  const prompt = promptTokens({ fields: task.fields, schema: task.schema, instructions: task.instructions, questions: task.questions.map((q) => q.question) });
  return textTokens(text) + prompt + task.pictures.reduce((sum, p) => sum + pictureTokens(p.width, p.height), 0);
}

function taskText(task: ModelTask): string {
  const parts: string[] = [];
  const wanted: string[] = [];
  for (const field of task.fields) wanted.push(`- ${field}: ${FIELD_SHAPES[field]}`);
  if (task.schema) wanted.push(`- the properties of this JSON Schema: ${JSON.stringify(task.schema)}`);
  if (wanted.length) {
    parts.push(
      `Fill "data" with:\n${wanted.join('\n')}\nFor each value add a citation with "path" into data (such as data.amounts[0].amount), "page", "quote" and "confidence" (0 to 1).`,
    );
  } else {
    parts.push('Leave "data" empty and "citations" empty.');
  }
  if (task.questions.length) {
    const list = task.questions.map((q, i) => `${i + 1}. ${q.question}${q.schema ? ` (answer as an object following ${JSON.stringify(q.schema)})` : ''}`).join('\n');
    parts.push(`Answer these questions in "answers", one entry each, in order, with "answer", "not_found", "confidence" and "citations" ({page, quote}):\n${list}`);
  } else {
    parts.push('Leave "answers" empty.');
  }
  if (task.instructions) parts.push(`Instructions from the user: ${task.instructions}`);
  return parts.join('\n\n');
}

/** The JSON Schema of a reply. */
export function replySchema(task: ModelTask): JsonSchema {
  const dataProperties: Record<string, JsonSchema> = {};
  for (const field of task.fields) dataProperties[field] = FIELD_SCHEMAS[field];
  Object.assign(dataProperties, (task.schema?.properties as Record<string, JsonSchema> | undefined) ?? {});
  return {
    type: 'object',
    properties: {
      data: { type: 'object', properties: dataProperties },
      citations: {
        type: 'array',
        items: {
          type: 'object',
          properties: { path: { type: 'string' }, page: { type: 'integer' }, quote: { type: 'string' }, confidence: { type: 'number' } },
          required: ['path', 'page', 'quote', 'confidence'],
        },
      },
      answers: {
        type: 'array',
        maxItems: task.questions.length,
        items: {
          type: 'object',
          properties: {
            answer: {},
            not_found: { type: 'boolean' },
            confidence: { type: 'number' },
            citations: { type: 'array', items: { type: 'object', properties: { page: { type: 'integer' }, quote: { type: 'string' } }, required: ['page', 'quote'] } },
          },
          required: ['answer', 'not_found', 'confidence', 'citations'],
        },
      },
    },
    required: ['data', 'citations', 'answers'],
  };
}

/** A reply object as the model wrote it, made safe to hand to grounding (which checks the rest). */
export function parseReply(value: unknown, questions: number): { data: Record<string, unknown>; citations: RawCitation[]; answers: RawAnswer[] } {
  const reply = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const data = typeof reply.data === 'object' && reply.data !== null && !Array.isArray(reply.data) ? (reply.data as Record<string, unknown>) : {};
  const citations = Array.isArray(reply.citations) ? (reply.citations as RawCitation[]) : [];
  const answers = Array.isArray(reply.answers) ? (reply.answers as RawAnswer[]).slice(0, questions) : [];
  while (answers.length < questions) answers.push({ answer: '', not_found: true, confidence: 0, citations: [] });
  return { data, citations, answers };
}
