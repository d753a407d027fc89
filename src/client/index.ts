// Folio's TypeScript client (`folio-api/client`): every endpoint of /api/v1 with typed requests and
// answers, and nothing at run time beyond `fetch`, so it works in Node 20, browsers and workers.
// The types come from the schemas the server validates with and serves as its OpenAPI document
// (src/api/schemas), imported as types only; `OPERATIONS` lists the routes it calls, and a test
// checks that list against the served /api/v1/openapi.json. `verifyWebhook` checks a webhook's
// signature with Web Crypto, as the client is also bundled for the browser (the playground).
import type { Static } from 'typebox';
import type * as wire from '../api/schemas/resources.js';
import type * as webhookWire from '../api/schemas/webhooks.js';
import type { DocumentOptions as DocumentOptionsSchema, ResolvedOptions as ResolvedOptionsSchema } from '../domain/option-shapes.js';
import type { CreateQuery as CreateQuerySchema } from '../api/routes/queries.js';

export type DocumentOptions = Static<typeof DocumentOptionsSchema>;
export type ResolvedOptions = Static<typeof ResolvedOptionsSchema>;
export type Image = Static<typeof wire.Image> & { data?: string };
// `$ref`s are typed `unknown` by the schema library; the referenced shapes are put back here.
export type Page = Omit<Static<typeof wire.Page>, 'images'> & { images?: Image[] };
export type Chunk = Static<typeof wire.Chunk>;
export type UsageRecord = Static<typeof wire.UsageRecord>;
export type ExtractionResult = Static<typeof wire.ExtractionResult> & { per_page?: { pages: { page: number; result: Record<string, unknown> }[] } };
export type DocumentUsage = Omit<Static<typeof wire.DocumentUsage>, 'records'> & { records: UsageRecord[] };
export type DocumentListItem = Static<typeof wire.DocumentListItem>;
export type Document = Omit<Static<typeof wire.Document>, 'result' | 'pages' | 'options' | 'usage'> & {
  result?: ExtractionResult | null;
  pages?: Page[];
  options?: ResolvedOptions;
  usage?: DocumentUsage;
};
export type Accepted = Static<typeof wire.Accepted>;
export type BatchEntry = Accepted | { error: { type: string; message: string; [extra: string]: unknown } };
export type Account = Static<typeof wire.Account>;
export type Query = Static<typeof wire.Query>;
export type CreateQuery = Static<typeof CreateQuerySchema>;
export type Webhook = Static<typeof webhookWire.Webhook>;
export type CreateWebhook = Static<typeof webhookWire.CreateWebhook>;
export type WebhookAttempt = Static<typeof webhookWire.WebhookAttempt>;
export type WebhookEventType = Webhook['events'][number];
/** The body a webhook receives: `data.object` is a DocumentListItem for document.* events, a Query for query.* events. */
export type { WebhookEvent } from '../domain/resource-shapes.js';
export type DocumentStatus = Document['status'];
export type Stage = Document['stage'];

export interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

export type DocumentInclude = 'text' | 'markdown' | 'pages' | 'tables' | 'key_values' | 'usage' | 'options';
export type PageInclude = 'embeddings' | 'tables' | 'key_values' | 'layout' | 'images' | 'image_data';

/** Every route the client calls: each request is made from this table, which a test checks against the served OpenAPI document. */
export const OPERATIONS = {
  submit: ['POST', '/api/v1/documents'],
  listDocuments: ['GET', '/api/v1/documents'],
  getDocument: ['GET', '/api/v1/documents/{id}'],
  deleteDocument: ['DELETE', '/api/v1/documents/{id}'],
  getPages: ['GET', '/api/v1/documents/{id}/pages'],
  getPagePreview: ['GET', '/api/v1/documents/{id}/pages/{page}/preview'],
  getChunks: ['GET', '/api/v1/documents/{id}/chunks'],
  listImages: ['GET', '/api/v1/documents/{id}/images'],
  getImage: ['GET', '/api/v1/documents/{id}/images/{image_id}'],
  createQuery: ['POST', '/api/v1/documents/{id}/queries'],
  listQueries: ['GET', '/api/v1/documents/{id}/queries'],
  getQuery: ['GET', '/api/v1/documents/{id}/queries/{query_id}'],
  getAccount: ['GET', '/api/v1/account'],
  listUsage: ['GET', '/api/v1/usage'],
  createWebhook: ['POST', '/api/v1/webhooks'],
  listWebhooks: ['GET', '/api/v1/webhooks'],
  deleteWebhook: ['DELETE', '/api/v1/webhooks/{id}'],
  listWebhookDeliveries: ['GET', '/api/v1/webhooks/{id}/deliveries'],
} as const;

