import { XmlDocument } from 'libxml2-wasm';
import { validateXml } from '../../xml/xsd.js';
import { fromGzipBase64, MalformedPayloadError } from '../payload.js';
import type { SefinMessage } from '../results.js';
import { ruleMessage } from './messages.js';
import { parseXml } from '../../xml/parse.js';

/**
 * Sefin's reception rules for a document inside the JSON (Anexo VI, "RN Recepção DPS"), in their
 * order: base64 and gzip (E1225, E1226), well-formed (E1226), a document type Sefin handles at this
 * route (E1242), no namespace prefix in the data area (E1228), UTF-8 (E1229), the official schema
 * (E1235, with libxml2's first message as Complemento). On success the caller owns (and must dispose) `doc`.
 */
export type Reception =
  | { ok: true; xml: string; doc: XmlDocument }
  | { ok: false; erro: SefinMessage };

const PREFIXED = /<\/?[A-Za-z_][\w.-]*:[A-Za-z_]/;
const SIGNATURE = /<(?:[\w.-]+:)?Signature[\s>][\s\S]*?<\/(?:[\w.-]+:)?Signature>/g;

export function receiveDocument(b64: unknown, rootName: string, schemaPath: string): Reception {
  if (typeof b64 !== 'string') return { ok: false, erro: ruleMessage('E1225', 'campo ausente ou não é texto') };
  let xml: string;
  try {
    xml = fromGzipBase64(b64);
  } catch (err) {
    const stage = err instanceof MalformedPayloadError ? err.stage : 'gzip';
    return { ok: false, erro: stage === 'base64' ? ruleMessage('E1225') : ruleMessage('E1226', (err as Error).message) };
  }
  let doc: XmlDocument;
  try {
    doc = parseXml(xml);
  } catch (err) {
    return { ok: false, erro: ruleMessage('E1226', (err as Error).message.trim()) };
  }
  const keep = (erro: SefinMessage): Reception => { doc.dispose(); return { ok: false, erro }; };
  // The signature's own namespace is declared on <Signature>, never by a prefix, in a valid DPS;
  // any prefix outside it is refused.
  if (doc.root.name !== rootName) return keep(ruleMessage('E1242', `elemento raiz ${doc.root.name}`));
  if (PREFIXED.test(xml.replace(/^<\?xml[^>]*\?>/, '').replace(SIGNATURE, ''))) return keep(ruleMessage('E1228'));
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/.exec(xml)?.[1];
  if (declared && declared.toLowerCase() !== 'utf-8') return keep(ruleMessage('E1229', `encoding ${declared}`));
  const xsd = validateXml(schemaPath, xml);
  if (!xsd.valid) return keep(ruleMessage('E1235', xsd.errors[0]));
  return { ok: true, xml, doc };
}
