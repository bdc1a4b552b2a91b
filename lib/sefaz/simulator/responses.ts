import { NFE_NS } from '../services.js';
import { escapeXml } from '../xml.js';
import type { Motivo } from './codes.js';

export type { Motivo };

/**
 * Answers of the simulated authority, in the official layouts (retEnviNFe, retConsReciNFe,
 * retConsSitNFe, retConsStatServ, retEnvEvento, retInutNFe — element order per the XSDs;
 * unit tests validate each against them).
 */
export const VER_APLIC = 'SIMULADOR_4.00';


export interface ProtInput extends Motivo {
  tpAmb: string;
  chNFe: string;
  dhRecbto: string;
  nProt?: string;
  digVal?: string | null;
}

/** infProt, infEvento and infInut carry no Id in the authorities' answers (fixtures of SP, RS, PR, SVRS, GO). */
export function protNFe(p: ProtInput): string {
  return `<protNFe versao="4.00"><infProt><tpAmb>${p.tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic>`
    + `<chNFe>${p.chNFe}</chNFe><dhRecbto>${p.dhRecbto}</dhRecbto>${p.nProt ? `<nProt>${p.nProt}</nProt>` : ''}`
    + `${p.digVal ? `<digVal>${p.digVal}</digVal>` : ''}<cStat>${p.cStat}</cStat><xMotivo>${escapeXml(p.xMotivo)}</xMotivo></infProt></protNFe>`;
}

interface Head { tpAmb: string; cUF: string; dhRecbto: string }

function head(h: Head, m: Motivo): string {
  return `<tpAmb>${h.tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic><cStat>${m.cStat}</cStat><xMotivo>${escapeXml(m.xMotivo)}</xMotivo>`
    + `<cUF>${h.cUF}</cUF><dhRecbto>${h.dhRecbto}</dhRecbto>`;
}

/** Batch answer: `prot` (sync, cStat 104), `receipt` (async, 103) or neither (batch rejected). */
export function retEnviNFe(h: Head, m: Motivo, opts: { prot?: string; receipt?: string } = {}): string {
  const rec = opts.receipt ? `<infRec><nRec>${opts.receipt}</nRec><tMed>1</tMed></infRec>` : '';
  return `<retEnviNFe xmlns="${NFE_NS}" versao="4.00">${head(h, m)}${rec}${opts.prot ?? ''}</retEnviNFe>`;
}

export function retConsReciNFe(h: Head & { nRec: string }, m: Motivo, prot?: string): string {
  return `<retConsReciNFe xmlns="${NFE_NS}" versao="4.00"><tpAmb>${h.tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic>`
    + `<nRec>${h.nRec}</nRec><cStat>${m.cStat}</cStat><xMotivo>${escapeXml(m.xMotivo)}</xMotivo><cUF>${h.cUF}</cUF>`
    + `<dhRecbto>${h.dhRecbto}</dhRecbto>${prot ?? ''}</retConsReciNFe>`;
}

export function retConsSitNFe(h: Head & { chNFe: string }, m: Motivo, prot?: string, procEventos: readonly string[] = []): string {
  return `<retConsSitNFe xmlns="${NFE_NS}" versao="4.00">${head(h, m)}<chNFe>${h.chNFe}</chNFe>${prot ?? ''}${procEventos.join('')}</retConsSitNFe>`;
}

export function retConsStatServ(h: Head, m: Motivo): string {
  return `<retConsStatServ xmlns="${NFE_NS}" versao="4.00">${head(h, m)}<tMed>1</tMed></retConsStatServ>`;
}

export interface RetEventoInput extends Motivo {
  tpAmb: string;
  cOrgao: string;
  chNFe?: string;
  tpEvento?: string;
  nSeqEvento?: string;
  dhRegEvento: string;
  nProt?: string;
}

/** retEvento (HR11) of one event. */
export function retEvento(ev: RetEventoInput): string {
  return `<retEvento versao="1.00"><infEvento><tpAmb>${ev.tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic>`
    + `<cOrgao>${ev.cOrgao}</cOrgao><cStat>${ev.cStat}</cStat><xMotivo>${escapeXml(ev.xMotivo)}</xMotivo>`
    + `${ev.chNFe ? `<chNFe>${ev.chNFe}</chNFe>` : ''}${ev.tpEvento ? `<tpEvento>${ev.tpEvento}</tpEvento>` : ''}`
    + `${ev.nSeqEvento ? `<nSeqEvento>${ev.nSeqEvento}</nSeqEvento>` : ''}`
    + `<dhRegEvento>${ev.dhRegEvento}</dhRegEvento>${ev.nProt ? `<nProt>${ev.nProt}</nProt>` : ''}</infEvento></retEvento>`;
}

