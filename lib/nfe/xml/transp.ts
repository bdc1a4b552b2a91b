import type { Transporte, Volume } from '../types.js';
import { el, leaf, opt, type XmlNode } from '../../xml/writer.js';
import { weight } from './format.js';

/** vol: X26, child of transp (X01). */
export function buildVol(v: Volume): XmlNode {
  return el('vol', [
    opt('qVol', v.quantidade),
    opt('esp', v.especie),
    opt('marca', v.marca),
    opt('nVol', v.numeracao),
    v.pesoLiquido !== undefined ? leaf('pesoL', weight(v.pesoLiquido)) : undefined,
    v.pesoBruto !== undefined ? leaf('pesoB', weight(v.pesoBruto)) : undefined,
  ]);
}

/**
 * transp: X01, child of infNFe (A01). modFrete (X02) defaults to 9 (no freight) upstream;
 * transporta (X03), veicTransp (X18, TVeiculo) and vol (X26) when informed.
 */
export function buildTransp(t: Transporte | undefined): XmlNode {
  const carrier = t?.transportador;
  const doc = carrier?.cnpjCpf;
  return el('transp', [
    leaf('modFrete', t?.modFrete ?? 9),
    carrier && el('transporta', [
      doc ? leaf(doc.length === 14 ? 'CNPJ' : 'CPF', doc) : undefined,
      opt('xNome', carrier.nome),
      opt('IE', carrier.ie),
      opt('xEnder', carrier.endereco),
      opt('xMun', carrier.municipio),
      opt('UF', carrier.uf),
    ]),
    t?.veiculo && el('veicTransp', [leaf('placa', t.veiculo.placa), opt('UF', t.veiculo.uf), opt('RNTC', t.veiculo.rntc)]),
    ...(t?.volumes ?? []).map(buildVol),
  ]);
}
