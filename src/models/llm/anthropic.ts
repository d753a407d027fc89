// Anthropic's Messages API (`POST {base}/v1/messages`). Structured output is a tool the model is
// made to call (`tool_choice`), whose input schema is the reply schema; pictures go in place as
// base64 image blocks.
import { textTokens } from '../../domain/model.js';
import { postJson } from './http.js';
import { parseReply, replySchema, requestInputTokens, SYSTEM_PROMPT, taskMessage } from './prompt.js';
import type { ModelSettings } from './settings.js';
import { ModelUnavailable, type ModelProvider, type ModelReply, type ModelTask } from './types.js';

const API_VERSION = '2023-06-01';
const TOOL = 'report';

interface MessagesReply {
  content?: { type: string; name?: string; input?: unknown; text?: string }[];
  stop_reason?: string;
  usage?: { input_tokens?: number; output_tokens?: number };
}

export class AnthropicProvider implements ModelProvider {
  readonly name = 'anthropic';
  readonly readsPictures = true;

  constructor(private readonly settings: ModelSettings) {}

  async run(task: ModelTask): Promise<ModelReply> {
    const content = taskMessage(task).map((part) =>
      part.kind === 'text'
        ? { type: 'text', text: part.text }
        : { type: 'image', source: { type: 'base64', media_type: part.picture.mediaType, data: Buffer.from(part.picture.bytes).toString('base64') } },
    );
    const body = (await postJson(
      {
        url: `${this.settings.baseUrl}/v1/messages`,
        headers: { 'x-api-key': this.settings.apiKey, 'anthropic-version': API_VERSION },
        vendor: 'Anthropic',
        signal: task.signal,
        body: {
          model: this.settings.models[task.tier],
          max_tokens: task.maxOutputTokens,
          temperature: 0,
          system: SYSTEM_PROMPT,
          messages: [{ role: 'user', content }],
          tools: [{ name: TOOL, description: 'Report the values found in the document, with citations, and the answers.', input_schema: replySchema(task) }],
          tool_choice: { type: 'tool', name: TOOL },
        },
      },
      this.settings,
    )) as MessagesReply;
    const call = body.content?.find((block) => block.type === 'tool_use' && block.name === TOOL);
    if (!call) {
      if (body.stop_reason === 'max_tokens') throw new ModelUnavailable(`The model's reply was cut off at ${task.maxOutputTokens} tokens.`);
      throw new ModelUnavailable('Anthropic answered without the structured reply it was asked for.');
    }
    return {
      ...parseReply(call.input, task.questions.length),
      usage: { inputTokens: requestInputTokens(task), outputTokens: body.usage?.output_tokens ?? textTokens(JSON.stringify(call.input)) },
    };
  }
}
