// One generated document, start to end: its spec drawn from the seed, laid out by its producer,
// sent as the PDF or as a scan of it, and its truth written beside the file.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChromiumProducer } from './chromium.js';
import { composeDocument, type ComposeOptions, DEFAULT_COMPOSE } from './compose.js';
import type { LatexProducer } from './latex.js';
import type { LibreOfficeProducer } from './libreoffice.js';
import type { PdfLibProducer } from './pdflib.js';
import { scanVariant } from './scan.js';
import type { DocSpec } from './spec.js';
import type { Truth } from './truth.js';

export interface Producers {
  chromium: ChromiumProducer;
  pdflib: PdfLibProducer;
  libreoffice: LibreOfficeProducer;
  latex: LatexProducer;
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export interface Generated {
  spec: DocSpec;
  truth: Truth;
  /** Where the file is. */
  path: string;
  /** A scan's page pictures as they are in the file, and their resolution. */
  scan: { pictures: Buffer[]; dpi: number } | null;
}

export async function generateDocument(seed: number, index: number, producers: Producers, dir: string, options: ComposeOptions = DEFAULT_COMPOSE): Promise<Generated> {
  const spec = composeDocument(seed, index, options);
  const laid =
    spec.producer === 'pdf-lib'
      ? await producers.pdflib.produce(spec)
      : spec.producer === 'libreoffice'
        ? await producers.libreoffice.produce(spec)
        : spec.producer === 'latex'
          ? await producers.latex.produce(spec)
          : await producers.chromium.produce(spec);
  let bytes: Uint8Array = laid.pdf;
  const word = 'format' in laid && laid.format === 'docx';
  let mediaType = word ? DOCX : 'application/pdf';
  let extension = word ? 'docx' : 'pdf';
  // Pages a producer does not know (Writer breaks its own) are 0, and its truth lies on page 0.
  let pages = laid.pages;
  let variant = 'digital';
  let scan: Generated['scan'] = null;
  let features = [...spec.features, ...(laid.features ?? [])];
  if (spec.scan) {
    const scanned = await scanVariant(spec, laid.pdf, laid.pages > 0);
    scan = { pictures: scanned.pictures, dpi: spec.scan.dpi };
    ({ bytes, mediaType, extension, pages } = scanned);
    variant = `scan-${scanned.container}`;
    features = features.map((f) => (f === `scan:${spec.scan!.container}` ? `scan:${scanned.container}` : f));
  }
  const onPages = <T extends { page: number }>(items: T[]) => items.filter((item) => item.page <= pages || pages === 0);
  const file = path.join(dir, `${spec.id}.${extension}`);
  const truth: Truth = {
    id: spec.id,
    seed,
    index,
    producer: spec.producer,
    variant,
    kind: spec.kind,
    script: spec.script,
    pages,
    file: path.basename(file),
    mediaType,
    blocks: onPages(laid.blocks),
    tables: onPages(laid.tables),
    furniture: onPages(laid.furniture),
    features: features.sort(),
  };
  await writeFile(file, bytes);
  await writeFile(path.join(dir, `${spec.id}.truth.json`), `${JSON.stringify(truth, null, 1)}\n`);
  return { spec, truth, path: file, scan };
}
