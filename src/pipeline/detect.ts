// Type detection from the file's bytes (SPEC.md: "The type is detected from the file's bytes"),
// never from the name or the declared content type. file-type 21 is the last line that runs on
// Node 20 (STACK.md).
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { isSupported, type SupportedMediaType } from '../domain/media-types.js';

export interface Detected {
  /** The sniffed media type, or null when nothing known was recognized. */
  mediaType: string | null;
  supported: SupportedMediaType | null;
}

function normalize(mime: string | undefined): Detected {
  // HEIF containers carrying HEVC pictures are reported under either name.
  const mediaType = mime === 'image/heic-sequence' ? 'image/heic' : mime === 'image/heif-sequence' ? 'image/heif' : (mime ?? null);
  return { mediaType, supported: isSupported(mediaType ?? undefined) ? (mediaType as SupportedMediaType) : null };
}

export async function detectFile(path: string): Promise<Detected> {
  return normalize((await fileTypeFromFile(path))?.mime);
}

export async function detectBytes(bytes: Uint8Array): Promise<Detected> {
  return normalize((await fileTypeFromBuffer(bytes))?.mime);
}
