import type { Ambiente } from '../../issuer/types.js';
import type { CheckedNote, Endereco } from '../types.js';
import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';
import { BRASIL } from './emit.js';

/** MOC 4.00, E04 rule (rejection 598): in homologação the recipient name is this literal. */
export const HOMOLOGACAO_XNOME = 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL';

/** enderDest: E05, child of dest (E01); type TEndereco. */
export function buildEnderDest(a: Endereco): XmlNode {
  return el('enderDest', [
    leaf('xLgr', a.logradouro),
    leaf('nro', a.numero),
    opt('xCpl', a.complemento),
    leaf('xBairro', a.bairro),
    leaf('cMun', a.codigoMunicipio),
    leaf('xMun', a.municipio),
    leaf('UF', a.uf),
    opt('CEP', a.cep),
    leaf('cPais', a.codigoPais ?? BRASIL.cPais),
    leaf('xPais', a.pais ?? BRASIL.xPais),
    opt('fone', a.telefone),
  ]);
}

/**
 * dest: E01, child of infNFe (A01). NF-e: the full recipient with address. NFC-e: the consumer
 * when identified (CPF/CNPJ and optional name, indIEDest 9, no address); absent otherwise.
 * IE (E17) only for a contributor (indIEDest 1).
 */
export function buildDest(note: CheckedNote, tpAmb: Ambiente): XmlNode | undefined {
  const d = note.destinatario;
  if (!d) return undefined;
  const id = d.cnpjCpf.length === 14 ? leaf('CNPJ', d.cnpjCpf) : leaf('CPF', d.cnpjCpf);
  const xNome = tpAmb === 2 ? HOMOLOGACAO_XNOME : d.nome;
  if (!('endereco' in d)) {
    return el('dest', [id, opt('xNome', d.nome ? xNome : undefined), leaf('indIEDest', '9')]);
  }
  return el('dest', [
    id,
    leaf('xNome', xNome),
    buildEnderDest(d.endereco),
    leaf('indIEDest', d.indicadorIE),
    d.indicadorIE === 1 ? opt('IE', d.ie) : undefined,
    opt('email', d.email),
  ]);
}
