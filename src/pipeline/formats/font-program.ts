// The built-in encoding of an embedded font program: which glyph name each character code draws.
//
// PDFium gives a character's Unicode from the PDF's ToUnicode map, else from the glyph name, but
// only for names in its own list; for the rest (TeX's `prime`, `bardbl`, `parenleftbigg`...) it
// reports the raw character code, so a prime reads as "0" and a big parenthesis as a control
// character. Reading the names from the font program lets the reader map those glyphs itself.
// PDFium exposes the program's bytes but not its encoding, and no npm package reads a bare CFF
// (FontFile3/Type1C) or Type 1 program's encoding without an sfnt wrapper around it, so the two
// small parts needed are read here: the CFF Top DICT, charset and encoding (Adobe TN #5176), and
// the clear-text `/Encoding` array of a Type 1 program (Adobe Type 1 Font Format, ch. 2).
//
// Only custom glyph names are returned: a name from the CFF standard strings, and any name of a
// standard or expert encoding, is one PDFium already knows, so it is left to PDFium.

export interface CodeNames {
  /** Character code (0-255) to glyph name, for the codes whose glyph has a custom name. */
  custom: Map<number, string>;
  /**
   * The ASCII characters the font's standard-named glyphs (`comma`, `zero`, `A`) read as, at
   * whatever code they sit: PDFium reports those itself, so such a character is never a raw code
   * (TeX's math italic has `comma` at 0x3B and a hook at 0x2C, the code of ",").
   */
  ascii: Set<number>;
}

/** The 95 glyph names of printable ASCII, from space (0x20) to asciitilde (0x7E), in order. */
const ASCII_NAMES = [
  'space', 'exclam', 'quotedbl', 'numbersign', 'dollar', 'percent', 'ampersand', 'quoteright', 'parenleft', 'parenright',
  'asterisk', 'plus', 'comma', 'hyphen', 'period', 'slash', 'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven',
  'eight', 'nine', 'colon', 'semicolon', 'less', 'equal', 'greater', 'question', 'at',
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  'bracketleft', 'backslash', 'bracketright', 'asciicircum', 'underscore', 'quoteleft',
  ...'abcdefghijklmnopqrstuvwxyz',
  'braceleft', 'bar', 'braceright', 'asciitilde',
];
/** quoteright and quoteleft read as curly quotes, not as ASCII. */
const CURLY_QUOTES = new Set(['quoteright', 'quoteleft']);
const ASCII_CODE = new Map(ASCII_NAMES.filter((n) => !CURLY_QUOTES.has(n)).map((n) => [n, 0x20 + ASCII_NAMES.indexOf(n)]));

