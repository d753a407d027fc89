// Unicode for glyph names that PDFium does not know: the names of TeX's math fonts (Computer
// Modern's cmsy, cmmi and cmex, the AMS msam and msbm) and the Adobe Symbol font's private-use
// pieces. pdfTeX's glyphtounicode table and the Adobe Glyph List give the characters; where they
// differ, the character a reader of the page would type is kept (a big parenthesis is "(").
//
// Size variants of a delimiter or operator (`parenleftbigg`, `summationdisplay`) read as the
// plain glyph. An empty string drops the glyph: a piece of a drawn shape with no character of its
// own (the vertical stem of a big root).

const NAMED: Record<string, string> = {
  // cmsy
  prime: '\u2032',
  angbracketleft: '\u2329',
  angbracketright: '\u232A',
  bardbl: '\u2016',
  owner: '\u220B',
  triangleinv: '\u25BD',
  latticetop: '\u22A4',
  turnstileleft: '\u22A2',
  turnstileright: '\u22A3',
  floorleft: '\u230A',
  floorright: '\u230B',
  ceilingleft: '\u2308',
  ceilingright: '\u2309',
  wreathproduct: '\u2240',
  coproduct: '\u2210',
  unionsq: '\u2294',
  intersectionsq: '\u2293',
  subsetsqequal: '\u2291',
  supersetsqequal: '\u2292',
  equivasymptotic: '\u224D',
  precedesequal: '\u2AAF',
  followsequal: '\u2AB0',
  precedes: '\u227A',
  follows: '\u227B',
  similarequal: '\u2243',
  arrownortheast: '\u2197',
  arrowsoutheast: '\u2198',
  arrownorthwest: '\u2196',
  arrowsouthwest: '\u2199',
  arrowbothv: '\u2195',
  arrowdblbothv: '\u21D5',
  lessmuch: '\u226A',
  greatermuch: '\u226B',
  minusplus: '\u2213',
  circleminus: '\u2296',
  circledivide: '\u2298',
  circledot: '\u2299',
  circlecopyrt: '\u25EF',
  diamondmath: '\u22C4',
  asteriskmath: '\u2217',
  Rfractur: '\u211C',
  Ifractur: '\u2111',
  unionmulti: '\u228E',
  reflexsubset: '\u2286',
  reflexsuperset: '\u2287',
  // cmmi
  lscript: '\u2113',
  weierstrass: '\u2118',
  dotlessj: '\u0237',
  flat: '\u266D',
  natural: '\u266E',
  sharp: '\u266F',
  slurbelow: '\u2323',
  slurabove: '\u2322',
  triangleright: '\u25B7',
  triangleleft: '\u25C1',
  harpoonleftup: '\u21BC',
  harpoonleftdown: '\u21BD',
  harpoonrightup: '\u21C0',
  harpoonrightdown: '\u21C1',
  epsilon1: '\u03B5',
  theta1: '\u03D1',
  pi1: '\u03D6',
  rho1: '\u03F1',
  sigma1: '\u03C2',
  phi1: '\u03C6',
  star: '\u22C6',
  arrowhookleft: '\u21A9',
  arrowhookright: '\u21AA',
  // cmex: delimiters (any size) and pieces of extensible ones
  parenleft: '(',
  parenright: ')',
  bracketleft: '[',
  bracketright: ']',
  braceleft: '{',
  braceright: '}',
  slash: '/',
  backslash: '\\',
  radical: '\u221A',
  vextendsingle: '\u2223',
  vextenddouble: '\u2225',
  parenlefttp: '\u239B',
  parenleftex: '\u239C',
  parenleftbt: '\u239D',
  parenrighttp: '\u239E',
  parenrightex: '\u239F',
  parenrightbt: '\u23A0',
  bracketlefttp: '\u23A1',
  bracketleftex: '\u23A2',
  bracketleftbt: '\u23A3',
  bracketrighttp: '\u23A4',
  bracketrightex: '\u23A5',
  bracketrightbt: '\u23A6',
  bracelefttp: '\u23A7',
  braceleftmid: '\u23A8',
  braceleftbt: '\u23A9',
  braceex: '\u23AA',
  bracerighttp: '\u23AB',
  bracerightmid: '\u23AC',
  bracerightbt: '\u23AD',
  bracehtipdownleft: '\uFE37',
  bracehtipdownright: '\uFE37',
  bracehtipupleft: '\uFE38',
  bracehtipupright: '\uFE38',
  arrowvertex: '\u23D0',
  arrowtp: '\u2191',
  arrowbt: '\u2193',
  arrowdbltp: '\u21D1',
  arrowdblbt: '\u21D3',
  radicalbt: '\u221A',
  radicalvertex: '',
  radicaltp: '',
  negationslash: '\u0338',
  mapsto: '\u21A6',
  // cmex and msbm: wide accents, placed over the glyph below them
  hatwide: '\u0302',
  tildewide: '\u0303',
  // msam and msbm
  squaresolid: '\u25A0',
  square: '\u25A1',
  subsetnoteql: '\u228A',
  supersetnoteql: '\u228B',
  notparallel: '\u2226',
  notexistential: '\u2204',
  measuredangle: '\u2221',
  angle: '\u2220',
  checkmark: '\u2713',
  lessorequalslant: '\u2A7D',
  greaterorequalslant: '\u2A7E',
};

