// Shared guards for routes that read a finished document's pages and pictures.
import { FolioError, notFound } from '../../domain/errors.js';
import { findDocument, type DocumentRow } from '../../store/documents.js';
import type { Db } from '../../store/database.js';
import type { Principal } from '../auth.js';
import { scopeOf } from '../auth.js';

/** 404 for another workspace's or mode's document, 410 once purged, 409 until completed. */
export async function completedDocument(db: Db, id: string, principal: Principal): Promise<DocumentRow> {
  const row = await findDocument(db, id, scopeOf(principal));
  if (!row) throw notFound();
  if (row.status === 'expired') throw new FolioError('document_expired', 'The retention period ended and the result was purged.');
  if (row.status !== 'completed') {
    throw new FolioError('document_not_ready', `The document is ${row.status}; pages and pictures exist once it is completed.`, { status: row.status });
  }
  return row;
}

/** SPEC.md: at most 25 MB of pictures in one `include=image_data` / `include=data` response. */
export const MAX_INLINE_PICTURE_BYTES = 25 * 1024 * 1024;
