// An Office Open XML package (a zip of XML parts), opened with limits: the declared sizes of the
// parts read are checked before anything is inflated and every part is inflated into a buffer of
// its declared size at most, so a zip bomb is refused rather than unpacked. Parts are parsed with
// fast-xml-parser into a small ordered tree, and relationships resolved to part names. Parts that
// may be large are handled so that no whole-part tree is ever built: a workbook's sheets and
// shared strings are unpacked only when read, one at a time, and the long list of elements in a
// part (a sheet's rows, a document's body) is parsed a slice at a time (`streamPart`).
import { unzipSync, type UnzipFileInfo } from 'fflate';
import { XMLParser } from 'fast-xml-parser';

/** The most a package may unpack to, all parts together, and one part alone. */
const MAX_TOTAL_BYTES = 300 * 1024 * 1024;
const MAX_PART_BYTES = 150 * 1024 * 1024;
const MAX_ENTRIES = 20_000;
/** A part that inflates more than this many times its packed size is a bomb. */
const MAX_RATIO = 200;

export class OfficeReadError extends Error {}

export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  /** For text nodes (name '#text'). */
  text?: string;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

type Raw = Record<string, unknown>;

function toNodes(raw: Raw[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const item of raw) {
    const attrs = (item[':@'] as Record<string, string> | undefined) ?? {};
    for (const [name, value] of Object.entries(item)) {
      if (name === ':@') continue;
      if (name === '#text') out.push({ name, attrs: {}, children: [], text: String(value) });
      else out.push({ name, attrs, children: toNodes(value as Raw[]) });
    }
  }
  return out;
}

export function parseXml(text: string): XmlNode {
  const nodes = toNodes(parser.parse(text) as Raw[]);
  const root = nodes.find((n) => n.name !== '#text');
  if (!root) throw new OfficeReadError('an XML part of the file is empty');
  return root;
}

/** Children with this name (namespace prefix included, e.g. "w:p"). */
export function children(node: XmlNode | undefined, name: string): XmlNode[] {
  return node ? node.children.filter((c) => c.name === name) : [];
}

export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((c) => c.name === name);
}

