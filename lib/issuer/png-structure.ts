import { inflateSync } from 'node:zlib';

/**
 * Whether a PNG is whole and honest enough for pdfkit's decoder (png-js) to read it safely. png-js
 * trusts every chunk length: a length over 2^31 runs its position backwards (an endless loop on a
 * 108-byte file), a length past the end makes it push that many `undefined`s (9 s and 2 GB for 141
 * bytes), a second IHDR replaces the size image-size read, and for alpha and interlaced images it
 * inflates and unfilters in a zlib callback, where bad data throws out of reach of any caller (an
 * uncaught exception, the process gone). So, before pdfkit sees the file: chunks well framed (ISO/IEC
 * 15948 §5.3), one IHDR first with a legal depth and colour type (§11.2.2), IEND present, and the
 * concatenated IDAT inflating to exactly the scanlines the header declares, each with a filter type
 * 0-4 (§9.2). The inflation is capped at that size, so a compression bomb costs no more than an
 * honest image of the same dimensions. `width` and `height` must already be bounded by the caller.
 */
export function isWellFormedPng(bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let header: Header | null = null;
  const idat: Buffer[] = [];
  for (let pos = 8; ; ) {
    if (pos + 12 > b.length) return false;
    const length = b.readUInt32BE(pos);
    const type = b.toString('latin1', pos + 4, pos + 8);
    if (length > b.length - pos - 12) return false;
    const data = b.subarray(pos + 8, pos + 8 + length);
    if (pos === 8) {
      if (type !== 'IHDR' || length !== 13) return false;
      header = headerOf(data);
      if (!header) return false;
    } else if (type === 'IHDR') return false;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + length;
  }
  return header !== null && idat.length > 0 && scanlinesFit(header, Buffer.concat(idat));
}

interface Header {
  width: number;
  height: number;
  bitsPerPixel: number;
  interlaced: boolean;
}

/** Allowed bit depths per colour type (ISO/IEC 15948 §11.2.2, table 11.1) and samples per pixel. */
const COLOUR_TYPES: Record<number, { depths: number[]; samples: number }> = {
  0: { depths: [1, 2, 4, 8, 16], samples: 1 },
  2: { depths: [8, 16], samples: 3 },
  3: { depths: [1, 2, 4, 8], samples: 1 },
  4: { depths: [8, 16], samples: 2 },
  6: { depths: [8, 16], samples: 4 },
};

function headerOf(ihdr: Buffer): Header | null {
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const [depth, colourType, compression, filter, interlace] = ihdr.subarray(8, 13);
  const colour = COLOUR_TYPES[colourType];
  if (!width || !height || !colour?.depths.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) return null;
  return { width, height, bitsPerPixel: depth * colour.samples, interlaced: interlace === 1 };
}

/** Adam7 passes as [x0, y0, dx, dy] (§8.2). */
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];

/** Rows of each reduced image as [count, bytes per row without the filter byte]. */
function passes({ width, height, bitsPerPixel, interlaced }: Header): [number, number][] {
  const rowBytes = (w: number) => Math.ceil((w * bitsPerPixel) / 8);
  if (!interlaced) return [[height, rowBytes(width)]];
  return ADAM7.map(([x0, y0, dx, dy]): [number, number] => [Math.ceil((height - y0) / dy), rowBytes(Math.ceil((width - x0) / dx))])
    .filter(([rows, bytes]) => rows > 0 && bytes > 0);
}

function scanlinesFit(header: Header, compressed: Buffer): boolean {
  const layout = passes(header);
  const expected = layout.reduce((sum, [rows, bytes]) => sum + rows * (1 + bytes), 0);
  let raw: Buffer;
  try {
    raw = inflateSync(compressed, { maxOutputLength: expected });
  } catch {
    return false; // not zlib, cut short, or more data than the header declares
  }
  if (raw.length !== expected) return false;
  let pos = 0;
  for (const [rows, bytes] of layout) {
    for (let r = 0; r < rows; r++, pos += 1 + bytes) if (raw[pos] > 4) return false;
  }
  return true;
}
