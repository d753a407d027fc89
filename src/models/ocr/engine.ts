// OCR engines behind one interface: a grayscale picture in, words with boxes and confidences out.
// Both engines are Tesseract 5 with the same LSTM models and the same TSV output, so one parser
// reads them: the system's `tesseract` command (Debian `tesseract-ocr`, about twice as fast) when
// it is installed with the wanted languages, else tesseract.js (WebAssembly, installed from npm
// with its language data, nothing fetched at run time). `FOLIO_OCR_ENGINE` picks one by name.

/** A one-channel 8-bit picture, rows without padding. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface OcrWord {
  text: string;
  /** Pixels, origin top-left. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** 0-100 as the engine reports it. */
  confidence: number;
  /**
   * The engine's page segmentation, as keys: words with the same `line` are on one text line,
   * with the same `paragraph` in one paragraph (of one block: a column, a caption, a heading);
   * the engine returns them in its reading order.
   */
  paragraph: string;
  line: string;
}

/**
 * How the engine segments and binarizes a page. `auto` is Tesseract's full page analysis (its
 * page segmentation mode 3: columns, blocks, pictures); `block` reads the page as one uniform
 * block of text (mode 6), which its analysis cannot mistake for a picture. `otsu` is Tesseract's
 * global threshold (its default); `sauvola` a local one, which keeps faint print on uneven paper.
 */
export interface ReadingMode {
  segmentation: 'auto' | 'block';
  binarization: 'otsu' | 'sauvola';
  /** The models to read with (Tesseract's language codes); the engine's own languages when absent. */
  languages?: string[];
}

export const DEFAULT_MODE: ReadingMode = { segmentation: 'auto', binarization: 'otsu' };

export interface RecognizeOptions {
  mode?: ReadingMode;
  signal?: AbortSignal;
}

/** Tesseract's parameters for a reading mode. */
export function modeParameters(mode: ReadingMode): { psm: string; thresholding: string } {
  return { psm: { auto: '3', block: '6' }[mode.segmentation], thresholding: { otsu: '0', sauvola: '2' }[mode.binarization] };
}

export interface OcrEngine {
  /** What read the page, for logs and the README (e.g. "tesseract 5.3.0 (system)"). */
  readonly name: string;
  /** Pages it reads at once; more wait. */
  readonly concurrency: number;
  /** For each script other than the page languages', the models that read it ("Greek": ell, eng); a page read with doubt broadly is tried with each. */
  readonly scriptModels: Readonly<Record<string, string[]>>;
  /** `dpi` is the picture's resolution (300 when unknown); Tesseract scales some tests by it. */
  recognize(image: GrayImage, dpi: number, options?: RecognizeOptions): Promise<OcrWord[]>;
  close(): Promise<void>;
}

/** Tesseract TSV (level, page, block, paragraph, line, word, left, top, width, height, conf, text): its words. */
export function parseTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < 12 || cells[0] !== '5') continue;
    const text = cells.slice(11).join('\t').trim();
    const confidence = Number(cells[10]);
    if (!text || !(confidence >= 0)) continue;
    const left = Number(cells[6]);
    const top = Number(cells[7]);
    words.push({
      text,
      x0: left,
      y0: top,
      x1: left + Number(cells[8]),
      y1: top + Number(cells[9]),
      confidence: Math.max(0, Math.min(100, confidence)),
      paragraph: `${cells[1]}.${cells[2]}.${cells[3]}`,
      line: `${cells[1]}.${cells[2]}.${cells[3]}.${cells[4]}`,
    });
  }
  return words;
}

/** A PGM (binary portable graymap): the plainest encoding both engines read, costing nothing to make. */
export function toPgm(image: GrayImage): Buffer {
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'ascii');
  return Buffer.concat([header, Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength)]);
}

/** Runs at most `limit` tasks at once, in arrival order. */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
