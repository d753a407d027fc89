// The expiry sweeper: purges results whose retention ran out (pages, pictures, the upload) and
// marks them `expired` with `purged_at`. Reads already answer 410 from the moment of expiry; the
// sweep only reclaims the space. Every process runs one; a document is purged by whichever
// process flips its status, and the blobs go first so a crash never leaves a purged document
// pointing at files. It also deletes uploaded files whose document was never committed (the API
// stopped between storing the file and committing its row), once they have waited long enough
// that no request can still be committing them, and the temporary files such a process left (half
// an upload, a download, a blob being written) once nothing has written to them for as long. The
// flip to `expired` records the `document.expired` webhook event in its own transaction, and old
// delivery logs are forgotten.
import type { FastifyBaseLogger } from 'fastify';
import * as clock from '../domain/clock.js';
import { clearPendingUpload, deletePages, expiredCondition, stalePendingUploads } from '../store/documents.js';
import { forgetExpiredKeys } from '../store/idempotency.js';
import { removeStaleTempFiles } from '../store/blobs.js';
import { forgetOldDeliveries, recordDocumentEvent } from '../store/webhooks.js';
import { WEBHOOK_LOG_MS } from '../domain/webhooks.js';
import type { Store } from '../store/index.js';

const BATCH = 50;

export async function sweepExpired(store: Store, uploadStaleMs: number): Promise<number> {
  const at = clock.now();
  for (const upload of await stalePendingUploads(store.db, at - uploadStaleMs, BATCH)) {
    if (!upload.referenced) await store.blobs.delete(upload.blob_key);
    await clearPendingUpload(store.db, upload.blob_key);
  }
  // Temporary files of a process killed while it received, fetched or wrote a file.
  await removeStaleTempFiles(store.blobs.tempDir, Date.now() - uploadStaleMs);
  const due = await store.db
    .selectFrom('documents')
    .select(['id', 'upload_key'])
    .where('status', '=', 'completed')
    .where(expiredCondition(at))
    .limit(BATCH)
    .execute();
  let purged = 0;
  for (const doc of due) {
    const images = await store.db.selectFrom('images').select('blob_key').where('document_id', '=', doc.id).execute();
    await Promise.all([...images.map((i) => i.blob_key), ...(doc.upload_key ? [doc.upload_key] : [])].map((key) => store.blobs.delete(key)));
    await store.blobs.deletePrefix(`images/${doc.id}`);
    const flipped = await store.writeTransaction(async (tx) => {
      const result = await tx
        .updateTable('documents')
        .set({ status: 'expired', purged_at: clock.now(), upload_key: null, result: null })
        .where('id', '=', doc.id)
        .where('status', '=', 'completed')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await tx.deleteFrom('images').where('document_id', '=', doc.id).execute();
      await deletePages(tx, doc.id);
      await recordDocumentEvent(tx, doc.id, 'document.expired');
      return true;
    });
    if (flipped) purged++;
  }
  await forgetExpiredKeys(store.db, at);
  await forgetOldDeliveries(store.db, at - WEBHOOK_LOG_MS);
  // Rate windows older than a minute are of no further use.
  await store.db.deleteFrom('rate_counters').where('window', '<', Math.floor(at / 1000) - 60).execute();
  return purged;
}

export function startSweeper(store: Store, settings: { sweepMs: number; uploadStaleMs: number }, log: FastifyBaseLogger): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepExpired(store, settings.uploadStaleMs)
      .then((purged) => {
        if (purged) log.info({ purged }, 'expired results purged');
      })
      .catch((error) => log.warn({ err: error }, 'expiry sweep failed'))
      .finally(() => {
        running = null;
      });
  }, settings.sweepMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
