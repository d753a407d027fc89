// Answers with pictures' bytes (issue 37 scope 5): written as read, each picture's base64 filled in
// where its placeholder stands, piece by piece; and at most PICTURE_ANSWERS under way per process,
// a quarter of them per workspace, refused past that with a 429 and Retry-After.
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { FolioError } from '../../src/domain/errors.js';
import { PICTURE_ANSWERS, PictureAnswers, PictureBytes } from '../../src/api/picture-answers.js';
import type { BlobStore } from '../../src/store/blobs.js';

/** A blob store holding `blobs`, streamed in pieces of `piece` bytes (so base64 must join across pieces). */
function memoryBlobs(blobs: Record<string, Buffer>, piece: number): BlobStore {
  return {
    stream: async (key: string) => {
      const bytes = blobs[key];
      const pieces: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += piece) pieces.push(bytes.subarray(at, at + piece));
      return Readable.from(pieces);
    },
  } as unknown as BlobStore;
}

/** What PictureAnswers needs of a reply: its headers and the 'close' of its response. */
function fakeReply() {
  const headers: Record<string, string> = {};
  const raw = new EventEmitter();
  return { headers, raw, reply: { raw, header: (name: string, value: string) => (headers[name] = value) } as never };
}

describe('PictureBytes', () => {
  it('writes each picture’s base64 where its placeholder stands, whatever the pieces the store gives', async () => {
    const pictures = { a: Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), b: Buffer.alloc(100_000, 7), c: Buffer.alloc(0) };
    for (const piece of [1, 2, 3, 4, 5, 64, 1_000_000]) {
      const bytes = new PictureBytes();
      const body = { object: 'list', data: [{ id: 'img_a', data: bytes.placeholder('a') }, { id: 'img_b', data: bytes.placeholder('b'), caption: 'a "quoted" caption' }, { id: 'img_c', data: bytes.placeholder('c') }] };
      const written = JSON.parse(await text(bytes.stream(body, memoryBlobs(pictures, piece))));
      expect(written).toEqual({
        object: 'list',
        data: [
          { id: 'img_a', data: pictures.a.toString('base64') },
          { id: 'img_b', data: pictures.b.toString('base64'), caption: 'a "quoted" caption' },
          { id: 'img_c', data: '' },
        ],
      });
    }
  });

  it('leaves text that merely looks like a placeholder alone: each answer’s token is its own', async () => {
    const earlier = new PictureBytes();
    const stolen = earlier.placeholder('a');
    const bytes = new PictureBytes();
    const body = { caption: stolen, data: bytes.placeholder('a') };
    const written = JSON.parse(await text(bytes.stream(body, memoryBlobs({ a: Buffer.from('xyz') }, 2))));
    expect(written).toEqual({ caption: stolen, data: Buffer.from('xyz').toString('base64') });
  });
});

describe('PictureAnswers', () => {
  it('refuses a workspace past its share with a 429 and Retry-After, and takes it again once one ends', () => {
    const answers = new PictureAnswers();
    const a = Array.from({ length: PICTURE_ANSWERS.perWorkspace }, fakeReply);
    for (const r of a) answers.begin('ws_a', r.reply);
    const refused = fakeReply();
    let error: unknown;
    try {
      answers.begin('ws_a', refused.reply);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FolioError);
    expect(error).toMatchObject({ type: 'rate_limited', status: 429, extra: { retry_after: 1 } });
    expect((error as Error).message).toMatch(/^Too many pictures at once: this workspace already has 4 answers with pictures' bytes under way\./);
    expect(refused.headers['retry-after']).toBe('1');
    // Another workspace still gets its place.
    answers.begin('ws_b', fakeReply().reply);
    a[0].raw.emit('close');
    a[0].raw.emit('close');
    expect(answers.load).toBe(PICTURE_ANSWERS.perWorkspace);
    answers.begin('ws_a', fakeReply().reply);
  });

  it('holds at most its total, whichever workspaces ask', () => {
    const answers = new PictureAnswers();
    const workspaces = PICTURE_ANSWERS.total / PICTURE_ANSWERS.perWorkspace;
    for (let w = 0; w < workspaces; w++) for (let i = 0; i < PICTURE_ANSWERS.perWorkspace; i++) answers.begin(`ws_${w}`, fakeReply().reply);
    expect(answers.load).toBe(PICTURE_ANSWERS.total);
    expect(() => answers.begin('ws_new', fakeReply().reply)).toThrow(/the server is writing as many answers/);
  });
});
