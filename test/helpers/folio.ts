// Runs the real `folio` command (built to dist/) as child processes, against a fresh SQLite
// directory or a fresh PostgreSQL schema, and talks to it over HTTP like any client.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { errorMessagesIn, internalLeak } from './leaks.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The `folio` command run: this checkout's, or another build's (FOLIO_TEST_BIN, for benches that compare builds). */
export const BIN = process.env.FOLIO_TEST_BIN ? path.resolve(process.env.FOLIO_TEST_BIN) : path.join(ROOT, 'bin/folio.js');
export const CORPUS = findCorpus();

/**
 * The evaluation corpus sits in `shared/corpus` beside the checkout (`../shared/corpus`); a clone
 * made elsewhere finds it through FOLIO_CORPUS_DIR, an ancestor's `shared/corpus`, or the
 * workspace's own copy.
 */
function findCorpus(): string {
  if (process.env.FOLIO_CORPUS_DIR) return path.resolve(process.env.FOLIO_CORPUS_DIR);
  for (let dir = ROOT; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared/corpus');
    if (existsSync(path.join(candidate, 'index.json'))) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  return '/work/shared/corpus';
}

export const STORE = (process.env.FOLIO_TEST_STORE ?? 'sqlite') as 'sqlite' | 'postgres';
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const PG_URL = process.env.FOLIO_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** One isolated installation: its own data directory and, on PostgreSQL, its own schema. */
export class Installation {
  private constructor(
    readonly dataDir: string,
    readonly env: NodeJS.ProcessEnv,
    private readonly schema: string | null,
  ) {}

  static async create(extraEnv: NodeJS.ProcessEnv = {}): Promise<Installation> {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'folio-test-'));
    let schema: string | null = null;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      FOLIO_DATA_DIR: dataDir,
      FOLIO_LOG_LEVEL: process.env.FOLIO_TEST_LOG_LEVEL ?? 'info',
      FOLIO_URL_ALLOW_PRIVATE: '1',
      FOLIO_POLL_MS: '200',
      ...extraEnv,
    };
    delete env.DATABASE_URL;
    if (STORE === 'postgres') {
      schema = `t_${Math.random().toString(36).slice(2, 12)}`;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.end();
      // Its own application_name, so a test can cut this installation's connections and no other's.
      env.DATABASE_URL = `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}&application_name=folio-${schema}`;
    }
    return new Installation(dataDir, env, schema);
  }

  /** The PostgreSQL application_name of this installation's processes (null on SQLite). */
  get applicationName(): string | null {
    return this.schema ? `folio-${this.schema}` : null;
  }

  /** Runs `folio admin ...`; resolves with the parsed JSON and the exit code. */
  async adminRaw(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [BIN, 'admin', ...args], { env: this.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
    return { code, stdout, stderr };
  }

  async admin<T = any>(...args: string[]): Promise<T> {
    const { code, stdout, stderr } = await this.adminRaw(...args);
    if (code !== 0) throw new Error(`folio admin ${args.join(' ')} failed (${code}): ${stderr}`);
    return JSON.parse(stdout) as T;
  }

  /** A workspace with credit; returns its id and keys. */
  async workspace(options: { credits?: number; plan?: string; org?: string } = {}) {
    const args = ['workspace', 'create', '--org', options.org ?? `Org ${Math.random().toString(36).slice(2, 8)}`, '--credits-micro', String(options.credits ?? 100_000_000)];
    if (options.plan) args.push('--plan', options.plan);
    const out = await this.admin<{ workspace: { id: string }; organization: { id: string }; keys: { live: string; test: string } }>(...args);
    return { id: out.workspace.id, organizationId: out.organization.id, live: out.keys.live, test: out.keys.test };
  }

  /** Runs `fn` with a connection to this installation's PostgreSQL schema (PostgreSQL only). */
  async database<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
    if (!this.env.DATABASE_URL) throw new Error('this installation runs on SQLite');
    const db = new pg.Client({ connectionString: this.env.DATABASE_URL });
    await db.connect();
    try {
      return await fn(db);
    } finally {
      await db.end();
    }
  }

  /**
   * Reads rows from this installation's database, whichever the store: `sqlText` uses `?`
   * placeholders. PostgreSQL's bigint and numeric (what `sum` of a bigint gives) come back as
   * numbers, as SQLite's integers do.
   */
  async select<T = Record<string, unknown>>(sqlText: string, params: unknown[] = []): Promise<T[]> {
    if (this.env.DATABASE_URL) {
      let n = 0;
      const text = sqlText.replace(/\?/g, () => `$${++n}`);
      const types = { getTypeParser: (oid: number, format?: any) => (oid === INT8_OID || oid === NUMERIC_OID ? Number : pg.types.getTypeParser(oid, format)) };
      return (await this.database((db) => db.query({ text, values: params, types }))).rows as T[];
    }
    // WAL mode: a second connection reads beside the running service without blocking it.
    const db = new SQLite(path.join(this.dataDir, 'folio.sqlite'), { fileMustExist: true });
    try {
      return db.prepare(sqlText).all(...params) as T[];
    } finally {
      db.close();
    }
  }

  async start(args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Server> {
    return Server.start(args, { ...this.env, ...env });
  }

  async destroy(): Promise<void> {
    await rm(this.dataDir, { recursive: true, force: true });
    if (this.schema) {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`);
      await client.end();
    }
  }
}

export class Server {
  logs = '';
  private constructor(
    readonly process: ChildProcess,
    readonly url: string,
  ) {}

  static start(args: string[], env: NodeJS.ProcessEnv): Promise<Server> {
    const command = args[0] === 'worker' ? args : ['serve', '--port', '0', ...args];
    const child = spawn(process.execPath, [BIN, ...command], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    return new Promise((resolve, reject) => {
      let logs = '';
      let settled = false;
      const onData = (data: Buffer) => {
        logs += data.toString();
        for (const line of logs.split('\n')) {
          if (settled || !line.startsWith('{')) continue;
          try {
            const entry = JSON.parse(line);
            if (entry.msg === 'listening' || (command[0] === 'worker' && entry.msg === 'worker started')) {
              settled = true;
              const server = new Server(child, entry.url ?? '');
              server.logs = logs;
              child.stdout!.on('data', (d) => (server.logs += d));
              child.stderr!.on('data', (d) => (server.logs += d));
              resolve(server);
            }
          } catch {
            // not a log line
          }
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.on('exit', (code) => {
        if (!settled) reject(new Error(`folio exited with ${code} before it was ready:\n${logs}`));
      });
    });
  }

  /**
   * The first log line holding every one of `parts`, waiting for it a while: a child's log reaches
   * the test through a pipe, after whatever the process answered over HTTP.
   */
  async logLine(parts: string[], timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.logs.split('\n').find((l) => parts.every((part) => l.includes(part)));
      if (line) return line;
      if (Date.now() > deadline) throw new Error(`no log line holds ${JSON.stringify(parts)} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGTERM and wait for the process to exit. */
  get exited(): boolean {
    return this.process.exitCode !== null || this.process.signalCode !== null;
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    this.process.kill('SIGTERM');
    await exited;
  }

  async kill(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    this.process.kill('SIGKILL');
    await exited;
  }
}

/** A tiny client for the tests: JSON in, status + JSON (or raw) out. */
export class Client {
  constructor(
    readonly base: string,
    readonly key: string | null,
  ) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.key ? { authorization: `Bearer ${this.key}` } : {}), ...extra };
  }

  async request(method: string, path: string, init: { json?: unknown; body?: RequestInit['body']; headers?: Record<string, string> } = {}) {
    const headers = this.headers(init.headers);
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${this.base}${path}`, { method, headers, body });
    const text = await response.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    // Every message a client reads is Folio's own (issue 22): any test meeting one that leaks an
    // engine's words, a stack or a path fails here, whatever it was testing.
    for (const message of errorMessagesIn(json)) {
      const leak = internalLeak(message);
      if (leak) throw new Error(`${method} ${path} answered ${response.status} with a message showing ${leak}: ${message}`);
    }
    return { status: response.status, headers: response.headers, json, text };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  /** Multipart upload: `files` as [fieldName, filename, bytes]. */
  upload(files: [string, string, Uint8Array][], options?: unknown, extraFields: Record<string, string> = {}) {
    const form = new FormData();
    if (options !== undefined) form.append('options', typeof options === 'string' ? options : JSON.stringify(options));
    for (const [name, value] of Object.entries(extraFields)) form.append(name, value);
    for (const [field, filename, bytes] of files) form.append(field, new Blob([bytes]), filename);
    return this.request('POST', '/api/v1/documents', { body: form });
  }

  /** Polls a document until it is completed or failed. */
  async waitFor(id: string, timeoutMs = 45_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { status, json, headers } = await this.get(`/api/v1/documents/${id}`);
      // Polling counts toward the key's rate limit; a client waits as it is told to.
      if (status === 429 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, Number(headers.get('retry-after') ?? 1) * 1000));
        continue;
      }
      if (status !== 200) throw new Error(`GET document answered ${status}: ${JSON.stringify(json)}`);
      if (json.status === 'completed' || json.status === 'failed') return json;
      if (Date.now() > deadline) throw new Error(`document ${id} still ${json.status}/${json.stage} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
