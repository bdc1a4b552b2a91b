import { modulo11 } from '../../nfe/access-key.js';
import type { NfeFacts } from './facts.js';
import { SIMULATOR_TP_AMB, type SimulatorCStat } from './codes.js';
import { checkIdentifiers } from './recipient.js';
import { checkPartilha } from './partilha.js';
import { contingencyCStat } from './contingency.js';

/**
 * The simulator's per-note rules that need no database, in the order the authority applies them
 * (MOC 4.00 Anexo I: signature, certificate, environment and authorizer, key, dates, identifiers,
 * business rules). Returns the first rule broken, or null. Schema (225) and duplicity (204/539) are
 * decided by the caller.
 */
export interface NoteCheckInput {
  facts: NfeFacts;
  /** 290/297/298 from signature.ts, or null when the signature holds. */
  signatureCStat: 290 | 297 | 298 | null;
  /** 29x from signer-certificate.ts, or null when the signing certificate is acceptable. */
  signerCStat: SimulatorCStat | null;
  /** CNPJ of the signing certificate (rule 213). */
  signerCnpj: string | null;
  /** CNPJ of the TLS client certificate. */
  clientCnpj: string | null;
  /** Whether the UF lets a third party transmit with its own certificate (data/sefaz/simulator-uf-rules.json). */
  thirdPartyTransmitter: boolean;
  infRespTecRequired: boolean;
  /** Whether the authorizer addressed by the URL serves the note's cUF (rule 226). */
  authorizerServesUf: boolean;
  /** The SVC the URL addresses (contingency.ts: null a normal authorizer, undefined the UF-less alias). */
  svc: 'SVCAN' | 'SVCRS' | null | undefined;
  now: Date;
}

export interface Broken { cStat: SimulatorCStat; nItem?: string }

const sameBase = (a: string | null, b: string | null) => !!a && !!b && a.slice(0, 8) === b.slice(0, 8);

export function checkNote(i: NoteCheckInput): Broken | null {
  const f = i.facts;
  if (i.signatureCStat) return { cStat: i.signatureCStat };
  if (i.signerCStat) return { cStat: i.signerCStat };
  // 213: the CNPJ-base of the emitter is the signer's (MOC 4.00 rule 213 on the signature
  // certificate); the transmitter's TLS certificate is held to it only where the UF says so.
  if (!sameBase(i.signerCnpj, f.emitCnpj)) return { cStat: 213 };
  if (!i.thirdPartyTransmitter && !sameBase(i.clientCnpj, f.emitCnpj)) return { cStat: 213 };
  if (f.tpAmb !== SIMULATOR_TP_AMB) return { cStat: 252 };
  if (!i.authorizerServesUf) return { cStat: 226 };
  const contingency = contingencyCStat(f, i.svc, i.now);
  if (contingency) return { cStat: contingency };
  if (!keyMatchesFields(f)) return { cStat: 502 };
  const late = emissionDateCStat(f, i.now);
  if (late) return { cStat: late };
  const identifiers = checkIdentifiers(f);
  if (identifiers) return identifiers;
  const partilha = checkPartilha(f);
  if (partilha) return partilha;
  // 696: a non-contributor recipient (indIEDest 9) makes the operation one with a final consumer.
  if (f.indIEDest === '9' && f.indFinal !== '1') return { cStat: 696 };
  // 972: infRespTec required (NT 2018.005) where the UF requires it.
  if (i.infRespTecRequired && !f.hasInfRespTec) return { cStat: 972 };
  return null;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * 703: dhEmi more than 5 minutes ahead of the reception; 228: a normal emission (tpEmis 1) older
 * than 30 days; 704: an NFC-e in normal emission older than 5 minutes (its contingency is offline,
 * tpEmis 9). Contingency notes are late-authorized instead (150, see authorizationCStat).
 */
export function emissionDateCStat(f: Pick<NfeFacts, 'dhEmi' | 'tpEmis' | 'mod'>, now: Date): 703 | 228 | 704 | null {
  const at = Date.parse(f.dhEmi);
  if (Number.isNaN(at)) return null; // the schema already refused a malformed date
  const age = now.getTime() - at;
  if (age < -5 * MINUTE) return 703;
  if (f.tpEmis !== '1') return null;
  if (f.mod === '65' && age > 5 * MINUTE) return 704;
  if (age > 30 * DAY) return 228;
  return null;
}

/** 150 for a contingency note received more than 24 hours after its emission, 100 otherwise. */
export function authorizationCStat(f: Pick<NfeFacts, 'dhEmi' | 'tpEmis'>, now: Date): 100 | 150 {
  return f.tpEmis !== '1' && now.getTime() - Date.parse(f.dhEmi) > DAY ? 150 : 100;
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

/** 204 / 539 with the texts filled as the authority does (nRec and chNFe of the earlier note; the table's spacing kept). */
export function duplicateMotivo(d: Duplicate, template: string): { cStat: number; xMotivo: string } {
  if (d.kind === 'same-key') return { cStat: 204, xMotivo: template.replace(/\[nRec:\d+\]/, `[nRec:${d.receipt}]`) };
  return {
    cStat: 539,
    xMotivo: template.replace(/\[chNFe:( ?)\d+\]/, `[chNFe:$1${d.accessKey}]`).replace(/\[nRec:\d+\]/, `[nRec:${d.receipt}]`),
  };
}

/** A text of the table with its [nItem:999] placeholder filled (694 and the other per-item rules). */
export function withItem(template: string, nItem: string | undefined): string {
  return nItem ? template.replace(/\[nItem:\d+\]/, `[nItem:${nItem}]`) : template;
}
