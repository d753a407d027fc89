// Who issued a receipt or an invoice, from the top of its first page, read line by line as printed
// (the layout's lines: page text may reflow a centred header into one paragraph). The seller is
// named above its address: a name with a legal suffix there, else the name printed just above
// it (a brand, a branch or the owner's name may stand higher up). The address is the run of lines
// after the name that begins like an address (a house, lot or unit number, a street) and ends
// with the line of its postcode and the state or country under it; a branch name between the
// seller and its address, registration numbers, telephone and tax numbers are not part of it.
import { organizationIn } from './fields.js';
import type { DocumentView } from './view.js';

export interface HeadLine {
  page: number;
  text: string;
  /** The printed lines it is made of, each words of the page text. */
  parts: string[];
}

export interface SellerAt {
  name: string;
  line: HeadLine;
  confidence: number;
}

export interface AddressAt {
  text: string;
  page: number;
  quote: string;
}

/** Lines that are a generic heading of a receipt or invoice, not a company. */
const GENERIC_LINE = /^(tax invoice|invoice|receipt|official receipt|cash bill|cash sale|bill|statement|quotation|delivery order|customer'?s copy|copy|original|welcome)\b/i;
/** Lines (or the rest of a line) that are no part of a name or an address. */
export const STOP_LINE = /\b(tel|telephone|phone|fax|gst|sst|vat|est id|tax id|e-?mail|www\.|http|invoice|receipt|date|cashier|bill no|document no|doc no|member|table|order|reg\.? no|co\.? reg|company reg|co\.? no)\b|@/i;
/** A company registration number on its own: "(81109-A)", "789417-W", "CO. NO. 373665-A", "ROC 12345". */
const REGISTRATION = /^\(?\s*(?:co\.?\s*(?:reg\.?)?\s*no\.?|company\s*(?:reg\.?\s*)?no\.?|reg\.?\s*no\.?|roc)?\s*[:.#]?\s*\(?[A-Z]{0,3}\d{3,}[-\s]?[A-Z]?\)?\s*\)?$/i;
/** A registration number printed after a name. */
const TRAILING_REGISTRATION = /\s*\(\s*(?:co\.?\s*(?:reg\.?)?\s*no\.?\s*:?)?\s*[A-Z]{0,3}\d{3,}[-\s]?[A-Z]?\s*\)\s*$/i;

const STREET = String.raw`jalan|jln|lorong|lrg|persiaran|lebuh|lebuhraya|street|st|road|rd|avenue|ave|lane|ln|drive|dr|way|boulevard|blvd|parkway|place|pl|court|ct|square|sq|highway|hwy|quay|crescent|terrace|close|strasse|straße|str|rue|avenida|calle|via`;
const STREET_WORD = new RegExp(String.raw`\b(?:${STREET})\b\.?`, 'i');
/** Street words that open an address line ("Jalan 3/4", "Road 12"); the short forms (St, Dr)
 * also begin names. */
const LEADING_STREET = String.raw`jalan|jln|lorong|lrg|persiaran|lebuh|lebuhraya|street|road|avenue|lane|drive|boulevard|highway|strasse|straße|rue|avenida|calle`;
/** A house or unit number: 12, 12A, 2-1-1, 1/2, a block letter before it (G-23, B-1-5). */
const HOUSE_NUMBER = String.raw`(?:[a-z]{1,2}-)?\d+[a-z]?(?:[-/]\d+[a-z]?)*`;
/** Words a house, lot or unit number follows. */
const HOUSE_WORD = /\b(?:no|lot|unit|blk|block|suite|level|lvl|floor|flr|apt|pt|p\.t|plot|box|#)\.?\s*[:#]?\s*$/i;
/** How an address begins: a house, lot, unit or floor word, a street word, or a number followed
 * by a comma or a street ("12, Jalan Tampoi", "176 Jln Sungei Besi"), a floor ("3rd Flr, ..."). */
const ADDRESS_OPENING = new RegExp(
  String.raw`^(?:(?:no|lot|unit|blk|block|suite|level|lvl|floor|flr|apt|p\.?\s?o\.?\s?box)\b|(?:\d+(?:st|nd|rd|th)|ground|g)\s*(?:floor|flr|fl|level|lvl)\b|(?:${LEADING_STREET})\b|${HOUSE_NUMBER}(?:st|nd|rd|th)?\s*,|${HOUSE_NUMBER}\s+(?:\S+\s+){0,3}?(?:${STREET})\b)`,
  'i',
);
const UK_POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b/;

/** Whether a line begins like an address. */
export function opensAddress(text: string): boolean {
  return ADDRESS_OPENING.test(text.trim());
}

/**
 * Whether a line holds a postcode: a number of four to six digits standing alone that is no house
 * or lot number (after "No", "Lot", "Blk"; before a street; at the start of a line naming a
 * street), or a British postcode.
 */
export function hasPostcode(text: string): boolean {
  if (UK_POSTCODE.test(text)) return true;
  for (const match of text.matchAll(/(?<![\w.#/-])\d{4,6}(?![\w/-]|[.,]\d)/g)) {
    const before = text.slice(0, match.index);
    const after = text.slice(match.index! + match[0].length);
    if (HOUSE_WORD.test(before)) continue;
    if (new RegExp(String.raw`^[\s,]*(?:${STREET})\b`, 'i').test(after)) continue;
    if (!before.trim() && STREET_WORD.test(after)) continue;
    return true;
  }
  return false;
}

/** Words of a receipt's headings, which no place name holds. */
const HEADING_WORD = /invoice|receipt|bill|tax|cash|total/i;

/** How many lines of place names may follow a line of an address: none before its postcode (-1),
 * two when the postcode ends the line (the town, then the state or country), else one. */
function placesAfter(text: string): number {
  if (!hasPostcode(text)) return -1;
  return /(?<![\w.#/-])\d{4,6}[\s,.]*$/.test(text) ? 2 : 1;
}

/** The first page's lines as printed (split pieces joined), in reading order, else its lines of
 * text; the first `count`. */
function headLines(view: DocumentView, count: number): HeadLine[] {
  const page = view.pages[0]?.page;
  const phrases = view.phrases.filter((p) => p.page === page);
  if (phrases.length) return phrases.slice(0, count).map((p) => ({ page: p.page, text: p.text, parts: p.lines.map((l) => l.text) }));
  return view.lines
    .filter((l) => l.page === page && !l.cells)
    .slice(0, count)
    .map((l) => ({ page: l.page, text: l.text, parts: [l.text] }));
}

/** A quote for a head line, or the words of it that are `wanted`. */
export function headQuote(view: DocumentView, line: HeadLine, wanted?: string): string | null {
  return view.quoteOn(line.page, line.text, wanted) ?? view.quoteCovering(line.page, line.parts);
}

/** The name a line reads as: capitalized words, no figures, not a heading; a registration number
 * after it and an address run on in the same line are cut off. */
export function nameIn(line: string): string | null {
  let text = line.replace(TRAILING_REGISTRATION, '').trim();
  const stop = text.search(STOP_LINE);
  if (stop >= 0) text = text.slice(0, stop).trim();
  const addressAt = addressWithin(text);
  if (addressAt > 0) text = text.slice(0, addressAt).replace(TRAILING_REGISTRATION, '').trim();
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length < 2 || words.length > 8 || GENERIC_LINE.test(text) || /\d{3,}/.test(text) || !/\p{L}{2}/u.test(text)) return null;
  const capitalized = words.filter((w) => /^[\p{Lu}\d]/u.test(w)).length / words.length;
  return capitalized >= 0.6 ? text.replace(/[\s,;:]+$/, '') : null;
}

/** Where an address begins inside a line, after other words (0 or -1 when it does not). */
function addressWithin(text: string): number {
  const words = [...text.matchAll(/\S+/g)];
  for (const word of words.slice(1)) {
    if (opensAddress(text.slice(word.index))) return word.index!;
  }
  return -1;
}

/** Where the seller is named at the top of the first page. */
export function locateSeller(view: DocumentView): SellerAt | null {
  const head = headLines(view, 20);
  const addressAt = head.findIndex((line) => !organizationIn(line.text) && opensAddress(line.text));
  const above = addressAt >= 0 ? head.slice(0, addressAt) : [];
  for (const line of above) {
    const name = organizationIn(line.text);
    if (name) return { name, line, confidence: 0.8 };
  }
  for (const line of [...above].reverse()) {
    const name = nameIn(line.text);
    if (name) return { name, line, confidence: 0.6 };
  }
  for (const line of head) {
    const name = organizationIn(line.text);
    if (name) return { name, line, confidence: 0.75 };
  }
  for (const line of head.slice(0, 8)) {
    const name = nameIn(line.text);
    if (name) return { name, line, confidence: 0.55 };
  }
  // A name with a legal suffix in a table at the top (an invoice's header laid out in cells).
  const firstPage = view.pages[0]?.page;
  for (const line of view.lines.filter((l) => l.page === firstPage && l.cells).slice(0, 20)) {
    const name = organizationIn(line.cells!.join(' '));
    if (name) return { name, line: { page: line.page, text: line.text, parts: [line.text] }, confidence: 0.7 };
  }
  return null;
}

/** The seller's address: the run of lines after its name that reads as one. */
export function locateAddress(view: DocumentView, seller: SellerAt | null): AddressAt | null {
  const head = headLines(view, 25);
  let start = seller ? head.findIndex((l) => l.text === seller.line.text) + 1 : 0;
  const lines: { text: string; line: HeadLine }[] = [];
  // The rest of the seller's line, when the address runs on in it.
  const own = seller && start > 0 ? head[start - 1] : null;
  const rest = own ? own.text.slice(own.text.indexOf(seller!.name) + seller!.name.length).replace(/^[\s,]*\(?[A-Z]{0,3}\d{3,}[-\s]?[A-Z]?\)?[\s,]*/, '') : '';
  if (own && rest && opensAddress(rest)) {
    lines.push({ text: rest, line: own });
  } else {
    // The first line after the name that begins like an address: a branch name, registration
    // and telephone lines may come first. Else (an address opening with a building's name) the
    // first that names a street or holds a postcode.
    const near = (i: number) => i >= start && i < start + 6;
    const opening = head.findIndex((l, i) => near(i) && opensAddress(l.text));
    start = opening >= 0 ? opening : head.findIndex((l, i) => near(i) && !STOP_LINE.test(l.text) && (STREET_WORD.test(l.text) || hasPostcode(l.text)));
    if (start < 0) return null;
  }
  // Lines of place names still to come after the postcode's line: its town and the state or
  // country under it when the postcode ends its line, else the state or country.
  let placesLeft = lines.length ? placesAfter(lines[0].text) : -1;
  for (let i = start; i < head.length && lines.length < 6 && placesLeft !== 0; i++) {
    const raw = head[i].text;
    const cut = raw.search(STOP_LINE);
    const text = (cut >= 0 ? raw.slice(0, cut) : raw).replace(/[\s|(]+$/, '').trim();
    if (!text || REGISTRATION.test(text) || /^[\d\s()+-]{7,}$/.test(text)) break;
    const words = text.split(/\s+/).length;
    if (placesLeft > 0) {
      if (cut >= 0 || words > 3 || !/^[\p{L}\s.,'-]+$/u.test(text) || HEADING_WORD.test(text)) break;
      placesLeft--;
    } else {
      // A long line with no sign of an address is what comes after it.
      if (lines.length && words > 4 && !hasPostcode(text) && !text.includes(',') && !STREET_WORD.test(text) && !opensAddress(text)) break;
      placesLeft = placesAfter(text);
    }
    lines.push({ text, line: head[i] });
    if (cut >= 0) break;
  }
  if (!lines.length) return null;
  const text = lines.map((l) => l.text).join(' ').replace(/\s+/g, ' ').replace(/\s+,/g, ',');
  const page = lines[0].line.page;
  const quote = view.quoteOn(page, text, lines.map((l) => l.line.text).join(' ')) ?? view.quoteCovering(page, lines.flatMap((l) => l.line.parts));
  return quote ? { text, quote, page } : null;
}
