import { DomainError } from '../../errors/index.js';
import { isValidCnpj, isValidCpf } from '../../issuer/documents.js';
import { isValidIe } from '../../issuer/inscricao-estadual.js';
import type { IssuerSnapshot } from '../../issuer/types.js';
import type { Destinatario, Transporte } from '../types.js';

/**
 * The parties' identifiers, checked before numbering because the authority rejects a note whose
 * CNPJ (208), CPF (237) or IE (209 issuer, 210 recipient) fails its check digit (MOC 4.00, Anexo I).
 * `retirada`, `entrega` and `autXML` are not in this API (lib/nfe/field-hints.ts), so the parties
 * are the recipient (NF-e `destinatario`, NFC-e `destCPF`), the carrier and the issuer.
 * Each refusal names the field (`campo`) in its details and in the message.
 */

/** CNPJ (14, numeric or alphanumeric base) or CPF (11) with its check digits. */
export function checkCnpjCpf(value: string, campo: string): void {
  if (value.length === 11) {
    if (!isValidCpf(value)) throw new DomainError('CPF_INVALIDO', { campo, valor: value }, `CPF inválido em '${campo}': dígitos verificadores não conferem.`);
    return;
  }
  if (!isValidCnpj(value)) throw new DomainError('CNPJ_INVALIDO', { campo, valor: value }, `CNPJ inválido em '${campo}': dígitos verificadores não conferem.`);
}

function ieRefused(campo: string, valor: string, uf: string | undefined, motivo: string): DomainError {
  return new DomainError('IE_INVALIDA', { campo, valor, ...(uf !== undefined ? { uf } : {}), motivo }, `Inscrição estadual inválida em '${campo}': ${motivo}.`);
}

/**
 * An IE against the UF of its holder (data/ie/README.md). `isentoAllowed` where the layout's type
 * accepts the literal ISENTO (issuer TIe, carrier TIeDest), not for the recipient.
 */
export function checkIe(ie: string, uf: string | undefined, campo: string, isentoAllowed: boolean): void {
  if (ie === 'ISENTO') {
    if (isentoAllowed) return;
    throw ieRefused(campo, ie, uf, "destinatário isento não leva IE: envie indicadorIE 2 sem o campo 'ie'");
  }
  if (uf === undefined) throw ieRefused(campo, ie, uf, 'informe a UF do titular para conferir a inscrição');
  if (uf === 'EX') throw ieRefused(campo, ie, uf, 'endereço no exterior (UF EX) não tem inscrição estadual');
  if (!isValidIe(ie, uf)) throw ieRefused(campo, ie, uf, `formato ou dígito verificador não confere com as regras de ${uf}`);
}

/** NF-e recipient: document check digits, then its IE against the address UF. */
export function checkDestinatarioIdentifiers(dest: Pick<Destinatario, 'cnpjCpf' | 'ie' | 'endereco'>): void {
  checkCnpjCpf(dest.cnpjCpf, 'destinatario.cnpjCpf');
  if (dest.ie !== undefined) checkIe(dest.ie, dest.endereco.uf, 'destinatario.ie', false);
}

/** The carrier (transporta, X03): document and IE against its UF; ISENTO allowed. */
export function checkTransportadorIdentifiers(carrier: Transporte['transportador']): void {
  if (!carrier) return;
  if (carrier.cnpjCpf !== undefined) checkCnpjCpf(carrier.cnpjCpf, 'transporte.transportador.cnpjCpf');
  if (carrier.ie !== undefined) checkIe(carrier.ie, carrier.uf, 'transporte.transportador.ie', true);
}

/**
 * The issuer's IE as registered (its CNPJ and municipality were checked when the issuer was
 * saved, lib/issuer/rules.ts). A wrong one is fixed in the issuer's record, so the message says so.
 * An IE (or UF) not registered at all is not judged here: the preflight answers it with every other
 * missing field at once (API.md rule 4, CADASTRO_EMISSOR_INCOMPLETO, lib/issuer/preflight.ts).
 */
export function checkIssuerIe(issuer: Pick<IssuerSnapshot, 'ie' | 'endereco'>): void {
  if (!issuer.ie || !issuer.endereco.uf) return;
  if (issuer.ie === 'ISENTO' || isValidIe(issuer.ie, issuer.endereco.uf)) return;
  throw new DomainError(
    'IE_INVALIDA',
    { campo: 'emitente.ie', valor: issuer.ie, uf: issuer.endereco.uf, motivo: 'inscrição do cadastro do emissor' },
    `Inscrição estadual do emissor (${issuer.ie}) inválida para ${issuer.endereco.uf}: corrija 'ie' no cadastro do emissor (PATCH /v1/companies/{id}).`,
  );
}
