/**
 * Factories of fiscally sensible NF-e/NFC-e inputs, already in the validated form (schema defaults
 * applied), so they go straight into checkNfe/checkNfce or through validateNfeBody unchanged.
 * Defaults: a CRT 3 (regime normal) issuer in São Paulo selling to a consumer in SP with CST 00
 * at 18%; `aSimplesIssuer()` + `aSimplesItem()` give a crt 1 issuer with CSOSN 102.
 */
import { buildAccessKey } from '../../lib/nfe/access-key.js';
import type { IssuerSnapshot } from '../../lib/issuer/types.js';
import type { Item, NfceBody, NfeBody } from '../../lib/nfe/types.js';

export function anIssuer(overrides: Partial<IssuerSnapshot> = {}): IssuerSnapshot {
  return {
    id: '0b7c6f2e-3c1d-4f7a-9a55-2d7f1d7c9e01',
    partnerId: '5f0a3c1e-7b2d-4e8f-a1c3-9d2e4f6a8b10',
    cnpj: '11222333000181',
    razaoSocial: 'Comercio Exemplo Ltda',
    nomeFantasia: 'Loja Exemplo',
    ie: '110042490114',
    crt: 3,
    endereco: {
      logradouro: 'Avenida Paulista', numero: '1000', bairro: 'Bela Vista', codigoMunicipio: '3550308',
      municipio: 'Sao Paulo', uf: 'SP', cep: '01310100', telefone: '1130000000',
    },
    ambienteFiscal: 2,
    sandbox: false,
    csc: 'CSC-TESTE-0001',
    cscId: '000001',
    serieNfe: 1,
    serieNfce: 1,
    serieNfse: 1,
    valorAproximadoTributosEnabled: false,
    fiscalBrainEnabled: false,
    ...overrides,
  };
}

export const aSimplesIssuer = (overrides: Partial<IssuerSnapshot> = {}): IssuerSnapshot =>
  anIssuer({ crt: 1, razaoSocial: 'Pequena Loja ME', ...overrides });

/** One unit-priced item: 2 × 50.00 = 100.00, CST 00, vBC 100.00 × 18% = 18.00. */
export function anItem(overrides: Partial<Item> = {}): Item {
  return {
    codigo: 'SKU-001',
    descricao: 'Camiseta de algodao',
    ean: 'SEM GTIN',
    ncm: '61091000',
    cfop: '5102',
    unidade: 'UN',
    quantidade: 2,
    valorUnitario: 50,
    indTot: 1,
    icms: { origem: 0, cst: '00', modBC: 3, vBC: 100, pICMS: 18, vICMS: 18 },
    pis: { cst: '01', baseCalculo: 100, aliquota: 1.65, valor: 1.65 },
    cofins: { cst: '01', baseCalculo: 100, aliquota: 7.6, valor: 7.6 },
    ...overrides,
  };
}

/** The same item for a Simples Nacional issuer: CSOSN 102, PIS/COFINS 49 without values. */
export function aSimplesItem(overrides: Partial<Item> = {}): Item {
  return anItem({
    icms: { origem: 0, csosn: '102' },
    pis: { cst: '49', baseCalculo: 0, aliquota: 0, valor: 0 },
    cofins: { cst: '49', baseCalculo: 0, aliquota: 0, valor: 0 },
    ...overrides,
  });
}

export function aValidNfeBody(overrides: Partial<NfeBody> = {}): NfeBody {
  return {
    naturezaOperacao: 'Venda de Mercadoria',
    tpNF: 1,
    indPres: 1,
    finNFe: 1,
    destinatario: {
      cnpjCpf: '52998224725',
      nome: 'Maria da Silva',
      indicadorIE: 9,
      email: 'maria@example.com',
      endereco: {
        logradouro: 'Rua das Flores', numero: '123', bairro: 'Centro', codigoMunicipio: '3550308',
        municipio: 'Sao Paulo', uf: 'SP', cep: '01001000',
      },
    },
    items: [anItem()],
    pagamentos: [{ forma: '01', valor: 100 }],
    ...overrides,
  };
}

export function aValidNfceBody(overrides: Partial<NfceBody> = {}): NfceBody {
  return {
    naturezaOperacao: 'Venda de Mercadoria',
    indPres: 1,
    items: [anItem()],
    pagamentos: [{ forma: '01', valor: 100 }],
    ...overrides,
  };
}

/** A well-formed access key of an authorized SP NF-e (for `referenciadas`). */
export function anAccessKey(overrides: { cUF?: string; model?: string; numero?: number; aamm?: string } = {}): string {
  return buildAccessKey({
    cUF: overrides.cUF ?? '35', aamm: overrides.aamm ?? '2501', document: '11222333000181', model: overrides.model ?? '55',
    serie: 1, numero: overrides.numero ?? 1234, tpEmis: 1, cNF: '12345678',
  });
}
