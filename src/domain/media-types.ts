// The input types docs/api.md accepts, by the media type that byte sniffing reports.

export const SUPPORTED_MEDIA_TYPES = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/tiff': 'TIFF',
  'image/bmp': 'BMP',
  'image/heic': 'HEIF',
  'image/heif': 'HEIF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'XLSX',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PPTX',
} as const;

export type SupportedMediaType = keyof typeof SUPPORTED_MEDIA_TYPES;

export function isSupported(mediaType: string | undefined): mediaType is SupportedMediaType {
  return mediaType !== undefined && Object.hasOwn(SUPPORTED_MEDIA_TYPES, mediaType);
}

/**
 * Office files: read from their structure and typeset by Folio, so they have no drawing of their
 * own to render (no pictures, no page previews).
 */
export function isOffice(mediaType: string): boolean {
  return mediaType.startsWith('application/vnd.openxmlformats-officedocument.');
}

export const SUPPORTED_LIST = 'PDF, PNG, JPEG, TIFF, BMP, HEIF, DOCX, XLSX, PPTX';
