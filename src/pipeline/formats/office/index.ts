// The three Office readers behind the format reader interface: each reads its file into items per
// page and the items are typeset into pages of the page model (structure.ts).
import type { Page } from '../../page-model.js';
import { readDocx } from './docx.js';
import { readPptx } from './pptx.js';
import { typesetPage, type OfficeItem } from './structure.js';
import { readXlsx } from './xlsx.js';

export { OfficeReadError } from './package.js';

type Analysis = 'layout' | 'read';

function typesetAll(pages: OfficeItem[][], analysis: Analysis): Page[] {
  return pages.map((items, i) => typesetPage(i + 1, items, analysis));
}

export const office = {
  docx: {
    count: async (bytes: Uint8Array) => readDocx(bytes).length,
    read: async (bytes: Uint8Array, analysis: Analysis) => typesetAll(readDocx(bytes), analysis),
  },
  xlsx: {
    count: async (bytes: Uint8Array) => readXlsx(bytes).length,
    read: async (bytes: Uint8Array, analysis: Analysis) => typesetAll(readXlsx(bytes), analysis),
  },
  pptx: {
    count: async (bytes: Uint8Array) => readPptx(bytes).length,
    read: async (bytes: Uint8Array, analysis: Analysis) =>
      readPptx(bytes).map((slide, i) => typesetPage(i + 1, slide.items, analysis, { width: slide.width, height: slide.height })),
  },
};
