// OpenAI-compatible chat completions (`POST {base}/chat/completions`), which OpenAI serves and so
// do local runtimes such as Ollama, vLLM and llama.cpp's server. The reply is asked for as JSON
// following the reply schema (`response_format: json_schema`); pictures go in place as data URLs.
import { textTokens } from '../../domain/model.js';
import { postJson } from './http.js';
import { parseReply, replySchema, requestInputTokens, SYSTEM_PROMPT, taskMessage } from './prompt.js';
import type { ModelSettings } from './settings.js';
import { ModelUnavailable, type ModelProvider, type ModelReply, type ModelTask } from './types.js';

interface ChatCompletion {
  choices?: { message?: { content?: string | null; refusal?: string | null }; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export class OpenAiProvider implements ModelProvider {
  readonly name = 'openai';
  readonly readsPictures = true;

  constructor(private readonly settings: ModelSettings) {}

  async run(task: ModelTask): Promise<ModelReply> {
    const content = taskMessage(task).map((part) =>
      part.kind === 'text'
        ? { type: 'text', text: part.text }
        : { type: 'image_url', image_url: { url: `data:${part.picture.mediaType};base64,${Buffer.from(part.picture.bytes).toString('base64')}` } },
    );
    const headers: Record<string, string> = {};
    // Local servers often need no key; OpenAI itself does.
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    const body = (await postJson(
      {
        url: `${this.settings.baseUrl}/chat/completions`,
        headers,
        vendor: 'The OpenAI-compatible server',
        signal: task.signal,
        body: {
          model: this.settings.models[task.tier],
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            { role: 'user', content },
          ],
          response_format: { type: 'json_schema', json_schema: { name: 'folio_reply', schema: replySchema(task) } },
          // OpenAI's current name for the output limit (reasoning models refuse `max_tokens`).
          max_completion_tokens: task.maxOutputTokens,
        },
      },
      this.settings,
    )) as ChatCompletion;
    const choice = body.choices?.[0];
    const message = choice?.message;
    if (message?.refusal) throw new ModelUnavailable(`The model declined the request: ${message.refusal}`);
    if (choice?.finish_reason === 'length') throw new ModelUnavailable(`The model's reply was cut off at ${task.maxOutputTokens} tokens.`);
    if (typeof message?.content !== 'string') throw new ModelUnavailable('The OpenAI-compatible server answered without a message.');
    let reply: unknown;
    try {
      reply = JSON.parse(message.content);
    } catch {
      throw new ModelUnavailable('The model answered with text that is not the JSON it was asked for.');
    }
    return {
      ...parseReply(reply, task.questions.length),
      usage: { inputTokens: requestInputTokens(task), outputTokens: body.usage?.completion_tokens ?? textTokens(message.content) },
    };
  }
}
