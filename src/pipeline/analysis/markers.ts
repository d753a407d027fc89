/** A bullet, dash or enumerator that opens a list item. */
export const LIST_MARKER = /^(?:[•●○◦▪■□‣⁃∙·*–—-]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?(?:i|ii|iii|iv|v|vi|vii|viii|ix|x)[.)])$/i;

/** The word that opens a table's note or its source line ("Note:", "Sources:", "Quelle:"). */
export const NOTE_LABEL = /^(?:notes?|sources?|quellen?|anmerkungen?|remarques?|notas?|fuentes?)\s*:$/i;

/** The word that opens a figure's caption ("Figure 3", "Abb. 2.1"). */
export const CAPTION_START = /^(?:fig(?:ure)?|image|photo|chart|graph|diagram|plate|abbildung|abb|tableau|tabla|figura)\.?\s*\d*/i;

/**
 * A figure's or a table's numbered label opening a caption ("Table 8: Costs", "Figure 2. Map",
 * "Abb. 3: Lage"): the label, its number, then a colon or full stop.
 */
export const CAPTION_LABEL = captionLabel('fig(?:ure)?|table|tab|abbildung|abb|tabelle|tableau|tabla|figura');

/** A caption's label that names a table ("Table 3:", "Tabelle 2."), the kinds CAPTION_LABEL knows. */
export const TABLE_CAPTION_LABEL = captionLabel('table|tab|tabelle|tableau|tabla');

/** A caption's label of one of `kinds` (alternatives of a regular expression), its number, then a colon or full stop. */
function captionLabel(kinds: string): RegExp {
  return new RegExp(`^(?:${kinds})\\.?\\s*\\d+(?:\\.\\d+)*\\s*[:.](?:\\s|$)`, 'i');
}

/** A word of leader dots, which lead the eye from an entry across to its page number or value. */
export const LEADER = /^[.·…]+$/;

/** A section number opening a heading ("2", "3.1.", "A.2"), which may stand a tab's width from its title. */
export const SECTION_NUMBER = /^(?:\d+|[A-Z])(?:\.\d+)*\.?$/;

/**
 * A subsection's number, two levels or more, as an outline prints it ("4.2", "4.2.1."); unlike a
 * section number, never a bare "4", which a column of counts holds as well.
 */
export const SUBSECTION_NUMBER = /^\d{1,3}(?:\.\d{1,3})+\.?$/;

/** A page number as contents and indexes print it: arabic, or roman for the front matter. */
export const PAGE_NUMBER = /^(?:\d{1,4}|[ivxlcdm]{1,7})$/i;

/** Relation and operator signs that prose seldom sets between its words. */
export const MATH_SIGN = /[=≠≈≡≤≥∝∈∉⊂⊆∑∏∫∮√∇∂±∓×÷→⇒⇔↦∀∃]/u;

/** An equation's number as it stands at the right of a display formula: "(3)", "(2.14)", "(4b)". */
export const EQUATION_LABEL = /\(\d{1,3}(?:\.\d{1,3})?[a-z]?\)/;

/** A check box printed ticked or crossed: a form's chosen option. */
export const CHECKED = /^(?:☑|☒|■|✓|✔|✗|✘|\[[xX✓]\])$/;

/** A check box printed empty. */
export const UNCHECKED = /^(?:☐|□|▢|\[\s?\])$/;

export function isCheckBox(text: string): boolean {
  return CHECKED.test(text) || UNCHECKED.test(text);
}
