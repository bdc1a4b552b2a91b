import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * The Sefin Nacional JSON carries every XML document gzip-compressed and base64-encoded
 * (dpsXmlGZipB64, nfseXmlGZipB64, pedidoRegistroEventoXmlGZipB64, eventoXmlGZipB64), UTF-8 inside.
 */
export class MalformedPayloadError extends Error {
  constructor(readonly stage: 'base64' | 'gzip', message: string) {
    super(message);
    this.name = 'MalformedPayloadError';
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function toGzipBase64(xml: string): string {
  return gzipSync(Buffer.from(xml, 'utf8')).toString('base64');
}

/** Strict: a non-base64 string or bytes that are not gzip throw (Sefin's E1225 / E1226 split). */
export function fromGzipBase64(b64: string): string {
  const compact = b64.replace(/\s+/g, '');
  if (!compact || compact.length % 4 !== 0 || !BASE64.test(compact)) throw new MalformedPayloadError('base64', 'not base64');
  let xml: Buffer;
  try {
    xml = gunzipSync(Buffer.from(compact, 'base64'));
  } catch (err) {
    throw new MalformedPayloadError('gzip', `not gzip: ${(err as Error).message}`);
  }
  return xml.toString('utf8');
}
