// The text of a table cell from its words: lines joined as printed, right-to-left lines in reading order.
import { describe, expect, it } from 'vitest';
import { cellText } from '../../src/pipeline/analysis/tables/grid.js';
import { lineWords, word } from '../helpers/words.js';

describe('cell text', () => {
  it('joins a word the file broke after a hyphen to its second line, keeping the hyphen', () => {
    expect(cellText([word('2028-01-', 100, 200), word('16', 100, 212)], false)).toBe('2028-01-16');
    expect(cellText([word('cost-', 100, 200), word('effective', 100, 212)], false)).toBe('cost-effective');
    // A dash standing alone is a word of its own.
    expect(cellText([word('from', 100, 200), word('-', 130, 200), word('to', 100, 212)], false)).toBe('from - to');
  });

  it('reads a right-to-left line from right to left, and a Latin name or a figure in it left to right', () => {
    // Drawn left to right on the page: "Grace Hansen" stays as it reads; Hebrew words reverse.
    expect(cellText(lineWords('Grace Hansen', 100, 200), true)).toBe('Grace Hansen');
    expect(cellText([word('יום', 100, 200), word('דוח', 130, 200)], true)).toBe('דוח יום');
    expect(cellText([word('Anna', 100, 200), word('Weber', 130, 200), word('של', 170, 200)], true)).toBe('של Anna Weber');
  });

  it('reads the pieces of one row from the left: options set far apart, the second box read taller', () => {
    // A scan's reading gives the second check box a box reaching above the words beside it: it
    // tops the row, yet the option on the left comes first.
    const tall = { ...word('©', 160, 196), box: { x0: 160, y0: 196, x1: 166, y1: 212 } };
    expect(cellText([word('&', 100, 200), word('fund', 108, 200), tall, word('contract', 170, 200)], false)).toBe('& fund © contract');
  });

  it('reads the pieces of one row of a right-to-left cell from the right: options set far apart', () => {
    // "☐ כן" at the right, "☒ לא" far to its left (each box at the right of its word): one row, read right first.
    const options = [word('לא', 100, 200), word('☒', 114, 200), word('כן', 220, 200), word('☐', 234, 200)];
    expect(cellText(options, true)).toBe('☐ כן ☒ לא');
    expect(cellText([...options, word('הערה', 200, 214)], true)).toBe('☐ כן ☒ לא הערה');
  });
});
