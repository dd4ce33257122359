import type { ImageMediaType } from './model-media';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The image kind its first bytes announce (PNG signature, JPEG SOI marker), whatever the file is called. */
export function sniffImage(head: Uint8Array): ImageMediaType | undefined {
  if (PNG_SIGNATURE.every((byte, index) => head[index] === byte)) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  return undefined;
}

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Width and height from the header: PNG's IHDR chunk, or JPEG's first start-of-frame marker. Undefined when the
 * bytes given end before it (a JPEG's frame header can follow a large EXIF block) or the header is malformed.
 */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const type = sniffImage(bytes);
  if (type === 'image/png') {
    if (bytes.length < 24) return undefined;
    return { width: uint32(bytes, 16), height: uint32(bytes, 20) };
  }
  if (type === 'image/jpeg') return jpegSize(bytes);
  return undefined;
}

function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = uint16(bytes, offset + 2);
    // SOF0..SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: uint16(bytes, offset + 5), width: uint16(bytes, offset + 7) };
    }
    if (length < 2) return undefined;
    offset += 2 + length;
  }
  return undefined;
}

function uint16(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

function uint32(bytes: Uint8Array, at: number): number {
  return (((bytes[at] ?? 0) << 24) >>> 0) + (((bytes[at + 1] ?? 0) << 16) | ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0));
}
