// Monospaced faces measured on the page (analysis/font-pitch.ts): a face that sets every letter at
// one advance is monospaced whatever its name, so a listing in a house face is code.
import { describe, expect, it } from 'vitest';
import { analyzeDocument, blockText } from '../../src/pipeline/analysis/analyze-page.js';
import { monospacedFaces, pitchTally } from '../../src/pipeline/analysis/font-pitch.js';
import { NO_GRAPHICS, type RawPage, type Word } from '../../src/pipeline/page-model.js';
import { proportionalWidth } from '../helpers/words.js';

const proportional = proportionalWidth;
const monospaced = () => 0.5;

/** Words of `text` set on one line in `fontName`, each letter as wide as `letter` says. */
function line(text: string, y: number, fontName: string, letter: (c: string) => number, size = 10): Word[] {
  let x = 72;
  return text.split(' ').map((t) => {
    const x1 = x + [...t].reduce((sum, c) => sum + letter(c), 0) * size;
    const word: Word = { text: t, box: { x0: x, y0: y, x1, y1: y + size }, fontName, fontSize: size, bold: false, italic: false, confidence: 100, hyphenated: false };
    x = x1 + size * 0.3;
    return word;
  });
}

function page(words: Word[]): RawPage {
  return { number: 1, width: 612, height: 792, unit: 'pt', rotation: 0, skew: 0, words, graphics: NO_GRAPHICS, formFields: [], textSource: 'text_layer' };
}

const PROSE = 'the committee met twice in the spring and agreed on the budget for the next year of work';
const LISTING = ['WHEN VERIFY_GROUP_FOR_USER ( SESSION_USER , HR ) = 1', 'THEN EMPLOYEES . DATE_OF_BIRTH', 'ELSE NULL', 'RETURN CASE END ENABLE'];

describe('monospaced faces, measured', () => {
  it('finds a face whose letters all advance alike, whatever its name, and not a proportional one', () => {
    const words = [...line(PROSE, 100, 'Helvetica', proportional), ...LISTING.flatMap((text, i) => line(text, 140 + i * 12, 'BookMasterGothic-Roman', monospaced))];
    expect(monospacedFaces([pitchTally(page(words))])).toEqual(['BookMasterGothic-Roman']);
  });

  it('judges a face on distinct words of letters: a column of one repeated word or of figures says nothing, nor does a page of another script', () => {
    const repeated = Array.from({ length: 20 }, (_, i) => line('Yes', 100 + i * 12, 'Helvetica', proportional)).flat();
    const figures = Array.from({ length: 20 }, (_, i) => line(`${1000 + i * 37},${i}5`, 100 + i * 12, 'Arial', proportional)).flat();
    // A face of another script with its Latin letters at one half-width advance, as CJK faces set them.
    const hangul = Array.from({ length: 20 }, (_, i) => line(`보험약관 재해보험금 지급문제 ${i}`, 100 + i * 12, 'KoPubBatang', monospaced)).flat();
    const latin = line('COVID Pandemic WHO insurance claims lawmaker', 360, 'KoPubBatang', monospaced);
    expect(monospacedFaces([pitchTally(page([...repeated, ...figures, ...hangul, ...latin]))])).toEqual([]);
    // The same Latin words alone in a face would measure monospaced.
    expect(monospacedFaces([pitchTally(page(line('COVID Pandemic WHO insurance claims lawmaker', 360, 'KoPubBatang', monospaced)))])).toEqual(['KoPubBatang']);
  });

  it('does not take capitals alone at near one width (currency codes) for one advance', () => {
    const capitals = (c: string) => ({ E: 0.667, U: 0.722, R: 0.722, S: 0.667, D: 0.722, G: 0.778, B: 0.667, P: 0.667, C: 0.722, H: 0.722, F: 0.611, A: 0.667, N: 0.722, K: 0.667 })[c] ?? 0.7;
    const codes = ['EUR', 'USD', 'GBP', 'CHF', 'AUD', 'CAD', 'HKD', 'NOK', 'SEK', 'DKK'].flatMap((code, i) => line(code, 100 + i * 12, 'Helvetica', capitals));
    expect(monospacedFaces([pitchTally(page(codes))])).toEqual([]);
  });

  it('takes a listing in a monospaced face of another family than the body for code, not for formulas', () => {
    const body = [0, 1, 2, 3, 4].flatMap((i) => line(PROSE, 80 + i * 12, 'Helvetica', proportional));
    const listing = LISTING.flatMap((text, i) => line(text, 160 + i * 12, 'BookMasterGothic-Roman', monospaced, 9));
    const after = [0, 1, 2].flatMap((i) => line(PROSE, 230 + i * 12, 'Helvetica', proportional));
    const [analyzed] = analyzeDocument([page([...body, ...listing, ...after])]);
    const code = analyzed.blocks.filter((b) => b.type === 'code');
    expect(code).toHaveLength(1);
    expect(blockText(code[0], analyzed).split('\n')).toHaveLength(4);
    expect(analyzed.blocks.some((b) => b.type === 'formula')).toBe(false);
  });
});
