// Which pictures a page gets (docs/api.md "Picture rules"): figures of at least 1.5% of the page
// cropped as PNG; the whole page as JPEG when pictures cover half of it or it has fewer than 25
// words; blank pages skipped; only PDF, PNG and JPEG inputs; none with `images: false`.
import { boxArea, type Box, type Page } from '../page-model.js';

export const MAX_PICTURE_SIDE = 1568;
/** Figures are rendered at up to 2 pixels per point (144 dpi, sharp for charts and diagrams), pages at whatever fits 1568 px. */
export const MAX_FIGURE_SCALE = 2;

const PICTURE_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg']);

export interface PictureRequest {
  page: number;
  kind: 'figure' | 'page';
  figureIndex: number | null;
  /** Region in page units; null for the whole page. */
  region: Box | null;
  /** The page's turn and straightening (RawPage), so pictures come out like the page model. */
  rotation: Page['rotation'];
  skew: number;
  caption: string | null;
  /** The page has words: its picture is kept however little ink they leave (one short line is
   * well under the blank threshold on a page rendered at 1568 px). */
  hasWords: boolean;
}

/** docs/api.md picture rule 4: a PNG or JPEG upload gets pictures when under 3.75 MB and 8000 px. */
export const PICTURE_UPLOAD_MAX_BYTES = 3.75 * 1024 * 1024;
export const PICTURE_UPLOAD_MAX_SIDE = 8000;

export function planPictures(pages: Page[], mediaType: string, wanted: boolean, uploadBytes: number): PictureRequest[] {
  if (!wanted || !PICTURE_TYPES.has(mediaType)) return [];
  const requests: PictureRequest[] = [];
  const pageRequest = (page: Page): PictureRequest => ({
    page: page.number,
    kind: 'page',
    figureIndex: null,
    region: null,
    rotation: page.rotation,
    skew: page.skew,
    caption: null,
    hasWords: page.words.length > 0,
  });
  if (mediaType !== 'application/pdf') {
    // The picture itself is kept as the page image, within the size limits.
    if (uploadBytes >= PICTURE_UPLOAD_MAX_BYTES) return [];
    return pages.filter((p) => Math.max(p.width, p.height) <= PICTURE_UPLOAD_MAX_SIDE).map(pageRequest);
  }
  for (const page of pages) {
    const pageArea = page.width * page.height;
    let covered = 0;
    for (const figure of page.figures) {
      covered += boxArea(figure.box);
      if (figure.index === null) continue;
      requests.push({ page: page.number, kind: 'figure', figureIndex: figure.index, region: figure.box, rotation: page.rotation, skew: page.skew, caption: figure.caption, hasWords: false });
    }
    // A scanned page is a picture covering the whole page.
    if (page.textSource === 'ocr' || covered >= pageArea * 0.5 || page.words.length < 25) requests.push(pageRequest(page));
  }
  return requests;
}

/** A rendering with (almost) nothing but background is a blank page or an empty crop (pages with
 * words are never asked). */
export function isBlank(rgba: Uint8Array): boolean {
  let inked = 0;
  let sampled = 0;
  for (let i = 0; i < rgba.length; i += 4 * 7) {
    sampled++;
    if (rgba[i] < 235 || rgba[i + 1] < 235 || rgba[i + 2] < 235) inked++;
  }
  return sampled === 0 || inked / sampled < 0.001;
}
