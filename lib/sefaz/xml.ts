import { XmlDocument } from 'libxml2-wasm';
import { parseXml } from '../xml/parse.js';

/** Small XML helpers for the authority messages. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The document, parsed by libxml2, which is strict where xmldom recovers (e.g. mismatched end tags): throws on broken XML. */
export function parseWellFormed(xml: string): XmlDocument {
  try {
    return parseXml(xml);
  } catch (err) {
    throw new Error(`malformed XML: ${String((err as Error).message).trim()}`);
  }
}

export function assertWellFormed(xml: string): void {
  parseWellFormed(xml).dispose();
}

/** dhRecbto/dhEvento style: local time of Brasília (UTC−03:00, no DST since 2019), seconds precision. */
export function brasiliaDateTime(at: Date): string {
  const local = new Date(at.getTime() - 3 * 3_600_000);
  return local.toISOString().slice(0, 19) + '-03:00';
}
