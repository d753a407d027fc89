// Filling a client's JSON Schema without a language model. Each property is looked for by its
// name, title and description: among the page's key/values, in labelled lines ("Total: 9.00"),
// in tables (a row label or a column heading), and by what kind of value it asks for (a company,
// an address, a date, a total, an email...). The value found is coerced to the property's type;
// a property nothing answers is left out.
import type { JsonSchema, RawCitation } from '../types.js';
import { amountValue, findAmounts, withDecimalMark } from './amounts.js';
import { findLabelledAmounts, findLabelledDates, findParties, findTitle, pickTotal, readBuiltinFields } from './fields.js';
import { headQuote, locateAddress, locateSeller } from './seller.js';
import { classifyDocument } from './classify.js';
import { contentWords, type DocumentView, type TextLine } from './view.js';

export interface Filled {
  data: Record<string, unknown>;
  citations: RawCitation[];
}

interface Found {
  value: unknown;
  page: number;
  quote: string;
  confidence: number;
}

/** Words that mean the same in labels. */
const SYNONYMS: Record<string, string> = {
  qty: 'quantity',
  amt: 'amount',
  no: 'number',
  num: 'number',
  nr: 'number',
  '#': 'number',
  tel: 'phone',
  telephone: 'phone',
  mobile: 'phone',
  dob: 'birth',
  desc: 'description',
  inv: 'invoice',
  addr: 'address',
  mail: 'email',
  'e-mail': 'email',
  vendor: 'seller',
  merchant: 'seller',
  supplier: 'seller',
  store: 'seller',
  shop: 'seller',
  unit: 'unit',
  cost: 'price',
  sum: 'total',
  zip: 'postcode',
  postal: 'postcode',
};

function canonicalWords(text: string): string[] {
  const spaced = text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
  return contentWords(spaced).map((w) => SYNONYMS[w] ?? w);
}

interface Wanted {
  name: string;
  words: string[];
  /** Words of the description, a weaker signal. */
  hints: string[];
  schema: JsonSchema;
  type: string;
}

function typeOf(schema: JsonSchema): string {
  const type = schema.type;
  if (Array.isArray(type)) return (type.find((t) => t !== 'null') as string) ?? 'string';
  if (typeof type === 'string') return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  if (Array.isArray(schema.enum)) return typeof schema.enum[0] === 'number' ? 'number' : 'string';
  return 'string';
}

/** The schema a value must follow, past `anyOf`/`oneOf` wrappers (the first non-null form). */
function concrete(schema: JsonSchema): JsonSchema {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const first = options.find((o) => (o as JsonSchema).type !== 'null') as JsonSchema | undefined;
      if (first) return { ...first, description: schema.description ?? first.description, title: schema.title ?? first.title };
    }
  }
  return schema;
}

function wanted(name: string, raw: JsonSchema): Wanted {
  const schema = concrete(raw);
  const title = typeof schema.title === 'string' ? schema.title : '';
  const description = typeof schema.description === 'string' ? schema.description : '';
  return { name, words: [...new Set(canonicalWords(`${name} ${title}`))], hints: canonicalWords(description), schema, type: typeOf(schema) };
}

/** How well a printed label names the property: F1 of shared words (0 to 1). */
function labelMatch(label: string, want: Wanted): number {
  const words = new Set(canonicalWords(label));
  if (!words.size || !want.words.length) return 0;
  const shared = want.words.filter((w) => words.has(w)).length;
  if (!shared) return 0;
  const recall = shared / want.words.length;
  const precision = shared / words.size;
  const hinted = want.hints.filter((w) => words.has(w)).length ? 0.05 : 0;
  return Math.min(1, (2 * precision * recall) / (precision + recall) + hinted);
}

type Concept = 'email' | 'phone' | 'address' | 'company' | 'date' | 'total' | 'amount' | 'currency' | 'title' | 'document_type' | 'summary' | null;

function conceptOf(want: Wanted): Concept {
  const w = new Set(want.words);
  const has = (...words: string[]) => words.some((x) => w.has(x));
  if (has('email')) return 'email';
  if (has('phone', 'fax')) return 'phone';
  if (has('address', 'location') && !has('email')) return 'address';
  if (has('company', 'seller', 'business', 'issuer', 'organization', 'organisation', 'employer', 'payee', 'restaurant', 'hotel', 'brand')) return 'company';
  if (has('currency')) return 'currency';
  if (want.schema.format === 'date' || want.schema.format === 'date-time' || has('date', 'dated', 'day')) return 'date';
  if (has('total', 'payable', 'due', 'balance') && (want.type === 'number' || want.type === 'integer' || has('total', 'amount'))) return 'total';
  if (has('amount', 'price', 'fee', 'paid', 'tax', 'subtotal', 'tip', 'discount', 'salary', 'rent')) return 'amount';
  if (has('title', 'heading')) return 'title';
  if ((has('type', 'kind', 'category', 'class') && has('document', 'doc', 'file')) || (want.words.length === 1 && has('category'))) return 'document_type';
  if (has('summary', 'abstract', 'overview')) return 'summary';
  return null;
}

