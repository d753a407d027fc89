// Key/values from form fields: each field's value read from the file, keyed by the label printed
// beside it (left of a text box, right of a checkbox, or on the line above), else its tooltip,
// else its field name. Confidences say how the pair was found: the value of a form field is read,
// not inferred (99); a printed label found by position is a judgement (90); the tooltip and the
// field name are the author's words but not what a reader sees (85, 80). A pair's box holds the
// field and its printed label, as a printed pair's box holds its label and value.
import { unionBox, type Box, type FormField, type KeyValue, type Line, type Word } from '../page-model.js';
import { labelText } from './printed-key-values.js';

const READ_FROM_FIELD = 99;
const PRINTED_LABEL = 90;
const TOOLTIP = 85;
const FIELD_NAME = 80;

export function formKeyValues(fields: FormField[], page: { lines: Line[]; words: Word[] }): KeyValue[] {
  const out: KeyValue[] = [];
  for (const field of fields) {
    if (field.kind === 'signature') continue;
    const printed = printedLabel(field, page);
    const [label, keyConfidence] = printed
      ? [printed.text, PRINTED_LABEL]
      : field.alternateName
        ? [field.alternateName, TOOLTIP]
        : [field.name, FIELD_NAME];
    const toggles = field.selected !== null;
    out.push({
      key: label.trim() || field.name,
      value: toggles ? (field.selected ? field.value : '') : field.value,
      keyConfidence,
      valueConfidence: READ_FROM_FIELD,
      selectionStatus: toggles ? (field.selected ? 'SELECTED' : 'NOT_SELECTED') : null,
      box: printed ? unionBox([field.box, printed.box]) : field.box,
    });
  }
  return out;
}

/**
 * The page's key/values, form fields first, then printed pairs whose label no form field already
 * gives; a label seen again gets " (2)", " (3)" so that every pair keeps its own entry.
 */
export function pageKeyValueList(fields: KeyValue[], printed: KeyValue[]): KeyValue[] {
  const fieldKeys = new Set(fields.map((kv) => kv.key));
  const all = [...fields, ...printed.filter((kv) => !fieldKeys.has(kv.key))];
  const used = new Map<string, number>();
  return all.map((kv) => {
    const seen = used.get(kv.key) ?? 0;
    used.set(kv.key, seen + 1);
    return seen === 0 ? kv : { ...kv, key: `${kv.key} (${seen + 1})` };
  });
}

function centerY(box: Box): number {
  return (box.y0 + box.y1) / 2;
}

/** Whether a word sits on the same row as the field. */
function onRow(word: Word, box: Box): boolean {
  const c = centerY(word.box);
  return c >= box.y0 - 2 && c <= box.y1 + 2;
}

interface Label {
  text: string;
  box: Box;
}

/** The run of words on a line, walking away from the field until a gap wider than two spaces. */
function run(words: Word[], size: number): Label | null {
  const kept: Word[] = [];
  for (const word of words) {
    const previous = kept[kept.length - 1];
    if (previous && Math.max(word.box.x0 - previous.box.x1, previous.box.x0 - word.box.x1) > size * 1.2) break;
    kept.push(word);
  }
  kept.sort((a, b) => a.box.x0 - b.box.x0);
  const text = labelText(kept);
  return text ? { text, box: unionBox(kept.map((w) => w.box)) } : null;
}

function printedLabel(field: FormField, page: { lines: Line[]; words: Word[] }): Label | null {
  const { box } = field;
  const row = page.words.filter((w) => onRow(w, box));
  const size = Math.max(6, Math.min(box.y1 - box.y0, 14));
  // The nearest word must be close; the label then runs on from it until a wide gap.
  const left = row.filter((w) => w.box.x1 <= box.x0 + 1).sort((a, b) => b.box.x1 - a.box.x1);
  const right = row.filter((w) => w.box.x0 >= box.x1 - 1).sort((a, b) => a.box.x0 - b.box.x0);
  const nearestLeft = left.length && box.x0 - left[0].box.x1 < 160 ? run(left, left[0].fontSize || size) : null;
  const nearestRight = right.length && right[0].box.x0 - box.x1 < 60 ? run(right, right[0].fontSize || size) : null;
  // Checkboxes and radio buttons are labelled after them; text fields before them.
  const candidates = field.selected !== null ? [nearestRight, nearestLeft] : [nearestLeft, nearestRight];
  for (const candidate of candidates) if (candidate) return candidate;
  // Otherwise the line right above the field, overlapping it.
  const above = page.lines
    .filter((line) => line.box.y1 <= box.y0 + 1 && box.y0 - line.box.y1 < Math.max(14, (line.box.y1 - line.box.y0) * 1.5))
    .filter((line) => Math.min(line.box.x1, box.x1) - Math.max(line.box.x0, box.x0) > 0)
    .sort((a, b) => b.box.y1 - a.box.y1)[0];
  if (!above) return null;
  const text = labelText(above.words.map((i) => page.words[i]));
  return text && text.length <= 80 ? { text, box: above.box } : null;
}