/**
 * An answer that is not a success, with docs/api.md's error `type` and the fields that come with it
 * (`retry_after`, `limit`, `used`, `balance_micro`, `details`...), or a network failure
 * (`type` `network_error`, `status` 0).
 */
export class FolioApiError extends Error {
  override readonly name = 'FolioApiError';
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    /** Everything else the error object carried. */
    readonly fields: Record<string, unknown> = {},
    /** The server's `x-request-id`, to find the request in its logs. */
    readonly requestId: string | null = null,
  ) {
    super(message);
  }

  get details(): Record<string, string[]> | undefined {
    return this.fields.details as Record<string, string[]> | undefined;
  }
}

export interface ClientOptions {
  /** Where Folio runs, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  apiKey: string;
  /** Another fetch (a proxy, a test double); the global one by default. */
  fetch?: typeof fetch;
  /** Times a request refused with 429 or 503, or cut by the network, is sent again (default 3). */
  maxRetries?: number;
}

export interface SubmitOptions {
  options?: DocumentOptions;
  /** Sent as `Idempotency-Key`; a fresh one is made for each call unless given (`false` sends none). */
  idempotencyKey?: string | false;
  signal?: AbortSignal;
}

export interface FileInput {
  /** The file's bytes. */
  data: Blob | Uint8Array | ArrayBuffer;
  filename: string;
}

export interface WaitOptions {
  /** Give up after this long (default 10 minutes) with a `timeout` FolioApiError. */
  timeoutMs?: number;
  /** First pause between polls (default 500 ms); it grows by half each time up to `maxIntervalMs`. */
  intervalMs?: number;
  maxIntervalMs?: number;
  /** `include` of the final read. */
  include?: DocumentInclude[];
  /** Called with every poll's document, e.g. to show the stage. */
  onProgress?: (document: Document) => void;
  signal?: AbortSignal;
}

const FINISHED: ReadonlySet<string> = new Set(['completed', 'failed', 'expired']);

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function newIdempotencyKey(): string {
  return `folio-client-${globalThis.crypto.randomUUID()}`;
}

function toBlob(data: FileInput['data']): Blob {
  // A shared buffer cannot be a Blob part in the DOM's types; an upload's bytes never are one.
  return data instanceof Blob ? data : new Blob([data as Uint8Array<ArrayBuffer>]);
}

