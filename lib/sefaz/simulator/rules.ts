import { modulo11 } from '../../nfe/access-key.js';
import type { NfeFacts } from './facts.js';

/**
 * The simulator's per-note rules that need no database, in the order the authority applies them
 * (MOC 4.00 Anexo I: signature, certificate, key, then business rules). Returns the first cStat
 * broken, or null. Schema (225) and duplicity (204/539) are decided by the caller.
 */
export interface NoteCheckInput {
  facts: NfeFacts;
  signatureValid: boolean;
  /** CNPJ from the TLS client certificate. */
  clientCnpj: string | null;
}

export function checkNote({ facts, signatureValid, clientCnpj }: NoteCheckInput): number | null {
  if (!signatureValid) return 297;
  // 213: CNPJ-base (8 first digits) of the emitter must be that of the transmitting certificate.
  if (!clientCnpj || !facts.emitCnpj || clientCnpj.slice(0, 8) !== facts.emitCnpj.slice(0, 8)) return 213;
  if (!keyMatchesFields(facts)) return 502;
  // 972: infRespTec required (NT 2018.005).
  if (!facts.hasInfRespTec) return 972;
  // 696: a non-contributor recipient (indIEDest 9) makes the operation one with a final consumer.
  if (facts.indIEDest === '9' && facts.indFinal !== '1') return 696;
  return null;
}

/** 502: the Id must be "NFe" + the concatenation of the ide/emit fields with a correct check digit. */
export function keyMatchesFields(f: NfeFacts): boolean {
  if (!/^NFe\d{6}[0-9A-Z]{12}\d{26}$/.test(f.id)) return false;
  const key = f.id.slice(3);
  const aamm = f.dhEmi.slice(2, 4) + f.dhEmi.slice(5, 7);
  const body = f.cUF.padStart(2, '0') + aamm + (f.emitCnpj ?? '').padStart(14, '0') + f.mod.padStart(2, '0')
    + f.serie.padStart(3, '0') + f.nNF.padStart(9, '0') + f.tpEmis + f.cNF.padStart(8, '0');
  return body.length === 43 && key.slice(0, 43) === body && String(modulo11(body)) === key[43] && f.cDV === key[43];
}

/** What the database says about a received key/number (see services/sefaz/simulator/store.ts). */
export type Duplicate =
  | { kind: 'same-key'; receipt: string }
  | { kind: 'same-number'; accessKey: string; receipt: string };

/** 204 / 539 with the texts filled as the authority does (nRec and chNFe of the earlier note). */
export function duplicateMotivo(d: Duplicate, template: string): { cStat: number; xMotivo: string } {
  if (d.kind === 'same-key') return { cStat: 204, xMotivo: template.replace(/\[nRec:\d+\]/, `[nRec:${d.receipt}]`) };
  return {
    cStat: 539,
    xMotivo: template.replace(/\[chNFe: ?\d+\]/, `[chNFe: ${d.accessKey}]`).replace(/\[nRec:\d+\]/, `[nRec:${d.receipt}]`),
  };
}

/** 225 with the first libxml2 message, within TMotivo's 255 characters. */
export function schemaMotivo(template: string, firstError: string | undefined): string {
  const detail = (firstError ?? '').replace(/\s+/g, ' ').trim();
  return (detail ? `${template}: ${detail}` : template).slice(0, 255);
}

/** Cancellation window (MOC 4.00 §5.1.2, rule 501): 24 hours from authorization by default. */
export function withinCancelWindow(authorizedAt: Date, now: Date, windowMs = 24 * 3_600_000): boolean {
  return now.getTime() - authorizedAt.getTime() <= windowMs;
}
