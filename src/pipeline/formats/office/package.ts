// An Office Open XML package (a zip of XML parts), opened with limits: the declared sizes of the
// parts read are checked before anything is inflated and every part is inflated into a buffer of
// its declared size at most, so a zip bomb is refused rather than unpacked. Parts are parsed with
// fast-xml-parser into a small ordered tree, and relationships resolved to part names.
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

export class OfficePackage {
  private constructor(private readonly parts: Map<string, Uint8Array>) {}

  /** Opens the package and unpacks the parts `wanted` selects, within the limits. */
  static open(bytes: Uint8Array, wanted: (name: string) => boolean): OfficePackage {
    if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
      throw new OfficeReadError('the Office file is encrypted (protected by a password); remove the password and upload it again');
    }
    let total = 0;
    let entries = 0;
    let problem: string | null = null;
    const filter = (file: UnzipFileInfo) => {
      entries++;
      if (entries > MAX_ENTRIES) problem ??= `the file holds more than ${MAX_ENTRIES} parts`;
      if (!wanted(file.name)) return false;
      total += file.originalSize;
      if (file.originalSize > MAX_PART_BYTES || total > MAX_TOTAL_BYTES) problem ??= 'the file unpacks to more than Folio reads (a zip bomb?)';
      else if (file.size > 0 && file.originalSize / file.size > MAX_RATIO && file.originalSize > 10 * 1024 * 1024) problem ??= 'a part of the file is compressed beyond any real document (a zip bomb?)';
      return problem === null;
    };
    let unzipped: Record<string, Uint8Array>;
    try {
      unzipped = unzipSync(bytes, { filter });
    } catch (error) {
      throw new OfficeReadError(problem ?? 'the file is not a valid Office document (its zip package is damaged)', { cause: error });
    }
    if (problem) throw new OfficeReadError(problem);
    return new OfficePackage(new Map(Object.entries(unzipped)));
  }

  has(name: string): boolean {
    return this.parts.has(name);
  }

  text(name: string): string | null {
    const part = this.parts.get(name);
    return part ? new TextDecoder('utf-8').decode(part) : null;
  }

  xml(name: string): XmlNode | null {
    const text = this.text(name);
    return text === null ? null : parseXml(text);
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

function resolvePath(folder: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = folder ? folder.split('/') : [];
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}
