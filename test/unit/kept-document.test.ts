// A reader thread keeps a document open between its tasks on it, and opens it afresh once a given
// number of its pages were loaded (pdfium.ts REOPEN_AFTER_PAGES), so that what PDFium keeps of a
// document while it is open follows the pages in hand, not the pages read. Reading is the same
// either way.
import { describe, expect, it } from 'vitest';
import { openPdf, REOPEN_AFTER_PAGES } from '../../src/pipeline/formats/pdfium.js';
import { readPdf } from '../../src/pipeline/formats/pdf.js';
import { longPdf } from '../helpers/pdfs.js';

describe('a kept document', () => {
  it('is the same document until its pages loaded reach the limit, then a fresh one', async () => {
    const bytes = await longPdf(4, 10);
    const half = Math.ceil(REOPEN_AFTER_PAGES / 2);
    const first = await openPdf(bytes, half, 'kept-test');
    first.release();
    const second = await openPdf(bytes, half, 'kept-test');
    second.release();
    expect(second.doc).toBe(first.doc);
    const third = await openPdf(bytes, 1, 'kept-test');
    third.release();
    expect(third.doc).not.toBe(first.doc);
    // Another file under the same thread closes the kept one.
    const other = await openPdf(await longPdf(2, 10), 1, 'kept-test-2');
    other.release();
  });

  it('reads a long document in spans, reopened on the way, as it reads it whole', async () => {
    const pages = REOPEN_AFTER_PAGES * 2 + 10;
    const bytes = await longPdf(pages, 40);
    const whole = await readPdf(bytes);
    const spans = [];
    for (let first = 1; first <= pages; first += 32) spans.push(...(await readPdf(bytes, { first, last: Math.min(pages, first + 31) }, 'spans-test')));
    expect(spans.length).toBe(pages);
    expect(JSON.stringify(spans)).toBe(JSON.stringify(whole));
  }, 120_000);
});
