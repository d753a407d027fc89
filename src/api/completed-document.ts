// Guards and reads for the routes that serve a completed document's pages and pictures.
import * as clock from '../domain/clock.js';
import { FolioError, invalidRequest, notFound } from '../domain/errors.js';
import { isExpired } from '../domain/retention.js';
import type { PageRange } from '../domain/page-range.js';
import { findDocument, listImages, type DocumentRow } from '../store/documents.js';
import type { Store } from '../store/index.js';
import type { Image } from './schemas/resources.js';
import { imageToWire } from './serialize.js';
import type { Db } from '../store/database.js';
import type { Principal } from './auth.js';
import type { PictureBytes } from './picture-answers.js';
import { scopeOf } from './auth.js';

/** 410 document_expired: what every read of a purged document answers. */
export function expiredError(): FolioError {
  return new FolioError('document_expired', 'The retention period ended and the result was purged.');
}

/** 404 for another workspace's or mode's document, 410 once purged, 409 until completed. */
export async function completedDocument(db: Db, id: string, principal: Principal): Promise<DocumentRow> {
  const row = await findDocument(db, id, scopeOf(principal));
  if (!row) throw notFound();
  if (isExpired(row, clock.now())) throw expiredError();
  if (row.status !== 'completed') {
    throw new FolioError('document_not_ready', `The document is ${row.status}; pages and pictures exist once it is completed.`, { status: row.status });
  }
  return row;
}

/** docs/api.md: at most 25 MB of pictures in one `include=image_data` / `include=data` response. */
export const MAX_INLINE_PICTURE_BYTES = 25 * 1024 * 1024;

/**
 * The pictures of a page range as wire Images. With `bytes`, each `data` is a placeholder the
 * answer's writer fills with the picture's base64 (picture-answers.ts), after the 25 MB cap is
 * checked.
 */
export async function picturesOf(store: Store, documentId: string, range: PageRange, baseUrl: string, bytes?: PictureBytes): Promise<Image[]> {
  const images = await listImages(store.db, documentId, range.first, range.last);
  if (bytes) {
    const total = images.reduce((sum, image) => sum + image.byte_size, 0);
    if (total > MAX_INLINE_PICTURE_BYTES) {
      throw invalidRequest({ page: [`the pictures of these pages come to ${total} bytes, over the 25 MB a response may carry; ask for fewer pages`] });
    }
  }
  return images.map((image) => ({ ...imageToWire(image, baseUrl), ...(bytes ? { data: bytes.placeholder(image.blob_key) } : {}) }));
}
