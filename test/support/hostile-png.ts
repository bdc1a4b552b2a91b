import { deflateSync } from 'node:zlib';

/**
 * PNG files that lie to a decoder, built chunk by chunk (ISO/IEC 15948 §5.3) with correct CRCs, so
 * the lie is the only thing wrong. Each one stalled, exhausted or crashed pdfkit's png-js before
 * lib/issuer/png-structure.ts; they are the logo upload's regression inputs.
 */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A chunk; `declaredLength` lies about the data's length when given. */
function chunk(type: string, data: Buffer, declaredLength = data.length): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(declaredLength >>> 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** IHDR of an 8-bit RGBA image (colour type 6, the one pdfkit decodes in a zlib callback). */
function ihdr(width: number, height: number, interlace = 0): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width);
  data.writeUInt32BE(height, 4);
  data[8] = 8;
  data[9] = 6;
  data[12] = interlace;
  return chunk('IHDR', data);
}

const IEND = chunk('IEND', Buffer.alloc(0));
/** Scanlines of an RGBA image, filter type 0, all zero. */
const scanlines = (width: number, height: number) => Buffer.alloc(height * (1 + 4 * width));

/** A well-formed RGBA PNG: the control, accepted. */
export const honestPng = (width = 64, height = 64): Buffer =>
  Buffer.concat([SIGNATURE, ihdr(width, height), chunk('IDAT', deflateSync(scanlines(width, height))), IEND]);

/** A well-formed Adam7-interlaced RGBA PNG (§8.2): seven reduced images, each with its filter bytes. */
export function interlacedPng(width = 45, height = 37): Buffer {
  const passes = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]]
    .map(([x0, y0, dx, dy]) => scanlines(Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)));
  return Buffer.concat([SIGNATURE, ihdr(width, height, 1), chunk('IDAT', deflateSync(Buffer.concat(passes))), IEND]);
}

/** A chunk whose length has the high bit set (0xFFFFFFF4): png-js steps back onto it forever. */
export function pngWithBackwardChunk(): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt32BE(0xfffffff4);
  head.write('abcd', 4, 'latin1');
  return Buffer.concat([SIGNATURE, ihdr(64, 64), head, chunk('IDAT', deflateSync(scanlines(64, 64))), IEND]);
}

/** An IDAT that declares 200 MB in a file of a hundred bytes: png-js pushes 200 million undefineds. */
export const pngWithOverlongIdat = (): Buffer =>
  Buffer.concat([SIGNATURE, ihdr(64, 64), chunk('IDAT', Buffer.alloc(100), 200_000_000).subarray(0, 108)]);

/** IDAT that is not zlib: png-js throws inside zlib's callback, an uncaught exception. */
export const pngWithGarbageIdat = (): Buffer =>
  Buffer.concat([SIGNATURE, ihdr(64, 64), chunk('IDAT', Buffer.from('not a zlib stream at all')), IEND]);

/** A second IHDR of 40000 × 40000: image-size reads the first, png-js the last (and allocates 6.4 GB). */
export const pngWithSecondHeader = (): Buffer =>
  Buffer.concat([SIGNATURE, ihdr(64, 64), ihdr(40_000, 40_000), chunk('IDAT', deflateSync(scanlines(64, 64))), IEND]);

/** A scanline with filter type 9 (§9.2 has 0-4): png-js throws inside zlib's callback. */
export function pngWithUnknownFilter(): Buffer {
  const raw = scanlines(40, 40);
  raw[(1 + 4 * 40) * 5] = 9;
  return Buffer.concat([SIGNATURE, ihdr(40, 40), chunk('IDAT', deflateSync(raw)), IEND]);
}

/** 2000 × 2000 declared, 250 MB of zeros deflated into about 240 KB: a decompression bomb under 256 KB. */
export const pngBomb = (): Buffer =>
  Buffer.concat([SIGNATURE, ihdr(2000, 2000), chunk('IDAT', deflateSync(Buffer.alloc(250_000_000), { level: 9 })), IEND]);

/** The header promises 64 rows, the data holds 10: a truncated image. */
export const pngWithShortData = (): Buffer =>
  Buffer.concat([SIGNATURE, ihdr(64, 64), chunk('IDAT', deflateSync(scanlines(64, 10))), IEND]);