/** Every descendant with this name, in document order. */
export function descendants(node: XmlNode, name: string, out: XmlNode[] = []): XmlNode[] {
  for (const c of node.children) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

/** All text below a node. */
export function textOf(node: XmlNode): string {
  if (node.text !== undefined) return node.text;
  return node.children.map(textOf).join('');
}

/** Bytes of XML parsed at once when a part's long list of elements is read a slice at a time. */
const SLICE_BYTES = 1024 * 1024;

export class OfficePackage {
  private constructor(
    private readonly zip: Uint8Array,
    private readonly parts: Map<string, Uint8Array>,
    /** Parts checked against the limits but unpacked only when read, and not kept. */
    private readonly deferred: Set<string>,
    /** Every part name in the package, read or not. */
    private readonly listed: Set<string>,
  ) {}

  /**
   * Opens the package: the parts `wanted` selects are checked against the limits, and unpacked
   * now, or, those `deferred` selects too, when they are read.
   */
  static open(bytes: Uint8Array, wanted: (name: string) => boolean, deferred: (name: string) => boolean = () => false): OfficePackage {
    if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
      throw new OfficeReadError('the Office file is encrypted (protected by a password); remove the password and upload it again');
    }
    let total = 0;
    let entries = 0;
    let problem: string | null = null;
    const listed = new Set<string>();
    const later = new Set<string>();
    const filter = (file: UnzipFileInfo) => {
      entries++;
      listed.add(file.name);
      if (entries > MAX_ENTRIES) problem ??= `the file holds more than ${MAX_ENTRIES} parts`;
      if (!wanted(file.name)) return false;
      total += file.originalSize;
      if (file.originalSize > MAX_PART_BYTES || total > MAX_TOTAL_BYTES) problem ??= 'the file unpacks to more than Folio reads (a zip bomb?)';
      else if (file.size > 0 && file.originalSize / file.size > MAX_RATIO && file.originalSize > 10 * 1024 * 1024) problem ??= 'a part of the file is compressed beyond any real document (a zip bomb?)';
      if (problem === null && deferred(file.name)) {
        later.add(file.name);
        return false;
      }
      return problem === null;
    };
    let unzipped: Record<string, Uint8Array>;
    try {
      unzipped = unzipSync(bytes, { filter });
    } catch (error) {
      throw new OfficeReadError(problem ?? 'the file is not a valid Office document (its zip package is damaged)', { cause: error });
    }
    if (problem) throw new OfficeReadError(problem);
    return new OfficePackage(bytes, new Map(Object.entries(unzipped)), later, listed);
  }

  /** Whether the package holds the part, whether it was unpacked or not. */
  lists(name: string): boolean {
    return this.listed.has(name);
  }

  has(name: string): boolean {
    return this.parts.has(name) || this.deferred.has(name);
  }

  /** A part's bytes (a deferred part is unpacked now, and not kept). */
  bytes(name: string): Uint8Array | null {
    const kept = this.parts.get(name);
    if (kept || !this.deferred.has(name)) return kept ?? null;
    try {
      return unzipSync(this.zip, { filter: (file) => file.name === name })[name] ?? null;
    } catch {
      throw new OfficeReadError(`the file is not a valid Office document (its part ${name} cannot be unpacked)`);
    }
  }

  text(name: string): string | null {
    const part = this.bytes(name);
    return part ? new TextDecoder('utf-8').decode(part) : null;
  }

  xml(name: string): XmlNode | null {
    const text = this.text(name);
    return text === null ? null : parseXml(text);
  }

  /**
   * Reads a part whose first `container` element holds a long list (a sheet's rows, a document's
   * body): `each` gets the container's children a slice of about SLICE_BYTES at a time, in order,
   * so that only one slice's tree exists at once. A child longer than a slice whose name `large`
   * lists (a Word table of many rows) is read the same way: its reader gets the element without
   * children, then its children a slice at a time, then `end`. Returns the part's root with the
   * container left empty (the rest of the part, small), or null when the part is absent. A part
   * without the container is parsed whole.
   */
  streamPart(name: string, container: string, each: (nodes: XmlNode[]) => void, large: Record<string, LargeElementReader> = {}): XmlNode | null {
    const part = this.bytes(name);
    if (!part) return null;
    const bytes = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    const open = startTag(bytes, container);
    const close = open && !open.selfClosing ? bytes.lastIndexOf(`</${container}>`) : -1;
    if (!open || (!open.selfClosing && close < open.end)) return parseXml(bytes.toString('utf8'));
    const decoder = new TextDecoder('utf-8');
    const parseSlice = (from: number, to: number, within: string) => parseXml(`<${within}>${decoder.decode(bytes.subarray(from, to))}</${within}>`).children;
    const readLarge = (from: number, to: number, element: string, reader: LargeElementReader) => {
      const startEnd = tagEnd(bytes, bytes.indexOf(LT, from), to) + 1;
      const endTag = bytes.lastIndexOf(`</${element}`, to);
      const children = reader(parseXml(`${decoder.decode(bytes.subarray(bytes.indexOf(LT, from), startEnd))}</${element}>`));
      for (const [a, b] of childSlices(bytes, startEnd, endTag, SLICE_BYTES)) children.children(parseSlice(a, b, element));
      children.end();
    };
    if (!open.selfClosing) {
      for (const [from, to] of childSlices(bytes, open.end, close, SLICE_BYTES)) {
        if (to - from <= SLICE_BYTES) {
          each(parseSlice(from, to, container));
          continue;
        }
        // A slice over the size holds a child longer than a slice: one `large` names is read apart.
        let pending = from;
        for (const [a, b] of childSlices(bytes, from, to, 1)) {
          const element = b - a > SLICE_BYTES ? elementName(bytes, a, b) : null;
          const reader = element ? large[element] : undefined;
          if (!element || !reader) continue;
          if (a > pending) each(parseSlice(pending, a, container));
          readLarge(a, b, element, reader);
          pending = b;
        }
        if (pending < to) each(parseSlice(pending, to, container));
      }
    }
    const rest = open.selfClosing ? bytes.toString('utf8') : `${decoder.decode(bytes.subarray(0, open.end))}${decoder.decode(bytes.subarray(close))}`;
    return parseXml(rest);
  }

  /** A part's relationships: id to target part name (resolved against the part's folder). */
  relationships(partName: string): Map<string, { target: string; type: string; external: boolean }> {
    const folder = partName.includes('/') ? partName.slice(0, partName.lastIndexOf('/')) : '';
    const file = partName.slice(partName.lastIndexOf('/') + 1);
    const rels = this.xml(`${folder ? `${folder}/` : ''}_rels/${file}.rels`);
    const out = new Map<string, { target: string; type: string; external: boolean }>();
    for (const rel of children(rels ?? undefined, 'Relationship')) {
      const external = rel.attrs.TargetMode === 'External';
      out.set(rel.attrs.Id, { target: external ? rel.attrs.Target : resolvePath(folder, rel.attrs.Target), type: rel.attrs.Type ?? '', external });
    }
    return out;
  }
}

