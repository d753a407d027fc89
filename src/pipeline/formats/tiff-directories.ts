// The frames of a TIFF, from one walk along its chain of image directories: how many there are
// and each one's size, orientation and resolution, never its pixels (libvips decodes those).
// Written here because libvips tells a frame's details only by opening the file at that frame,
// which walks the chain again from its start: asking for every frame took time growing with the
// square of their number (1,000 frames of 1x1 pixel, 7 s; 5,000, minutes), a cheap way for one
// upload to hold the counting thread. The npm TIFF readers walk the chain without the guards an
// upload needs: a chain that loops back on itself, offsets past the end of the file, a limit on
// the frames worth walking. Classic TIFF and BigTIFF, either byte order.

export interface TiffFrame {
  width: number;
  height: number;
  /** The Orientation tag (1 to 8; 1 when absent). */
  orientation: number;
  /** Pixels per inch across, when the file states a resolution in inches or centimetres. */
  dpi: number | null;
}

export interface TiffDirectories {
  frames: TiffFrame[];
  /** True when the walk stopped at `maxFrames` with more directories after them. */
  more: boolean;
}

export class TiffStructureError extends Error {}

const TAG_WIDTH = 256;
const TAG_HEIGHT = 257;
const TAG_ORIENTATION = 274;
const TAG_X_RESOLUTION = 282;
const TAG_RESOLUTION_UNIT = 296;

/** A directory names at most this many entries; real files have a few dozen. */
const MAX_ENTRIES = 4096;

class Reader {
  private readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly littleEndian: boolean,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private check(offset: number, size: number): void {
    if (!Number.isSafeInteger(offset) || offset < 0 || offset + size > this.bytes.byteLength) {
      throw new TiffStructureError('a directory of the TIFF points past the end of the file');
    }
  }

  u16(offset: number): number {
    this.check(offset, 2);
    return this.view.getUint16(offset, this.littleEndian);
  }

  u32(offset: number): number {
    this.check(offset, 4);
    return this.view.getUint32(offset, this.littleEndian);
  }

  u64(offset: number): number {
    this.check(offset, 8);
    const value = this.view.getBigUint64(offset, this.littleEndian);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new TiffStructureError('a directory of the TIFF points past the end of the file');
    return Number(value);
  }
}

interface Layout {
  /** Bytes of an offset (4, or 8 in BigTIFF), of the entry count, and of one entry. */
  offsetSize: 4 | 8;
  countSize: 2 | 8;
  entrySize: 12 | 20;
}

function readOffset(r: Reader, layout: Layout, at: number): number {
  return layout.offsetSize === 8 ? r.u64(at) : r.u32(at);
}

/** An entry's first value as a number: SHORT, LONG or LONG8 (the only types these tags take). */
function scalar(r: Reader, layout: Layout, entry: number): number | null {
  const type = r.u16(entry + 2);
  const valueAt = entry + 4 + layout.offsetSize;
  if (type === 3) return r.u16(valueAt);
  if (type === 4) return r.u32(valueAt);
  if (type === 16) return r.u64(valueAt);
  return null;
}

/**
 * A RATIONAL entry's first value (numerator over denominator): where its offset points, or in the
 * entry itself in BigTIFF, whose 8-byte value field holds one.
 */
function rational(r: Reader, layout: Layout, entry: number): number | null {
  if (r.u16(entry + 2) !== 5) return null;
  const valueAt = entry + 4 + layout.offsetSize;
  const at = layout.offsetSize === 8 ? valueAt : r.u32(valueAt);
  const denominator = r.u32(at + 4);
  return denominator ? r.u32(at) / denominator : null;
}

function readFrame(r: Reader, layout: Layout, directory: number): { frame: TiffFrame; next: number } {
  const count = layout.countSize === 8 ? r.u64(directory) : r.u16(directory);
  if (count > MAX_ENTRIES) throw new TiffStructureError(`a directory of the TIFF claims ${count} entries`);
  let width = 0;
  let height = 0;
  let orientation = 1;
  let resolution: number | null = null;
  let unit = 2;
  const first = directory + layout.countSize;
  for (let i = 0; i < count; i++) {
    const entry = first + i * layout.entrySize;
    const tag = r.u16(entry);
    if (tag === TAG_WIDTH) width = scalar(r, layout, entry) ?? 0;
    else if (tag === TAG_HEIGHT) height = scalar(r, layout, entry) ?? 0;
    else if (tag === TAG_ORIENTATION) orientation = scalar(r, layout, entry) ?? 1;
    else if (tag === TAG_X_RESOLUTION) resolution = rational(r, layout, entry);
    else if (tag === TAG_RESOLUTION_UNIT) unit = scalar(r, layout, entry) ?? 2;
  }
  // Unit 1 states no absolute unit: a ratio of the sides, not a resolution.
  const dpi = resolution === null || unit === 1 ? null : unit === 3 ? resolution * 2.54 : resolution;
  const next = readOffset(r, layout, first + count * layout.entrySize);
  return { frame: { width, height, orientation: orientation >= 1 && orientation <= 8 ? orientation : 1, dpi }, next };
}

/**
 * The frames of the main chain (sub-directories, such as thumbnails, are not pages), at most
 * `maxFrames` of them. Time and memory grow with the frames walked, never with their square.
 */
export function tiffDirectories(bytes: Uint8Array, maxFrames = Number.POSITIVE_INFINITY): TiffDirectories {
  if (bytes.byteLength < 8) throw new TiffStructureError('the file is too short to be a TIFF');
  const order = String.fromCharCode(bytes[0], bytes[1]);
  if (order !== 'II' && order !== 'MM') throw new TiffStructureError('the file does not start as a TIFF does');
  const r = new Reader(bytes, order === 'II');
  const version = r.u16(2);
  let layout: Layout;
  let directory: number;
  if (version === 42) {
    layout = { offsetSize: 4, countSize: 2, entrySize: 12 };
    directory = r.u32(4);
  } else if (version === 43) {
    if (r.u16(4) !== 8) throw new TiffStructureError('the BigTIFF header names an offset size other than 8');
    layout = { offsetSize: 8, countSize: 8, entrySize: 20 };
    directory = r.u64(8);
  } else {
    throw new TiffStructureError('the file does not start as a TIFF does');
  }
  const frames: TiffFrame[] = [];
  // Each directory is read once: a chain that comes back to one it has passed ends there, as
  // libtiff ends it.
  const seen = new Set<number>();
  while (directory !== 0 && !seen.has(directory)) {
    if (frames.length >= maxFrames) return { frames, more: true };
    seen.add(directory);
    const { frame, next } = readFrame(r, layout, directory);
    frames.push(frame);
    directory = next;
  }
  if (!frames.length) throw new TiffStructureError('the TIFF has no image directory');
  return { frames, more: false };
}
