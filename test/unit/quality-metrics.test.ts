import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adjacencyF1,
  adjacencyRelations,
  bestTableMatch,
  cer,
  headingMatch,
  kvRecall,
  layoutToReadingOrder,
  lcsLength,
  levenshtein,
  levenshteinRatio,
  mean,
  multisetPRF,
  normalizeText,
  round3,
  round5,
  similarity,
  stripMarkdown,
  stripPageHeaders,
  truthValue,
  amountKey,
  dateKey,
  receiptFields,
} from '../../bench/quality/metrics.js';
import { pdfiumText } from '../../bench/quality/peers.js';
import { textPdf } from '../helpers/pdfs.js';

/** Textbook O(n·m) dynamic programme, to check the fast implementations against. */
function naiveLevenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[y.length]!;
}

function naiveLcs(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i++) {
    const cur = [0];
    for (let j = 1; j <= y.length; j++) cur[j] = x[i - 1] === y[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    prev = cur;
  }
  return prev[y.length]!;
}

/** Deterministic pseudo-random strings over a small alphabet (so that there is much in common). */
function randomStrings(count: number, seed = 7): string[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabet = ['a', 'b', 'c', 'd', ' ', 'é', '𝑥'];
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * 90);
    return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  });
}

describe('text normalisation', () => {
  it('applies NFKC, removes soft hyphens and collapses whitespace', () => {
    expect(normalizeText('  ﬁne\r\n\r\n  ﬂow\tco\u00ADoperate \u00A0 end  ')).toBe('fine flow cooperate end');
  });

  it('removes the === Page N === lines of include=text', () => {
    expect(stripPageHeaders('=== Page 1 ===\nHello\n\n=== Page 2 ===\nWorld')).toBe('Hello\n\nWorld');
    expect(stripPageHeaders('Not === Page 1 === a header')).toBe('Not === Page 1 === a header');
  });
});

describe('similarity', () => {
  it('is 1.0 for identical texts, also after whitespace and NFKC differences', () => {
    expect(similarity('The quick brown fox', 'The quick brown fox')).toBe(1);
    expect(similarity('The  quick\nbrown ﬁx', 'The quick brown fix')).toBe(1);
    expect(similarity('', '')).toBe(1);
  });

  it('is 1 - distance / longer length', () => {
    expect(similarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7, 10);
    expect(similarity('abc', '')).toBe(0);
  });

  it('is lower for a shuffled text than for the text itself', () => {
    const text = 'one two three four five six seven eight nine ten';
    const shuffled = 'six seven one two nine ten three four eight five';
    expect(similarity(text, shuffled)).toBeLessThan(1);
    expect(similarity(text, shuffled)).toBeGreaterThan(0);
  });

  it('counts a character outside the BMP as one character', () => {
    expect(levenshtein('a😀b', 'a😁b')).toBe(1);
    expect(similarity('a😀b', 'a😁b')).toBeCloseTo(2 / 3, 10);
  });

  it('matches a plain dynamic programme on random strings', () => {
    const strings = randomStrings(30);
    for (let i = 0; i + 1 < strings.length; i += 2) {
      expect(levenshtein(strings[i]!, strings[i + 1]!)).toBe(naiveLevenshtein(strings[i]!, strings[i + 1]!));
    }
  });
});

describe('LCS and the Levenshtein ratio', () => {
  it('finds the longest common subsequence, also across 32-bit word boundaries', () => {
    expect(lcsLength('ABCBDAB', 'BDCABA')).toBe(4);
    expect(lcsLength('', 'abc')).toBe(0);
    const long = 'abcdefghij'.repeat(13); // 130 characters: five words
    expect(lcsLength(long, long)).toBe(130);
    expect(lcsLength(long, long.slice(1) + 'x')).toBe(129);
    const strings = randomStrings(40, 99);
    for (let i = 0; i + 1 < strings.length; i += 2) {
      expect(lcsLength(strings[i]!, strings[i + 1]!)).toBe(naiveLcs(strings[i]!, strings[i + 1]!));
    }
  });

  it('is python-Levenshtein ratio: substitutions count 2', () => {
    // ratio('kitten', 'sitting') = (6 + 7 - 5) / 13: two substitutions (4) and one insertion.
    expect(levenshteinRatio('kitten', 'sitting')).toBeCloseTo(8 / 13, 10);
    expect(levenshteinRatio('same text', 'same  text')).toBe(1);
  });
});

