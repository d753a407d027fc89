// The worker loop of one process: claims documents and questions asked of finished documents,
// shared fairly between workspaces (leases.ts), while it has free slots: FOLIO_WORKER_CONCURRENCY,
// and FOLIO_WORKER_SPARE_SLOTS more that only a workspace with nothing running may take, so a
// workspace sending one document is not held up by another's long ones in every regular slot.
// It keeps each lease alive with a heartbeat and runs the work. On SIGTERM it stops claiming,
// lets in-flight work finish for a grace period, then hands the rest back to the queue.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { readStoredOptions } from '../domain/options.js';
import { newId } from '../domain/ids.js';
import { getPlan } from '../store/accounts.js';
import type { Store } from '../store/index.js';
import type { DocumentRow } from '../store/documents.js';
import { runDocument, giveUp } from '../pipeline/run.js';
import type { ReaderPool } from '../pipeline/threads/pool.js';
import type { OcrEngine } from '../models/ocr/engine.js';
import { claimNext, documentHold, queryHold, releaseLease, releaseQueryLease, renewLease, renewQueryLease, updateHeld, type Lease, type QueryLease } from './leases.js';
import { giveUpQuery, runQuery } from '../pipeline/query.js';
import type { QueryRow } from '../store/queries.js';
import type { Wakeup } from './wakeup.js';
import * as clock from '../domain/clock.js';

/**
 * Errors of the JavaScript engine itself (a stack overflow, an undefined property read, a bad
 * array length): most likely faults in Folio's code that the same document meets on every
 * attempt. Not surely: a failed allocation under memory pressure is a RangeError too, and a
 * driver may throw a TypeError in an outage, so one such error is retried like any other and only
 * a second, on a later attempt, fails the document. A TypeError with a `cause` is a failed fetch
 * (undici), which may pass.
 */
function isFaultInCode(error: unknown): boolean {
  if (error instanceof RangeError || error instanceof ReferenceError || error instanceof SyntaxError) return true;
  return error instanceof TypeError && error.cause === undefined;
}

interface Active {
  /** Hands the claim back to the queue (graceful shutdown). */
  release: () => Promise<boolean>;
  abort: AbortController;
  done: Promise<void>;
  /** Taken in a spare slot: the work of a workspace that had nothing running. */
  spare: boolean;
}

/** A claimed document or query: how to keep its lease, give it back, and do it. */
interface Job {
  id: string;
  /** How its log lines name it: `{document_id}` or `{query_id}`. */
  logIds: Record<string, string>;
  renew: () => Promise<boolean>;
  release: () => Promise<boolean>;
  execute: (signal: AbortSignal) => Promise<void>;
}

export class WorkerRunner {
  readonly workerId = newId('wrk');
  private readonly active = new Map<string, Active>();
  private stopping = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly deps: { store: Store; pool: ReaderPool; config: Config; wakeup: Wakeup; log: FastifyBaseLogger; ocr: () => Promise<OcrEngine> },
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  private async run(): Promise<void> {
    const { config, wakeup, log } = this.deps;
    while (!this.stopping) {
      const inSpare = [...this.active.values()].filter((a) => a.spare).length;
      const regularFull = this.active.size - inSpare >= config.queue.concurrency;
      const finishing = () => [...this.active.values()].map((a) => a.done);
      if (regularFull && inSpare >= config.queue.spareSlots) {
        await Promise.race(finishing());
        continue;
      }
      let job: Job | null = null;
      const seen = wakeup.seen;
      try {
        // With every regular slot taken, only a workspace with nothing running may use a spare one.
        job = await this.claim(regularFull);
      } catch (error) {
        log.error({ err: error }, 'claiming work failed; retrying');
      }
      if (job) {
        this.process(job, regularFull);
      } else {
        await Promise.race([wakeup.wait(config.queue.pollMs, seen), ...(regularFull ? finishing() : [])]);
      }
    }
  }

  /** The fairest runnable document or question (leases.ts claimNext); with `onlyIdle`, of a workspace with nothing running. */
  private async claim(onlyIdle: boolean): Promise<Job | null> {
    const { store, config } = this.deps;
    const claimed = await claimNext(store, this.workerId, config.queue.leaseMs, onlyIdle);
    if (!claimed) return null;
    if (claimed.kind === 'document') {
      const { doc, lease } = claimed;
      return {
        id: doc.id,
        logIds: { document_id: doc.id },
        renew: () => renewLease(store, lease, config.queue.leaseMs),
        release: () => releaseLease(store, lease),
        execute: (signal) => this.execute(doc, lease, signal),
      };
    }
    const { query, lease } = claimed;
    return {
      id: query.id,
      logIds: { query_id: query.id, document_id: query.document_id },
      renew: () => renewQueryLease(store, lease, config.queue.leaseMs),
      release: () => releaseQueryLease(store, lease),
      execute: (signal) => this.answer(query, lease, signal),
    };
  }

