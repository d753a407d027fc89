// Which pictures a page gets (docs/api.md "Picture rules"): figures of at least 1.5% of the page
// cropped as PNG; the whole page as JPEG when pictures cover half of it or it has fewer than 25
// words; blank pages skipped; only PDF, PNG and JPEG inputs; none with `images: false`.
import { boxArea, type Box, type Page, type RawPage } from '../page-model.js';

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

/** The whole page as a picture, turned and straightened as its page model is. */
function pageRequest(page: Pick<RawPage, 'number' | 'rotation' | 'skew' | 'words'>): PictureRequest {
  return {
    page: page.number,
    kind: 'page',
    figureIndex: null,
    region: null,
    rotation: page.rotation,
    skew: page.skew,
    caption: null,
    hasWords: page.words.length > 0,
  };
}

/** A picture upload's page is kept as a picture within the size limits (rule 4). */
function uploadKeepsPage(page: Pick<RawPage, 'width' | 'height'>, uploadBytes: number): boolean {
  return uploadBytes < PICTURE_UPLOAD_MAX_BYTES && Math.max(page.width, page.height) <= PICTURE_UPLOAD_MAX_SIDE;
}

export function planPictures(pages: Page[], mediaType: string, wanted: boolean, uploadBytes: number): PictureRequest[] {
  if (!wanted || !PICTURE_TYPES.has(mediaType)) return [];
  // The picture itself is kept as the page image, within the size limits.
  if (mediaType !== 'application/pdf') return pages.filter((p) => uploadKeepsPage(p, uploadBytes)).map(pageRequest);
  const requests: PictureRequest[] = [];
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

/**
 * Whether the pages read by OCR are scanned with a sketch for their picture (formats/page-sketch.ts):
 * a PDF page read by OCR always gets its page picture when pictures are wanted, and its scan can
 * keep the pixels it decoded.
 */
export function sketchesScans(mediaType: string, wanted: boolean): boolean {
  return wanted && mediaType === 'application/pdf';
}

/**
 * The whole-page picture that planPictures will ask for a page read by OCR, known as soon as OCR
 * has read it (its turn, skew and words are final then, and analysis changes none of them), so it
 * can be made while the engine reads the other pages; null when the rules give none.
 */
export function scannedPagePicture(page: RawPage, mediaType: string, wanted: boolean, uploadBytes: number): PictureRequest | null {
  if (!wanted || !PICTURE_TYPES.has(mediaType) || page.textSource !== 'ocr') return null;
  if (mediaType !== 'application/pdf' && !uploadKeepsPage(page, uploadBytes)) return null;
  return pageRequest(page);
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
