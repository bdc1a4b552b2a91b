import { soapInner } from './soap.js';
import { child, parseXml, requireText, serialize, text } from './xml.js';
import { AUTHORIZED, CANCELED, DENIED, EVENT_REGISTERED, INUT_HOMOLOGATED, NOT_FOUND, PROCESSING, SERVICE_DOWN, SERVICE_UP } from './cstat.js';
import { NFE_NS } from './services.js';
import type { AuthorizationResult, ConsultResult, EventResult, InutilizacaoResult, Protocol, RegisteredEvent, StatusResult } from './results.js';

/**
 * Authority answers → typed results. Input is a whole SOAP envelope, the bare message, or the
 * answer already read by `readAnswer` (the client reads each answer once: its root status for the
 * monitor and the typed result come from the same parse).
 * Anything that is not a recognisable answer throws (the client turns that into `malformed-response`).
 */
export type Answer = string | Document;

/** The message of an answer (inside nfeResultMsg when it is an envelope), parsed; throws when unreadable. */
export function readAnswer(xml: string): Document {
  return parseXml(/<(?:[\w.-]+:)?Envelope\b/.test(xml) ? soapInner(xml, 'nfeResultMsg') : xml);
}

function message(answer: Answer, root: string): Document {
  const doc = typeof answer === 'string' ? readAnswer(answer) : answer;
  const el = doc.documentElement;
  if (el.localName !== root || el.namespaceURI !== NFE_NS) throw new Error(`expected ${root}, got ${el.localName}`);
  return doc;
}

function status(node: Document | Element): { cStat: number; xMotivo: string } {
  const cStat = Number(requireText(node, 'cStat'));
  if (!Number.isInteger(cStat)) throw new Error('cStat is not a number');
  return { cStat, xMotivo: text(node, 'xMotivo') ?? '' };
}

/** Status of the top-level element only (not of a nested infProt). */
function ownStatus(el: Element): { cStat: number; xMotivo: string } {
  let cStat: string | null = null;
  let xMotivo = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const name = (n as Element).localName;
    if (name === 'cStat') cStat = (n.textContent ?? '').trim();
    if (name === 'xMotivo') xMotivo = (n.textContent ?? '').trim();
  }
  if (cStat === null || !/^\d{3}$/.test(cStat)) throw new Error(`missing cStat in ${el.localName}`);
  return { cStat: Number(cStat), xMotivo };
}

function protocolOf(protNFe: Element): Protocol {
  const inf = child(protNFe, 'infProt');
  return {
    protocol: requireText(inf, 'nProt'),
    receivedAt: requireText(inf, 'dhRecbto'),
    digest: text(inf, 'digVal') ?? '',
    protNFeXml: serialize(protNFe),
  };
}

/** protNFe → authorization outcome of one note (shared by retEnviNFe and retConsReciNFe). */
function fromProtNFe(protNFe: Element, accessKey?: string): AuthorizationResult {
  const inf = child(protNFe, 'infProt');
  if (!inf) throw new Error('protNFe without infProt');
  const ch = text(inf, 'chNFe');
  if (accessKey && ch && ch !== accessKey) throw new Error(`protNFe is for ${ch}, expected ${accessKey}`);
  const s = ownStatus(inf);
  if (AUTHORIZED.has(s.cStat)) return { kind: 'authorized', ...s, ...protocolOf(protNFe) };
  if (DENIED.has(s.cStat)) return { kind: 'denied', ...s, ...(text(inf, 'nProt') ? protocolOf(protNFe) : {}) };
  return { kind: 'rejected', ...s };
}

/**
 * retEnviNFe (AR01): 104 + protNFe (sync), 103 + infRec (async), or a batch rejection. 108/109 is
 * the service stopped, not a verdict on the note: nothing was processed and its number is free, so
 * it is a failure before processing (sent again later), never a rejection.
 */
export function parseRetEnviNFe(xml: Answer, accessKey?: string): AuthorizationResult {
  const doc = message(xml, 'retEnviNFe');
  const s = ownStatus(doc.documentElement);
  const prot = child(doc, 'protNFe');
  if (prot) return fromProtNFe(prot, accessKey);
  if (PROCESSING.has(s.cStat)) return { kind: 'processing', receipt: requireText(child(doc, 'infRec'), 'nRec'), ...s };
  if (SERVICE_DOWN.has(s.cStat)) return { kind: 'failed', reason: 'authority-down', detail: `${s.cStat} - ${s.xMotivo}` };
  return { kind: 'rejected', ...s };
}

/**
 * The cStat and xMotivo of any authority message's root (the service's own status: 107 in
 * operation, 108/109 stopped, or the batch/request status), or null when the body is not an
 * authority message. The availability monitor takes 107/108/109 from any call as evidence.
 */
export function rootStatus(answer: Answer): { cStat: number; xMotivo: string } | null {
  try {
    const el = (typeof answer === 'string' ? readAnswer(answer) : answer).documentElement;
    return el.namespaceURI === NFE_NS ? ownStatus(el) : null;
  } catch {
    return null;
  }
}