export function fillSchema(view: DocumentView, schema: JsonSchema): Filled {
  const out: Filled = { data: {}, citations: [] };
  const data = fillObject(view, schema, 'data', out);
  out.data = data ?? {};
  return out;
}

function fillObject(view: DocumentView, schema: JsonSchema, path: string, out: Filled): Record<string, unknown> | null {
  const properties = (concrete(schema).properties ?? {}) as Record<string, JsonSchema>;
  const result: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(properties)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const want = wanted(name, raw);
    const at = `${path}.${name}`;
    if (want.type === 'object') {
      const nested = fillObject(view, want.schema, at, out);
      if (nested && Object.keys(nested).length) result[name] = nested;
    } else if (want.type === 'array') {
      const list = fillArray(view, want, at, out);
      if (list.length) result[name] = list;
    } else {
      const found = findScalar(view, want);
      if (found) {
        result[name] = found.value;
        out.citations.push({ path: at, page: found.page, quote: found.quote, confidence: round(found.confidence) });
      }
    }
  }
  return result;
}

const round = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 100) / 100;

// ---- scalars ----

function findScalar(view: DocumentView, want: Wanted): Found | null {
  const concept = conceptOf(want);
  const conceptFirst = concept === 'total' || concept === 'company' || concept === 'address' || concept === 'title' || concept === 'document_type' || concept === 'summary';
  const byConcept = () => (concept ? fromConcept(view, want, concept) : null);
  const byLabel = () => fromKeyValues(view, want) ?? fromLines(view, want) ?? fromTables(view, want);
  return conceptFirst ? (byConcept() ?? byLabel()) : (byLabel() ?? byConcept());
}

