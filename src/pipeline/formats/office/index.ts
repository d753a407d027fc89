// The three Office readers behind the format reader interface: each reads its file into items per
// page and the items are typeset into pages of the page model (structure.ts). Counting, on the
// request path, reads only the package's small parts (the workbook, presentation or properties
// part), never the content.
import type { Page } from '../../page-model.js';
import { countDocxPages, readDocx } from './docx.js';
import { countPptxPages, readPptx } from './pptx.js';
import { typesetPage, type OfficeItem } from './structure.js';
import { countXlsxPages, readXlsx } from './xlsx.js';
import { refuseItems } from './limits.js';

export { OfficeReadError } from './package.js';
export { OfficeTooLarge } from './limits.js';

type Analysis = 'layout' | 'read';

function typesetAll(pages: OfficeItem[][], analysis: Analysis): Page[] {
  refuseItems(pages);
  return pages.map((items, i) => typesetPage(i + 1, items, analysis));
}

export const office = {
  docx: {
    count: async (bytes: Uint8Array) => countDocxPages(bytes),
    read: async (bytes: Uint8Array, analysis: Analysis) => typesetAll(readDocx(bytes), analysis),
  },
  xlsx: {
    count: async (bytes: Uint8Array) => countXlsxPages(bytes),
    read: async (bytes: Uint8Array, analysis: Analysis) => typesetAll(readXlsx(bytes), analysis),
  },
  pptx: {
    count: async (bytes: Uint8Array) => countPptxPages(bytes),
    read: async (bytes: Uint8Array, analysis: Analysis) => {
      const slides = readPptx(bytes);
      refuseItems(slides.map((slide) => slide.items));
      return slides.map((slide, i) => typesetPage(i + 1, slide.items, analysis, { width: slide.width, height: slide.height }));
    },
  },
};
