// How many pages of one file Folio reads by OCR: besides the plan's page limit, one page per KiB of
// the file, and any file at least 16 (docs/decisions.md#sharing-between-workspaces). OCR costs
// about a second of a core per page whatever the page holds, so without a bound per byte a small
// file bought hours of a worker: 100 copies of one blank picture in a 16 KB PDF took 96 s to read,
// 5,000 frames of one pixel fit in a 640 KB TIFF. Real scans bring far more than a KiB a page (a
// blank bilevel page is about that; print, tens of KiB), so no real document meets the bound.
export const BYTES_PER_SCANNED_PAGE = 1024;
export const SCANNED_PAGES_ALWAYS_ALLOWED = 16;

export function maxScannedPages(byteSize: number): number {
  return Math.max(SCANNED_PAGES_ALWAYS_ALLOWED, Math.floor(byteSize / BYTES_PER_SCANNED_PAGE));
}

/** The file's size as people say it: "640 KB", "3.2 MB". */
export function sizeInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
