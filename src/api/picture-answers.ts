// Answers that carry pictures' bytes (`include=image_data` on pages, `include=data` on images).
// Such an answer was built whole: every picture read, a base64 copy of each, then the JSON text
// of it all, about three and a half times the pictures' bytes, up to 25 MB of them per answer, so
// ten concurrent reads grew the API by half a gigabyte that it kept. Now the answer is written as
// it is read: its JSON with a placeholder where each picture's base64 goes, each filled in from
// the blob store piece by piece as the client takes them (a piece of a blob in hand at a time).
// And a process writes at most PICTURE_ANSWERS of them at once, at most a quarter of them for one
// workspace, so one workspace's slow or numerous readers cannot take them all; past either
// bound the request is a 429 with Retry-After, before anything is read.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { FolioError } from '../domain/errors.js';
import type { BlobStore } from '../store/blobs.js';

/** Answers with pictures' bytes a process writes at once, and one workspace's share of them. */
export const PICTURE_ANSWERS = { total: 16, perWorkspace: 4 } as const;

/** How long a refused client is told to wait: one picture answer takes about that. */
const RETRY_AFTER_SECONDS = 1;

/** The process's picture answers under way, per workspace. */
export class PictureAnswers {
  private total = 0;
  private readonly byWorkspace = new Map<string, number>();

  /** Takes a place for `workspaceId`'s answer, given back once `reply` has been sent or cut off; a 429 when there is none. */
  begin(workspaceId: string, reply: FastifyReply): void {
    const mine = this.byWorkspace.get(workspaceId) ?? 0;
    if (mine >= PICTURE_ANSWERS.perWorkspace || this.total >= PICTURE_ANSWERS.total) {
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      const whose = mine >= PICTURE_ANSWERS.perWorkspace ? `this workspace already has ${mine} answers with pictures' bytes under way` : 'the server is writing as many answers with pictures\' bytes as it writes at once';
      throw new FolioError('rate_limited', `Too many pictures at once: ${whose}. Retry in ${RETRY_AFTER_SECONDS} s, or take the pictures by their url.`, { retry_after: RETRY_AFTER_SECONDS });
    }
    this.total++;
    this.byWorkspace.set(workspaceId, mine + 1);
    let ended = false;
    reply.raw.once('close', () => {
      if (ended) return;
      ended = true;
      this.total--;
      const left = (this.byWorkspace.get(workspaceId) ?? 1) - 1;
      if (left) this.byWorkspace.set(workspaceId, left);
      else this.byWorkspace.delete(workspaceId);
    });
  }

  /** Answers under way, for tests and metrics. */
  get load(): number {
    return this.total;
  }
}

/** Where pictures' bytes go in one answer: a placeholder per picture, replaced as the answer is written. */
export class PictureBytes {
  private readonly token = `folio-picture-${randomUUID()}`;
  private readonly blobKeys: string[] = [];

  /** The string that stands in the answer's JSON where the picture's base64 goes. */
  placeholder(blobKey: string): string {
    this.blobKeys.push(blobKey);
    return `${this.token}:${this.blobKeys.length - 1}`;
  }

  /**
   * `body` as JSON text, written as the client reads it: each placeholder (a random token no other
   * text of the answer holds) replaced by its picture's base64, read from `blobs` as it goes.
   */
  stream(body: unknown, blobs: BlobStore): Readable {
    const text = JSON.stringify(body);
    const holes = new RegExp(`"${this.token}:(\\d+)"`, 'g');
    const keys = this.blobKeys;
    async function* pieces(): AsyncGenerator<string> {
      let at = 0;
      for (const hole of text.matchAll(holes)) {
        yield `${text.slice(at, hole.index)}"`;
        yield* base64Of(await blobs.stream(keys[Number(hole[1])]));
        yield '"';
        at = hole.index + hole[0].length;
      }
      yield text.slice(at);
    }
    return Readable.from(pieces(), { objectMode: false });
  }
}

/** The base64 of a stream of bytes, a piece at a time (each a multiple of three bytes, so pieces join). */
async function* base64Of(source: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of source) {
    const joined = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    const whole = joined.length - (joined.length % 3);
    if (whole) yield joined.subarray(0, whole).toString('base64');
    rest = joined.subarray(whole);
  }
  if (rest.length) yield rest.toString('base64');
}

/** Sends `body` with its pictures' bytes written in as they are read. */
export function sendWithPictures(reply: FastifyReply, body: unknown, bytes: PictureBytes, blobs: BlobStore): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(bytes.stream(body, blobs));
}