function query(params: Record<string, string | number | undefined | string[]>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length) search.set(name, value.join(','));
    } else search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export class FolioClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly maxRetries: number;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.maxRetries = options.maxRetries ?? 3;
  }

  /** One request; 429 and 503 answers and network failures are retried after `Retry-After`. */
  private async send(method: string, path: string, init: { body?: () => FormData; json?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, ...init.headers };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(`${this.baseUrl}${path}`, {
          method,
          headers,
          body: init.json !== undefined ? JSON.stringify(init.json) : init.body?.(),
          signal: init.signal,
        });
      } catch (error) {
        if (init.signal?.aborted) throw error;
        // Safe to repeat: reads change nothing and submissions carry an Idempotency-Key.
        const repeatable = method === 'GET' || method === 'DELETE' || headers['idempotency-key'] !== undefined;
        if (!repeatable || attempt >= this.maxRetries) throw new FolioApiError(0, 'network_error', `Could not reach Folio at ${this.baseUrl}: ${(error as Error).message}`);
        await sleep(500 * 2 ** attempt, init.signal);
        continue;
      }
      if ((response.status === 429 || response.status === 503) && attempt < this.maxRetries) {
        const wait = Number(response.headers.get('retry-after'));
        await response.body?.cancel();
        await sleep((Number.isFinite(wait) && wait > 0 ? wait : 2 ** attempt) * 1000, init.signal);
        continue;
      }
      if (!response.ok) throw await this.errorOf(response);
      return response;
    }
  }

  private async errorOf(response: Response): Promise<FolioApiError> {
    const text = await response.text();
    const requestId = response.headers.get('x-request-id');
    try {
      const { error } = JSON.parse(text) as { error: { type: string; message: string; [k: string]: unknown } };
      const { type, message, ...fields } = error;
      return new FolioApiError(response.status, type, message, fields, requestId);
    } catch {
      return new FolioApiError(response.status, 'http_error', `HTTP ${response.status}: ${text.slice(0, 200)}`, {}, requestId);
    }
  }

  /** One of OPERATIONS, its `{name}` path parameters filled in and the query string added. */
  private call(operation: keyof typeof OPERATIONS, params: Record<string, string>, search = '', init: Parameters<FolioClient['send']>[2] = {}): Promise<Response> {
    const [method, template] = OPERATIONS[operation];
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]));
    return this.send(method, `${path}${search}`, init);
  }

  private async json<T>(operation: keyof typeof OPERATIONS, params: Record<string, string>, search = '', init: Parameters<FolioClient['send']>[2] = {}): Promise<T> {
    const response = await this.call(operation, params, search, init);
    return (await response.json()) as T;
  }

  private idempotency(key: string | false | undefined): Record<string, string> {
    if (key === false) return {};
    return { 'idempotency-key': key ?? newIdempotencyKey() };
  }

  /** Uploads one file (`POST /documents`, multipart). */
  submitFile(file: FileInput, options: SubmitOptions = {}): Promise<Accepted> {
    const body = () => {
      const form = new FormData();
      if (options.options) form.append('options', JSON.stringify(options.options));
      form.append('file', toBlob(file.data), file.filename);
      return form;
    };
    return this.json('submit', {}, '', { body, headers: this.idempotency(options.idempotencyKey), signal: options.signal });
  }

  /** Uploads up to 10 files as one batch (`files[]`); each entry is accepted or refused on its own. */
  async submitFiles(files: FileInput[], options: SubmitOptions = {}): Promise<BatchEntry[]> {
    const body = () => {
      const form = new FormData();
      if (options.options) form.append('options', JSON.stringify(options.options));
      for (const file of files) form.append('files[]', toBlob(file.data), file.filename);
      return form;
    };
    const answer = await this.json<{ documents: BatchEntry[] }>('submit', {}, '', { body, headers: this.idempotency(options.idempotencyKey), signal: options.signal });
    return answer.documents;
  }

  /** Asks Folio to download and read a document (`POST /documents`, JSON). */
  submitUrl(url: string, options: SubmitOptions = {}): Promise<Accepted> {
    return this.json('submit', {}, '', {
      json: { url, ...(options.options ? { options: options.options } : {}) },
      headers: this.idempotency(options.idempotencyKey),
      signal: options.signal,
    });
  }

  listDocuments(params: { limit?: number; starting_after?: string; status?: DocumentStatus } = {}): Promise<List<DocumentListItem>> {
    return this.json('listDocuments', {}, query(params));
  }

  /** Every document, newest first, page after page. */
  async *allDocuments(params: { status?: DocumentStatus } = {}): AsyncGenerator<DocumentListItem> {
    let startingAfter: string | undefined;
    for (;;) {
      const page = await this.listDocuments({ ...params, limit: 100, starting_after: startingAfter });
      yield* page.data;
      if (!page.has_more || page.data.length === 0) return;
      startingAfter = page.data[page.data.length - 1].id;
    }
  }

  getDocument(id: string, params: { include?: DocumentInclude[] } = {}, signal?: AbortSignal): Promise<Document> {
    return this.json('getDocument', { id }, query({ include: params.include }), { signal });
  }

  async deleteDocument(id: string): Promise<void> {
    await this.call('deleteDocument', { id });
  }

  /** `page` is one page (3) or an inclusive range ("1-3"). */
  getPages(id: string, params: { include?: PageInclude[]; page?: number | string } = {}): Promise<{ object: 'list'; document_id: string; data: Page[] }> {
    return this.json('getPages', { id }, query({ include: params.include, page: params.page }));
  }

  /** The document cut into chunks for retrieval, each at most `maxTokens` (64 to 4096, default 512) with its headings, pages and boxes. */
  getChunks(id: string, params: { maxTokens?: number } = {}): Promise<{ object: 'list'; document_id: string; data: Chunk[] }> {
    return this.json('getChunks', { id }, query({ max_tokens: params.maxTokens }));
  }

  /** A JPEG of one page rendered on demand (long side `size` px, 64 to 1568); layout and citation boxes line up with it. */
  async getPagePreview(id: string, page: number, params: { size?: number } = {}, signal?: AbortSignal): Promise<Uint8Array<ArrayBuffer>> {
    const response = await this.call('getPagePreview', { id, page: String(page) }, query({ size: params.size }), { signal });
    return new Uint8Array(await response.arrayBuffer());
  }

  listImages(id: string, params: { page?: number | string; data?: boolean } = {}): Promise<{ object: 'list'; document_id: string; data: Image[] }> {
    return this.json('listImages', { id }, query({ page: params.page, include: params.data ? ['data'] : undefined }));
  }

  /** A picture's bytes (PNG for a figure, JPEG for a page). */
  async getImage(id: string, imageId: string): Promise<{ contentType: string; bytes: Uint8Array<ArrayBuffer> }> {
    const response = await this.call('getImage', { id, image_id: imageId });
    return { contentType: response.headers.get('content-type') ?? 'application/octet-stream', bytes: new Uint8Array(await response.arrayBuffer()) };
  }

  createQuery(id: string, body: CreateQuery, options: { idempotencyKey?: string | false } = {}): Promise<Query> {
    return this.json('createQuery', { id }, '', { json: body, headers: this.idempotency(options.idempotencyKey) });
  }

  listQueries(id: string, params: { limit?: number; starting_after?: string } = {}): Promise<List<Query>> {
    return this.json('listQueries', { id }, query(params));
  }

  getQuery(id: string, queryId: string, signal?: AbortSignal): Promise<Query> {
    return this.json('getQuery', { id, query_id: queryId }, '', { signal });
  }

  getAccount(): Promise<Account> {
    return this.json('getAccount', {});
  }

  listUsage(params: { limit?: number; starting_after?: string; document_id?: string; since?: string; until?: string } = {}): Promise<List<UsageRecord>> {
    return this.json('listUsage', {}, query(params));
  }

  /** Creates a webhook for this key's workspace and mode; the answer's `secret` is shown this once: keep it to verify signatures. */
  createWebhook(body: CreateWebhook): Promise<Webhook & { secret: string }> {
    return this.json('createWebhook', {}, '', { json: body });
  }

  /** The webhooks of this key's workspace and mode (without their secrets). */
  listWebhooks(): Promise<List<Webhook>> {
    return this.json('listWebhooks', {});
  }

  async deleteWebhook(id: string): Promise<void> {
    await this.call('deleteWebhook', { id });
  }

  /** A webhook's delivery attempts, newest first: status codes, errors and when the next attempt is due. */
  listWebhookDeliveries(id: string, params: { limit?: number; starting_after?: string } = {}): Promise<List<WebhookAttempt>> {
    return this.json('listWebhookDeliveries', { id }, query(params));
  }

  /**
   * Polls until the document is `completed`, `failed` or `expired`, waiting longer between polls
   * as it goes (a 429 waits out its Retry-After), then reads it once more with `include`.
   * A failed document is returned, not thrown: its `error` says why.
   */
  async waitUntilDone(id: string, options: WaitOptions = {}): Promise<Document> {
    const document = await pollUntil(
      () => this.getDocument(id, {}, options.signal),
      (d) => {
        options.onProgress?.(d);
        return FINISHED.has(d.status);
      },
      (d) => `Document ${id} was still ${d.status} (${d.stage}) when the wait ran out.`,
      options,
    );
    return options.include?.length && document.status === 'completed' ? this.getDocument(id, { include: options.include }, options.signal) : document;
  }

  /** Uploads a file and waits for its result. */
  async parse(file: FileInput, options: SubmitOptions & WaitOptions = {}): Promise<Document> {
    const accepted = await this.submitFile(file, options);
    return this.waitUntilDone(accepted.id, options);
  }

  /** Polls a question until it is answered or failed. */
  waitForQuery(id: string, queryId: string, options: Pick<WaitOptions, 'timeoutMs' | 'intervalMs' | 'maxIntervalMs' | 'signal'> = {}): Promise<Query> {
    return pollUntil(
      () => this.getQuery(id, queryId, options.signal),
      (q) => q.status === 'completed' || q.status === 'failed',
      (q) => `Query ${queryId} was still ${q.status} when the wait ran out.`,
      options,
    );
  }
}

