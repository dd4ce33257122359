import { crc32, deflateSync } from 'node:zlib';

/**
 * PNGs written byte by byte (8-bit greyscale, no dependency): the demo's "scanned page", the tests' scans and the
 * benchmarks' noisy scans. They show bands where a scan would show lines of print; there is no text in them.
 */

/** An 8-bit greyscale PNG of `rows`, each `width` bytes of grey levels from the top. */
export function greyscalePng(width: number, rows: readonly Uint8Array[]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(rows.length, 4);
  header.set([8, 0, 0, 0, 0], 8);
  // Each row on the wire starts with its filter byte: 0, none.
  const data = Buffer.concat(rows.flatMap((row) => [Buffer.from([0]), Buffer.from(row.buffer, row.byteOffset, row.byteLength)]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(data)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A grey PNG of the given size, with a darker band every 40 rows so a reviewer sees something. */
export function pngOf(width: number, height: number): Buffer {
  return greyscalePng(
    width,
    Array.from({ length: height }, (_, y) => Buffer.alloc(width, y % 40 < 8 ? 0x40 : 0xd0)),
  );
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
