import type { IssuerAddress, IssuerSnapshot } from '../../issuer/types.js';
import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';

/** Brazil in the BACEN country table (cPais, C14). */
export const BRASIL = { cPais: '1058', xPais: 'Brasil' } as const;

/** enderEmit: C05, child of emit (C01); type TEnderEmi. CEP is mandatory for the issuer. */
export function buildEnderEmit(a: IssuerAddress): XmlNode {
  return el('enderEmit', [
    leaf('xLgr', a.logradouro),
    leaf('nro', a.numero),
    opt('xCpl', a.complemento),
    leaf('xBairro', a.bairro),
    leaf('cMun', a.codigoMunicipio),
    leaf('xMun', a.municipio),
    leaf('UF', a.uf),
    leaf('CEP', a.cep),
    leaf('cPais', BRASIL.cPais),
    leaf('xPais', BRASIL.xPais),
    opt('fone', a.telefone),
  ]);
}

/**
 * emit: C01, child of infNFe (A01). IM and CNAE (C19/C20) go together, only when the issuer has
 * a municipal registration (services in a goods note). CRT (C21): 1 SN, 2 SN excess, 3 normal, 4 MEI.
 */
export function buildEmit(issuer: IssuerSnapshot): XmlNode {
  return el('emit', [
    leaf('CNPJ', issuer.cnpj),
    leaf('xNome', issuer.razaoSocial),
    opt('xFant', issuer.nomeFantasia),
    buildEnderEmit(issuer.endereco),
    leaf('IE', issuer.ie),
    issuer.inscricaoMunicipal ? leaf('IM', issuer.inscricaoMunicipal) : undefined,
    issuer.inscricaoMunicipal ? opt('CNAE', issuer.cnae) : undefined,
    leaf('CRT', issuer.crt),
  ]);
}