/** Names whose size or style suffix (`big`, `Bigg`, `display`, `text`, `wider`...) is dropped. */
const VARIANT = /^(.+?)(big|Big|bigg|Bigg|display|text|wider|widest|wide)$/;

/** cmex's big operators (`summationtext`, `uniondisplay`): n-ary characters, not the binary ones. */
const BIG_OPERATOR: Record<string, string> = {
  summation: '\u2211',
  product: '\u220F',
  coproduct: '\u2210',
  integral: '\u222B',
  contintegral: '\u222E',
  union: '\u22C3',
  intersection: '\u22C2',
  unionmulti: '\u2A04',
  unionsq: '\u2A06',
  logicaland: '\u22C0',
  logicalor: '\u22C1',
  circledot: '\u2A00',
  circleplus: '\u2A01',
  circlemultiply: '\u2A02',
};

/** The text of a glyph by its name, or undefined when the name is not one this table knows. */
export function glyphNameText(name: string): string | undefined {
  const direct = NAMED[name];
  if (direct !== undefined) return direct;
  const uni = /^uni([0-9A-F]{4})$/.exec(name) ?? /^u([0-9A-F]{4,6})$/.exec(name);
  if (uni) {
    const code = parseInt(uni[1], 16);
    if (code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)) return String.fromCodePoint(code);
  }
  const variant = VARIANT.exec(name);
  if (variant) {
    const base = variant[1];
    const suffix = variant[2];
    if (suffix.startsWith('wide')) return NAMED[`${base}wide`];
    if (suffix === 'display' || suffix === 'text') return BIG_OPERATOR[base];
    return NAMED[base];
  }
  return undefined;
}

/**
 * Adobe Symbol's private-use pieces of big delimiters (as the Adobe Glyph List maps them, and as
 * PDFium reports them) to their standard characters.
 */
const SYMBOL_PRIVATE_USE: Record<number, string> = {
  0xf8e6: '\u23D0',
  0xf8e7: '\u23AF',
  0xf8e8: '\u00AE',
  0xf8e9: '\u00A9',
  0xf8ea: '\u2122',
  0xf8eb: '\u239B',
  0xf8ec: '\u239C',
  0xf8ed: '\u239D',
  0xf8ee: '\u23A1',
  0xf8ef: '\u23A2',
  0xf8f0: '\u23A3',
  0xf8f1: '\u23A7',
  0xf8f2: '\u23A8',
  0xf8f3: '\u23A9',
  0xf8f4: '\u23AA',
  0xf8f5: '\u23AE',
  0xf8f6: '\u239E',
  0xf8f7: '\u239F',
  0xf8f8: '\u23A0',
  0xf8f9: '\u23A4',
  0xf8fa: '\u23A5',
  0xf8fb: '\u23A6',
  0xf8fc: '\u23AB',
  0xf8fd: '\u23AC',
  0xf8fe: '\u23AD',
};

export function symbolPrivateUseText(code: number): string | undefined {
  return SYMBOL_PRIVATE_USE[code];
}

/** Spacing accents (as fonts name them and PDFium reports them) and the combining mark of each. */
const COMBINING: Record<string, string> = {
  '\u02DC': '\u0303', // tilde
  '\u02C6': '\u0302', // circumflex
  '\u00AF': '\u0304', // macron
  '\u02D9': '\u0307', // dot above
  '\u00A8': '\u0308', // dieresis
  '\u00B4': '\u0301', // acute
  '\u0060': '\u0300', // grave
  '\u02C7': '\u030C', // caron
  '\u02D8': '\u0306', // breve
  '\u02DA': '\u030A', // ring
  '\u02DD': '\u030B', // double acute
  '\u00B8': '\u0327', // cedilla
  '\u02DB': '\u0328', // ogonek
  '\u20D7': '\u20D7', // vector arrow (already combining)
  '\u0302': '\u0302',
  '\u0303': '\u0303',
  '\u0338': '\u0338', // negation slash
};

/** The combining mark a glyph stands for when drawn over another glyph; undefined otherwise. */
export function combiningAccent(char: string): string | undefined {
  return COMBINING[char];
}

/** A slash drawn over the next glyph (TeX's `\not`, glyph `negationslash`): `=` then reads `≠`. */
export const NEGATION_SLASH = '\u0338';
