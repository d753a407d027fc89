import { describe, expect, it } from 'vitest';
import { analyzeDocument, blockText } from '../../src/pipeline/analysis/analyze-page.js';
import { buildLines } from '../../src/pipeline/analysis/lines.js';
import { NO_GRAPHICS, type Block, type Page, type RawPage, type Word } from '../../src/pipeline/page-model.js';
import { setProportionally } from '../helpers/words.js';

// Synthetic pages: boxes have the origin at the top-left and y grows downwards (page-model.ts).
// A character is half the font size wide; a word is one font size tall.

interface WordOptions {
  size?: number;
  bold?: boolean;
  hyphenated?: boolean;
}

function word(text: string, x0: number, y0: number, { size = 10, bold = false, hyphenated = false }: WordOptions = {}): Word {
  return {
    text,
    box: { x0, y0, x1: x0 + text.length * size * 0.5, y1: y0 + size },
    fontName: bold ? 'Helvetica-Bold' : 'Helvetica',
    fontSize: size,
    bold,
    italic: false,
    confidence: 100,
    hyphenated,
  };
}

/** The words of `text` from x0, a word gap (0.3 x the font size) apart. */
function lineWords(text: string, x0: number, y0: number, options: WordOptions = {}): Word[] {
  const size = options.size ?? 10;
  const out: Word[] = [];
  let x = x0;
  for (const t of text.split(' ')) {
    const w = word(t, x, y0, options);
    out.push(w);
    x = w.box.x1 + size * 0.3;
  }
  return out;
}

function rawPage(words: Word[], number = 1, width = 612, height = 792): RawPage {
  return { number, width, height, unit: 'pt', rotation: 0, skew: 0, words, graphics: NO_GRAPHICS, formFields: [], textSource: 'text_layer' };
}

function lineTexts(words: Word[]): string[] {
  return buildLines(words).map((line) => line.words.map((i) => words[i].text).join(' '));
}

function blocksOf(page: Page): { type: Block['type']; text: string; level?: number }[] {
  return page.blocks.map((block) => ({
    type: block.type,
    text: blockText(block, page),
    ...(block.level !== undefined ? { level: block.level } : {}),
  }));
}

describe('buildLines', () => {
  it('joins the words of one baseline, left to right, whatever order they were drawn in', () => {
    const words = [...lineWords('world again', 47, 100), ...lineWords('Hello', 20, 100)];
    expect(lineTexts(words)).toEqual(['Hello world again']);
  });

  it('keeps lines on different baselines apart, top to bottom', () => {
    const words = [...lineWords('second line', 20, 114), ...lineWords('first line', 20, 100)];
    expect(lineTexts(words)).toEqual(['first line', 'second line']);
  });

  it('joins pieces of one line separated by a wider gap when no gutter runs through it', () => {
    // 12 units apart (more than a word gap, less than 1.5 x the font size); no lines around.
    const left = lineWords('left part', 20, 100);
    const words = [...left, ...lineWords('right part', left[left.length - 1].box.x1 + 12, 100)];
    expect(lineTexts(words)).toEqual(['left part right part']);
  });

  it('splits at a column gutter that the lines above and below leave empty too', () => {
    const words: Word[] = [];
    for (const [n, y] of [100, 114, 128].entries()) {
      const left = lineWords(`left column line ${n}`, 20, y);
      // The same 12-unit gap as the joined case above, but repeated on every line: a gutter.
      words.push(...left, ...lineWords(`right column line ${n}`, left[left.length - 1].box.x1 + 12, y));
    }
    expect(lineTexts(words)).toEqual([
      'left column line 0',
      'right column line 0',
      'left column line 1',
      'right column line 1',
      'left column line 2',
      'right column line 2',
    ]);
  });

  it('reads a gap under half a font size as a word space, even where the lines around leave it empty', () => {
    // A formula's spacing: "M · A1 a" then "an der Stelle" 4.5 units on (0.45 x the font size),
    // with short pieces above and below that leave the same place empty.
    const first = lineWords('durch M · A1 a', 20, 114);
    const gap = first[first.length - 1].box.x1;
    const around = (y: number) => [...lineWords('upper', gap - 27, y), ...lineWords('piece', gap + 8, y)];
    // Drawn apart, as the formula's pieces are, so the two runs meet only when lines are formed.
    const words = [...around(100), ...first, ...around(128), ...lineWords('an der Stelle', gap + 4.5, 114)];
    expect(lineTexts(words)).toContain('durch M · A1 a an der Stelle');
  });

  it('does not split at a gap that a line above or below runs across', () => {
    const left = lineWords('left column line', 20, 100);
    const gapStart = left[left.length - 1].box.x1;
    const words: Word[] = [
      ...lineWords('a line that runs right across the gap below it', 20, 86),
      ...left,
      ...lineWords('right column line', gapStart + 12, 100),
      ...lineWords('another line running across the whole width', 20, 114),
    ];
    expect(lineTexts(words)).toEqual([
      'a line that runs right across the gap below it',
      'left column line right column line',
      'another line running across the whole width',
    ]);
  });
});

