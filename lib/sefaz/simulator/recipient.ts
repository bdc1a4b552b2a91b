import { isValidCnpj, isValidCpf } from '../../issuer/documents.js';
import { isValidIe } from '../../issuer/inscricao-estadual.js';
import { municipality } from '../../issuer/municipalities.js';
import type { NfeFacts } from './facts.js';
import type { SimulatorCStat } from './codes.js';

/**
 * The identifiers the authority checks on a note (MOC 4.00 Anexo I, rules 208/237, 209/210,
 * 270-275, 694, 695): CPF/CNPJ check digits, the IE's format and check digit for its UF (the
 * product's own isValidIe, one algorithm per UF as SINTEGRA publishes them: data/ie/README.md),
 * municipality codes that exist in the IBGE table
 * (data/ibge) and belong to the UF, and the interstate sale to a non-contributor final consumer
 * that must carry ICMSUFDest on every item and nothing else may (EC 87/2015, NT 2015.003). First
 * rule broken, or null.
 */
export type IdentifierProblem = { cStat: SimulatorCStat; nItem?: string };

const ieValid = (ie: string, uf: string) => ie === 'ISENTO' || isValidIe(ie, uf);

/** 'digit' when the code is in no UF (the IBGE digit or the code itself is wrong), 'uf' when it is another UF's. */
function municipalityProblem(cMun: string, uf: string): 'digit' | 'uf' | null {
  const m = municipality(cMun);
  if (!m) return 'digit';
  return m.uf === uf ? null : 'uf';
}

export function checkIdentifiers(f: NfeFacts): IdentifierProblem | null {
  if (f.emit.ie && f.emit.uf && !ieValid(f.emit.ie, f.emit.uf)) return { cStat: 209 };
  const emitMun = municipalityProblem(f.emit.cMun, f.emit.uf);
  if (emitMun) return { cStat: emitMun === 'digit' ? 272 : 273 };
  const fg = municipalityProblem(f.cMunFG, f.emit.uf);
  if (fg) return { cStat: fg === 'digit' ? 270 : 271 };
  const d = f.dest;
  if (d) {
    if (d.cnpj && !isValidCnpj(d.cnpj)) return { cStat: 208 };
    if (d.cpf && !isValidCpf(d.cpf)) return { cStat: 237 };
    if (d.ie && d.uf && d.uf !== 'EX' && !ieValid(d.ie, d.uf)) return { cStat: 210 };
    if (d.cMun && d.uf && d.uf !== 'EX') {
      const destMun = municipalityProblem(d.cMun, d.uf);
      if (destMun) return { cStat: destMun === 'digit' ? 274 : 275 };
    }
  }
  return partilhaProblem(f);
}

/**
 * NA01-20 (694) and 695 of NT 2015.003: ICMSUFDest is required on an interstate sale of goods to a
 * non-contributor final consumer, and refused on anything else (an internal or foreign operation,
 * a contributor, a service item), except where the goods are delivered in another UF than the
 * emitter's (exceção 2 of 695: the delivery UF is then the destination).
 */
function partilhaProblem(f: NfeFacts): IdentifierProblem | null {
  if (f.mod !== '55') return null;
  const interstateToConsumer = f.idDest === '2' && f.indFinal === '1' && f.dest?.indIEDest === '9';
  if (interstateToConsumer && !f.hasIssqn && f.itemsWithoutIcmsUfDest.length) return { cStat: 694, nItem: f.itemsWithoutIcmsUfDest[0] };
  const deliveredElsewhere = f.entregaUf !== null && f.entregaUf !== f.emit.uf;
  if (f.itemsWithIcmsUfDest.length && (!interstateToConsumer || f.hasIssqn) && !deliveredElsewhere) return { cStat: 695, nItem: f.itemsWithIcmsUfDest[0] };
  return null;
}
