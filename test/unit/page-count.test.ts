// Counting pages at submission (issue 25 scope 5, issue 37 scope 1): the counting thread's work for
// every type with pages of its own, null (never an exception) for a file that cannot be opened;
// TIFF frames in one walk, whatever their number, stopping past the limit; the counter's time
// limit and the client's hang-up; and turns shared between workspaces.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import run from '../../src/pipeline/threads/count-thread.js';
import { FairTurns } from '../../src/pipeline/threads/fair-turns.js';
import { tiffDirectories, TiffStructureError } from '../../src/pipeline/formats/tiff-directories.js';
import { pathToFileURL } from 'node:url';
import { CORPUS, ROOT } from '../helpers/folio.js';
import { manyFrames, tiffFrames } from '../helpers/tiffs.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
// The counter starts threads from the built count-thread.js (npm test builds first).
const { CountTimeout, PageCounter } = (await import(pathToFileURL(path.join(ROOT, 'dist/pipeline/threads/page-counter.js')).href)) as typeof import('../../src/pipeline/threads/page-counter.js');
let dir: string;
let n = 0;

async function file(bytes: Uint8Array): Promise<string> {
  const at = path.join(dir, `${++n}.upload`);
  await writeFile(at, bytes);
  return at;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'folio-count-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('page count at submission', () => {
  it('counts the pages of a PDF, a Word file and a TIFF', async () => {
    const pdf = await PDFDocument.create();
    for (let i = 0; i < 7; i++) pdf.addPage([300, 400]);
    expect(await run({ kind: 'count', mediaType: 'application/pdf', path: await file(await pdf.save()), stopAfter: 100 })).toBe(7);
    const docx = new Uint8Array(await readFile(path.join(CORPUS, 'office/docling-Strict-docx/Strict.docx')));
    expect(await run({ kind: 'count', mediaType: DOCX, path: await file(docx), stopAfter: 100 })).toBeGreaterThanOrEqual(1);
    expect(await run({ kind: 'count', mediaType: 'image/tiff', path: await file(manyFrames(12)), stopAfter: 100 })).toBe(12);
  });

  it('stops counting TIFF frames one past the limit', async () => {
    expect(await run({ kind: 'count', mediaType: 'image/tiff', path: await file(manyFrames(5000)), stopAfter: 2000 })).toBe(2001);
    expect(await run({ kind: 'count', mediaType: 'image/tiff', path: await file(manyFrames(2000)), stopAfter: 2000 })).toBe(2000);
  });

  it('answers null for a file that cannot be opened', async () => {
    const broken = new TextEncoder().encode('%PDF-1.7\nnot really a PDF');
    expect(await run({ kind: 'count', mediaType: 'application/pdf', path: await file(broken), stopAfter: 100 })).toBeNull();
    expect(await run({ kind: 'count', mediaType: DOCX, path: await file(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2])), stopAfter: 100 })).toBeNull();
    const cut = manyFrames(3).subarray(0, 40);
    expect(await run({ kind: 'count', mediaType: 'image/tiff', path: await file(cut), stopAfter: 100 })).toBeNull();
  });

  it('warms up without a file', async () => {
    expect(await run({ kind: 'warm' })).toBeNull();
  });
});

describe('tiffDirectories: one walk along the chain', () => {
  it('reads each frame’s size, orientation and resolution, in either byte order and in BigTIFF', () => {
    const frames = [
      { width: 20, height: 10, dpi: 300, orientation: 6 },
      { width: 5, height: 7 },
    ];
    for (const options of [{}, { bigEndian: true }, { bigTiff: true }, { bigTiff: true, bigEndian: true }]) {
      expect(tiffDirectories(tiffFrames(frames, options))).toEqual({
        frames: [
          { width: 20, height: 10, orientation: 6, dpi: 300 },
          { width: 5, height: 7, orientation: 1, dpi: null },
        ],
        more: false,
      });
    }
  });

  it('ends a chain that loops back on itself where it comes back', () => {
    expect(tiffDirectories(manyFrames(10, 1, 1, { loopTo: 4 })).frames).toHaveLength(10);
    expect(tiffDirectories(manyFrames(1, 1, 1, { loopTo: 0 })).frames).toHaveLength(1);
  });

  it('takes time in proportion to the frames, not their square', () => {
    // 100,000 frames of 1x1 pixel (10 MB): a walk that went back to the start for each frame would
    // read five billion directories; this one reads each once. Measured by what it returns, not by time.
    const result = tiffDirectories(manyFrames(100_000));
    expect(result.frames).toHaveLength(100_000);
    expect(tiffDirectories(manyFrames(100_000), 2000)).toMatchObject({ more: true });
    expect(tiffDirectories(manyFrames(100_000), 2000).frames).toHaveLength(2000);
  });

  it('refuses what is not a TIFF, or points past its end', () => {
    expect(() => tiffDirectories(new TextEncoder().encode('%PDF-1.7 ...'))).toThrow(TiffStructureError);
    const bad = manyFrames(2);
    bad.writeUInt32LE(bad.length + 100, 4);
    expect(() => tiffDirectories(bad)).toThrow(TiffStructureError);
  });
});

