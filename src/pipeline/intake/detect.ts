// Type detection from the file's bytes (docs/api.md: "The type is detected from the file's bytes"),
// never from the name or the declared content type. file-type 21 is the last line that runs on
// Node 20 (STACK.md).
import { readFile } from 'node:fs/promises';
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { isSupported, type SupportedMediaType } from '../../domain/media-types.js';

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

export async function detectFile(path: string, name = ''): Promise<Detected> {
  const mime = (await fileTypeFromFile(path))?.mime;
  if (mime === 'application/x-cfb') return encryptedOffice(await readFile(path), name);
  return normalize(mime);
}

const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/**
 * A password-protected DOCX, XLSX or PPTX is stored as an OLE compound file holding an
 * "EncryptedPackage" stream. It is accepted as the Office type its name says (Word when the name
 * says nothing) so that it fails with a clear message; other compound files (legacy .doc, .xls,
 * .ppt) are not supported.
 */
function encryptedOffice(bytes: Buffer, name: string): Detected {
  if (!bytes.includes(ENCRYPTED_PACKAGE)) return normalize('application/x-cfb');
  const extension = name.toLowerCase().split('.').pop();
  const type =
    extension === 'xlsx'
      ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
      : extension === 'pptx'
        ? 'application/vnd.openxmlformats-officedocument.presentationml.presentation'
        : 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  return normalize(type);
}

export async function detectBytes(bytes: Uint8Array): Promise<Detected> {
  return normalize((await fileTypeFromBuffer(bytes))?.mime);
}
