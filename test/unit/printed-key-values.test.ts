// Printed key/values (issue 5 scope 4): "Label: value", a label above its value, checkbox glyphs;
// confidences lower than for form fields, and scaled by OCR confidence.
import { describe, expect, it } from 'vitest';
import { buildLines } from '../../src/pipeline/analysis/lines.js';
import type { Word } from '../../src/pipeline/page-model.js';
import { printedKeyValues } from '../../src/pipeline/analysis/printed-key-values.js';
import { lineWords, word } from '../helpers/words.js';

const pairs = (words: Word[]) => printedKeyValues(buildLines(words), words).map(({ key, value, keyConfidence, valueConfidence, selectionStatus }) => ({ key, value, keyConfidence, valueConfidence, selectionStatus }));

describe('printedKeyValues', () => {
  it('reads "Label: value", several per line when set apart, and a label above its value', () => {
    const words = [
      ...lineWords('Invoice No: 4471', 72, 100),
      ...lineWords('Total:', 300, 100),
      ...lineWords('$1,240.00', 380, 100),
      ...lineWords('Bill to:', 72, 130),
      ...lineWords('Acme Corp, 1 Main Street', 72, 143),
    ];
    expect(pairs(words)).toEqual([
      { key: 'Invoice No', value: '4471', keyConfidence: 85, valueConfidence: 80, selectionStatus: null },
      { key: 'Total', value: '$1,240.00', keyConfidence: 85, valueConfidence: 80, selectionStatus: null },
      { key: 'Bill to', value: 'Acme Corp, 1 Main Street', keyConfidence: 70, valueConfidence: 65, selectionStatus: null },
    ]);
  });

  it('reads checkbox glyphs as selected or not, labelled by the words beside them', () => {
    const words = [word('☒', 72, 100), ...lineWords('Married', 84, 100), word('☐', 200, 100), ...lineWords('Single', 212, 100), ...lineWords('☐Widowed', 72, 120)];
    expect(pairs(words)).toEqual([
      { key: 'Married', value: '☒', keyConfidence: 80, valueConfidence: 85, selectionStatus: 'SELECTED' },
      { key: 'Single', value: '', keyConfidence: 80, valueConfidence: 85, selectionStatus: 'NOT_SELECTED' },
      { key: 'Widowed', value: '', keyConfidence: 80, valueConfidence: 85, selectionStatus: 'NOT_SELECTED' },
    ]);
  });

  it('leaves sentences with a colon and long explanations alone, and scales confidence by OCR', () => {
    const words = [
      ...lineWords('As the report concludes on the last page of the annex: growth was strong.', 72, 100),
      ...lineWords('Note: the figures in this report were revised twice during the year and again after the audit closed', 72, 120),
      ...lineWords('Date: 2024-03-14', 72, 140, { confidence: 90 }),
    ];
    expect(pairs(words)).toEqual([{ key: 'Date', value: '2024-03-14', keyConfidence: 77, valueConfidence: 72, selectionStatus: null }]);
  });
});
