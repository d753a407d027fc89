// Configuration from the environment, read and checked once at start-up (docs/decisions.md#running).
// With nothing set, Folio keeps state in SQLite and files under ./data.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { priceTable, type PriceTable } from './domain/prices.js';
import type { EmbeddingSettings } from './models/embeddings/settings.js';
import type { StoreSettings } from './store/index.js';
import type { S3Settings } from './store/s3-blobs.js';
import type { ModelSettings } from './models/llm/settings.js';
import type { OcrSettings } from './models/ocr/index.js';

export interface Config {
  host: string;
  port: number;
  /** `folio worker` serves /healthz, /readyz and /metrics on this port when set (null = none). */
  metricsPort: number | null;
  dataDir: string;
  databaseUrl: string | null;
  /** Redis for the request counters (rate limit and monthly quota) when set. */
  redisUrl: string | null;
  /** Where uploads and pictures live: `local` files under dataDir, `database` rows, or `s3` objects. */
  blobStore: StoreSettings['blobStore'];
  s3: S3Settings | null;
  /** Absolute base for `poll_url` and image `url`; else taken from the request's Host. */
  publicUrl: string | null;
  logLevel: string;
  prices: PriceTable;
  topUpUrl: string;
  upgradeUrl: string;
  queue: {
    /** How long a claim lasts without a heartbeat. */
    leaseMs: number;
    /** Documents one worker process works on at once. */
    concurrency: number;
    /**
     * Slots beyond `concurrency` kept for workspaces with nothing running anywhere, so that one
     * workspace's long documents in every regular slot do not hold up another's first one.
     */
    spareSlots: number;
    /** Claims per document before it is failed as a poison pill. */
    maxAttempts: number;
    /** Fallback poll when no wake-up arrives. */
    pollMs: number;
    /** Scheduling niceness of document work (reader threads; a worker-only process as a whole),
     * so that on a shared machine the API answers first. 0 turns it off. */
    nice: number;
    /** How long SIGTERM waits for in-flight documents before handing them back. */
    shutdownGraceMs: number;
    /** A document's time limit: a base plus a share per page (at least 50 pages counted). */
    timeLimitBaseMs: number;
    timeLimitPerPageMs: number;
  };
  readerThreads: number;
  ocr: OcrSettings;
  model: ModelSettings;
  embedding: EmbeddingSettings;
  /** Shift of the service clock (testing aid; 0 in production). */
  clockOffsetMs: number;
  /** How often each process looks for expired results to purge. */
  sweepMs: number;
  /** How long an upload's file may wait for its document row before the sweeper takes it for one whose request died. */
  uploadStaleMs: number;
  /** How long an Idempotency-Key may stay claimed by an unfinished request before a retry takes it over. */
  idempotencyStaleMs: number;
  /** Counting an upload's pages while its request waits (pipeline/threads/page-counter.ts). */
  counting: {
    threads: number;
    /** A count that takes longer is stopped and its upload refused. */
    timeoutMs: number;
  };
  fetch: {
    allowPrivate: boolean;
    timeoutMs: number;
    maxRedirects: number;
  };
  webhooks: {
    /** The unit of the retry schedule (domain/webhooks.ts): 10 s gives 10 s, 1 min, 5 min... for 24 h. Tests make it tiny. */
    retryBaseMs: number;
    /** Time limit of one delivery, from sending to the receiver's status (the excerpt of its answer is cut short there too). */
    timeoutMs: number;
  };
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new Error(`${name} must be an integer of at least ${min}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

const PROVIDER_BASE_URLS = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' } as const;

function modelSettings(env: NodeJS.ProcessEnv): ModelSettings {
  const provider = oneOf(env, 'FOLIO_MODEL_PROVIDER', ['builtin', 'openai', 'anthropic'] as const, 'builtin');
  const settings: ModelSettings = {
    provider,
    baseUrl: (env.FOLIO_MODEL_BASE_URL || (provider === 'builtin' ? '' : PROVIDER_BASE_URLS[provider])).replace(/\/+$/, ''),
    apiKey: env.FOLIO_MODEL_API_KEY || '',
    models: { swift: env.FOLIO_MODEL_SWIFT || '', summit: env.FOLIO_MODEL_SUMMIT || env.FOLIO_MODEL_SWIFT || '' },
    timeoutMs: intFromEnv(env, 'FOLIO_MODEL_TIMEOUT_MS', 120_000, 100),
    retries: intFromEnv(env, 'FOLIO_MODEL_RETRIES', 4, 0),
    retryBaseMs: intFromEnv(env, 'FOLIO_MODEL_RETRY_BASE_MS', 1_000, 1),
  };
  // A vendor provider with no model name would fail every document; say so at start-up instead.
  if (provider !== 'builtin' && !settings.models.swift) {
    throw new Error(`FOLIO_MODEL_PROVIDER=${provider} needs FOLIO_MODEL_SWIFT (and optionally FOLIO_MODEL_SUMMIT): the provider's model names for the swift and summit tiers`);
  }
  if (provider === 'anthropic' && !settings.apiKey) throw new Error('FOLIO_MODEL_PROVIDER=anthropic needs FOLIO_MODEL_API_KEY');
  return settings;
}

