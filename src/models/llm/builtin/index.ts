// The built-in provider: a deterministic engine over the page outputs that needs no network and
// no model weights. It reads fields, fills schemas and answers questions with the rules of the
// modules beside it; free-text instructions are not understood and change nothing. Its token
// counts are those of the text it read and the JSON it wrote, as for any provider.
import { promptTokens, textTokens } from '../../../domain/model.js';
import { documentText } from '../../../pipeline/outputs/text.js';
import type { ModelProvider, ModelReply, ModelTask } from '../types.js';
import { readBuiltinFields } from './fields.js';
import { answerQuestion } from './questions.js';
import { fillSchema } from './schema.js';
import { DocumentView } from './view.js';

export class BuiltinProvider implements ModelProvider {
  readonly name = 'builtin';
  readonly readsPictures = false;

  async run(task: ModelTask): Promise<ModelReply> {
    const view = new DocumentView(task.pages);
    const fields = readBuiltinFields(view, task.fields);
    const filled = task.schema ? fillSchema(view, task.schema) : { data: {}, citations: [] };
    const answers = task.questions.map((question) => answerQuestion(view, question));
    const reply = { data: { ...fields.data, ...filled.data }, citations: [...fields.citations, ...filled.citations], answers };
    const text = documentText(task.pages.map((p) => ({ page_number: p.page, text: p.text })));
    const prompt = promptTokens({ fields: task.fields, schema: task.schema, instructions: task.instructions, questions: task.questions.map((q) => q.question) });
    return { ...reply, usage: { inputTokens: textTokens(text) + prompt, outputTokens: textTokens(JSON.stringify(reply)) } };
  }
}
