// The tesseract command alone on a scan's own page pictures, with the models and languages Folio
// reads with, one reading each in Tesseract's page layout with its global threshold: what the
// engine makes of the pages by itself, beside which Folio's OCR is judged (its character error
// rate should stay within 0.01 of this one's on the same pages). It runs through Folio's own
// adapter of the command (models/ocr/tesseract-cli.ts), which adds nothing to the engine's reading.
import sharp from 'sharp';
import { DEFAULT_MODE, type OcrEngine } from '../../src/models/ocr/engine.js';

/** A scan's pages read one after another, as one text: lines as the engine found them, pages apart by a blank line. */
export async function tesseractDocument(pictures: Buffer[], dpi: number, engine: OcrEngine): Promise<string> {
  const pages: string[] = [];
  for (const picture of pictures) {
    const { data, info } = await sharp(picture).greyscale().raw().toBuffer({ resolveWithObject: true });
    const words = await engine.recognize({ width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) }, dpi, { mode: DEFAULT_MODE });
    const lines = new Map<string, string[]>();
    for (const w of words) (lines.get(w.line) ?? lines.set(w.line, []).get(w.line)!).push(w.text);
    pages.push([...lines.values()].map((line) => line.join(' ')).join('\n'));
  }
  return pages.join('\n\n');
}
