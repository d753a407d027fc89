// PDF reader: pages with words (pdf-words.ts), drawings and pictures (pdf-graphics.ts) and form
// fields (pdf-forms.ts), each page in the frame where its text reads left to right
// (pdf-direction.ts); an invisible text layer is kept where it lies on the page's ink
// (pdf-text-layer.ts). It reads; layout analysis and OCR come after, and rendering is pdf-render.ts.
import { boxArea, type PageGraphics, type PageSpan, type RawPage, type Word } from '../page-model.js';
import { turned, uprightRotation } from './pdf-direction.js';
import { readFormFields } from './pdf-forms.js';
import { readGraphics } from './pdf-graphics.js';
import { checkTextLayer, textUnderPictures } from './pdf-text-layer.js';
import { FontCache, readWords } from './pdf-words.js';
import { openPdf, PdfDocument, pageTransform, Scratch } from './pdfium.js';

export async function countPdfPages(bytes: Uint8Array): Promise<number> {
  const doc = await PdfDocument.open(bytes);
  try {
    return doc.pageCount;
  } finally {
    doc.close();
  }
}

/** Pages `range.first` to `range.last` (numbered from 1, both included), or all of them. */
/** `key` keeps the document open in this thread for the next span (pdfium.ts openPdf). */
export async function readPdf(bytes: Uint8Array, range?: PageSpan, key?: string): Promise<RawPage[]> {
  // A range runs to the last page at most; without one, the whole document is read.
  const { doc, release } = await openPdf(bytes, range ? range.last - range.first + 1 : Number.POSITIVE_INFINITY, key);
  const { lib } = doc;
  const scratch = new Scratch(lib, 64);
  // Fonts are read once for all the spans of a kept document.
  const fonts = doc.resource('fonts', () => new FontCache(lib), (cache) => cache.free());
  const formInfo = lib.PDFiumExt_OpenFormFillInfo();
  const form = lib.PDFiumExt_InitFormFillEnvironment(doc.handle, formInfo);
  try {
    const pages: RawPage[] = [];
    const last = Math.min(doc.pageCount, range?.last ?? doc.pageCount);
    for (let index = (range?.first ?? 1) - 1; index < last; index++) {
      const page = lib.FPDF_LoadPage(doc.handle, index);
      if (!page) throw new Error(`page ${index + 1} could not be loaded`);
      try {
        const displayWidth = lib.FPDF_GetPageWidthF(page);
        const displayHeight = lib.FPDF_GetPageHeightF(page);
        const textPage = lib.FPDFText_LoadPage(page);
        try {
          const display = pageTransform(lib, page, displayWidth, displayHeight, scratch);
          const rotation = textPage ? uprightRotation(lib, textPage, display, scratch) : 0;
          const { transform, width, height } = turned(display, rotation, displayWidth, displayHeight);
          const layer = checkTextLayer(lib, page, rotation, textPage ? readWords(lib, textPage, transform, scratch, fonts, textUnderPictures(lib, page, scratch)) : []);
          const words = layer.words;
          const graphics = readGraphics(lib, page, transform, width, height, scratch);
          if (layer.rulings.length > 0 || layer.fills.length > 0) Object.assign(graphics, { segments: [...graphics.segments, ...layer.rulings], rects: [...graphics.rects, ...layer.fills], rulingsFromPicture: true });
          const ocr = layer.implausible || needsOcr(words, graphics, width, height);
          pages.push({
            number: index + 1,
            width,
            height,
            unit: 'pt',
            rotation,
            skew: 0,
            words: ocr ? [] : words,
            graphics,
            formFields: form ? readFormFields(lib, form, page, transform, scratch) : [],
            textSource: ocr ? 'ocr' : 'text_layer',
          });
        } finally {
          if (textPage) lib.FPDFText_ClosePage(textPage);
        }
      } finally {
        lib.FPDF_ClosePage(page);
      }
    }
    return pages;
  } finally {
    if (form) lib.PDFiumExt_ExitFormFillEnvironment(form);
    lib.PDFiumExt_CloseFormFillInfo(formInfo);
    scratch.free();
    release();
  }
}

/**
 * Whether a page's text must come from OCR: it has (almost) no text layer but is covered by a
 * picture (a scan) or by many filled shapes (text turned into outlines), or its text layer is
 * mostly characters no font mapped to Unicode (a garbage layer).
 */
export function needsOcr(words: Word[], graphics: PageGraphics, width: number, height: number): boolean {
  let characters = 0;
  let unreadable = 0;
  for (const word of words) {
    for (const char of word.text) {
      characters++;
      const code = char.codePointAt(0)!;
      if (code === 0xfffd || (code >= 0xe000 && code <= 0xf8ff) || code < 0x20 || (code >= 0x7f && code <= 0x9f)) unreadable++;
    }
  }
  if (characters >= 20 && unreadable > characters * 0.3) return true;
  if (words.length >= 5) return false;
  const pictured = graphics.images.reduce((sum, box) => sum + boxArea(box), 0);
  return pictured >= width * height * 0.3 || graphics.shapes.length >= 200;
}