function embeddingSettings(env: NodeJS.ProcessEnv): EmbeddingSettings {
  const provider = oneOf(env, 'FOLIO_EMBEDDING_PROVIDER', ['builtin', 'openai'] as const, 'builtin');
  const settings: EmbeddingSettings = {
    provider,
    baseUrl: (env.FOLIO_EMBEDDING_BASE_URL || PROVIDER_BASE_URLS.openai).replace(/\/+$/, ''),
    apiKey: env.FOLIO_EMBEDDING_API_KEY || '',
    model: env.FOLIO_EMBEDDING_MODEL || '',
    timeoutMs: intFromEnv(env, 'FOLIO_MODEL_TIMEOUT_MS', 120_000, 100),
    retries: intFromEnv(env, 'FOLIO_MODEL_RETRIES', 4, 0),
    retryBaseMs: intFromEnv(env, 'FOLIO_MODEL_RETRY_BASE_MS', 1_000, 1),
  };
  if (provider === 'openai' && !settings.model) throw new Error('FOLIO_EMBEDDING_PROVIDER=openai needs FOLIO_EMBEDDING_MODEL, the server\'s embedding model name');
  return settings;
}

function s3Settings(env: NodeJS.ProcessEnv): S3Settings | null {
  if (!env.FOLIO_S3_BUCKET) {
    if (env.FOLIO_BLOB_STORE === 's3') throw new Error('FOLIO_BLOB_STORE=s3 needs FOLIO_S3_BUCKET');
    return null;
  }
  const endpoint = env.FOLIO_S3_ENDPOINT || null;
  const keyId = env.FOLIO_S3_ACCESS_KEY_ID;
  const secret = env.FOLIO_S3_SECRET_ACCESS_KEY;
  if (Boolean(keyId) !== Boolean(secret)) throw new Error('FOLIO_S3_ACCESS_KEY_ID and FOLIO_S3_SECRET_ACCESS_KEY go together');
  return {
    bucket: env.FOLIO_S3_BUCKET,
    endpoint,
    region: env.FOLIO_S3_REGION || 'us-east-1',
    credentials: keyId && secret ? { accessKeyId: keyId, secretAccessKey: secret } : null,
    // S3-compatible servers mostly want the bucket in the path, AWS in the host name.
    forcePathStyle: env.FOLIO_S3_FORCE_PATH_STYLE ? env.FOLIO_S3_FORCE_PATH_STYLE === '1' : endpoint !== null,
    prefix: env.FOLIO_S3_PREFIX ? `${env.FOLIO_S3_PREFIX.replace(/\/+$/, '')}/` : '',
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Pick<Config, 'host' | 'port'>> = {}): Config {
  const cores = availableParallelism();
  let prices: PriceTable;
  try {
    prices = priceTable(env.FOLIO_PRICES ? JSON.parse(env.FOLIO_PRICES) : undefined);
  } catch (error) {
    throw new Error(`FOLIO_PRICES: ${(error as Error).message}`);
  }
  const concurrency = intFromEnv(env, 'FOLIO_WORKER_CONCURRENCY', Math.max(2, cores), 1);
  return {
    host: overrides.host ?? env.HOST ?? '127.0.0.1',
    port: overrides.port ?? intFromEnv(env, 'PORT', 8080),
    metricsPort: env.FOLIO_METRICS_PORT ? intFromEnv(env, 'FOLIO_METRICS_PORT', 0) : null,
    dataDir: path.resolve(env.FOLIO_DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || null,
    redisUrl: env.FOLIO_REDIS_URL || null,
    // With PostgreSQL every process shares the blobs through the database, so no shared disk is
    // needed; a single SQLite machine keeps plain files.
    blobStore: oneOf(env, 'FOLIO_BLOB_STORE', ['local', 'database', 's3'] as const, env.FOLIO_S3_BUCKET ? 's3' : env.DATABASE_URL ? 'database' : 'local'),
    s3: s3Settings(env),
    publicUrl: env.FOLIO_PUBLIC_URL ? env.FOLIO_PUBLIC_URL.replace(/\/+$/, '') : null,
    logLevel: env.FOLIO_LOG_LEVEL || 'info',
    prices,
    topUpUrl: env.FOLIO_TOP_UP_URL || 'https://folio.invalid/billing/top-up',
    upgradeUrl: env.FOLIO_UPGRADE_URL || 'https://folio.invalid/billing/upgrade',
    queue: {
      leaseMs: intFromEnv(env, 'FOLIO_LEASE_MS', 30_000, 500),
      concurrency,
      spareSlots: intFromEnv(env, 'FOLIO_WORKER_SPARE_SLOTS', 1, 0),
      maxAttempts: intFromEnv(env, 'FOLIO_MAX_ATTEMPTS', 5, 1),
      // PostgreSQL wakes workers with NOTIFY, so its poll is only a fallback; SQLite has no
      // cross-process signal, so a worker in its own process polls more often.
      pollMs: intFromEnv(env, 'FOLIO_POLL_MS', env.DATABASE_URL ? 1_000 : 250, 10),
      shutdownGraceMs: intFromEnv(env, 'FOLIO_SHUTDOWN_GRACE_MS', 20_000, 0),
      nice: Math.min(19, intFromEnv(env, 'FOLIO_WORKER_NICE', 10, 0)),
      timeLimitBaseMs: intFromEnv(env, 'FOLIO_TIME_LIMIT_BASE_MS', 120_000, 1),
      timeLimitPerPageMs: intFromEnv(env, 'FOLIO_TIME_LIMIT_PER_PAGE_MS', 3_000, 0),
    },
    readerThreads: intFromEnv(env, 'FOLIO_READER_THREADS', Math.max(1, Math.min(cores, concurrency)), 1),
    ocr: {
      engine: oneOf(env, 'FOLIO_OCR_ENGINE', ['auto', 'system', 'wasm'] as const, 'auto'),
      languages: (env.FOLIO_OCR_LANGUAGES || 'eng+deu+fra+spa').split('+').map((l) => l.trim()).filter(Boolean),
      scripts: scriptModels(env.FOLIO_OCR_SCRIPTS ?? DEFAULT_SCRIPT_MODELS),
      workers: intFromEnv(env, 'FOLIO_OCR_WORKERS', cores, 1),
      tesseractPath: env.FOLIO_TESSERACT_PATH || 'tesseract',
      modelDir: path.join(path.resolve(env.FOLIO_DATA_DIR || './data'), 'ocr-models'),
    },
    model: modelSettings(env),
    embedding: embeddingSettings(env),
    clockOffsetMs: intFromEnv(env, 'FOLIO_CLOCK_OFFSET_MS', 0, Number.MIN_SAFE_INTEGER),
    sweepMs: intFromEnv(env, 'FOLIO_SWEEP_MS', 5_000, 50),
    uploadStaleMs: intFromEnv(env, 'FOLIO_UPLOAD_STALE_MS', 3_600_000, 100),
    idempotencyStaleMs: intFromEnv(env, 'FOLIO_IDEMPOTENCY_STALE_MS', 60_000, 100),
    counting: {
      threads: intFromEnv(env, 'FOLIO_COUNT_THREADS', 2, 1),
      timeoutMs: intFromEnv(env, 'FOLIO_COUNT_TIMEOUT_MS', 10_000, 100),
    },
    fetch: {
      allowPrivate: env.FOLIO_URL_ALLOW_PRIVATE === '1',
      timeoutMs: intFromEnv(env, 'FOLIO_URL_TIMEOUT_MS', 30_000, 100),
      maxRedirects: 5,
    },
    webhooks: {
      retryBaseMs: intFromEnv(env, 'FOLIO_WEBHOOK_RETRY_BASE_MS', 10_000, 1),
      timeoutMs: intFromEnv(env, 'FOLIO_WEBHOOK_TIMEOUT_MS', 10_000, 100),
    },
  };
}

/**
 * The models a page is read with when Tesseract finds it printed in another script than Latin:
 * "Greek=ell+eng,Cyrillic=rus+eng". English rides along because names, units and codes in Latin
 * letters turn up in every script's documents. An empty setting turns script detection off.
 */
export const DEFAULT_SCRIPT_MODELS = 'Greek=ell+eng,Cyrillic=rus+eng,Arabic=ara+eng,Hebrew=heb+eng';

function scriptModels(setting: string): Record<string, string[]> {
  const scripts: Record<string, string[]> = {};
  for (const entry of setting.split(',').map((e) => e.trim()).filter(Boolean)) {
    const [script, models] = entry.split('=').map((part) => part.trim());
    const languages = (models ?? '').split('+').map((l) => l.trim()).filter(Boolean);
    if (!script || languages.length === 0) throw new Error(`FOLIO_OCR_SCRIPTS: "${entry}" is not Script=language+language`);
    scripts[script] = languages;
  }
  return scripts;
}
