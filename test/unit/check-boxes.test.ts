import { describe, expect, it } from 'vitest';
import { checkBoxText, findCheckBoxes, withCheckBoxes, type CheckBox } from '../../src/pipeline/scans/check-boxes.js';
import { textPicture } from '../helpers/images.js';

/** The rows the picture's ink spans, as a text line's band across the whole picture. */
function inkBand(picture: { width: number; height: number; data: Uint8Array }): { x0: number; y0: number; x1: number; y1: number } {
  let [y0, y1, x0, x1] = [picture.height, -1, picture.width, -1];
  for (let y = 0; y < picture.height; y++) {
    for (let x = 0; x < picture.width; x++) {
      if (picture.data[y * picture.width + x] >= 128) continue;
      [y0, y1, x0, x1] = [Math.min(y0, y), Math.max(y1, y), Math.min(x0, x), Math.max(x1, x)];
    }
  }
  return { x0, y0, x1, y1 };
}

describe('check boxes on a scan', () => {
  it('find square outlines on a text line, empty or marked, and no letter of the line however round or closed', async () => {
    // Letters that close a loop or stand straight: o, O, D, b, d, p, q, 0, 8, H, E.
    const picture = await textPicture(['Hollow ODD doors bode 0800 HE'], { widthPt: 520 });
    const line = inkBand(picture);
    const side = Math.round((line.y1 - line.y0) * 0.7);
    const { width, data } = picture;
    const paint = (x: number, y: number) => (data[y * width + x] = 20);
    // Four squares right of the text on its line: one empty, one crossed, one filled solid, and
    // one outlined in strokes as thick as a bold letter's stems (a bold "in" whose serifs join).
    const lefts = [line.x1 + 40, line.x1 + 40 + side * 2, line.x1 + 40 + side * 4, line.x1 + 40 + side * 6];
    const top = line.y1 - side;
    lefts.forEach((left, k) => {
      for (let i = 0; i < side; i++) {
        for (const t of [0, 1, 2]) {
          paint(left + i, top + t);
          paint(left + i, top + side - 1 - t);
          paint(left + t, top + i);
          paint(left + side - 1 - t, top + i);
        }
        if (k === 1) for (const t of [0, 1]) {
          paint(left + i, top + Math.min(side - 1, i + t));
          paint(left + side - 1 - i, top + Math.min(side - 1, i + t));
        }
        if (k === 2) for (let j = 0; j < side; j++) paint(left + i, top + j);
        if (k === 3) for (let t = 3; t < Math.round(side * 0.25); t++) {
          paint(left + i, top + t);
          paint(left + i, top + side - 1 - t);
          paint(left + t, top + i);
          paint(left + side - 1 - t, top + i);
        }
      }
    });
    const found = findCheckBoxes(picture, [{ ...line, x1: line.x1 + side * 8 }]);
    expect(found.map((b) => [b.x0, b.marked])).toEqual([
      [lefts[0], false],
      [lefts[1], true],
    ]);
    expect(found.map(checkBoxText)).toEqual(['☐', '☒']);
    // Nothing is found away from every text line.
    expect(findCheckBoxes(picture, [{ x0: 0, y0: 0, x1: 40, y1: 20 }])).toEqual([]);
  });

  it("place each box before its option's label, dropping what the engine read from it and leaving a letter of a word alone", () => {
    const word = (text: string, x0: number, x1: number) => ({ text, x0, y0: 100, x1, y1: 130 });
    // "☐ fund ☒ contract" read as "Cl fund contract": the first box misread, the second lost.
    const words = [word('Cl', 98, 122), word('fund', 130, 190), word('contract', 230, 330), word('boxed', 360, 440)];
    const box = (x0: number, marked: boolean): CheckBox => ({ x0, y0: 104, x1: x0 + 20, y1: 124, marked });
    // The third "box" is the o of "boxed", closed by the scan.
    const placed = withCheckBoxes(words, [box(100, false), box(204, true), box(375, false)], (b, neighbour) => ({ ...neighbour, text: checkBoxText(b), x0: b.x0, x1: b.x1 }));
    expect(placed.map((w) => w.text)).toEqual(['☐', 'fund', '☒', 'contract', 'boxed']);
    // A layer that holds the box already keeps it as it is.
    const known = [word('☒', 100, 120), word('fund', 130, 190)];
    expect(withCheckBoxes(known, [box(100, true)], (b, n) => ({ ...n, text: 'again' })).map((w) => w.text)).toEqual(['☒', 'fund']);
  });
});
