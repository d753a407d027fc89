// Type detection from bytes for all nine docs/api.md types (issue 2, scope 9). Each upload is accepted
// with its detected `content_type` whatever it is called and then read (a HEIF header alone fails
// as unreadable).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, CORPUS, Installation, type Server } from '../helpers/folio.js';

let install: Installation;
let server: Server;
let client: Client;

beforeAll(async () => {
  install = await Installation.create();
  server = await install.start();
  client = new Client(server.url, (await install.workspace()).test);
});

afterAll(async () => {
  await server?.stop();
  await install?.destroy();
});

/** A 2x2 24-bit BMP, written out by hand (no encoder needed for four pixels). */
function bmp(): Uint8Array {
  const row = 2 * 3 + 2; // padded to 4 bytes
  const size = 54 + row * 2;
  const b = Buffer.alloc(size);
  b.write('BM', 0);
  b.writeUInt32LE(size, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(2, 18);
  b.writeInt32LE(2, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  b.writeUInt32LE(row * 2, 34);
  b.fill(0xff, 54);
  return b;
}

/** The opening `ftyp` box of a HEIC file: enough for sniffing, not a picture. */
function heicHeader(): Uint8Array {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write('ftypheic', 4);
  box.write('mif1heic', 16);
  return Buffer.concat([box, Buffer.alloc(64)]);
}

const corpus = (p: string) => readFile(path.join(CORPUS, p));

describe('type detection', () => {
  it('recognizes each supported type from its bytes, whatever the file is called', async () => {
    // [name, bytes, detected type, outcome]: completed, or the failure type and a word of its message.
    type Outcome = 'completed' | [string, RegExp];
    const cases: [string, Promise<Uint8Array> | Uint8Array, string, Outcome][] = [
      ['PNG', corpus('forms_kv/doclingeval-keyvalue-multiline/page.png'), 'image/png', 'completed'],
      ['JPEG', corpus('forms_kv/sroie-000/000.jpg'), 'image/jpeg', 'completed'],
      ['TIFF', corpus('ocr_scans/tesseract-eurotext/eurotext.tif'), 'image/tiff', 'completed'],
      ['BMP', bmp(), 'image/bmp', 'completed'],
      ['HEIF', heicHeader(), 'image/heic', ['analysis_failed', /could not be read/]],
      ['DOCX', corpus('office/docling-lorem_ipsum-docx/lorem_ipsum.docx'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'completed'],
      ['XLSX', corpus('office/docling-xlsx_01-xlsx/xlsx_01.xlsx'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'completed'],
      ['PPTX', corpus('office/docling-powerpoint_sample-pptx/powerpoint_sample.pptx'), 'application/vnd.openxmlformats-officedocument.presentationml.presentation', 'completed'],
    ];
    for (const [name, bytes, mediaType, outcome] of cases) {
      const accepted = await client.upload([['file', 'upload.bin', await bytes]]);
      expect(accepted.status, name).toBe(202);
      const done = await client.waitFor(accepted.json.id, 90_000);
      expect(done.content_type, name).toBe(mediaType);
      if (outcome === 'completed') {
        expect(done.status, `${name}: ${JSON.stringify(done.error)}`).toBe('completed');
      } else {
        expect(done.error, name).toMatchObject({ type: outcome[0], stage: 'analyzing' });
        expect(done.error.message, name).toMatch(outcome[1]);
      }
    }
  }, 180_000);

  it('refuses the legacy Office formats (.xls, .ppt) with 415', async () => {
    for (const file of ['office/docling-legacy_sample-xls/legacy_sample.xls', 'office/docling-legacy_sample-ppt/legacy_sample.ppt']) {
      const response = await client.upload([['file', path.basename(file), await corpus(file)]]);
      expect(response.status, file).toBe(415);
      expect(response.json.error.type).toBe('unsupported_media_type');
    }
  });
});

describe('start-up', () => {
  it('applies migrations once when several processes start together (docs/decisions.md#running)', async () => {
    const fresh = await Installation.create();
    try {
      const servers = await Promise.all([fresh.start(), fresh.start(['--no-workers']), fresh.start(['worker'])]);
      const ws = await fresh.workspace();
      for (const s of servers.filter((s) => s.url)) {
        expect((await new Client(s.url, ws.test).get('/api/v1/account')).status).toBe(200);
      }
      await Promise.all(servers.map((s) => s.stop()));
    } finally {
      await fresh.destroy();
    }
  });
});
