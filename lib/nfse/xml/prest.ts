import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';
import type { CheckedDps, NfseIssuer } from '../types.js';

/**
 * prest (TCInfoPrestador), child of infDPS. Children in XSD order: CNPJ|CPF, IM, fone, email,
 * regTrib. With tpEmit 1 the issuer is the provider: xNome and end are not written (the authority
 * reads them from its own register; the real DPS samples omit them too).
 */
export function buildPrest(issuer: NfseIssuer, regTrib: CheckedDps['regTrib']): XmlNode {
  return el('prest', [
    issuer.cnpj.length === 14 ? leaf('CNPJ', issuer.cnpj) : leaf('CPF', issuer.cnpj),
    opt('IM', issuer.inscricaoMunicipal),
    opt('fone', issuer.endereco.telefone),
    opt('email', issuer.email),
    buildRegTrib(regTrib),
  ]);
}

/** regTrib (TCRegTrib): opSimpNac, regApTribSN (ME/EPP only), regEspTrib. */
export function buildRegTrib(r: CheckedDps['regTrib']): XmlNode {
  return el('regTrib', [
    leaf('opSimpNac', r.opSimpNac),
    r.regApTribSN !== undefined && leaf('regApTribSN', r.regApTribSN),
    leaf('regEspTrib', r.regEspTrib),
  ]);
}
