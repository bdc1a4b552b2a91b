import { AuthorityAnswer, DOCUMENT, type ElementRef } from './answer.js';
import { AUTHORIZED, CANCELED, DENIED, EVENT_REGISTERED, INUT_HOMOLOGATED, NOT_FOUND, PROCESSING, SERVICE_DOWN, SERVICE_UP } from './cstat.js';
import { NFE_NS } from './services.js';
import type { AuthorizationResult, ConsultResult, EventResult, InutilizacaoResult, Protocol, RegisteredEvent, StatusResult } from './results.js';

/**
 * Authority answers → typed results. Input is a whole SOAP envelope, the bare message, or the
 * answer already read by `readAnswer` (the client reads each answer once: its root status for the
 * monitor and the typed result come from the same parse; it disposes what it read).
 * Anything that is not a recognisable answer throws (the client turns that into `malformed-response`).
 */
export type Answer = string | AuthorityAnswer;

/** The message of an answer (inside nfeResultMsg when it is an envelope), parsed; throws when unreadable. The caller disposes it. */
export function readAnswer(xml: string): AuthorityAnswer {
  return AuthorityAnswer.read(xml);
}

/** `read` over the answer; one given as text is read here and disposed on every path. */
function reading<R>(answer: Answer, read: (a: AuthorityAnswer) => R): R {
  if (typeof answer !== 'string') return read(answer);
  const a = AuthorityAnswer.read(answer);
  try {
    return read(a);
  } finally {
    a.dispose();
  }
}

/** The answer, checked to be the `root` message of the NF-e namespace. */
function message(a: AuthorityAnswer, root: string): AuthorityAnswer {
  const { localName, namespace } = a.nameOf(a.root);
  if (localName !== root || namespace !== NFE_NS) throw new Error(`expected ${root}, got ${localName}`);
  return a;
}

/** First descendant in the NF-e namespace with this local name (as getElementsByTagNameNS). */
function child(a: AuthorityAnswer, node: ElementRef | null, name: string): ElementRef | null {
  return node === null ? null : a.descendant(node, name, NFE_NS);
}

function text(a: AuthorityAnswer, node: ElementRef | null, name: string): string | null {
  const el = child(a, node, name);
  return el === null ? null : a.content(el).trim();
}

function requireText(a: AuthorityAnswer, node: ElementRef | null, name: string): string {
  const v = text(a, node, name);
  if (v === null || v === '') throw new Error(`missing ${name}`);
  return v;
}

function status(a: AuthorityAnswer, node: ElementRef): { cStat: number; xMotivo: string } {
  const cStat = Number(requireText(a, node, 'cStat'));
  if (!Number.isInteger(cStat)) throw new Error('cStat is not a number');
  return { cStat, xMotivo: text(a, node, 'xMotivo') ?? '' };
}

/** Status of the top-level element only (not of a nested infProt): its cStat and xMotivo children, of any namespace, the last of each. */
function ownStatus(a: AuthorityAnswer, el: ElementRef): { cStat: number; xMotivo: string } {
  const cStatEl = a.children(el, 'cStat').pop() ?? null;
  const xMotivoEl = a.children(el, 'xMotivo').pop() ?? null;
  const cStat = cStatEl === null ? null : a.content(cStatEl).trim();
  if (cStat === null || !/^\d{3}$/.test(cStat)) throw new Error(`missing cStat in ${a.nameOf(el).localName}`);
  return { cStat: Number(cStat), xMotivo: xMotivoEl === null ? '' : a.content(xMotivoEl).trim() };
}

function protocolOf(a: AuthorityAnswer, protNFe: ElementRef): Protocol {
  const inf = child(a, protNFe, 'infProt');
  return {
    protocol: requireText(a, inf, 'nProt'),
    receivedAt: requireText(a, inf, 'dhRecbto'),
    digest: text(a, inf, 'digVal') ?? '',
    protNFeXml: a.serialized(protNFe),
  };
}

/** protNFe → authorization outcome of one note (shared by retEnviNFe and retConsReciNFe). */
function fromProtNFe(a: AuthorityAnswer, protNFe: ElementRef, accessKey?: string): AuthorizationResult {
  const inf = child(a, protNFe, 'infProt');
  if (!inf) throw new Error('protNFe without infProt');
  const ch = text(a, inf, 'chNFe');
  if (accessKey && ch && ch !== accessKey) throw new Error(`protNFe is for ${ch}, expected ${accessKey}`);
  const s = ownStatus(a, inf);
  if (AUTHORIZED.has(s.cStat)) return { kind: 'authorized', ...s, ...protocolOf(a, protNFe) };
  if (DENIED.has(s.cStat)) return { kind: 'denied', ...s, ...(text(a, inf, 'nProt') ? protocolOf(a, protNFe) : {}) };
  return { kind: 'rejected', ...s };
}

/**
 * retEnviNFe (AR01): 104 + protNFe (sync), 103 + infRec (async), or a batch rejection. 108/109 is
 * the service stopped, not a verdict on the note: nothing was processed and its number is free, so
 * it is a failure before processing (sent again later), never a rejection.
 */
export function parseRetEnviNFe(xml: Answer, accessKey?: string): AuthorizationResult {
  return reading(xml, (answer) => {
    const a = message(answer, 'retEnviNFe');
    const s = ownStatus(a, a.root);
    const prot = child(a, DOCUMENT, 'protNFe');
    if (prot) return fromProtNFe(a, prot, accessKey);
    if (PROCESSING.has(s.cStat)) return { kind: 'processing', receipt: requireText(a, child(a, DOCUMENT, 'infRec'), 'nRec'), ...s };
    if (SERVICE_DOWN.has(s.cStat)) return { kind: 'failed', reason: 'authority-down', detail: `${s.cStat} - ${s.xMotivo}` };
    return { kind: 'rejected', ...s };
  });
}