/**
 * Whether `header` (the `Folio-Signature` of a webhook request) signs `body` with `secret`, and was
 * made within `toleranceSeconds` (default 300) of `now` (unix seconds; the clock by default). Pass
 * the body exactly as received, before any JSON parsing: a single changed byte fails. Asynchronous
 * because it uses Web Crypto (`crypto.subtle`), which Node 20, browsers and workers all have.
 */
export async function verifyWebhook(
  body: string | Uint8Array,
  header: string,
  secret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): Promise<boolean> {
  let timestamp: number | null = null;
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const part of header.split(',')) {
    const [name, value = ''] = part.trim().split('=', 2);
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && /^[0-9a-fA-F]{64}$/.test(value)) signatures.push(hexBytes(value));
  }
  if (timestamp === null || signatures.length === 0) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  // Too old is a replay; too far ahead is a clock that cannot be trusted either.
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const encoder = new TextEncoder();
  const prefix = encoder.encode(`${timestamp}.`);
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const signed = new Uint8Array(prefix.length + bytes.length);
  signed.set(prefix);
  signed.set(bytes, prefix.length);
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, signed));
  let matched = false;
  for (const signature of signatures) matched = constantTimeEqual(expected, signature) || matched;
  return matched;
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Compares every byte whatever the first difference, so the time taken says nothing of where it was. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}

/** Reads until `done`, the pause between reads growing by half up to `maxIntervalMs`. */
async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  stillWaiting: (value: T) => string,
  options: Pick<WaitOptions, 'timeoutMs' | 'intervalMs' | 'maxIntervalMs' | 'signal'>,
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 600_000);
  let interval = options.intervalMs ?? 500;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() + interval > deadline) throw new FolioApiError(0, 'timeout', stillWaiting(value));
    await sleep(interval, options.signal);
    interval = Math.min(options.maxIntervalMs ?? 5000, Math.round(interval * 1.5));
  }
}
