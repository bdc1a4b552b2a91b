/**
 * The issuer's logo, printed in the DANFE's emitter block (MOC 4.00 Anexo II allows the issuer's
 * logo there). Accepted only as PNG or JPEG, told by the file's own signature (magic bytes), never
 * by a name or a declared type; size- and dimension-limited so a DANFE stays small and the logo
 * prints legibly in a 64 pt box; and only when the PDF library can actually embed it.
 */
import PDFDocument from 'pdfkit';
import { imageSize } from 'image-size';
import { DomainError } from '../errors/index.js';
import { isWellFormedPng } from './png-structure.js';

export const MAX_LOGO_BYTES = 256 * 1024;
export const MIN_LOGO_PX = 32;
export const MAX_LOGO_PX = 2000;

export type LogoMime = 'image/png' | 'image/jpeg';

export interface LogoInfo {
  mime: LogoMime;
  width: number;
  height: number;
  bytes: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG: 8-byte signature (ISO/IEC 15948 §5.2); JPEG: SOI marker FFD8 followed by a marker FF (ITU T.81 B.1.1.3). */
export function logoMime(bytes: Uint8Array): LogoMime | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  return null;
}

/** Checks format, size and dimensions; throws the catalogued refusal. */
export function checkLogo(bytes: Uint8Array): LogoInfo {
  if (bytes.byteLength > MAX_LOGO_BYTES) throw new DomainError('LOGO_GRANDE_DEMAIS', { bytes: bytes.byteLength, max: MAX_LOGO_BYTES });
  const mime = logoMime(bytes);
  if (!mime) throw new DomainError('LOGO_FORMATO_INVALIDO');
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    throw new DomainError('LOGO_FORMATO_INVALIDO');
  }
  const { width, height } = size;
  if (!width || !height || size.type !== (mime === 'image/png' ? 'png' : 'jpg')) throw new DomainError('LOGO_FORMATO_INVALIDO');
  if (width < MIN_LOGO_PX || height < MIN_LOGO_PX || width > MAX_LOGO_PX || height > MAX_LOGO_PX) {
    throw new DomainError('LOGO_DIMENSOES_INVALIDAS', { width, height, min: MIN_LOGO_PX, max: MAX_LOGO_PX });
  }
  // After the dimension check: the inflation it runs is bounded by width × height.
  if (mime === 'image/png' && !isWellFormedPng(bytes)) throw new DomainError('LOGO_FORMATO_INVALIDO');
  return { mime, width, height, bytes: bytes.byteLength };
}

/**
 * Embeds the image in a throwaway PDF: a header that parses may still hide data pdfkit cannot
 * decode (a truncated PNG, a 16-bit palette), which would otherwise fail every later DANFE.
 */
export async function checkLogoEmbeddable(bytes: Uint8Array): Promise<void> {
  const doc = new PDFDocument({ size: [100, 100], margin: 0, autoFirstPage: true });
  await new Promise<void>((resolve, reject) => {
    doc.on('data', () => undefined);
    doc.on('end', resolve);
    doc.on('error', reject);
    try {
      doc.image(Buffer.from(bytes), 0, 0, { fit: [64, 64] });
      doc.end();
    } catch (err) {
      reject(err);
    }
  }).catch(() => {
    throw new DomainError('LOGO_FORMATO_INVALIDO');
  });
}
