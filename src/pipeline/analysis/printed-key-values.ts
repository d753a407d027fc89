// Key/values printed on the page rather than stored as form fields: "Label: value" (several on
// one line when set apart by wide gaps), a label line ending in a colon above its value, and
// checkbox glyphs (☐ ☑ ☒ ✓ …) with the words beside them. Confidences say how much layout had to
// be guessed: a colon after a short label is a strong sign (85 for the key, 80 for the value), a
// label above its value less so (70, 65); a checkbox glyph is read, its label found by position
// (80, and 85 for the selection). Words read by OCR scale them by their own confidence.
import type { Box, KeyValue, Line, Word } from '../page-model.js';
import { unionBox } from '../page-model.js';
import { CHECKED, LIST_MARKER, isCheckBox } from './markers.js';

const PAIR = { key: 85, value: 80 };
const ABOVE = { key: 70, value: 65 };
const CHECKBOX = { key: 80, value: 85 };

const MAX_LABEL_WORDS = 6;
const MAX_VALUE_WORDS = 14;


type Chunk = Word[];

export function printedKeyValues(lines: Line[], words: Word[]): KeyValue[] {
  const out: KeyValue[] = [];
  const ordered = visualRows(lines, words);
  const chunksOf = ordered.map((line) => chunks(line.words.map((i) => words[i])));
  const usedAsValue = new Set<number>();
  ordered.forEach((line, n) => {
    if (usedAsValue.has(n)) return;
    const lineChunks = chunksOf[n];
    // Checkboxes first: their labels are not "Label: value" pairs.
    const lineWords = splitGlyphs(line.words.map((i) => words[i]));
    if (lineWords.some((w) => isCheckBox(w.text))) {
      out.push(...checkboxes(lineWords));
      return;
    }
    for (let c = 0; c < lineChunks.length; c++) {
      // A bullet before the label ("• Sex: Female") is not part of it.
      const chunk = lineChunks[c].slice(LIST_MARKER.test(lineChunks[c][0].text) || /^[+~]$/.test(lineChunks[c][0].text) ? 1 : 0);
      if (chunk.length === 0) continue;
      const colon = chunk.findIndex((w) => /[:：]$/.test(w.text));
      if (colon < 0 || colon >= MAX_LABEL_WORDS || !/^[\p{L}\p{N}(#№]/u.test(chunk[0].text)) continue;
      const labelWords = chunk.slice(0, colon + 1);
      const label = labelText(labelWords);
      if (!label || label.length > 48 || /[.!?]$/.test(label)) continue;
      let valueWords = chunk.slice(colon + 1);
      let confidence = PAIR;
      if (valueWords.length === 0 && c + 1 < lineChunks.length && !startsWithLabel(lineChunks[c + 1])) {
        // "Label:      value" with a wide gap between them.
        valueWords = lineChunks[++c];
      }
      if (valueWords.length === 0 && colon === chunk.length - 1 && lineChunks.length === 1) {
        // A label alone on its line, its value on the line below.
        const below = valueBelow(ordered, n, chunksOf);
        if (below !== null) {
          usedAsValue.add(below);
          valueWords = ordered[below].words.map((i) => words[i]);
          confidence = ABOVE;
        }
      }
      if (valueWords.length === 0 || valueWords.length > MAX_VALUE_WORDS) continue;
      // A value wrapped onto the next line, which starts under the value and is no label.
      if (confidence === PAIR && c === lineChunks.length - 1) {
        const next = continuation(ordered, n, valueWords[0], chunksOf);
        if (next !== null && valueWords.length + chunksOf[next].flat().length <= MAX_VALUE_WORDS) {
          usedAsValue.add(next);
          valueWords = [...valueWords, ...chunksOf[next].flat()];
        }
      }
      out.push(pair(label, labelWords, valueWords, confidence));
    }
  });
  return out;
}

/**
 * Lines on one visual row joined left to right: a label and its value are often set apart far
 * enough to count as separate lines (columns of a form).
 */
function visualRows(lines: Line[], words: Word[]): Line[] {
  const sorted = [...lines].sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  const rows: Line[] = [];
  // Lines come top down, so a row that ends above a line's top overlaps no later line either
  // (when no box is upside down): only the rows still open are searched, which keeps a page of
  // many thousand lines (a long Office document) linear.
  const upright = lines.every((l) => l.box.y1 >= l.box.y0);
  let open: Line[] = [];
  for (const line of sorted) {
    if (upright) open = open.filter((r) => r.box.y1 > line.box.y0);
    const row = (upright ? open : rows).find((r) => {
      const overlap = Math.min(r.box.y1, line.box.y1) - Math.max(r.box.y0, line.box.y0);
      return overlap > Math.min(r.box.y1 - r.box.y0, line.box.y1 - line.box.y0) * 0.5;
    });
    if (row) {
      row.words = [...row.words, ...line.words].sort((a, b) => words[a].box.x0 - words[b].box.x0);
      row.box = unionBox([row.box, line.box]);
    } else {
      const created = { words: [...line.words], box: { ...line.box } };
      rows.push(created);
      open.push(created);
    }
  }
  return rows.sort((a, b) => a.box.y0 - b.box.y0);
}

/** A checkbox glyph printed against its label ("☐Yes") is split from it. */
function splitGlyphs(lineWords: Word[]): Word[] {
  return lineWords.flatMap((word) => {
    const glyph = /^(☐|☑|☒|□|▢|✓|✔|✗|✘)(?=\S)/u.exec(word.text);
    if (!glyph) return [word];
    const share = glyph[1].length / word.text.length;
    const cut = word.box.x0 + (word.box.x1 - word.box.x0) * share;
    return [
      { ...word, text: glyph[1], box: { ...word.box, x1: cut } },
      { ...word, text: word.text.slice(glyph[1].length), box: { ...word.box, x0: cut } },
    ];
  });
}

/** Words of a line in runs separated by gaps wider than one and a half font sizes. */
function chunks(lineWords: Word[]): Chunk[] {
  const out: Chunk[] = [];
  for (const word of lineWords) {
    const last = out[out.length - 1];
    const previous = last?.[last.length - 1];
    if (previous && word.box.x0 - previous.box.x1 <= Math.max(previous.fontSize, word.fontSize) * 1.5) last.push(word);
    else out.push([word]);
  }
  return out;
}

function startsWithLabel(chunk: Chunk): boolean {
  return chunk.slice(0, MAX_LABEL_WORDS).some((w) => /[:：]$/.test(w.text));
}

/** A label's words as its text, without the colon that ends it. */
export function labelText(labelWords: Word[]): string {
  return labelWords
    .map((w) => w.text)
    .join(' ')
    .replace(/\s*[:：]$/, '')
    .trim();
}

/** The line right below line `n` when it starts under the value's first word and is no label. */
function continuation(lines: Line[], n: number, first: Word, chunksOf: Chunk[][]): number | null {
  const line = lines[n];
  const height = line.box.y1 - line.box.y0;
  const next = lines[n + 1];
  if (!next || next.box.y0 - line.box.y1 > height * 0.8 || next.box.y0 < line.box.y1 - height * 0.5) return null;
  if (Math.abs(next.box.x0 - first.box.x0) > first.fontSize * 1.5) return null;
  if (chunksOf[n + 1].length !== 1 || chunksOf[n + 1].some(startsWithLabel)) return null;
  return n + 1;
}

/** The line right below line `n`, starting under it, short and not a label itself. */
function valueBelow(lines: Line[], n: number, chunksOf: Chunk[][]): number | null {
  const line = lines[n];
  const height = line.box.y1 - line.box.y0;
  for (let m = n + 1; m < lines.length; m++) {
    const next = lines[m];
    if (next.box.y0 - line.box.y1 > height * 1.5) return null;
    if (next.box.y0 < line.box.y1 - height * 0.3) continue;
    const overlap = Math.min(line.box.x1, next.box.x1) - Math.max(line.box.x0, next.box.x0);
    if (overlap <= 0 || Math.abs(next.box.x0 - line.box.x0) > height * 2) continue;
    const words = chunksOf[m].flat();
    if (words.length > MAX_VALUE_WORDS || chunksOf[m].some(startsWithLabel)) return null;
    return m;
  }
  return null;
}

function pair(key: string, labelWords: Word[], valueWords: Word[], confidence: { key: number; value: number }): KeyValue {
  const read = (ws: Word[]) => Math.min(...ws.map((w) => w.confidence)) / 100;
  return {
    key,
    value: valueWords.map((w) => w.text).join(' '),
    keyConfidence: Math.round(confidence.key * read(labelWords)),
    valueConfidence: Math.round(confidence.value * read(valueWords)),
    selectionStatus: null,
    box: unionBox([...labelWords, ...valueWords].map((w) => w.box)),
  };
}

/** Each checkbox glyph on a line with its label: the words after it, else the words before it. */
function checkboxes(lineWords: Word[]): KeyValue[] {
  const out: KeyValue[] = [];
  lineWords.forEach((word, i) => {
    if (!isCheckBox(word.text)) return;
    const label: Word[] = [];
    for (let j = i + 1; j < lineWords.length && !isCheckBox(lineWords[j].text); j++) {
      const previous = label[label.length - 1] ?? word;
      if (lineWords[j].box.x0 - previous.box.x1 > Math.max(word.fontSize, lineWords[j].fontSize) * 2.5) break;
      label.push(lineWords[j]);
    }
    if (label.length === 0) {
      for (let j = i - 1; j >= 0 && !isCheckBox(lineWords[j].text); j--) label.unshift(lineWords[j]);
    }
    if (label.length === 0) return;
    const selected = CHECKED.test(word.text);
    const read = Math.min(word.confidence, ...label.map((w) => w.confidence)) / 100;
    out.push({
      key: labelText(label),
      value: selected ? word.text : '',
      keyConfidence: Math.round(CHECKBOX.key * read),
      valueConfidence: Math.round(CHECKBOX.value * (word.confidence / 100)),
      selectionStatus: selected ? 'SELECTED' : 'NOT_SELECTED',
      box: unionBox([word.box, ...label.map((w) => w.box)]) as Box,
    });
  });
  return out;
}