describe('analyzeDocument: reading order and block types (docs/api.md Page.text: reading order; layout)', () => {
  const BODY = 'lorem ipsum dolor sit amet consectetur';

  function twoColumnPage(): RawPage {
    const words: Word[] = [];
    // A bare page number near the bottom (within the bottom fifth, above the footer band), drawn first.
    words.push(word('7', 300, 700));
    // A full-width title at the top.
    words.push(...lineWords('Results of the Study', 150, 60, { size: 24 }));
    // Two columns of four lines each; the right column is drawn before the left one.
    for (let n = 0; n < 4; n++) words.push(...lineWords(`right ${n} ${BODY}`, 330, 150 + n * 12));
    for (let n = 0; n < 4; n++) words.push(...lineWords(`left ${n} ${BODY}`, 50, 150 + n * 12));
    return rawPage(words);
  }

  it('puts the title first, then the left column, then the right column, the page number last', () => {
    const [page] = analyzeDocument([twoColumnPage()]);
    const blocks = blocksOf(page);
    expect(blocks.map((b) => b.type)).toEqual(['title', 'paragraph', 'paragraph', 'page_footer']);
    expect(blocks[0].text).toBe('Results of the Study');
    expect(blocks[1].text.startsWith('left 0 ')).toBe(true);
    expect(blocks[1].text).toContain('left 3 ');
    expect(blocks[1].text).not.toContain('right');
    expect(blocks[2].text.startsWith('right 0 ')).toBe(true);
    expect(blocks[2].text).toContain('right 3 ');
    expect(blocks[3]).toEqual({ type: 'page_footer', text: '7' });
  });

  it('takes the pieces set beside a page number, on its row, as the footer, wherever the file draws them', () => {
    const words: Word[] = [];
    // A report's name and a survey's name drawn first, on the page number's row near the bottom.
    words.push(...lineWords('NNMB', 50, 700), ...lineWords('Rural Survey 2011-12', 420, 700), word('75', 300, 700));
    for (let n = 0; n < 4; n++) words.push(...lineWords(`body ${n} ${BODY}`, 50, 150 + n * 12));
    const [page] = analyzeDocument([rawPage(words)]);
    const blocks = blocksOf(page);
    expect(blocks.map((b) => b.type)).toEqual(['paragraph', 'page_footer', 'page_footer', 'page_footer']);
    expect(blocks.slice(1).map((b) => b.text)).toEqual(['NNMB', '75', 'Rural Survey 2011-12']);
  });

  it('the lines of the two columns are not joined across the gutter', () => {
    const [page] = analyzeDocument([twoColumnPage()]);
    for (const line of page.lines) {
      const texts = line.words.map((i) => page.words[i].text);
      expect(texts.includes('left') && texts.includes('right')).toBe(false);
    }
  });

  it('types a large-font short block as title on page 1 and as a heading elsewhere', () => {
    const page = (number: number): RawPage =>
      rawPage(
        [
          ...lineWords('Annual Report', 50, 60, { size: 24 }),
          ...lineWords('Background', 50, 120, { size: 14 }),
          ...lineWords(`first ${BODY}`, 50, 150),
          ...lineWords(`second ${BODY}`, 50, 162),
          ...lineWords(`third ${BODY}`, 50, 174),
        ],
        number,
      );
    const [first, second] = analyzeDocument([page(1), page(2)]);
    expect(blocksOf(first)).toEqual([
      { type: 'title', text: 'Annual Report' },
      { type: 'heading', text: 'Background', level: 2 },
      { type: 'paragraph', text: `first ${BODY} second ${BODY} third ${BODY}` },
    ]);
    // No title beyond page 1: the largest size is heading level 1.
    expect(blocksOf(second).slice(0, 2)).toEqual([
      { type: 'heading', text: 'Annual Report', level: 1 },
      { type: 'heading', text: 'Background', level: 2 },
    ]);
  });

  it('a bold body-size short line is a heading below the size-ranked levels', () => {
    const [page] = analyzeDocument([
      rawPage([
        ...lineWords('Terms and conditions', 50, 100, { bold: true }),
        ...lineWords(`one ${BODY}`, 50, 130),
        ...lineWords(`two ${BODY}`, 50, 142),
      ]),
    ]);
    const blocks = blocksOf(page);
    expect(blocks[0]).toEqual({ type: 'heading', text: 'Terms and conditions', level: 1 });
    expect(blocks[1].type).toBe('paragraph');
  });

  it('a bold phrase that fills the first line of a ragged paragraph is the paragraph\'s, not a heading', () => {
    // Drawn bold by stroking the body font (same font name). The bold line ends 15 pt short of
    // the next line's end, more than a font size, but the next line's first word (50 pt) and a
    // space would not have fitted there: the line broke because the paragraph runs on.
    const bold = lineWords('Readers should note before anything else that the', 50, 100, { bold: true }).map((w) => ({ ...w, fontName: 'Helvetica' }));
    const [page] = analyzeDocument([rawPage([...bold, ...lineWords('conditions apply to every single order placed todays', 50, 112), ...lineWords(`one ${BODY}`, 50, 124)])]);
    const blocks = blocksOf(page);
    expect(blocks.filter((b) => b.type === 'heading')).toEqual([]);
    expect(blocks[0].text.startsWith('Readers should note before anything else that the conditions apply')).toBe(true);
  });

  it('a figure alone is no heading, however large it is set', () => {
    const [page] = analyzeDocument([rawPage([...lineWords(`one ${BODY}`, 50, 100), ...lineWords('27,267', 50, 130, { size: 14 }), ...lineWords(`two ${BODY}`, 50, 160)])]);
    expect(blocksOf(page).find((b) => b.text === '27,267')?.type).toBe('paragraph');
  });

  it('bold short lines level with each other are the cells of a row, not headings', () => {
    // A table's header the table did not take: three bold labels a column's gap apart, over prose.
    const [page] = analyzeDocument([
      rawPage([
        ...lineWords('Region', 50, 100, { bold: true }),
        ...lineWords('Gross margin', 200, 100, { bold: true }),
        ...lineWords('Units sold', 350, 100, { bold: true }),
        ...lineWords(`one ${BODY}`, 50, 130),
        ...lineWords(`two ${BODY}`, 50, 142),
      ]),
    ]);
    const blocks = blocksOf(page);
    expect(blocks.filter((b) => b.type === 'heading')).toEqual([]);
    expect(blocks.map((b) => b.text)).toContain('Gross margin');
  });

  it('a page number with text below it is not a footer', () => {
    const [page] = analyzeDocument([
      rawPage([...lineWords(`one ${BODY}`, 50, 100), ...lineWords(`two ${BODY}`, 50, 112), word('12', 300, 680), ...lineWords(`three ${BODY}`, 50, 720)]),
    ]);
    const types = blocksOf(page);
    expect(types.find((b) => b.text === '12')?.type).toBe('paragraph');
  });

  it('keeps a short word set in another direction out of the paragraph it stands under', () => {
    // "Nm" reading upwards, as tall as two letters and one font size wide, right under the line.
    const turned: Word = { ...word('Nm', 50, 112), box: { x0: 50, y0: 112, x1: 60, y1: 122 }, turn: 90 };
    const [page] = analyzeDocument([rawPage([...lineWords(`one ${BODY}`, 50, 100), turned])]);
    expect(blocksOf(page).map((b) => b.text)).toEqual([`one ${BODY}`, 'Nm']);
  });

  it('parts a line set wholly in another face from the body text it stands over, though neither bold nor much larger', () => {
    const heading = lineWords('Measuring Torque', 50, 86, { size: 12 }).map((w) => ({ ...w, fontName: 'Helvetica' }));
    const body = [100, 112].flatMap((y) => lineWords(BODY, 50, y)).map((w) => ({ ...w, fontName: 'Times-Roman' }));
    // An italic phrase running into a line of body text stays in its paragraph.
    const italic = lineWords('as the torque tables say', 50, 124).map((w, i) => ({ ...w, fontName: i < 2 ? 'Times-Italic' : 'Times-Roman' }));
    const [page] = analyzeDocument([rawPage([...heading, ...body, ...italic])]);
    expect(blocksOf(page)).toEqual([
      { type: 'heading', text: 'Measuring Torque', level: 1 },
      { type: 'paragraph', text: `${BODY} ${BODY} as the torque tables say` },
    ]);
  });

  it('takes a short line in a face of its own, a little larger than the body text, for a heading, however it is numbered', () => {
    // Both faces proportional, as these faces are.
    const face = setProportionally;
    const body = (y: number) => face(lineWords(BODY, 50, y, { size: 11.5 }), 'Batang-Light');
    const words = [
      ...face(lineWords('(1) The law on infectious diseases', 50, 80, { size: 12.5 }), 'Dotum-Medium'),
      ...body(100),
      ...body(114),
      ...face(lineWords('• a bulleted line in that face', 50, 140, { size: 12.5 }), 'Dotum-Medium'),
      ...body(160),
      ...face(lineWords('(2) a numbered line in the body face', 50, 180, { size: 11.5 }), 'Batang-Light'),
    ];
    const [page] = analyzeDocument([rawPage(words)]);
    expect(blocksOf(page).map((b) => b.type)).toEqual(['heading', 'paragraph', 'list_item', 'paragraph', 'list_item']);
  });

  it('list items start at a bullet or an enumerator', () => {
    const [page] = analyzeDocument([
      rawPage([...lineWords('• apples and pears', 50, 100), ...lineWords('• oranges', 50, 112), ...lineWords('2. lemons', 50, 124)]),
    ]);
    expect(blocksOf(page)).toEqual([
      { type: 'list_item', text: '• apples and pears' },
      { type: 'list_item', text: '• oranges' },
      { type: 'list_item', text: '2. lemons' },
    ]);
  });
});

