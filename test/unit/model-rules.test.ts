// Rules of the model layer that need no server: the tier a length takes (docs/api.md "Model choice"),
// what pictures one request carries and what they cost (picture rule 6), and how long a vendor
// asks to be left alone (`Retry-After`, `retry-after-ms`).
import { describe, expect, it } from 'vitest';
import { chooseTier, contextExceeded, pictureTokens, picturesForRequest } from '../../src/domain/model.js';
import { requestedWait } from '../../src/models/llm/http.js';

const picture = (width: number, height: number, bytes: number) => ({ width, height, bytes: { length: bytes } });

describe('model choice', () => {
  it('auto moves to summit past 150k tokens; a pinned swift over 180k has no tier', () => {
    expect(chooseTier('auto', 150_000)).toBe('swift');
    expect(chooseTier('auto', 150_001)).toBe('summit');
    expect(chooseTier('swift', 180_000)).toBe('swift');
    expect(chooseTier('swift', 180_001)).toBeNull();
    expect(chooseTier('summit', 900_001)).toBeNull();
  });
});

describe('pictures to the model (picture rule 6)', () => {
  it('bills about width x height / 750 tokens, at most about 1,600', () => {
    expect(pictureTokens(300, 200)).toBe(80);
    expect(pictureTokens(1568, 1568)).toBe(1600);
  });

  it('carries at most 20 pictures, the largest, in document order', () => {
    const pictures = Array.from({ length: 25 }, (_, i) => picture(100 + i, 100, 1000));
    const { kept, leftOut } = picturesForRequest(pictures);
    expect(leftOut).toBe(5);
    expect(kept).toHaveLength(20);
    expect(kept).toEqual(pictures.slice(5));
  });

  it('keeps a request under 10 MB, taking the largest that fit', () => {
    const MB = 1024 * 1024;
    const big = picture(2000, 2000, 6 * MB);
    const bigger = picture(3000, 2000, 6 * MB);
    const small = picture(100, 100, MB);
    const { kept, leftOut } = picturesForRequest([small, big, bigger]);
    expect(kept).toEqual([small, bigger]);
    expect(leftOut).toBe(1);
  });
});

describe('waits a vendor asks for', () => {
  it('reads retry-after-ms, Retry-After in seconds and as an HTTP date', () => {
    expect(requestedWait(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(requestedWait(new Headers({ 'retry-after': '3' }))).toBe(3000);
    const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
    const wait = requestedWait(new Headers({ 'retry-after': inTwoSeconds }))!;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(2000);
    expect(requestedWait(new Headers({ 'retry-after': 'soon' }))).toBeNull();
    expect(requestedWait(new Headers())).toBeNull();
  });
});

describe('a text longer than its model reads', () => {
  it('names the context it passed: swift suggests the larger models, auto and summit the largest one', () => {
    expect(contextExceeded('swift', 200_000, 'document')).toMatch(/180000-token context of model "swift"; send it with model "auto" or "summit"/);
    expect(contextExceeded('auto', 1_000_000, 'document')).toMatch(/900000-token context of model "summit"/);
    expect(contextExceeded('summit', 1_000_000, 'question')).not.toMatch(/"swift"/);
  });
});