export function retEnvEvento(h: { idLote: string; tpAmb: string; cOrgao: string }, m: Motivo, ev?: RetEventoInput): string {
  return `<retEnvEvento xmlns="${NFE_NS}" versao="1.00"><idLote>${h.idLote}</idLote><tpAmb>${h.tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic>`
    + `<cOrgao>${h.cOrgao}</cOrgao><cStat>${m.cStat}</cStat><xMotivo>${escapeXml(m.xMotivo)}</xMotivo>${ev ? retEvento(ev) : ''}</retEnvEvento>`;
}

/** procEventoNFe: the signed evento as received and its retEvento (listed by retConsSitNFe). */
export function procEventoNFe(signedEvento: string, ret: string): string {
  return `<procEventoNFe xmlns="${NFE_NS}" versao="1.00">${signedEvento}${ret}</procEventoNFe>`;
}

export interface RetInutInput extends Motivo {
  tpAmb: string;
  cUF: string;
  ano?: string;
  CNPJ?: string;
  mod?: string;
  serie?: string;
  nNFIni?: string;
  nNFFin?: string;
  dhRecbto: string;
  nProt?: string;
}

export function retInutNFe(r: RetInutInput): string {
  const opt = (tag: string, v?: string) => (v ? `<${tag}>${v}</${tag}>` : '');
  return `<retInutNFe xmlns="${NFE_NS}" versao="4.00"><infInut><tpAmb>${r.tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic>`
    + `<cStat>${r.cStat}</cStat><xMotivo>${escapeXml(r.xMotivo)}</xMotivo><cUF>${r.cUF}</cUF>`
    + `${opt('ano', r.ano)}${opt('CNPJ', r.CNPJ)}${opt('mod', r.mod)}${opt('serie', r.serie)}${opt('nNFIni', r.nNFIni)}${opt('nNFFin', r.nNFFin)}`
    + `<dhRecbto>${r.dhRecbto}</dhRecbto>${opt('nProt', r.nProt)}</infInut></retInutNFe>`;
}

/**
 * nProt: authorizer digit + cUF + yy + 10-digit sequence (15 digits). The first digit tells who
 * authorized (MOC 4.00 §5, nProt): 1 the UF's own authority, 2 the Receita Federal environments
 * (SVAN, SVC-AN), 3 SVRS and SVC-RS, 8 the Ambiente Nacional (cOrgao 91) — as in the authorized
 * samples of shared/fixtures (RS 143…, SP 135…, PA via SVRS 315…, DF via SVRS 353…).
 */
export function authorizerDigit(authorizer: string | null): '1' | '2' | '3' | '8' {
  if (authorizer === 'SVRS' || authorizer === 'SVCRS') return '3';
  if (authorizer === 'SVAN' || authorizer === 'SVCAN') return '2';
  if (authorizer === 'AN') return '8';
  return '1';
}

/**
 * A number made of a fixed prefix and a value of the protocol sequence, zero-padded to `digits` (never
 * cut). The database formats it the same way when it draws the value itself (SimulatorStore.authorizeNote).
 */
export interface SequenceFormat { prefix: string; digits: number }

export const formatSequence = (f: SequenceFormat, seq: number | bigint): string => `${f.prefix}${String(seq).padStart(f.digits, '0')}`;

export function protocolFormat(authorizer: string | null, cUF: string, at: Date): SequenceFormat {
  return { prefix: `${authorizerDigit(authorizer)}${cUF.padStart(2, '0')}${String(at.getUTCFullYear()).slice(2)}`, digits: 10 };
}

/** nRec: cUF + 1 + 12-digit sequence (15 digits). */
export const receiptFormat = (cUF: string): SequenceFormat => ({ prefix: `${cUF.padStart(2, '0')}1`, digits: 12 });

export function protocolNumber(authorizer: string | null, cUF: string, at: Date, seq: number | bigint): string {
  return formatSequence(protocolFormat(authorizer, cUF, at), seq);
}

export function receiptNumber(cUF: string, seq: number | bigint): string {
  return formatSequence(receiptFormat(cUF), seq);
}
