// The page-counting thread's work (threads/count-thread.ts): a count for every type with pages of
// its own, and null, never an exception, for a file that cannot be opened (issue 25 scope 5).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import run from '../../src/pipeline/threads/count-thread.js';
import { CORPUS } from '../helpers/folio.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('page count at submission', () => {
  it('counts the pages of a PDF and of a Word file', async () => {
    const pdf = await PDFDocument.create();
    for (let i = 0; i < 7; i++) pdf.addPage([300, 400]);
    expect(await run({ kind: 'count', mediaType: 'application/pdf', bytes: await pdf.save() })).toBe(7);
    const docx = new Uint8Array(await readFile(path.join(CORPUS, 'office/docling-Strict-docx/Strict.docx')));
    expect(await run({ kind: 'count', mediaType: DOCX, bytes: docx })).toBeGreaterThanOrEqual(1);
  });

  it('answers null for a file that cannot be opened', async () => {
    const broken = new TextEncoder().encode('%PDF-1.7\nnot really a PDF');
    expect(await run({ kind: 'count', mediaType: 'application/pdf', bytes: broken })).toBeNull();
    expect(await run({ kind: 'count', mediaType: DOCX, bytes: Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2]) })).toBeNull();
  });

  it('warms up without a file', async () => {
    expect(await run({ kind: 'warm' })).toBeNull();
  });
});