export function builtinGlyphNames(program: Uint8Array): CodeNames | null {
  try {
    if (program.length > 4 && program[0] === 1 && program[2] >= 4) return cffNames(program);
    if (isType1(program)) return type1Names(program);
  } catch {
    // A damaged program keeps PDFium's reading.
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// CFF

const STANDARD_STRINGS = 391;
const OP_CHARSET = 15;
const OP_ENCODING = 16;
const OP_CHARSTRINGS = 17;
const OP_ROS = 1230; // 12 30: a CID-keyed font, which has no glyph names

interface Index {
  items: [start: number, end: number][];
  end: number;
}

function readIndex(data: Uint8Array, at: number): Index {
  const count = (data[at] << 8) | data[at + 1];
  if (count === 0) return { items: [], end: at + 2 };
  const offSize = data[at + 2];
  if (offSize < 1 || offSize > 4) throw new Error('bad CFF INDEX');
  const offsetAt = at + 3;
  const base = offsetAt + (count + 1) * offSize - 1;
  const offset = (i: number) => {
    let value = 0;
    for (let k = 0; k < offSize; k++) value = value * 256 + data[offsetAt + i * offSize + k];
    return value;
  };
  const items: [number, number][] = [];
  for (let i = 0; i < count; i++) items.push([base + offset(i), base + offset(i + 1)]);
  const end = base + offset(count);
  if (end > data.length) throw new Error('CFF INDEX past the end');
  return { items, end };
}

/** The operators of a DICT with their last operand (all that is needed here). */
function readDict(data: Uint8Array, start: number, end: number): Map<number, number> {
  const entries = new Map<number, number>();
  const operands: number[] = [];
  let at = start;
  while (at < end) {
    const b0 = data[at++];
    if (b0 <= 21) {
      const op = b0 === 12 ? 1200 + data[at++] : b0;
      entries.set(op, operands.length ? operands[operands.length - 1] : 0);
      operands.length = 0;
    } else if (b0 === 28) {
      operands.push(((data[at] << 24) >> 16) | data[at + 1]);
      at += 2;
    } else if (b0 === 29) {
      operands.push((data[at] << 24) | (data[at + 1] << 16) | (data[at + 2] << 8) | data[at + 3]);
      at += 4;
    } else if (b0 === 30) {
      // A real number in nibbles, ended by a 0xf nibble; its value is never needed here.
      while (at < end && (data[at] & 0x0f) !== 0x0f && (data[at] & 0xf0) !== 0xf0) at++;
      at++;
      operands.push(0);
    } else if (b0 >= 32 && b0 <= 246) {
      operands.push(b0 - 139);
    } else if (b0 >= 247 && b0 <= 250) {
      operands.push((b0 - 247) * 256 + data[at++] + 108);
    } else if (b0 >= 251 && b0 <= 254) {
      operands.push(-(b0 - 251) * 256 - data[at++] - 108);
    } else {
      throw new Error('bad CFF DICT');
    }
  }
  return entries;
}

function cffNames(data: Uint8Array): CodeNames | null {
  const names = readIndex(data, data[2]);
  const topDicts = readIndex(data, names.end);
  const strings = readIndex(data, topDicts.end);
  if (topDicts.items.length === 0) return null;
  const top = readDict(data, ...topDicts.items[0]);
  const encodingAt = top.get(OP_ENCODING) ?? 0;
  const charsetAt = top.get(OP_CHARSET) ?? 0;
  const charStringsAt = top.get(OP_CHARSTRINGS);
  // Standard and expert encodings and charsets name only standard glyphs.
  if (top.has(OP_ROS) || encodingAt <= 1 || charsetAt <= 2 || !charStringsAt) return null;
  const glyphCount = readIndex(data, charStringsAt).items.length;

  // Glyph index to string id.
  const sids = new Array<number>(glyphCount).fill(0);
  let at = charsetAt;
  const format = data[at++];
  let glyph = 1;
  if (format === 0) {
    for (; glyph < glyphCount; glyph++, at += 2) sids[glyph] = (data[at] << 8) | data[at + 1];
  } else if (format === 1 || format === 2) {
    while (glyph < glyphCount) {
      const first = (data[at] << 8) | data[at + 1];
      const left = format === 1 ? data[at + 2] : (data[at + 2] << 8) | data[at + 3];
      at += format === 1 ? 3 : 4;
      for (let k = 0; k <= left && glyph < glyphCount; k++) sids[glyph++] = first + k;
    }
  } else {
    return null;
  }
  const nameOf = (sid: number): string | null => {
    if (sid < STANDARD_STRINGS) return null;
    const item = strings.items[sid - STANDARD_STRINGS];
    return item ? latin1(data, item[0], item[1]) : null;
  };
  const ascii = new Set<number>();
  for (const sid of sids) {
    const code = ASCII_CODE.get(sid >= 1 && sid <= 95 ? ASCII_NAMES[sid - 1] : (nameOf(sid) ?? ''));
    if (code !== undefined) ascii.add(code);
  }

  const result = new Map<number, string>();
  at = encodingAt;
  const encodingFormat = data[at++];
  if ((encodingFormat & 0x7f) === 0) {
    const count = data[at++];
    for (let i = 0; i < count; i++) {
      const name = nameOf(sids[i + 1] ?? 0);
      if (name) result.set(data[at + i], name);
    }
    at += count;
  } else if ((encodingFormat & 0x7f) === 1) {
    const ranges = data[at++];
    glyph = 1;
    for (let r = 0; r < ranges; r++, at += 2) {
      const first = data[at];
      const left = data[at + 1];
      for (let k = 0; k <= left; k++, glyph++) {
        const name = nameOf(sids[glyph] ?? 0);
        if (name) result.set(first + k, name);
      }
    }
  } else {
    return null;
  }
  if (encodingFormat & 0x80) {
    const supplements = data[at++];
    for (let s = 0; s < supplements; s++, at += 3) {
      const name = nameOf((data[at + 1] << 8) | data[at + 2]);
      if (name) result.set(data[at], name);
    }
  }
  return result.size ? { custom: result, ascii } : null;
}

// ---------------------------------------------------------------------------------------------
// Type 1

function isType1(data: Uint8Array): boolean {
  // Either PFA text ("%!") or PFB, whose first segment header is 0x80 0x01.
  return (data[0] === 0x25 && data[1] === 0x21) || (data[0] === 0x80 && data[1] === 0x01);
}

function type1Names(data: Uint8Array): CodeNames | null {
  // The encoding sits in the clear-text part, before `eexec`.
  const head = latin1(data, 0, Math.min(data.length, 65536));
  const clear = head.slice(0, head.indexOf('eexec') >= 0 ? head.indexOf('eexec') : head.length);
  if (/\/Encoding\s+StandardEncoding\s+def/.test(clear)) return null;
  const custom = new Map<number, string>();
  const ascii = new Set<number>();
  for (const m of clear.matchAll(/dup\s+(\d+)\s*\/([^\s/\[\]{}()<>]+)\s+put/g)) {
    const code = Number(m[1]);
    const asciiCode = ASCII_CODE.get(m[2]);
    if (asciiCode !== undefined) ascii.add(asciiCode);
    else if (code <= 255) custom.set(code, m[2]);
  }
  return custom.size ? { custom, ascii } : null;
}

function latin1(data: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(data[i]);
  return s;
}
