// The generated bench's contents score (bench/generated/score.ts): an entry counts as apart only
// when a markdown line or table row holds it alone, leader dots aside; the text score ignores
// leader dots, which the truth does not hold.
import { describe, expect, it } from 'vitest';
import { scoreContents, scoreText, type Output } from '../../bench/generated/score.js';
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