/** Reads one element too long for a slice: given the element without its children, how to take them, a slice at a time, and the end. */
export type LargeElementReader = (element: XmlNode) => { children(nodes: XmlNode[]): void; end(): void };

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;

/** The first start tag of an element by its name: where it ends (after its '>') and whether it closes itself. */
function startTag(bytes: Buffer, name: string): { end: number; selfClosing: boolean } | null {
  for (let at = bytes.indexOf(`<${name}`); at >= 0; at = bytes.indexOf(`<${name}`, at + 1)) {
    const after = bytes[at + name.length + 1];
    // "<sheetData" but not "<sheetDataX": the name ends at a space, '>' or '/'.
    if (after !== GT && after !== SLASH && after !== 0x20 && after !== 0x09 && after !== 0x0a && after !== 0x0d) continue;
    const end = tagEnd(bytes, at, bytes.length);
    return end < 0 ? null : { end: end + 1, selfClosing: bytes[end - 1] === SLASH };
  }
  return null;
}

/** The name of the element that starts (after any text) at `from`; null if none does. */
function elementName(bytes: Buffer, from: number, to: number): string | null {
  const lt = bytes.indexOf(LT, from);
  if (lt < 0 || lt >= to) return null;
  let end = lt + 1;
  while (end < to && bytes[end] !== GT && bytes[end] !== SLASH && bytes[end] !== 0x20 && bytes[end] !== 0x09 && bytes[end] !== 0x0a && bytes[end] !== 0x0d) end++;
  const name = bytes.subarray(lt + 1, end).toString('latin1');
  return /^[A-Za-z_][\w.:-]*$/.test(name) ? name : null;
}

/** The '>' that ends the tag opened at `at`, skipping quoted attribute values (which may hold '>'); -1 if none. */
function tagEnd(bytes: Buffer, at: number, limit: number): number {
  let quote = 0;
  for (let i = at + 1; i < limit; i++) {
    const c = bytes[i];
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === GT) return i;
  }
  return -1;
}

/**
 * Cuts the content [from, to) of an element into slices of whole children, each about `size`
 * bytes or the one child longer than that: the tags are followed for their nesting only (comments,
 * CDATA and processing instructions skipped whole), and parsing is left to the XML parser.
 */
export function* childSlices(bytes: Buffer, from: number, to: number, size: number): Generator<[number, number]> {
  let depth = 0;
  let start = from;
  let i = from;
  while (i < to) {
    const lt = bytes.indexOf(LT, i);
    if (lt < 0 || lt >= to) break;
    const next = bytes[lt + 1];
    let end: number;
    if (next === 0x21 /* ! */) {
      const closer = bytes.subarray(lt, lt + 9).toString('latin1') === '<![CDATA[' ? ']]>' : bytes[lt + 2] === 0x2d ? '-->' : '>';
      const at = bytes.indexOf(closer, lt + 2);
      end = at < 0 ? to : at + closer.length;
    } else if (next === 0x3f /* ? */) {
      const at = bytes.indexOf('?>', lt + 2);
      end = at < 0 ? to : at + 2;
    } else {
      const gt = tagEnd(bytes, lt, to);
      end = gt < 0 ? to : gt + 1;
      if (next === SLASH) depth--;
      else if (bytes[gt - 1] !== SLASH) depth++;
    }
    i = end;
    if (depth <= 0 && i - start >= size) {
      yield [start, i];
      start = i;
      depth = 0;
    }
  }
  if (start < to) yield [start, to];
}

function resolvePath(folder: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = folder ? folder.split('/') : [];
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}