describe('analyzeDocument: contents pages (one paragraph per entry, its page number on its line)', () => {
  const BODY = 'lorem ipsum dolor sit amet consectetur';
  const ENTRIES: [level: number, text: string, page: string][] = [
    [1, '1 Introduction', '3'],
    [2, '1.1 Scope of the work', '4'],
    [2, '1.2 Earlier studies', '4'],
    [1, '2 Methods', '7'],
    [2, '2.1 Sampling', '9'],
  ];

  /** Entries from their level's indent; dots (as separate words, TeX's way) or nothing up to the page number at x 500. */
  function contentsPage(leaders: boolean, dotStep = 6): RawPage {
    const words: Word[] = [...lineWords('Contents', 50, 60, { size: 16, bold: true })];
    ENTRIES.forEach(([level, text, page], k) => {
      const y = 100 + k * 14;
      const entry = lineWords(text, 50 + (level - 1) * 15, y, { bold: level === 1 });
      words.push(...entry);
      if (leaders) for (let x = Math.ceil((entry[entry.length - 1].box.x1 + 5) / dotStep) * dotStep; x < 480; x += dotStep) words.push(word('.', x, y));
      words.push(word(page, 510 - page.length * 5, y));
    });
    return rawPage(words);
  }

  it('closes an entry at the page number its leader dots lead to, however far after the last dot, and types no entry a heading', () => {
    const [page] = analyzeDocument([contentsPage(true)]);
    const blocks = blocksOf(page).slice(1);
    expect(blocks.map((b) => b.type)).toEqual(ENTRIES.map(() => 'paragraph'));
    expect(blocks.map((b) => b.text.replace(/(?: \.)+/g, ''))).toEqual(ENTRIES.map(([, text, p]) => `${text} ${p}`));
    expect(page.tables).toEqual([]);
  });

  it('keeps dots set far apart on one grid down the page (their gaps lined up like a gutter) with their entry and its number', () => {
    const [page] = analyzeDocument([contentsPage(true, 14)]);
    const blocks = blocksOf(page).slice(1);
    expect(blocks.map((b) => b.text.replace(/(?: \.)+/g, ''))).toEqual(ENTRIES.map(([, text, p]) => `${text} ${p}`));
  });

  it('reads entries set without leaders as lines, each with the page number at the right margin, not as a table of two columns', () => {
    const [page] = analyzeDocument([contentsPage(false)]);
    expect(page.tables).toEqual([]);
    expect(blocksOf(page).slice(1)).toEqual(ENTRIES.map(([, text, p]) => ({ type: 'paragraph', text: `${text} ${p}` })));
  });

  it('reads a right-to-left contents set without leaders as lines, each entry with the page number at its left', () => {
    const entries: [string, string][] = [
      ['מבוא כללי', '3'],
      ['היקף העבודה', '4'],
      ['מחקרים קודמים', '4'],
      ['שיטות', '7'],
      ['דגימה ומדידה', '9'],
    ];
    const words: Word[] = [...lineWords('תוכן', 470, 60, { size: 16, bold: true })];
    entries.forEach(([text, page], k) => {
      const y = 100 + k * 14;
      // Right-aligned at x 510, its first word rightmost; the number left-aligned at x 100.
      const parts = text.split(' ');
      let x = 510;
      for (const part of parts) {
        x -= part.length * 5;
        words.push(word(part, x, y));
        x -= 3;
      }
      words.push(word(page, 100, y));
    });
    const [page] = analyzeDocument([rawPage(words)]);
    expect(page.tables).toEqual([]);
    const blocks = blocksOf(page).slice(1);
    expect(blocks).toHaveLength(entries.length);
    blocks.forEach((block, k) => expect(block.text.split(' ').sort()).toEqual([...entries[k][0].split(' '), entries[k][1]].sort()));
    expect(blocks.every((b) => b.type === 'paragraph')).toBe(true);
  });

  it('keeps a lone figure at the right of a column of prose apart from the text across the gutter', () => {
    const words: Word[] = [];
    for (let n = 0; n < 5; n++) words.push(...lineWords(`left ${n} ${BODY}`, 50, 100 + n * 12));
    for (let n = 0; n < 5; n++) words.push(...(n === 2 ? [word('2019', 330, 100 + n * 12)] : lineWords(`right ${n} ${BODY}`, 330, 100 + n * 12)));
    expect(lineTexts(words)).toContain('2019');
  });

  it('starts a new line at a smaller line set right under a larger one at the same margin, though within half a line of it', () => {
    const words = [...lineWords('Contents', 50, 80, { size: 18, bold: true }), ...lineWords('Internal patient for contract', 50, 100, { size: 9.5 })];
    expect(lineTexts(words)).toEqual(['Contents', 'Internal patient for contract']);
  });
});

describe('blockText', () => {
  it('joins a word hyphenated across a line end without a space', () => {
    const first = lineWords('the measure', 50, 100);
    const words = [
      ...first,
      word('docu', first[first.length - 1].box.x1 + 3, 100, { hyphenated: true }),
      ...lineWords('ment continues here', 50, 112),
    ];
    const [page] = analyzeDocument([rawPage(words)]);
    expect(page.blocks).toHaveLength(1);
    expect(blockText(page.blocks[0], page)).toBe('the measure document continues here');
  });

  it('joins full lines with a space and keeps the break after a short line', () => {
    const words = [
      ...lineWords('a full line of running text here', 50, 100),
      ...lineWords('short', 50, 112),
      ...lineWords('a full line of running text again', 50, 124),
    ];
    const [page] = analyzeDocument([rawPage(words)]);
    expect(page.blocks).toHaveLength(1);
    expect(blockText(page.blocks[0], page)).toBe('a full line of running text here short\na full line of running text again');
  });
});
