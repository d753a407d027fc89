// Receipts for the quality benches: the schema the SROIE receipts are sent with, and page outputs
// built two ways for rerunning the built-in engine without OCR: from a receipt's truth OCR lines
// (the right text, through Folio's own layout analysis) and from pages a `bench/quality.ts --dump`
// run wrote (Folio's own OCR text as the API returned it).
import { analyzeDocument } from '../../src/pipeline/analysis/analyze-page.js';
import type { RawPage, Word } from '../../src/pipeline/page-model.js';
import { pageOutputs } from '../../src/pipeline/outputs/page-outputs.js';
import type { PageOutputs } from '../../src/page-outputs/shapes.js';

/** The four fields of the SROIE receipt truth, asked of the model layer as a JSON Schema. */
export const RECEIPT_SCHEMA = {
  type: 'object',
  properties: {
    company: { type: 'string', description: 'Name of the company that issued the receipt' },
    date: { type: 'string', description: 'Date of the receipt as printed' },
    address: { type: 'string', description: 'Address of the company' },
    total: { type: 'string', description: 'Total amount paid' },
  },
};

/**
 * A scanned page whose words are the lines of a SROIE `truth.ocr-lines.csv` (`x1,y1,...,x4,y4,text`
 * per line, a quadrilateral in pixels): each line's words share its height and split its width in
 * proportion to their characters, as an OCR engine would report them, one engine line per row.
 */
export function rawPageFromOcrLines(csv: string, width: number, height: number): RawPage {
  const words: Word[] = [];
  let lineNumber = 0;
  for (const row of csv.split(/\r?\n/)) {
    const parts = row.split(',');
    if (parts.length < 9) continue;
    const coords = parts.slice(0, 8).map(Number);
    const text = parts.slice(8).join(',').trim();
    if (!text || coords.some((n) => !Number.isFinite(n))) continue;
    const xs = [coords[0], coords[2], coords[4], coords[6]];
    const ys = [coords[1], coords[3], coords[5], coords[7]];
    const x0 = Math.min(...xs);
    const x1 = Math.max(...xs);
    const y0 = Math.min(...ys);
    const y1 = Math.max(...ys);
    const perChar = (x1 - x0) / Math.max(1, text.length);
    const line = lineNumber++;
    for (const match of text.matchAll(/\S+/g)) {
      const start = x0 + match.index! * perChar;
      words.push({
        text: match[0],
        box: { x0: start, y0, x1: start + match[0].length * perChar, y1 },
        fontName: '',
        fontSize: (y1 - y0) * 0.95,
        bold: false,
        italic: false,
        confidence: 95,
        hyphenated: false,
        ocrLine: line,
      });
    }
  }
  return { number: 1, width, height, unit: 'px', rotation: 0, skew: 0, words, graphics: { segments: [], rects: [], shapes: [], images: [] }, formFields: [], textSource: 'ocr' };
}

/** Page outputs of a receipt read from its truth OCR lines with Folio's layout analysis. */
export function outputsFromOcrLines(csv: string, width: number, height: number): PageOutputs[] {
  return analyzeDocument([rawPageFromOcrLines(csv, width, height)]).map((page) => pageOutputs(page, false));
}

interface WirePage {
  page: number;
  text: string;
  word_count: number;
  tables?: PageOutputs['tables'];
  key_values?: PageOutputs['keyValues'];
  layout?: PageOutputs['layout'];
}

/** Page outputs as `GET /documents/{id}/pages?include=key_values,tables,layout` returns them. */
export function outputsFromWire(pages: WirePage[]): PageOutputs[] {
  return pages.map((p) => ({
    page: p.page,
    text: p.text,
    wordCount: p.word_count,
    tables: p.tables ?? [],
    keyValues: p.key_values ?? {},
    layout: p.layout ?? [],
    markdown: null,
  }));
}
