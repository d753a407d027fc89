// What a reader thread says when reading fails: the client's message in Folio's words, the
// engine's own words kept apart for the log (issue 22).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import run from '../../src/pipeline/threads/reader-thread.js';
import { spoolPages } from '../../src/pipeline/threads/page-spool.js';
import { internalLeak } from '../helpers/leaks.js';

const OFFICE_BATCH = { markdown: true, mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', images: false, uploadBytes: 0, joinsTables: false };

describe('reader failures', () => {
  it("keep an engine's exception out of the message and in the detail", async () => {
    // Pages no reader would make: the layout analysis meets a TypeError inside itself.
    const stats = { bodyFontSize: 10, bodyFont: '', monospacedFonts: [], headingSizes: [], runningLines: [], typeAreas: {} };
    const batch = { markdown: true, mediaType: 'application/pdf', images: false, uploadBytes: 0, joinsTables: true };
    const dir = await mkdtemp(path.join(tmpdir(), 'folio-failures-'));
    const pages = spoolPages(path.join(dir, 'broken.pages'), [{ number: 1 } as never], () => ({}) as never);
    const outcome = await run({ kind: 'analyze', pages, stats, analysis: 'layout', batch });
    await rm(dir, { recursive: true, force: true });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errorType).toBe('analysis_failed');
    expect(internalLeak(outcome.message)).toBeNull();
    expect(outcome.detail).toMatch(/TypeError/);
  });

  it("say what was wrong with a damaged file in Folio's words", async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]);
    const outcome = await run({ kind: 'readRange', mediaType: 'image/png', bytes: png, range: { first: 1, last: 1 }, spool: path.join(tmpdir(), 'folio-never-written.pages') });
    expect(outcome).toMatchObject({ ok: false, errorType: 'analysis_failed', message: expect.stringMatching(/^The document could not be read: the picture/) });
    if (outcome.ok) return;
    expect(internalLeak(outcome.message)).toBeNull();
    const zip = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6]);
    const office = await run({ kind: 'readStructured', mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', bytes: zip, analysis: 'layout', batch: OFFICE_BATCH });
    expect(office).toMatchObject({ ok: false, message: expect.stringMatching(/not a valid Office document/) });
    if (!office.ok) expect(internalLeak(office.message)).toBeNull();
  });
});
