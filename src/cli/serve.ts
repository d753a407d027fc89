// `folio serve` and `folio worker`: thin shells over the app, the worker runner and the webhook
// deliverer, with graceful shutdown (stop accepting, let documents and deliveries finish or hand
// them back, close the store).
import os from 'node:os';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadConfig } from '../config.js';
import { buildApp, buildOperationsApp } from '../api/app.js';
import { openStore } from '../store/index.js';
import { PageCounter } from '../pipeline/threads/page-counter.js';
import { ReaderPool } from '../pipeline/threads/pool.js';
import { WorkerRunner } from '../queue/runner.js';
import { WebhookDeliverer } from '../queue/webhook-deliveries.js';
import { Wakeup } from '../queue/wakeup.js';
import { removeDeadSpools } from '../pipeline/threads/page-spool.js';
import { startSweeper } from '../queue/sweeper.js';
import { setClockOffset } from '../domain/clock.js';
import { createOcrEngine, type OcrEngine } from '../models/ocr/index.js';

export async function runServe(argv: string[], mode: { api: boolean }): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'no-workers': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const config = loadConfig(process.env, {
    port: values.port === undefined ? undefined : Number(values.port),
    host: values.host,
  });
  setClockOffset(config.clockOffsetMs);
  const log = pino({ level: config.logLevel, base: { pid: process.pid, role: mode.api ? 'api' : 'worker' } });
  // Signals are handled from the start: one that comes while the process is still starting (its
  // 'listening' line already printed, a worker connecting) is acted on once it has started, where
  // Node's default would kill it mid-way.
  let shutdown: ((signal: string) => Promise<void>) | null = null;
  let signalled: string | null = null;
  const onSignal = (signal: string) => (shutdown ? void shutdown(signal) : (signalled ??= signal));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  const store = await openStore(config);
  const wakeup = new Wakeup(store);
  const withWorkers = !mode.api || !values['no-workers'];
  // Document work yields to requests: an API on the same machine stays responsive under load
  // (bench/load.ts). The API-only pool (page pictures on request) and the page counter keep
  // normal priority.
  if (!mode.api && config.queue.nice > 0) {
    try {
      os.setPriority(Math.min(19, os.getPriority() + config.queue.nice));
    } catch {
      // not permitted here; run at normal priority
    }
  }
  const pool = new ReaderPool(withWorkers ? config.readerThreads : 1, { minThreads: withWorkers ? 1 : 0, nice: withWorkers && mode.api ? config.queue.nice : 0 });

  const counter = mode.api ? new PageCounter(config.counting) : null;
  const app = counter ? await buildApp({ store, config, pool, counter, wakeup }, { logger: log }) : null;
  if (app) {
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    log.info({ url: `http://${config.host}:${port}`, port, store: store.dialect, workers: withWorkers }, 'listening');
  }
  // A worker-only process has no API, but its stage durations and pages are only in its own
  // metrics: FOLIO_METRICS_PORT gives it the operations endpoints to be scraped and probed.
  const operations = !app && config.metricsPort !== null ? await buildOperationsApp({ store, config, pool, wakeup }) : null;
  if (operations) {
    await operations.listen({ port: config.metricsPort!, host: config.host });
    const address = operations.server.address();
    const port = typeof address === 'object' && address ? address.port : config.metricsPort;
    log.info({ url: `http://${config.host}:${port}`, port }, 'operations endpoints listening');
  }
  // The OCR engine starts with the first page that needs it, and is shared by all documents.
  let ocrEngine: Promise<OcrEngine> | null = null;
  const ocr = () => {
    ocrEngine ??= createOcrEngine(config.ocr).then((engine) => {
      log.info({ engine: engine.name, languages: config.ocr.languages, scripts: Object.keys(engine.scriptModels), workers: engine.concurrency }, 'OCR engine ready');
      return engine;
    });
    ocrEngine.catch(() => (ocrEngine = null));
    return ocrEngine;
  };
  const runner = withWorkers ? new WorkerRunner({ store, pool, config, wakeup, log, ocr }) : null;
  // Webhook events are sent from where work is done: an API-only process sends none.
  const deliverer = withWorkers ? new WebhookDeliverer({ store, config, wakeup, log }) : null;
  if (runner) {
    // Raw pages a killed worker left waiting on disk (pipeline/threads/page-spool.ts).
    await removeDeadSpools(config.dataDir);
    await wakeup.listen();
    runner.start();
    deliverer?.start();
  }

  const stopSweeper = startSweeper(store, config, log);

  let closing = false;
  shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    try {
      if (app) await app.close();
      if (operations) await operations.close();
      // Both within the same grace: documents finishing now still record their events, which
      // another worker (or this one restarted) delivers.
      await Promise.all([runner?.stop(config.queue.shutdownGraceMs), deliverer?.stop(config.queue.shutdownGraceMs)]);
      await stopSweeper();
      await wakeup.close();
      await pool.close();
      await counter?.close();
      if (ocrEngine) await (await ocrEngine.catch(() => null))?.close();
      await store.close();
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
    }
    process.exit(0);
  };
  if (runner) log.info({ worker: runner.workerId, concurrency: config.queue.concurrency, store: store.dialect }, 'worker started');
  if (signalled) void shutdown(signalled);
}