describe('PageCounter: a time limit, the client, and turns', () => {
  it('counts in its threads, and stops a count whose client has gone', async () => {
    const counter = new PageCounter({ threads: 2, timeoutMs: 10_000 });
    try {
      const tiff = await file(manyFrames(30));
      expect(await counter.count({ mediaType: 'image/tiff', path: tiff, stopAfter: 100, tenant: 'ws_a' })).toBe(30);
      const gone = new AbortController();
      gone.abort(new Error('the client has gone'));
      await expect(counter.count({ mediaType: 'image/tiff', path: tiff, stopAfter: 100, tenant: 'ws_a', signal: gone.signal })).rejects.toThrow('the client has gone');
      expect(counter.load).toEqual({ running: 0, waiting: 0 });
    } finally {
      await counter.close();
    }
    // Its first count starts two reader threads, which load PDFium's WebAssembly: past vitest's
    // five seconds when CI's Node 22 pass runs the document lifecycle's files beside it on two cores.
  }, 30_000);

  it('closes at any moment of its threads warming up', async () => {
    // Each round opens a counter and closes it after a different part of its threads' warm-up
    // (which takes 100 to 300 ms unloaded, seconds on a loaded machine: the time limit leaves room
    // for that, the test is about ending, not speed).
    for (let delayMs = 0; delayMs <= 500; delayMs += 20) {
      const counter = new PageCounter({ threads: 2, timeoutMs: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await counter.close();
    }
  }, 120_000);

  it('ends a count that runs out of time with CountTimeout, and frees its turn', async () => {
    // No count of a 4,000-page PDF (opening it, posting its answer back) takes under a millisecond.
    const counter = new PageCounter({ threads: 1, timeoutMs: 1 });
    try {
      const pdf = await PDFDocument.create();
      for (let i = 0; i < 4000; i++) pdf.addPage([300, 400]).drawText(`page ${i}`);
      const slow = await file(await pdf.save());
      await expect(counter.count({ mediaType: 'application/pdf', path: slow, stopAfter: 10_000, tenant: 'ws_a' })).rejects.toBeInstanceOf(CountTimeout);
      expect(counter.load).toEqual({ running: 0, waiting: 0 });
    } finally {
      await counter.close();
    }
  }, 30_000);
});

describe('FairTurns', () => {
  /** A task that runs until released, recording when it starts. */
  function gate(log: string[], name: string) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    return { task: async () => (log.push(name), await released, name), release: () => release() };
  }
  const tick = () => new Promise((r) => setTimeout(r, 0));

  it("gives a waiting tenant the next free slot, ahead of another tenant's queue", async () => {
    const turns = new FairTurns(2, 1);
    const started: string[] = [];
    const a = Array.from({ length: 5 }, (_, i) => gate(started, `a${i}`));
    const b = gate(started, 'b0');
    const runs = a.map((g) => turns.run('a', g.task));
    await tick();
    // One tenant holds at most one of the two slots: its second task waits though a slot is free.
    expect(started).toEqual(['a0']);
    const bRun = turns.run('b', b.task);
    await tick();
    expect(started).toEqual(['a0', 'b0']);
    a[0].release();
    await tick();
    expect(started).toEqual(['a0', 'b0', 'a1']);
    b.release();
    for (const g of a) g.release();
    await Promise.all([...runs, bRun]);
    expect(started).toEqual(['a0', 'b0', 'a1', 'a2', 'a3', 'a4']);
    expect(turns.load).toEqual({ running: 0, waiting: 0 });
  });

  it('takes a task out of the line when its signal aborts while it waits', async () => {
    const turns = new FairTurns(1, 1);
    const started: string[] = [];
    const first = gate(started, 'first');
    const running = turns.run('a', first.task);
    const gone = new AbortController();
    const waiting = turns.run('b', gate(started, 'never').task, gone.signal);
    await tick();
    expect(turns.load).toEqual({ running: 1, waiting: 1 });
    gone.abort(new Error('hung up'));
    await expect(waiting).rejects.toThrow('hung up');
    expect(turns.load).toEqual({ running: 1, waiting: 0 });
    first.release();
    await running;
    expect(started).toEqual(['first']);
  });
});
