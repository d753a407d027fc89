// Which lines of a table are one cell's, told by their pitches (line-pitches.ts).
import { describe, expect, it } from 'vitest';
import { wrappedLines, type LinePair } from '../../src/pipeline/analysis/tables/line-pitches.js';

/** Lines 12 tall (9.5-point type in its line box): the space between them is the pitch less 12. */
const pair = (pitch: number, above: number[], below: number[]): LinePair => ({ pitch, space: pitch - 12, above: new Set(above), below: new Set(below) });

describe('wrapped lines by pitch', () => {
  it("take a label's first line, set alone at the leading over its row set at the foot, as that row's", () => {
    // 9.5-point type: rows 25.5 apart, a label's two lines 11 apart.
    const pairs = [pair(25.5, [0, 1, 2], [0]), pair(11, [0], [0, 1, 2]), pair(25.5, [0, 1, 2], [0, 1, 2])];
    expect(wrappedLines(pairs, 9.5)).toEqual(new Set([1]));
  });

  it('part a line two font sizes or more over the next, though that is closer than the rows stand: a caption over the header', () => {
    // A caption in one column 22.3 over a header of three (10.3 between them); the rows stand 25.5 apart.
    const pairs = [pair(22.3, [0], [0, 1, 2]), pair(26.1, [0, 1, 2], [0, 1, 2]), pair(25.5, [0, 1, 2], [0, 1, 2])];
    expect(wrappedLines(pairs, 9.5)).toEqual(new Set());
  });

  it('keep a line of words set upright in a tall header cell with the line over it, whose box it overlaps, though their middles stand far apart', () => {
    // "User action" over "*JOBCTL" set upright, 60 tall, beside it in the header: middles 24
    // apart, the boxes overlapping; the rows stand 40 apart.
    const pairs = [{ pitch: 24, space: -6, above: new Set([0]), below: new Set([0, 1]) }, pair(40, [0, 1], [0, 1]), pair(40, [0, 1], [0, 1])];
    expect(wrappedLines(pairs, 9.5)).toEqual(new Set([0]));
  });
});
