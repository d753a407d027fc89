// Multi-frame TIFFs written byte by byte, for tests of page counting: many tiny frames (what a
// hostile upload sends), a chain of directories that loops back on itself, a frame declaring a
// gigantic size, big-endian and BigTIFF files. Each frame is an uncompressed 8-bit grey strip.

export interface FrameSpec {
  width: number;
  height: number;
  /** The grey level of every pixel (0 to 255); default white. */
  grey?: number;
  /** Dots per inch written as XResolution/YResolution, unit inch; none when absent. */
  dpi?: number;
  orientation?: number;
}

export interface TiffOptions {
  bigEndian?: boolean;
  bigTiff?: boolean;
  /** The last directory points back to the directory of this frame (from 0) instead of ending the chain. */
  loopTo?: number;
}

interface Entry {
  tag: number;
  type: number;
  count: number;
  /** The value when it fits the entry, else the offset of the data. */
  value: number;
}

const SHORT = 3;
const LONG = 4;
const RATIONAL = 5;
const LONG8 = 16;

/** A TIFF with one directory per frame, in the order given. */
export function tiffFrames(frames: FrameSpec[], options: TiffOptions = {}): Buffer {
  const big = options.bigTiff ?? false;
  const le = !(options.bigEndian ?? false);
  const offsetSize = big ? 8 : 4;
  const entrySize = big ? 20 : 12;
  const countSize = big ? 8 : 2;
  const header = big ? 16 : 8;
  const entriesPer = (f: FrameSpec) => 8 + (f.dpi ? 3 : 0) + (f.orientation ? 1 : 0);

  // Layout: header, then per frame: its pixels, its resolution values, its directory.
  let at = header;
  const layout = frames.map((frame) => {
    const pixels = at;
    at += frame.width * frame.height;
    const resolution = frame.dpi ? at : 0;
    if (frame.dpi) at += 8;
    at += at % 2;
    const directory = at;
    at += countSize + entriesPer(frame) * entrySize + offsetSize;
    return { pixels, resolution, directory };
  });
  const out = Buffer.alloc(at);
  const u16 = (v: number, o: number) => (le ? out.writeUInt16LE(v, o) : out.writeUInt16BE(v, o));
  const u32 = (v: number, o: number) => (le ? out.writeUInt32LE(v, o) : out.writeUInt32BE(v, o));
  const u64 = (v: number, o: number) => (le ? out.writeBigUInt64LE(BigInt(v), o) : out.writeBigUInt64BE(BigInt(v), o));
  const offset = (v: number, o: number) => (big ? u64(v, o) : u32(v, o));

  out.write(le ? 'II' : 'MM', 0, 'latin1');
  u16(big ? 43 : 42, 2);
  if (big) {
    u16(8, 4);
    u16(0, 6);
  }
  offset(frames.length ? layout[0].directory : 0, big ? 8 : 4);

  frames.forEach((frame, i) => {
    const { pixels, resolution, directory } = layout[i];
    out.fill(frame.grey ?? 255, pixels, pixels + frame.width * frame.height);
    if (frame.dpi) {
      u32(frame.dpi, resolution);
      u32(1, resolution + 4);
    }
    const entries: Entry[] = [
      { tag: 256, type: LONG, count: 1, value: frame.width },
      { tag: 257, type: LONG, count: 1, value: frame.height },
      { tag: 258, type: SHORT, count: 1, value: 8 },
      { tag: 259, type: SHORT, count: 1, value: 1 },
      { tag: 262, type: SHORT, count: 1, value: 1 },
      { tag: 273, type: big ? LONG8 : LONG, count: 1, value: pixels },
      ...(frame.orientation ? [{ tag: 274, type: SHORT, count: 1, value: frame.orientation }] : []),
      { tag: 278, type: LONG, count: 1, value: frame.height },
      { tag: 279, type: big ? LONG8 : LONG, count: 1, value: frame.width * frame.height },
      ...(frame.dpi
        ? [
            { tag: 282, type: RATIONAL, count: 1, value: resolution },
            { tag: 283, type: RATIONAL, count: 1, value: resolution },
            { tag: 296, type: SHORT, count: 1, value: 2 },
          ]
        : []),
    ];
    let o = directory;
    if (big) u64(entries.length, o);
    else u16(entries.length, o);
    o += countSize;
    for (const entry of entries) {
      u16(entry.tag, o);
      u16(entry.type, o + 2);
      if (big) u64(entry.count, o + 4);
      else u32(entry.count, o + 4);
      const valueAt = o + 4 + (big ? 8 : 4);
      // Values are left-justified in their field; a BigTIFF entry holds one RATIONAL itself.
      if (entry.type === RATIONAL && big) {
        u32(frame.dpi!, valueAt);
        u32(1, valueAt + 4);
      } else if (entry.type === SHORT) u16(entry.value, valueAt);
      else if (entry.type === LONG8) u64(entry.value, valueAt);
      else u32(entry.value, valueAt);
      o += entrySize;
    }
    const next = i + 1 < frames.length ? layout[i + 1].directory : options.loopTo !== undefined ? layout[options.loopTo].directory : 0;
    offset(next, o);
  });
  return out;
}

/** `count` frames of `width` x `height` pixels. */
export function manyFrames(count: number, width = 1, height = 1, options: TiffOptions = {}): Buffer {
  return tiffFrames(Array.from({ length: count }, () => ({ width, height })), options);
}
