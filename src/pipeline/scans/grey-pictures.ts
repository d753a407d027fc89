// Grey pictures (models/ocr's GrayImage) turned and resized by sharp (libvips), and back as grey
// pictures: what reading a scan does to a page's picture before the engine sees it.
import sharp, { type Sharp } from 'sharp';
import type { GrayImage } from '../../models/ocr/engine.js';

/** A grey picture through a sharp operation, back as a grey picture. */
async function transform(image: GrayImage, operation: (picture: Sharp) => Sharp): Promise<GrayImage> {
  const input = sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), { raw: { width: image.width, height: image.height, channels: 1 } });
  const { data, info } = await operation(input).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

/** Turns a picture clockwise by `degrees`, filling the corners a slanted turn uncovers with white. */
export function turn(image: GrayImage, degrees: number): Promise<GrayImage> {
  return transform(image, (picture) => picture.rotate(degrees, { background: { r: 255, g: 255, b: 255 } }));
}

/** The picture `factor` times larger (Lanczos), for reading small print. */
export function enlarge(image: GrayImage, factor: number): Promise<GrayImage> {
  return transform(image, (picture) => picture.resize({ width: image.width * factor, height: image.height * factor, kernel: 'lanczos3' }));
}