/**
 * The cStat and xMotivo of any authority message's root (the service's own status: 107 in
 * operation, 108/109 stopped, or the batch/request status), or null when the body is not an
 * authority message. The availability monitor takes 107/108/109 from any call as evidence.
 */
export function rootStatus(answer: Answer): { cStat: number; xMotivo: string } | null {
  try {
    return reading(answer, (a) => a.nameOf(a.root).namespace === NFE_NS ? ownStatus(a, a.root) : null);
  } catch {
    return null;
  }
}

/** retConsReciNFe (BR01): 104 + protNFe, 105 still processing, or a rejection. */
export function parseRetConsReciNFe(xml: Answer, accessKey?: string): AuthorizationResult {
  return reading(xml, (answer) => {
    const a = message(answer, 'retConsReciNFe');
    const s = ownStatus(a, a.root);
    const prot = child(a, DOCUMENT, 'protNFe');
    if (prot) return fromProtNFe(a, prot, accessKey);
    if (PROCESSING.has(s.cStat)) return { kind: 'processing', receipt: requireText(a, DOCUMENT, 'nRec'), ...s };
    return { kind: 'rejected', ...s };
  });
}

/** retConsSitNFe (ER01). */
export function parseRetConsSitNFe(xml: Answer): ConsultResult {
  return reading(xml, (answer) => {
    const a = message(answer, 'retConsSitNFe');
    const s = ownStatus(a, a.root);
    const prot = child(a, DOCUMENT, 'protNFe');
    const events = registeredEvents(a);
    if (AUTHORIZED.has(s.cStat)) {
      if (!prot) throw new Error(`cStat ${s.cStat} without protNFe`);
      return { kind: 'authorized', ...s, ...protocolOf(a, prot), ...(events.length ? { events } : {}) };
    }
    if (CANCELED.has(s.cStat)) return { kind: 'canceled', ...s, ...(prot ? protocolOf(a, prot) : {}), ...(events.length ? { events } : {}) };
    if (DENIED.has(s.cStat)) return { kind: 'denied', ...s, ...(prot ? protocolOf(a, prot) : {}) };
    if (s.cStat === NOT_FOUND) return { kind: 'not-found', ...s };
    return { kind: 'rejected', ...s };
  });
}

/** The registered events a retConsSitNFe lists (procEventoNFe children of the root, any namespace; ER11). */
function registeredEvents(a: AuthorityAnswer): RegisteredEvent[] {
  const out: RegisteredEvent[] = [];
  for (const proc of a.children(a.root, 'procEventoNFe')) {
    const ret = child(a, proc, 'retEvento');
    const inf = child(a, ret, 'infEvento');
    if (!inf) throw new Error('procEventoNFe without retEvento/infEvento');
    const s = ownStatus(a, inf);
    if (!EVENT_REGISTERED.has(s.cStat)) continue;
    out.push({
      tpEvento: requireText(a, inf, 'tpEvento'), sequence: Number(requireText(a, inf, 'nSeqEvento')), ...s,
      protocol: requireText(a, inf, 'nProt'), registeredAt: requireText(a, inf, 'dhRegEvento'), procEventoXml: a.serialized(proc),
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
  return reading(xml, (answer) => {
    const a = message(answer, 'retConsStatServ');
    const s = status(a, DOCUMENT);
    if (s.cStat === SERVICE_UP) return { kind: 'up', ...s, checkedAt };
    if (SERVICE_DOWN.has(s.cStat)) return { kind: 'down', ...s, checkedAt };
    return { kind: 'refused', ...s, checkedAt };
  });
}

/** retEnvEvento (HR01) for a batch of one event; procEventoNFe assembled from the sent evento. */
export function parseRetEnvEvento(xml: Answer, signedEvento: string): EventResult {
  return reading(xml, (answer) => {
    const a = message(answer, 'retEnvEvento');
    const batch = ownStatus(a, a.root);
    const ret = child(a, DOCUMENT, 'retEvento');
    if (!ret) return { kind: 'rejected', ...batch };
    const inf = child(a, ret, 'infEvento');
    if (!inf) throw new Error('retEvento without infEvento');
    const s = ownStatus(a, inf);
    if (!EVENT_REGISTERED.has(s.cStat)) return { kind: 'rejected', ...s };
    const procEventoXml = `<procEventoNFe xmlns="${NFE_NS}" versao="1.00">${signedEvento}${a.serialized(ret)}</procEventoNFe>`;
    return { kind: 'registered', ...s, protocol: requireText(a, inf, 'nProt'), receivedAt: requireText(a, inf, 'dhRegEvento'), procEventoXml };
  });
}

/** retInutNFe (DR01); ProcInutNFe assembled from the sent inutNFe. */
export function parseRetInutNFe(xml: Answer, signedInutNFe: string): InutilizacaoResult {
  return reading(xml, (answer) => {
    const a = message(answer, 'retInutNFe');
    const inf = child(a, DOCUMENT, 'infInut');
    if (!inf) throw new Error('retInutNFe without infInut');
    const s = ownStatus(a, inf);
    if (s.cStat !== INUT_HOMOLOGATED) return { kind: 'rejected', ...s };
    const procInutXml = `<ProcInutNFe xmlns="${NFE_NS}" versao="4.00">${signedInutNFe}${a.serialized(a.root)}</ProcInutNFe>`;
    return { kind: 'homologated', ...s, protocol: requireText(a, inf, 'nProt'), receivedAt: requireText(a, inf, 'dhRecbto'), procInutXml };
  });
}