describe('character error rate', () => {
  it('is 0 for a perfect reading and 1 for no output', () => {
    expect(cer('Hello world', 'Hello  world')).toBe(0);
    expect(cer('', 'Hello world')).toBe(1);
  });

  it('is distance over the truth length', () => {
    expect(cer('Hallo world', 'Hello world')).toBeCloseTo(1 / 11, 10);
  });
});

describe('stripMarkdown', () => {
  it('removes headings, list markers, emphasis, comments, links and escapes', () => {
    const md = [
      '# Title',
      '',
      '## Section *one*',
      '',
      '- first **bold** item',
      '* second item',
      '1. numbered with [a link](https://example.com)',
      '',
      '<!-- image -->',
      '',
      'Some _emphasis_ and `code` and snake_case\\_name, AT&amp;T.',
      '![alt text](pic.png)',
    ].join('\n');
    expect(normalizeText(stripMarkdown(md))).toBe(
      'Title Section one first bold item second item numbered with a link Some emphasis and code and snake_case_name, AT&T. alt text',
    );
  });

  it('keeps the text of table cells and drops pipes and separator rows', () => {
    const md = ['| Name | Value |', '|------|-------|', '| a    | 1     |', '| - | - |', '| b | 2 |'].join('\n');
    expect(normalizeText(stripMarkdown(md))).toBe('Name Value a 1 b 2');
  });

  it('drops code fences but keeps the code', () => {
    expect(normalizeText(stripMarkdown('```python\nprint(1)\n```'))).toBe('print(1)');
  });
});

describe('layoutToReadingOrder', () => {
  it('reads the left column, then the right one, and keeps lines that span the gutter in place', () => {
    const layout = [
      '          A-Centred-Title-Across-The-Gutter',
      '',
      'left one one one             right one one one',
      'left two two                 right two two two',
      'left three three three       right three',
      '',
      '                         7',
    ].join('\n');
    expect(normalizeText(layoutToReadingOrder(layout))).toBe(
      'A-Centred-Title-Across-The-Gutter left one one one left two two left three three three right one one one right two two two right three 7',
    );
  });

  it('leaves single-column text alone', () => {
    const text = 'Just one column of text\nwith a second line\nand a third one';
    expect(layoutToReadingOrder(text)).toBe(text);
  });
});

describe('table adjacency relations (ICDAR 2013)', () => {
  const grid = [
    ['Country', 'Capital', 'Population'],
    ['France', 'Paris', '68'],
    ['Italy', '', '59'],
  ];

  it('takes the nearest non-empty neighbour right and below', () => {
    const relations = adjacencyRelations(grid).map((r) => r.split('\u0001').join('|'));
    expect(relations.sort()).toEqual(
      [
        'Country|Capital|h',
        'Country|France|v',
        'Capital|Population|h',
        'Capital|Paris|v',
        'Population|68|v',
        'France|Paris|h',
        'France|Italy|v',
        'Paris|68|h',
        '68|59|v',
        'Italy|59|h', // skips the empty cell
      ].sort(),
    );
  });

  it('scores a known grid 1.0 and a shuffled one less', () => {
    expect(adjacencyF1(grid, grid).f1).toBe(1);
    const shuffled = [grid[0]!, grid[2]!, grid[1]!];
    const score = adjacencyF1(grid, shuffled).f1;
    expect(score).toBeLessThan(1);
    expect(score).toBeGreaterThan(0);
    const columnsSwapped = grid.map((row) => [row[1]!, row[0]!, row[2]!]);
    expect(adjacencyF1(grid, columnsSwapped).f1).toBeLessThan(1);
  });

  it('normalises cell text (line breaks inside cells as spaces) and gives 0 for no table', () => {
    const wrapped = grid.map((row) => row.map((cell) => cell.replace('Population', 'Popu-\nlation').replace('Country', ' Country\n')));
    expect(adjacencyF1(grid, wrapped).f1).toBeLessThan(1);
    expect(adjacencyF1([['a b', 'c']], [['a\nb', ' c ']]).f1).toBe(1);
    expect(adjacencyF1(grid, []).f1).toBe(0);
  });

  it('picks the best-matching output table', () => {
    const other = [['x', 'y']];
    expect(bestTableMatch(grid, [other, grid]).index).toBe(1);
    expect(bestTableMatch(grid, [other, grid]).f1).toBe(1);
    expect(bestTableMatch(grid, [])).toEqual({ index: -1, precision: 0, recall: 0, f1: 0 });
  });

  it('counts multisets, not sets', () => {
    expect(multisetPRF(['a', 'a', 'b'], ['a', 'b'])).toEqual({ precision: 1, recall: 2 / 3, f1: 0.8 });
  });
});