  private process(job: Job, spare: boolean): void {
    const { config, log } = this.deps;
    const abort = new AbortController();
    const heartbeat = setInterval(() => {
      job
        .renew()
        .then((held) => {
          if (!held) abort.abort(new Error('lease lost'));
        })
        .catch((error) => log.warn({ err: error, ...job.logIds }, 'lease renewal failed'));
    }, Math.max(100, Math.floor(config.queue.leaseMs / 3)));
    const done = job
      .execute(abort.signal)
      .catch((error) => log.error({ err: error, ...job.logIds }, 'run crashed'))
      .finally(() => {
        clearInterval(heartbeat);
        this.active.delete(job.id);
        // A finished document frees a workspace slot: another worker may now claim.
        void this.deps.wakeup.notify();
      });
    this.active.set(job.id, { release: job.release, abort, done, spare });
  }

  private async answer(query: QueryRow, lease: QueryLease, signal: AbortSignal): Promise<void> {
    const { store, config, log } = this.deps;
    const ctx = { store, config, log, hold: queryHold(lease), query, signal };
    if (query.attempts > config.queue.maxAttempts) {
      await giveUpQuery(ctx, `Answering stopped ${query.attempts - 1} times without finishing; the question was given up.`);
      return;
    }
    try {
      const outcome = await runQuery(ctx);
      log.info({ query_id: query.id, document_id: query.document_id, outcome }, 'query answered');
    } catch (error) {
      if (signal.aborted) return;
      // An unexpected error fails the question rather than retrying it: nothing was charged.
      log.error({ err: error, query_id: query.id }, 'query run crashed');
      await giveUpQuery(ctx, 'The question could not be answered because of an internal error.').catch(() => undefined);
    }
  }

  private async execute(doc: DocumentRow, lease: Lease, signal: AbortSignal): Promise<void> {
    const { store, pool, config, log } = this.deps;
    const hold = documentHold(lease);
    const started = clock.now();
    if (doc.attempts > config.queue.maxAttempts) {
      await giveUp({ store, hold, doc }, `Processing stopped ${doc.attempts - 1} times without finishing; the document was given up.`);
      log.warn({ document_id: doc.id, attempts: doc.attempts }, 'document given up');
      return;
    }
    const plan = await getPlan(store.db, await this.planIdOf(doc.workspace_id));
    if (!plan) throw new Error(`workspace ${doc.workspace_id} has no plan`);
    try {
      const outcome = await runDocument({
        store,
        pool: pool.forDocument(doc.id),
        ocr: this.deps.ocr,
        config,
        log,
        hold,
        plan,
        signal,
        doc,
        options: readStoredOptions(doc.options),
        mediaType: null,
        bytes: null,
        pages: null,
        pictureWork: null,
        pictures: [],
        pagesRead: 0,
        model: null,
        embeddings: null,
      });
      log.info({ document_id: doc.id, outcome, attempt: doc.attempts, ms: clock.now() - started }, 'document processed');
    } catch (error) {
      if (signal.aborted) return;
      if (isFaultInCode(error) && doc.attempts >= 2) {
        // Met again on a later attempt: the next ones would meet it too, so the document fails now
        // rather than after a crash loop of maxAttempts runs.
        log.error({ err: error, document_id: doc.id }, 'document run met a fault in the code; given up');
        await giveUp({ store, hold, doc }, 'The document could not be processed because of an internal error. Quote the document id when you report it.').catch(() => undefined);
        return;
      }
      // An unexpected error (a database outage, a lost connection) does not fail the document: it
      // goes back to the queue with a delay, and after maxAttempts claims it is given up.
      const backoff = Math.min(60_000, 1000 * 2 ** Math.min(doc.attempts, 6));
      await updateHeld(store.db, lease, { status: 'queued', stage: 'received', locked_by: null, lease_token: null, lease_expires_at: null, run_at: clock.now() + backoff }).catch(
        () => undefined,
      );
      throw error;
    }
  }

  private async planIdOf(workspaceId: string): Promise<string> {
    const row = await this.deps.store.db.selectFrom('workspaces').select('plan_id').where('id', '=', workspaceId).executeTakeFirstOrThrow();
    return row.plan_id;
  }

  get inFlight(): number {
    return this.active.size;
  }

  /** Stops claiming; waits up to `graceMs` for in-flight documents, then hands the rest back. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    await this.deps.wakeup.notify();
    await this.loop;
    const pending = [...this.active.values()];
    if (pending.length === 0) return;
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.all(pending.map((a) => a.done)), timeout]);
    for (const entry of this.active.values()) {
      entry.abort.abort(new Error('shutting down'));
      await entry.release().catch(() => undefined);
    }
    await Promise.all([...this.active.values()].map((a) => a.done));
  }
}
