import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';
import type { Tomador, TomadorEndereco } from '../types.js';

/**
 * toma (TCInfoPessoa), child of infDPS, optional. Children in XSD order: CNPJ|CPF, IM, xNome, end,
 * fone, email.
 */
export function buildToma(t: Tomador | undefined): XmlNode | undefined {
  if (!t) return undefined;
  return el('toma', [
    t.cnpjCpf.length === 14 ? leaf('CNPJ', t.cnpjCpf) : leaf('CPF', t.cnpjCpf),
    opt('IM', t.inscricaoMunicipal),
    leaf('xNome', t.razaoSocial),
    t.endereco && buildEnd(t.endereco),
    opt('fone', t.telefone),
    opt('email', t.email),
  ]);
}

/** end (TCEndereco) with endNac (cMun, CEP), then xLgr, nro, xCpl, xBairro. */
function buildEnd(e: TomadorEndereco): XmlNode {
  return el('end', [
    el('endNac', [leaf('cMun', e.codigoMunicipio), leaf('CEP', e.cep)]),
    leaf('xLgr', e.logradouro),
    leaf('nro', e.numero),
    opt('xCpl', e.complemento),
    leaf('xBairro', e.bairro),
  ]);
}
