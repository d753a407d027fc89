// Scans and photos through the HTTP API (issue 6; docs/api.md input types and picture rule 4): every
// image type read by OCR, pages turned upright, a page read again with a local threshold (issue
// 23), scanned PDF pages, rulings found in a scan, the pictures kept for PNG and JPEG only, and
// pictures that cannot or must not be read.
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Installation, type Server } from '../helpers/folio.js';
import { greyBmp, pngDeclaring, scannedPdf, textPicture, toSharp } from '../helpers/images.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

let install: Installation;
let server: Server;
let client: Client;

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  client = new Client(server.url, (await install.workspace()).test);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await install?.destroy();
});

async function read(name: string, bytes: Uint8Array | Buffer, options?: unknown, include = 'images'): Promise<{ doc: any; pages: any[] }> {
  const accepted = await client.upload([['file', name, bytes]], options);
  expect(accepted.status, JSON.stringify(accepted.json)).toBe(202);
  const doc = await client.waitFor(accepted.json.id, 120_000);
  const pages = doc.status === 'completed' ? (await client.get(`/api/v1/documents/${doc.id}/pages?include=${include}`)).json.data : [];
  return { doc, pages };
}

/** Words of the page text, for comparing OCR output without minding line breaks. */
const words = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('pictures of text', () => {
  it('PNG: read by OCR, the picture kept as the page image (JPEG, long side at most 1568 px)', async () => {
    const picture = await textPicture(['Quarterly sales rose sharply', 'across all northern regions']);
    const { doc, pages } = await read('scan.png', await toSharp(picture).png().toBuffer());
    expect(doc).toMatchObject({ status: 'completed', content_type: 'image/png', page_count: 1 });
    expect(words(pages[0].text)).toBe('Quarterly sales rose sharply across all northern regions');
    expect(pages[0].word_count).toBe(8);
    expect(pages[0].images).toHaveLength(1);
    expect(pages[0].images[0]).toMatchObject({ kind: 'page', media_type: 'image/jpeg', width: 1568, height: Math.round((picture.height * 1568) / picture.width), bbox: null });
  });

  it('JPEG: its EXIF orientation is applied, so a photo stored sideways reads and shows upright', async () => {
    const picture = await textPicture(['The camera was held sideways', 'when this page was photographed']);
    // Pixels stored turned a quarter left, with EXIF orientation 6 telling viewers to turn them right.
    const stored = await toSharp(picture).rotate(-90).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer();
    const { pages } = await read('photo.jpg', stored);
    expect(words(pages[0].text)).toBe('The camera was held sideways when this page was photographed');
    expect(pages[0].images[0].width).toBeGreaterThan(pages[0].images[0].height);
  });

  it('TIFF: one page per frame, bilevel Group 4 included; no pictures', async () => {
    const { doc, pages } = await read('fax.tif', await readFile(path.join(FIXTURES, 'fax-two-pages-g4.tif')));
    expect(doc).toMatchObject({ content_type: 'image/tiff', page_count: 2 });
    expect(words(pages[0].text)).toBe('First page of the fax Invoice number 4471');
    expect(words(pages[1].text)).toBe('Second page of the fax Total due 310 euros');
    expect(pages.flatMap((p: any) => p.images)).toEqual([]);
  });

  it('BMP (8-bit paletted, plain and RLE8) and HEIF (HEVC): read, with no pictures', async () => {
    const picture = await textPicture(['Bitmap from an old scanner']);
    for (const rle of [false, true]) {
      const { doc, pages } = await read('old.bmp', greyBmp(picture, rle));
      expect(doc.content_type).toBe('image/bmp');
      expect(words(pages[0].text)).toBe('Bitmap from an old scanner');
      expect(pages[0].images).toEqual([]);
    }
    const heif = await read('photo.heic', await readFile(path.join(FIXTURES, 'phone-photo.heic')));
    expect(heif.doc.content_type).toMatch(/^image\/hei[cf]$/);
    expect(words(heif.pages[0].text)).toBe('A photo taken with a phone saved as HEIF by the camera');
    expect(heif.pages[0].images).toEqual([]);
  });

  it('a page photographed upside down or skewed is turned upright and straightened before reading', async () => {
    const picture = await textPicture(['Turned around by the scanner', 'and still read the right way up']);
    const upsideDown = await toSharp(picture).rotate(180).png().toBuffer();
    expect(words((await read('a.png', upsideDown)).pages[0].text)).toBe('Turned around by the scanner and still read the right way up');
    const skewed = await toSharp(picture).rotate(3, { background: '#ffffff' }).png().toBuffer();
    expect(words((await read('b.png', skewed)).pages[0].text)).toBe('Turned around by the scanner and still read the right way up');
  });
});

describe('pages read with doubt', () => {
  it('a receipt photographed half in shadow is read with a local threshold, and result.warnings says so', async () => {
    const lines = ['TOTAL AMOUNT 35.80', 'CASH 50.00', 'CHANGE 14.20', 'THANK YOU PLEASE COME AGAIN'];
    const paper = await textPicture(lines, { size: 12, heightPt: 240 });
    // The left half at 40% of the light: Tesseract's global threshold takes all of it for ink.
    const shadowed = { ...paper, data: paper.data.map((v, i) => (i % paper.width < paper.width / 2 ? Math.round(v * 0.4) : v)) };
    const { doc, pages } = await read('receipt.png', await toSharp(shadowed).png().toBuffer(), { extraction: { fields: ['amounts'] } });
    expect(words(pages[0].text)).toBe(lines.join(' '));
    expect(pages[0].word_count).toBe(12);
    const warning = doc.result.warnings.find((w: string) => w.startsWith('OCR found almost no text on page 1'));
    expect(warning).toContain('local threshold');
  });
});