/** retConsReciNFe (BR01): 104 + protNFe, 105 still processing, or a rejection. */
export function parseRetConsReciNFe(xml: Answer, accessKey?: string): AuthorizationResult {
  const doc = message(xml, 'retConsReciNFe');
  const s = ownStatus(doc.documentElement);
  const prot = child(doc, 'protNFe');
  if (prot) return fromProtNFe(prot, accessKey);
  if (PROCESSING.has(s.cStat)) return { kind: 'processing', receipt: requireText(doc, 'nRec'), ...s };
  return { kind: 'rejected', ...s };
}

/** retConsSitNFe (ER01). */
export function parseRetConsSitNFe(xml: Answer): ConsultResult {
  const doc = message(xml, 'retConsSitNFe');
  const s = ownStatus(doc.documentElement);
  const prot = child(doc, 'protNFe');
  const events = registeredEvents(doc.documentElement);
  if (AUTHORIZED.has(s.cStat)) {
    if (!prot) throw new Error(`cStat ${s.cStat} without protNFe`);
    return { kind: 'authorized', ...s, ...protocolOf(prot), ...(events.length ? { events } : {}) };
  }
  if (CANCELED.has(s.cStat)) return { kind: 'canceled', ...s, ...(prot ? protocolOf(prot) : {}), ...(events.length ? { events } : {}) };
  if (DENIED.has(s.cStat)) return { kind: 'denied', ...s, ...(prot ? protocolOf(prot) : {}) };
  if (s.cStat === NOT_FOUND) return { kind: 'not-found', ...s };
  return { kind: 'rejected', ...s };
}

/** The registered events a retConsSitNFe lists (procEventoNFe children, ER11). */
function registeredEvents(root: Element): RegisteredEvent[] {
  const out: RegisteredEvent[] = [];
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1 || (n as Element).localName !== 'procEventoNFe') continue;
    const ret = child(n as Element, 'retEvento');
    const inf = ret ? child(ret, 'infEvento') : null;
    if (!inf) throw new Error('procEventoNFe without retEvento/infEvento');
    const s = ownStatus(inf);
    if (!EVENT_REGISTERED.has(s.cStat)) continue;
    out.push({
      tpEvento: requireText(inf, 'tpEvento'), sequence: Number(requireText(inf, 'nSeqEvento')), ...s,
      protocol: requireText(inf, 'nProt'), registeredAt: requireText(inf, 'dhRegEvento'), procEventoXml: serialize(n as Element),
    });
  }
  return out;
}

/**
 * retConsStatServ (FR01). 107 up; 108/109 down: the authority's word about its service. Any other
 * answer (252 ambiente, 289 UF not served, 656 consumo indevido) is about our request, not the
 * service, so it is `refused` with the verbatim text: never evidence that the UF is stopped.
 */
export function parseRetConsStatServ(xml: Answer, checkedAt: string): StatusResult {
  const doc = message(xml, 'retConsStatServ');
  const s = status(doc);
  if (s.cStat === SERVICE_UP) return { kind: 'up', ...s, checkedAt };
  if (SERVICE_DOWN.has(s.cStat)) return { kind: 'down', ...s, checkedAt };
  return { kind: 'refused', ...s, checkedAt };
}

/** retEnvEvento (HR01) for a batch of one event; procEventoNFe assembled from the sent evento. */
export function parseRetEnvEvento(xml: Answer, signedEvento: string): EventResult {
  const doc = message(xml, 'retEnvEvento');
  const batch = ownStatus(doc.documentElement);
  const ret = child(doc, 'retEvento');
  if (!ret) return { kind: 'rejected', ...batch };
  const inf = child(ret, 'infEvento');
  if (!inf) throw new Error('retEvento without infEvento');
  const s = ownStatus(inf);
  if (!EVENT_REGISTERED.has(s.cStat)) return { kind: 'rejected', ...s };
  const procEventoXml = `<procEventoNFe xmlns="${NFE_NS}" versao="1.00">${signedEvento}${serialize(ret)}</procEventoNFe>`;
  return { kind: 'registered', ...s, protocol: requireText(inf, 'nProt'), receivedAt: requireText(inf, 'dhRegEvento'), procEventoXml };
}

/** retInutNFe (DR01); ProcInutNFe assembled from the sent inutNFe. */
export function parseRetInutNFe(xml: Answer, signedInutNFe: string): InutilizacaoResult {
  const doc = message(xml, 'retInutNFe');
  const inf = child(doc, 'infInut');
  if (!inf) throw new Error('retInutNFe without infInut');
  const s = ownStatus(inf);
  if (s.cStat !== INUT_HOMOLOGATED) return { kind: 'rejected', ...s };
  const procInutXml = `<ProcInutNFe xmlns="${NFE_NS}" versao="4.00">${signedInutNFe}${serialize(doc.documentElement)}</ProcInutNFe>`;
  return { kind: 'homologated', ...s, protocol: requireText(inf, 'nProt'), receivedAt: requireText(inf, 'dhRecbto'), procInutXml };
}