/** Coerces a printed value to the property's type, or null when it is not of that type. */
function coerce(view: DocumentView, text: string, want: Wanted): unknown {
  const printed = text.replace(/\s+/g, ' ').trim();
  if (!printed) return null;
  const { schema, type } = want;
  if (Array.isArray(schema.enum)) {
    const lower = printed.toLowerCase();
    const option = (schema.enum as unknown[]).find((o) => typeof o === 'string' && (lower === o.toLowerCase() || new RegExp(`\\b${escapeRegExp(o.toLowerCase())}\\b`).test(lower)));
    return option ?? null;
  }
  if (type === 'number' || type === 'integer') {
    const amounts = findAmounts(printed, true, null);
    const value = amounts.length ? amounts[amounts.length - 1].amount : /\d/.test(printed) ? amountValue(printed.match(/-?\d[\d.,' ]*/)?.[0] ?? '') : null;
    if (value === null || !Number.isFinite(value)) return null;
    if (type === 'integer' && !Number.isInteger(value)) return null;
    return value;
  }
  if (type === 'boolean') {
    if (/^(yes|y|true|x|✓|✔|☑|☒|checked|selected|on)$/i.test(printed)) return true;
    if (/^(no|n|false|☐|unchecked|off)$/i.test(printed)) return false;
    return null;
  }
  if (schema.format === 'date' || schema.format === 'date-time') {
    const date = view.datesIn(printed)[0];
    return date ? date.iso : null;
  }
  // A text property that asks for a date or an amount takes one as printed, or nothing; an
  // amount with the document's own decimal mark.
  const concept = conceptOf(want);
  if (concept === 'date') return view.datesIn(printed)[0]?.text ?? null;
  if (concept === 'total' || concept === 'amount') {
    const amount = findAmounts(printed, true, null).pop();
    return amount ? withDecimalMark(amount.text.replace(/^[^\d-]+/, ''), view.decimalMark) : null;
  }
  return printed;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function fromKeyValues(view: DocumentView, want: Wanted): Found | null {
  let best: { score: number; found: Found } | null = null;
  for (const kv of view.keyValues) {
    const score = labelMatch(kv.key, want);
    if (score < 0.5 || (best && score <= best.score)) continue;
    const value = want.type === 'boolean' && kv.selected !== null ? kv.selected : coerce(view, kv.value, want);
    if (value === null) continue;
    const quote = view.keyValueQuote(kv, typeof value === 'string' ? value : undefined);
    best = { score, found: { value, page: kv.page, quote, confidence: (0.55 + 0.4 * score) * Math.max(0.5, kv.confidence) } };
  }
  return best?.found ?? null;
}

/** "Label: value" on one line, or a label line followed by its value. */
function fromLines(view: DocumentView, want: Wanted): Found | null {
  let best: { score: number; found: Found } | null = null;
  for (const line of view.lines) {
    if (line.cells) continue;
    const colon = line.text.indexOf(':');
    const candidates: [string, string, TextLine | null][] = [];
    if (colon > 0) candidates.push([line.text.slice(0, colon), line.text.slice(colon + 1), null]);
    if (colon < 0 || colon === line.text.length - 1) {
      const next = view.nextLine(line);
      if (next && line.text.split(/\s+/).length <= 5) candidates.push([line.text, next.text, next]);
    }
    for (const [label, rest, next] of candidates) {
      const score = labelMatch(label, want);
      if (score < 0.5 || (best && score <= best.score)) continue;
      const text = rest.trim();
      const value = coerce(view, text, want);
      if (value === null) continue;
      const quote = view.quoteOn(line.page, next ? `${line.text} ${next.text}` : line.text) ?? line.text;
      best = { score, found: { value, page: line.page, quote, confidence: 0.5 + 0.35 * score } };
    }
  }
  return best?.found ?? null;
}

/** A table row whose label names the property (its value the last filled cell after it). */
function fromTables(view: DocumentView, want: Wanted): Found | null {
  for (const line of view.lines) {
    if (!line.cells) continue;
    for (let i = 0; i < line.cells.length - 1; i++) {
      if (labelMatch(line.cells[i], want) < 0.6) continue;
      const rest = line.cells.slice(i + 1).filter(Boolean);
      const cell = rest[rest.length - 1];
      if (!cell) continue;
      const value = coerce(view, cell, want);
      if (value === null) continue;
      const quote = view.quoteOn(line.page, `${line.cells[i]} ${cell}`, cell) ?? cell;
      return { value, page: line.page, quote, confidence: 0.7 };
    }
  }
  return null;
}

function fromConcept(view: DocumentView, want: Wanted, concept: NonNullable<Concept>): Found | null {
  switch (concept) {
    case 'email':
      return firstMatch(view, /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/, want);
    case 'phone':
      return firstMatch(view, /(?:\+\d{1,3}[\s-]?)?(?:\(\d{1,4}\)[\s-]?)?\d{2,4}(?:[\s-]\d{2,4}){1,3}/, want, /\b(tel|phone|telephone|mobile|fax|t|p)\b/i);
    case 'company':
      return findCompany(view, want);
    case 'address':
      return findAddress(view, want);
    case 'date':
      return findDate(view, want);
    case 'total':
    case 'amount':
      return findMoney(view, want, concept);
    case 'currency': {
      if (!view.currency) return null;
      const line = view.lines.find((l) => findAmounts(l.text, false, null).some((a) => a.currency === view.currency));
      const value = coerce(view, view.currency, want);
      return line && value !== null ? { value, page: line.page, quote: line.text, confidence: 0.7 } : null;
    }
    case 'title': {
      const title = findTitle(view);
      const value = title ? coerce(view, title.text, want) : null;
      return title && value !== null ? { value, page: title.page, quote: title.text, confidence: title.confidence } : null;
    }
    case 'document_type': {
      const guess = classifyDocument(view);
      const value = guess ? coerce(view, guess.type, want) : null;
      return guess && value !== null ? { value, page: guess.line.page, quote: guess.line.text, confidence: guess.confidence } : null;
    }
    case 'summary': {
      const fields = readBuiltinFields(view, ['summary']);
      const citation = fields.citations[0];
      return citation && typeof fields.data.summary === 'string' ? { value: fields.data.summary, page: citation.page, quote: citation.quote, confidence: citation.confidence } : null;
    }
  }
}

function firstMatch(view: DocumentView, pattern: RegExp, want: Wanted, nearby?: RegExp): Found | null {
  const lines = nearby ? [...view.lines.filter((l) => nearby.test(l.text)), ...view.lines] : view.lines;
  for (const line of lines) {
    const match = pattern.exec(line.text);
    if (!match || (nearby && !/\d{6,}|\d[\s-]\d/.test(match[0].replace(/\s/g, ' ')) && match[0].replace(/\D/g, '').length < 6)) continue;
    const value = coerce(view, match[0], want);
    if (value !== null) return { value, page: line.page, quote: view.quoteOn(line.page, line.text) ?? match[0], confidence: 0.75 };
  }
  return null;
}

// ---- company and address ----

function findCompany(view: DocumentView, want: Wanted): Found | null {
  // A label naming the company may print its number ("Company No: 20965-W"): a name has letters.
  const fromLabel = fromKeyValues(view, want) ?? fromLines(view, want);
  if (fromLabel && readsAsName(String(fromLabel.value))) return fromLabel;
  const seller = locateSeller(view);
  if (!seller) return null;
  const value = coerce(view, seller.name, want);
  if (value === null) return null;
  const quote = headQuote(view, seller.line, seller.name);
  return quote ? { value, page: seller.line.page, quote, confidence: seller.confidence } : null;
}

/** Whether a text can be a name: more letters than digits, two of them together. */
function readsAsName(text: string): boolean {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  return /\p{L}{2}/u.test(text) && letters > (text.match(/\d/g)?.length ?? 0);
}

function findAddress(view: DocumentView, want: Wanted): Found | null {
  const fromLabel = fromKeyValues(view, want) ?? fromLines(view, want);
  if (fromLabel) return fromLabel;
  const address = locateAddress(view, locateSeller(view));
  if (!address) return null;
  const value = coerce(view, address.text, want);
  return value === null ? null : { value, page: address.page, quote: address.quote, confidence: 0.6 };
}

// ---- dates and money ----

function findDate(view: DocumentView, want: Wanted): Found | null {
  const dates = findLabelledDates(view);
  if (!dates.length) return null;
  // Words beyond "date" say which one ("due", "birth", "invoice"); else the first labelled date.
  const specific = want.words.filter((w) => w !== 'date' && w !== 'dated' && w !== 'day');
  let chosen = specific.length ? dates.find((d) => specific.some((w) => canonicalWords(d.label).includes(w))) : undefined;
  if (!chosen && specific.length) return null;
  chosen ??= dates.find((d) => /\bdate\b/i.test(d.label)) ?? dates[0];
  const isoWanted = want.schema.format === 'date' || want.schema.format === 'date-time';
  const value = want.type === 'string' ? (isoWanted ? chosen.iso : chosen.text) : coerce(view, chosen.text, want);
  if (value === null) return null;
  return { value, page: chosen.page, quote: chosen.quote, confidence: chosen.confidence * 0.95 };
}

function findMoney(view: DocumentView, want: Wanted, concept: 'total' | 'amount'): Found | null {
  const amounts = findLabelledAmounts(view);
  let chosen = null;
  if (concept === 'total' && !want.words.some((w) => ['subtotal', 'tax', 'discount', 'tip'].includes(w))) {
    chosen = pickTotal(amounts);
  }
  if (!chosen) {
    const scored = amounts.map((a) => ({ a, score: labelMatch(a.label, want) })).filter((s) => s.score >= 0.5);
    scored.sort((x, y) => y.score - x.score || x.a.position - y.a.position);
    chosen = scored[0]?.a ?? null;
  }
  if (!chosen) return null;
  const value = want.type === 'string' ? withDecimalMark(chosen.text.replace(/^[^\d-]+/, ''), view.decimalMark) : coerce(view, chosen.text, want);
  if (value === null) return null;
  return { value, page: chosen.page, quote: chosen.quote, confidence: chosen.confidence };
}

// ---- arrays ----

function fillArray(view: DocumentView, want: Wanted, path: string, out: Filled): unknown[] {
  const items = concrete((want.schema.items ?? {}) as JsonSchema);
  const itemType = typeOf(items);
  if (itemType === 'object') return rowsFromTables(view, want, items, path, out);
  const itemWant: Wanted = { ...wanted(want.name, items), words: want.words, hints: want.hints };
  const values: unknown[] = [];
  const push = (value: unknown, page: number, quote: string, confidence: number) => {
    if (value === null || values.some((v) => JSON.stringify(v) === JSON.stringify(value))) return;
    out.citations.push({ path: `${path}[${values.length}]`, page, quote, confidence: round(confidence) });
    values.push(value);
  };
  const concept = conceptOf({ ...itemWant, words: want.words.map((w) => w.replace(/s$/, '')) });
  if (concept === 'date') {
    for (const d of findLabelledDates(view)) push(coerce(view, d.text, itemWant), d.page, d.quote, d.confidence);
  } else if (concept === 'amount' || concept === 'total') {
    for (const a of findLabelledAmounts(view)) push(coerce(view, a.text, itemWant), a.page, a.quote, a.confidence);
  } else if (concept === 'email') {
    for (const line of view.lines) for (const m of line.text.matchAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g)) push(coerce(view, m[0], itemWant), line.page, line.text, 0.8);
  } else if (concept === 'company' || want.words.some((w) => ['party', 'parties', 'name', 'organization'].includes(w))) {
    for (const p of findParties(view)) push(coerce(view, p.name, itemWant), p.page, p.quote, p.confidence);
  } else {
    const column = bestColumn(view, want);
    if (column) for (const cell of column) push(coerce(view, cell.text, itemWant), cell.page, cell.text, 0.7);
  }
  return values.slice(0, 200);
}

interface Cell {
  text: string;
  page: number;
}

/** The cells under the table heading that best names the property. */
function bestColumn(view: DocumentView, want: Wanted): Cell[] | null {
  let best: { score: number; cells: Cell[] } | null = null;
  for (const table of view.tables) {
    const header = table.rows.slice(0, Math.max(1, table.headerRows));
    const width = Math.max(0, ...table.rows.map((r) => r.length));
    for (let c = 0; c < width; c++) {
      const heading = header.map((r) => r[c] ?? '').join(' ');
      const score = labelMatch(heading, want);
      if (score < 0.5 || (best && score <= best.score)) continue;
      const cells = table.rows.slice(Math.max(1, table.headerRows)).map((r) => ({ text: (r[c] ?? '').trim(), page: table.page })).filter((cell) => cell.text);
      if (cells.length) best = { score, cells };
    }
  }
  return best?.cells ?? null;
}

/** Line items: the table whose headings name most of the item's properties, a row per item. */
function rowsFromTables(view: DocumentView, want: Wanted, items: JsonSchema, path: string, out: Filled): unknown[] {
  const properties = Object.entries((items.properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => wanted(name, schema));
  if (!properties.length) return [];
  let best: { score: number; table: (typeof view.tables)[number]; columns: Map<string, number> } | null = null;
  for (const table of view.tables) {
    const headerRows = Math.max(1, table.headerRows);
    const header = table.rows.slice(0, headerRows);
    const width = Math.max(0, ...table.rows.map((r) => r.length));
    const columns = new Map<string, number>();
    let score = 0;
    for (const property of properties) {
      let bestColumnScore = 0;
      for (let c = 0; c < width; c++) {
        if ([...columns.values()].includes(c)) continue;
        const s = labelMatch(header.map((r) => r[c] ?? '').join(' '), property) || itemColumnHint(header.map((r) => r[c] ?? '').join(' '), property);
        if (s >= 0.5 && s > bestColumnScore) {
          bestColumnScore = s;
          columns.set(property.name, c);
        }
      }
      score += bestColumnScore;
    }
    const needed = Math.min(2, properties.length);
    if (columns.size >= needed && (!best || score > best.score)) best = { score, table, columns };
  }
  if (!best) return [];
  const rows: unknown[] = [];
  const headerRows = Math.max(1, best.table.headerRows);
  for (const row of best.table.rows.slice(headerRows)) {
    if (/^(sub-?total|total|grand total|tax|vat|gst)\b/i.test((row[0] ?? '').trim())) continue;
    const item: Record<string, unknown> = {};
    const citations: RawCitation[] = [];
    for (const property of properties) {
      const column = best.columns.get(property.name);
      if (column === undefined) continue;
      const text = (row[column] ?? '').trim();
      if (!text) continue;
      const value = coerce(view, text, property);
      if (value === null) continue;
      item[property.name] = value;
      citations.push({ path: `${path}[${rows.length}].${property.name}`, page: best.table.page, quote: text, confidence: 0.7 });
    }
    if (Object.keys(item).length === 0) continue;
    out.citations.push(...citations);
    rows.push(item);
    if (rows.length >= 500) break;
  }
  return rows;
}

/** Item headings that name a property by another word ("Description" for a name, "Qty"). */
function itemColumnHint(heading: string, property: Wanted): number {
  const words = new Set(canonicalWords(heading));
  const pairs: [string[], string[]][] = [
    [['description', 'item', 'product', 'article', 'service'], ['name', 'description', 'item', 'product', 'title']],
    [['quantity'], ['quantity', 'count', 'qty']],
    [['price', 'rate', 'unit'], ['price', 'unit', 'rate']],
    [['amount', 'total', 'line'], ['amount', 'total', 'price']],
  ];
  for (const [headingWords, propertyWords] of pairs) {
    if (headingWords.some((w) => words.has(w)) && propertyWords.some((w) => property.words.includes(w))) return 0.55;
  }
  return 0;
}
