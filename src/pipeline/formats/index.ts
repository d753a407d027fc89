// One reader per input type, chosen by the media type that byte sniffing found. Every reader
// produces RawPages of the shared page model.
import type { SupportedMediaType } from '../../domain/media-types.js';
import { SUPPORTED_MEDIA_TYPES } from '../../domain/media-types.js';
import type { RawPage } from '../page-model.js';
import { countPdfPages, readPdf, renderPdfRegions, type RenderedBitmap, type RenderRequest } from './pdf.js';

export interface FormatReader {
  countPages(bytes: Uint8Array): Promise<number>;
  read(bytes: Uint8Array): Promise<RawPage[]>;
  /** Renders pages or regions of them; absent for types that get no pictures. */
  render?(bytes: Uint8Array, requests: RenderRequest[], maxSide: number): AsyncIterable<RenderedBitmap>;
}

const READERS: Partial<Record<SupportedMediaType, FormatReader>> = {
  'application/pdf': { countPages: countPdfPages, read: readPdf, render: renderPdfRegions },
};

/** The type is supported by the API but this build has no reader for it yet. */
export class MissingReaderError extends Error {}

export function readerFor(mediaType: SupportedMediaType): FormatReader {
  const reader = READERS[mediaType];
  if (!reader) {
    throw new MissingReaderError(`The ${SUPPORTED_MEDIA_TYPES[mediaType]} reader is not built yet; this server cannot read ${mediaType} files.`);
  }
  return reader;
}

export type { RenderedBitmap, RenderRequest };
