// The generated bench's contents score (bench/generated/score.ts): an entry counts as apart only
// when a markdown line or table row holds it alone, leader dots aside; the text score ignores
// leader dots, which the truth does not hold. A table whose producer does not know its pages is
// matched against its parts joined across a page break too.
import { describe, expect, it } from 'vitest';
import { scoreContents, scoreTables, scoreText, type Output } from '../../bench/generated/score.js';
import type { Truth } from '../../bench/generated/truth.js';

const truth: Truth = {
  id: 'g1-0',
  seed: 1,
  index: 0,
  producer: 'pdf-lib',
  variant: 'digital',
  kind: 'report',
  script: 'latin',
  pages: 1,
  file: 'g1-0.pdf',
  mediaType: 'application/pdf',
  blocks: [
    { kind: 'heading', level: 1, text: 'Contents', page: 1, box: null, order: 0 },
    { kind: 'contents-entry', text: '1 Introduction 3', page: 1, box: null, order: 1 },
    { kind: 'contents-entry', text: '1.1 Scope 4', page: 1, box: null, order: 2 },
    { kind: 'contents-entry', text: '2 Methods 7', page: 1, box: null, order: 3 },
  ],
  tables: [],
  furniture: [],
  features: ['layout:contents'],
};

const output = (markdown: string): Output => ({ text: markdown, markdown, pages: [], seconds: 0 });

describe('generated bench: contents entries', () => {
  it('counts an entry apart on a line or a table row of its own, leader dots aside', () => {
    expect(scoreContents(truth, output('## Contents\n\n1 Introduction . . . . . 3\n\n1.1 Scope ........ 4\n\n| 2 Methods | 7 |\n| --- | --- |'))).toEqual({ apart: 1, asHeading: 0, asTable: 1 / 3, total: 3 });
  });

  it('counts entries run together into one paragraph as not apart, and a heading as a heading', () => {
    expect(scoreContents(truth, output('1 Introduction . . . 3 1.1 Scope . . . 4\n\n### 2 Methods . . . 7'))).toEqual({ apart: 1 / 3, asHeading: 1 / 3, asTable: 0, total: 3 });
  });

  it('scores the text without the leader dots', () => {
    const text = scoreText(truth, output('Contents\n\n1 Introduction . . . . . . . . 3\n\n1.1 Scope . . . . . . . 4\n\n2 Methods . . . . . . . . . 7'));
    expect(text?.similarity).toBe(1);
  });

  it('has no contents score for a document without contents', () => {
    expect(scoreContents({ ...truth, blocks: truth.blocks.slice(0, 1) }, output('## Contents'))).toBeNull();
  });
});

describe('generated bench: a table whose producer does not know its page', () => {
  const header = ['Region', 'Sales'];
  const body = Array.from({ length: 6 }, (_, i) => [`Region ${i + 1}`, `${(i + 1) * 100}`]);
  const table = (rows: string[][]) => ({ rows });
  const cells = [header, ...body].flatMap((row, r) => row.map((text, col) => ({ row: r, col, rowSpan: 1, colSpan: 1, text, header: r === 0, box: null })));
  const whole: Truth = { ...truth, pages: 0, blocks: [], tables: [{ page: 0, rows: 7, columns: 2, headerRows: 1, cells, box: null, continued: false, order: 0, features: [] }] };
  const pages = (...tables: string[][][][]): Output => ({ text: '', markdown: '', seconds: 0, pages: tables.map((t, i) => ({ page: i + 1, text: '', tables: t.map(table) })) });

  it('is matched against its parts on two pages joined, the header the second page repeats left out', () => {
    const { scores, falseTables } = scoreTables(whole, pages([[header, ...body.slice(0, 3)]], [[header, ...body.slice(3)]]));
    expect(scores!.f1).toBe(1);
    expect(falseTables).toBe(0);
  });

  it('is not joined to a table of other columns on the next page', () => {
    const { scores } = scoreTables(whole, pages([[header, ...body.slice(0, 3)]], [body.slice(3).map((row) => [...row, 'x'])]));
    expect(scores!.f1).toBeLessThan(1);
  });
});

describe('generated bench: false tables on pages without any', () => {
  const header = ['Region', 'Sales'];
  const cells = [header, ['North', '100'], ['South', '200']].flatMap((row, r) => row.map((text, col) => ({ row: r, col, rowSpan: 1, colSpan: 1, text, header: r === 0, box: null })));
  const onPage = (page: number): Truth => ({ ...truth, pages: 2, blocks: [], tables: [{ page, rows: 3, columns: 2, headerRows: 1, cells, box: null, continued: false, order: 0, features: [] }] });
  const read: Output = {
    text: '',
    markdown: '',
    seconds: 0,
    pages: [
      { page: 1, text: '', tables: [{ rows: [header, ['North', '100'], ['South', '200']] }, { rows: [['Some prose', 'read as cells'], ['and more', 'of it']] }] },
      { page: 2, text: '', tables: [{ rows: [['A list item', 'beside another'], ['and a third', 'one']] }] },
    ],
  };

  it('counts apart the false tables on pages that hold no truth table', () => {
    expect(scoreTables(onPage(1), read)).toMatchObject({ falseTables: 2, onPagesWithout: 1 });
  });

  it('counts none there where the producer does not know which page holds its table', () => {
    expect(scoreTables(onPage(0), read)).toMatchObject({ falseTables: 2, onPagesWithout: 0 });
  });
});
