// A local HTTP server that speaks the two vendor protocols Folio's model providers use, as their
// documentation describes them: OpenAI chat completions (`POST /v1/chat/completions`, JSON reply
// in `choices[0].message.content`, `usage.prompt_tokens/completion_tokens`) and Anthropic
// Messages (`POST /v1/messages`, a `tool_use` block, `usage.input_tokens/output_tokens`), with
// their error bodies, and OpenAI-compatible embeddings (`POST /v1/embeddings`, `data[].embedding`). Each test scripts what the next requests get: a reply built from the
// request, an error status (with `Retry-After`), or a delay longer than Folio's timeout.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The reply object Folio asks for (data, citations, answers). */
export type ModelAnswer = Record<string, unknown>;

export type Step =
  | { kind: 'reply'; answer: (request: RecordedRequest) => ModelAnswer; outputTokens?: number }
  | { kind: 'error'; status: number; retryAfter?: string; message?: string }
  | { kind: 'hang'; ms: number }
  /** Embeddings: each input gets a vector of `length` (default: the `dimensions` asked for). */
  | { kind: 'embed'; length?: number };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** The user message's text parts joined, whatever the vendor format. */
  text: string;
  /** Pictures sent: media type and decoded bytes. */
  images: { mediaType: string; bytes: Buffer }[];
}

export class ModelVendor {
  readonly requests: RecordedRequest[] = [];
  private readonly steps: Step[] = [];
  /** What a request gets when no step is scripted. */
  fallback: Step = { kind: 'error', status: 500, message: 'no step scripted' };

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<ModelVendor> {
    let vendor: ModelVendor;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => void vendor.answer(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    vendor = new ModelVendor(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return vendor;
  }

  script(...steps: Step[]): void {
    this.steps.push(...steps);
  }

  reset(): void {
    this.requests.length = 0;
    this.steps.length = 0;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage, raw: string, res: import('node:http').ServerResponse): Promise<void> {
    const anthropic = req.url === '/v1/messages';
    const embeddings = req.url === '/v1/embeddings';
    if (req.method !== 'POST' || (!anthropic && !embeddings && req.url !== '/v1/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
      return;
    }
    const body = JSON.parse(raw);
    const recorded = record(req, body, anthropic);
    this.requests.push(recorded);
    const step = this.steps.shift() ?? this.fallback;
    if (step.kind === 'hang') {
      await new Promise((r) => setTimeout(r, step.ms));
      if (res.destroyed) return;
      res.writeHead(500).end();
      return;
    }
    if (step.kind === 'error') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (step.retryAfter !== undefined) headers['retry-after'] = step.retryAfter;
      const message = step.message ?? `error ${step.status}`;
      const error = anthropic
        ? { type: 'error', error: { type: step.status === 429 ? 'rate_limit_error' : step.status === 529 ? 'overloaded_error' : 'api_error', message } }
        : { error: { message, type: step.status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } };
      res.writeHead(step.status, headers).end(JSON.stringify(error));
      return;
    }
    if (step.kind === 'embed') {
      const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
      const length = step.length ?? body.dimensions ?? 1536;
      const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: Array.from({ length }, (_, i) => Math.sin(i + text.length)) }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 10, total_tokens: 10 } }));
      return;
    }
    if (embeddings) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'scripted a chat reply for an embeddings request' } }));
      return;
    }
    const answer = step.answer(recorded);
    const outputTokens = step.outputTokens ?? 100;
    const reply = anthropic
      ? {
          id: 'msg_mock',
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'tool_use', id: 'toolu_mock', name: body.tool_choice?.name ?? 'report', input: answer }],
          stop_reason: 'tool_use',
          usage: { input_tokens: 1234, output_tokens: outputTokens },
        }
      : {
          id: 'chatcmpl-mock',
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(answer), refusal: null }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1234, completion_tokens: outputTokens, total_tokens: 1234 + outputTokens },
        };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
  }
}

function record(req: IncomingMessage, body: any, anthropic: boolean): RecordedRequest {
  const user = body.messages?.find((m: any) => m.role === 'user');
  const parts: any[] = Array.isArray(user?.content) ? user.content : [{ type: 'text', text: String(user?.content ?? '') }];
  const text = parts.filter((p) => p.type === 'text').map((p) => p.text).join('\n');
  const images = parts
    .filter((p) => p.type === (anthropic ? 'image' : 'image_url'))
    .map((p) => {
      if (anthropic) return { mediaType: p.source.media_type, bytes: Buffer.from(p.source.data, 'base64') };
      const [, mediaType, data] = /^data:([^;]+);base64,(.*)$/s.exec(p.image_url.url)!;
      return { mediaType, bytes: Buffer.from(data, 'base64') };
    });
  return { path: req.url!, headers: req.headers, body, text, images };
}
