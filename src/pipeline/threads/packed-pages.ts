// Raw pages as bytes between the reader threads and the worker (v8's serializer): a document's raw
// pages wait in the worker for its font statistics and its OCR far more compactly as bytes than as
// objects, and cross to a thread without being cloned object by object.
import { deserialize, serialize } from 'node:v8';
import type { FontWeights } from '../analysis/analyze-page.js';
import type { RawPage } from '../page-model.js';

/** A raw page as read, packed. */
export interface ReadPage {
  number: number;
  packed: Uint8Array;
  /** The page's text must come from OCR; its words are read then. */
  ocr: boolean;
  weights: FontWeights;
}

export function packPage(page: RawPage): Uint8Array {
  const bytes = serialize(page);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function unpackPage(packed: Uint8Array): RawPage {
  return deserialize(packed) as RawPage;
}
