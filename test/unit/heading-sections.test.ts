// A heading heads a section (analysis/heading-sections.ts) and is no caption's numbered label
// (block-types.ts): a block set large that heads nothing (a subtitle under the title, a kicker
// over a headline), that opens "Table 8:" or that is a sentence ending in a full stop is a
// paragraph; numbered sections and headings over their own text stay headings.
import { describe, expect, it } from 'vitest';
import { analyzeDocument, blockText } from '../../src/pipeline/analysis/analyze-page.js';
import { NO_GRAPHICS, type Page, type RawPage, type Word } from '../../src/pipeline/page-model.js';
import { lineWords } from '../helpers/words.js';

const BODY = 'the committee met twice in the spring and agreed on the budget for the next year of work';

/** Blocks down the page: [text, size, bold] each, body paragraphs as three lines of 10-point text. */
function page(blocks: [string, number, boolean?][]): RawPage {
  const words: Word[] = [];
  let y = 60;
  for (const [text, size, bold] of blocks) {
    if (text === 'BODY') {
      for (let k = 0; k < 3; k++) {
        words.push(...lineWords(BODY, 72, y, { size: 10 }));
        y += 12;
      }
      y += 14;
      continue;
    }
    words.push(...lineWords(text, 72, y, { size, bold }));
    y += size * 1.2 + 14;
  }
  return { number: 1, width: 612, height: 792, unit: 'pt', rotation: 0, skew: 0, words, graphics: NO_GRAPHICS, formFields: [], textSource: 'text_layer' };
}

function typed(analyzed: Page): [string, string][] {
  return analyzed.blocks.filter((b) => b.type !== 'paragraph' || blockText(b, analyzed).length < 60).map((b) => [b.type, blockText(b, analyzed)]);
}

describe('headings head sections', () => {
  it('a subtitle under the title, smaller than the section headings, is a paragraph, author line or not', () => {
    for (const authors of [[], [['Ada Berg and Carl Dahl', 10]]] as [string, number][][]) {
      const [analyzed] = analyzeDocument([page([['Annual review of trials', 24], ['What the second year taught us', 13], ...authors, ['Introduction', 16, true], ['BODY', 10], ['Findings', 16, true], ['BODY', 10]])]);
      expect(typed(analyzed)).toEqual([
        ['title', 'Annual review of trials'],
        ['paragraph', 'What the second year taught us'],
        ...authors.map(([text]) => ['paragraph', text] as [string, string]),
        ['heading', 'Introduction'],
        ['heading', 'Findings'],
      ]);
    }
  });

  it('a kicker set over a larger headline is a paragraph; a numbered empty section stays a heading', () => {
    const [analyzed] = analyzeDocument([page([['Field notes', 24], ['BODY', 10], ['Case study', 13], ['Rivers after the flood', 18, true], ['BODY', 10], ['1.1 Scope', 13], ['2 Methods', 18, true], ['BODY', 10], ['Results', 13], ['BODY', 10]])]);
    expect(typed(analyzed)).toEqual([
      ['title', 'Field notes'],
      ['paragraph', 'Case study'],
      ['heading', 'Rivers after the flood'],
      ['heading', '1.1 Scope'],
      ['heading', '2 Methods'],
      ['heading', 'Results'],
    ]);
  });

  it('a kicker stays a paragraph with a picture between it and the headline (an ornament over the title)', () => {
    const raw = page([['Case study', 13], ['Rivers after the flood', 24, true], ['BODY', 10], ['Results', 13, true], ['BODY', 10]]);
    // Move the headline and all under it down, and set a picture in the room made.
    const headline = raw.words.find((w) => w.text === 'Rivers')!.box.y0;
    for (const w of raw.words) if (w.box.y0 >= headline) w.box = { ...w.box, y0: w.box.y0 + 70, y1: w.box.y1 + 70 };
    raw.graphics = { ...NO_GRAPHICS, images: [{ x0: 72, y0: headline, x1: 300, y1: headline + 60 }] };
    const [analyzed] = analyzeDocument([raw]);
    expect(typed(analyzed).filter(([type]) => type !== 'figure')).toEqual([
      ['paragraph', 'Case study'],
      ['title', 'Rivers after the flood'],
      ['heading', 'Results'],
    ]);
  });

  it("a caption's numbered label is never a heading, however it is set", () => {
    const [analyzed] = analyzeDocument([page([['Field notes', 24], ['BODY', 10], ['Table 8: Costs by region', 13, true], ['BODY', 10], ['Figure 2. Rivers', 13, true], ['BODY', 10], ['Tables and charts', 13, true], ['BODY', 10]])]);
    expect(typed(analyzed)).toEqual([
      ['title', 'Field notes'],
      ['paragraph', 'Table 8: Costs by region'],
      ['paragraph', 'Figure 2. Rivers'],
      ['heading', 'Tables and charts'],
    ]);
  });

  it('a sentence set large is text, a list item when it opens as one; abbreviations and questions do not end a sentence', () => {
    const [analyzed] = analyzeDocument([page([['Field notes', 24], ['BODY', 10], ['The river rose faster than anyone expected.', 14], ['BODY', 10], ['1. Every gauge on the lower reach failed.', 14], ['BODY', 10], ['Partners of Berg and Dahl Ltd.', 14], ['BODY', 10], ['Why did the gauges fail?', 14], ['BODY', 10], ['Methods.', 14], ['BODY', 10]])]);
    expect(typed(analyzed)).toEqual([
      ['title', 'Field notes'],
      ['paragraph', 'The river rose faster than anyone expected.'],
      ['list_item', '1. Every gauge on the lower reach failed.'],
      ['heading', 'Partners of Berg and Dahl Ltd.'],
      ['heading', 'Why did the gauges fail?'],
      ['heading', 'Methods.'],
    ]);
  });
});
