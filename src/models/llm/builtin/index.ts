// The built-in provider: a deterministic engine over the page outputs that needs no network and
// no model weights. It reads fields, fills schemas and answers questions with the rules of the
// modules beside it; free-text instructions are not understood and change nothing. Its token
// counts are those of the text it read and the JSON it wrote, as for any provider.
import { textTokens } from '../../../domain/model.js';
import { requestInputTokens } from '../prompt.js';
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
    return { ...reply, usage: { inputTokens: requestInputTokens(task), outputTokens: textTokens(JSON.stringify(reply)) } };
  }
}