describe('scanned PDF pages and layout on scans', () => {
  it('a PDF page that is only a picture is read by OCR and kept whole as its page picture', async () => {
    const picture = await textPicture(['Scanned contract page one', 'signed by both parties'], { widthPt: 420, heightPt: 200 });
    const { doc, pages } = await read('scan.pdf', await scannedPdf(picture, 420, 200), undefined, 'images,layout');
    expect(doc.page_count).toBe(1);
    expect(words(pages[0].text)).toBe('Scanned contract page one signed by both parties');
    expect(pages[0].images.map((i: any) => i.kind)).toEqual(['page']);
    expect(pages[0].layout.map((e: any) => e.type)).not.toContain('figure');
  });

  it('finds a table from the rulings drawn in the picture', async () => {
    const picture = await textPicture(['Stock on hand'], {
      widthPt: 420,
      heightPt: 240,
      ruledTable: [
        ['Item', 'Count', 'Shelf'],
        ['Bolts', '120', 'A4'],
        ['Nuts', '85', 'B2'],
      ],
    });
    const { pages } = await read('stock.png', await toSharp(picture).png().toBuffer(), undefined, 'tables');
    expect(pages[0].tables).toHaveLength(1);
    expect(pages[0].tables[0].rows).toEqual([
      ['Item', 'Count', 'Shelf'],
      ['Bolts', '120', 'A4'],
      ['Nuts', '85', 'B2'],
    ]);
  });
});

describe('pictures that cannot or must not be read', () => {
  it('a picture declaring gigantic dimensions is refused without being decoded', async () => {
    const { doc } = await read('bomb.png', await pngDeclaring(100_000, 100_000));
    expect(doc).toMatchObject({ status: 'failed', error: { type: 'analysis_failed', stage: 'analyzing' } });
    expect(doc.error.message).toMatch(/megapixels/);
  });

  it('a truncated picture fails with analysis_failed and a clear message', async () => {
    const png = await toSharp(await textPicture(['Cut short'])).png().toBuffer();
    const { doc } = await read('cut.png', png.subarray(0, Math.floor(png.length / 2)));
    expect(doc).toMatchObject({ status: 'failed', error: { type: 'analysis_failed', stage: 'analyzing' } });
    expect(doc.error.message).toMatch(/could not be (read|decoded)/);
  });

  it('a PNG wider than 8000 px keeps no page picture (docs/api.md picture rule 4)', async () => {
    const wide = await sharp({ create: { width: 8200, height: 900, channels: 3, background: '#ffffff' } })
      .composite([{ input: await toSharp(await textPicture(['Banner'])).png().toBuffer(), left: 0, top: 0 }])
      .png()
      .toBuffer();
    const { doc, pages } = await read('banner.png', wide);
    expect(doc.status).toBe('completed');
    expect(pages[0].images).toEqual([]);
  });
});

describe('an OCR engine that fails on a page', () => {
  it('fails the document with that page named, and the other engine processes start no further pages', async () => {
    // A stand-in for the system's tesseract: the first page it is given fails, every other reads
    // as an empty page (which Folio tries several ways). Each call leaves a line in calls.log.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-fake-tesseract-'));
    const fake = path.join(dir, 'tesseract');
    await writeFile(
      fake,
      [
        '#!/bin/sh',
        'if [ "$1" = "--version" ]; then echo "tesseract 5.3.0"; exit 0; fi',
        'cat > /dev/null',
        `echo call >> "${dir}/calls.log"`,
        `if mkdir "${dir}/failed" 2>/dev/null; then echo "engine broke" >&2; exit 3; fi`,
        'printf "level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext\\n"',
      ].join('\n'),
    );
    await chmod(fake, 0o755);
    // An installation of its own, so that no other worker takes the document.
    const separate = await Installation.create();
    const failing = await separate.start([], { FOLIO_OCR_ENGINE: 'system', FOLIO_TESSERACT_PATH: fake, FOLIO_OCR_WORKERS: '2' });
    try {
      const pages = 6;
      const doc = await PDFDocument.create();
      const png = await toSharp(await textPicture(['A page of a scanned report'])).png().toBuffer();
      for (let i = 0; i < pages; i++) doc.addPage([420, 300]).drawImage(await doc.embedPng(png), { x: 0, y: 0, width: 420, height: 300 });
      const other = new Client(failing.url, (await separate.workspace()).test);
      const accepted = await other.upload([['file', 'scans.pdf', await doc.save()]]);
      const done = await other.waitFor(accepted.json.id, 120_000);
      expect(done).toMatchObject({ status: 'failed', error: { type: 'analysis_failed', stage: 'analyzing' } });
      expect(done.error.message).toMatch(/^Page \d could not be read by OCR\.$/);
      // The failed call, and the calls the pages in hand had started when it failed (they are
      // stopped then; a blank reading would be tried up to 8 ways); reading on through the other
      // pages, after the document has failed, would take dozens of calls. Counted once no call
      // has come for 3 s.
      const callCount = async () => (await readFile(path.join(dir, 'calls.log'), 'utf8')).trim().split('\n').length;
      let calls = await callCount();
      for (let settled = 0; settled < 3; ) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const now = await callCount();
        settled = now === calls ? settled + 1 : 0;
        calls = now;
      }
      expect(calls).toBeLessThanOrEqual(1 + 8);
    } finally {
      await failing.stop();
      await separate.destroy();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