describe('key/value recall', () => {
  it('finds values equal or contained after normalisation', () => {
    const truth = [
      { key: 'total', value: '9.00' },
      { key: 'company', value: 'BOOK TA .K (TAMAN DAYA) SDN BHD' },
      { key: 'date', value: '25/12/2018' },
    ];
    const result = kvRecall(truth, ['Total: 9.00', 'book ta .k (taman daya) sdn bhd.']);
    expect(result).toEqual({ found: 2, total: 3, recall: 2 / 3 });
    expect(kvRecall(truth, []).recall).toBe(0);
  });

  it('removes a leading copy of the printed key from a truth value', () => {
    expect(truthValue({ key: 'Income:', value: 'Income: Approximately $4000/month' })).toBe('approximately $4000/month');
    expect(kvRecall([{ key: 'Income:', value: 'Income: Approximately $4000/month' }], ['Approximately $4000/month']).recall).toBe(1);
  });
});

describe('helpers', () => {
  it('means and rounds to 3 decimals', () => {
    expect(mean([])).toBeNull();
    expect(mean([1, 2])).toBe(1.5);
    expect(round3(0.12345)).toBe(0.123);
    expect(round3(null)).toBeNull();
    // A case score just under a target must not read as reaching it.
    expect(round5(0.979974)).toBe(0.97997);
    expect(round5(undefined)).toBeNull();
  });
});

describe('receipt fields', () => {
  const truth = [
    { key: 'company', value: 'BOOK TA .K (TAMAN DAYA) SDN BHD' },
    { key: 'date', value: '25/12/2018' },
    { key: 'address', value: 'NO.53 55,57 & 59, JALAN SAGU 18, TAMAN DAYA, 81100 JOHOR BAHRU, JOHOR.' },
    { key: 'total', value: '9.00' },
  ];

  it('reads dates by day and amounts by value', () => {
    expect(dateKey('25/12/2018')).toBe('25.12.2018');
    expect(dateKey('2018-12-25')).toBe('25.12.2018');
    expect(dateKey('25 Dec 2018')).toBe('25.12.2018');
    expect(dateKey('18-01-18')).toBe('18.1.2018');
    expect(dateKey('no date')).toBeNull();
    expect(amountKey('RM 9.00')).toBe(9);
    expect(amountKey(1428)).toBe(1428);
    expect(amountKey('1,428.00')).toBe(1428);
  });

  it('counts a field right when it matches after normalising, and soft-right when nearly', () => {
    const got = receiptFields(truth, {
      company: 'Book Ta .K (Taman Daya) Sdn Bhd',
      date: '2018-12-25',
      address: 'NO.57 55,57 & 59, JALAN SAGU 18, TAMAN DAYA, 81100 JOHOR BAHRU, JOHOR',
      total: 9,
    });
    expect(got).toMatchObject({ right: 3, soft: 4, total: 4 });
    expect(got.per_field).toEqual({ company: true, date: true, address: false, total: true });
    expect(receiptFields(truth, {})).toMatchObject({ right: 0, soft: 0 });
  });
});

describe('PDFium peer', () => {
  it("reads each page's own text through PDFium, pages in order, optionally a range", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'folio-peer-'));
    try {
      const file = path.join(dir, 'two.pdf');
      await writeFile(file, await textPdf([['First page line'], ['Second page line']]));
      expect(normalizeText(await pdfiumText(file))).toBe('First page line Second page line');
      expect(normalizeText(await pdfiumText(file, { first: 2, last: 2 }))).toBe('Second page line');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('headingMatch', () => {
  it("counts the output's headings that are headings of the truth, text alike whatever the level and escapes", () => {
    const truth = '# Title\n\n## Front\\_matter\n\ntext\n\n## Results\n\n### Results\n';
    const output = '## Title\n\n### Front\\_matter\n\n###### Untightened nut\n\n## Results\n\n## Results\n\n## Results\n';
    expect(headingMatch(output, truth)).toEqual({ output: 6, truth: 4, matched: 4 });
    expect(headingMatch('plain text', truth)).toEqual({ output: 0, truth: 4, matched: 0 });
  });
});
