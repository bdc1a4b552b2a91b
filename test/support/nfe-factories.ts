/**
 * Factories of fiscally sensible NF-e/NFC-e inputs, already in the validated form (schema defaults
 * applied), so they go straight into checkNfe/checkNfce or through validateNfeBody unchanged.
 * Defaults: a CRT 3 (regime normal) issuer in São Paulo selling to a consumer in SP with CST 00
 * at 18%; `aSimplesIssuer()` + `aSimplesItem()` give a crt 1 issuer with CSOSN 102.
 */
import { buildAccessKey } from '../../lib/nfe/access-key.js';
import type { IssuerSnapshot } from '../../lib/issuer/types.js';
import { formatCents } from '../../lib/money.js';
import { lineCents } from '../../lib/nfe/rules/unidade-tributavel.js';
import type { Item, NfceBody, NfeBody, Pagamento } from '../../lib/nfe/types.js';

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

/** The IBS/CBS group at the test rates (CST 000, cClassTrib 000001, 0.1 % + 0.9 %): with it anItem writes ~1 KB. */
export const IBS_CBS = { cst: '000', cClassTrib: '000001', ibsUf: { p: 0.1 }, ibsMun: { p: 0 }, cbs: { p: 0.9 } };

/** From this many items the benches' notes use compact items: more of anItem's pass the authority's 500 KB. */
export const COMPACT_ITEMS_FROM = 400;

/**
 * An item of ~480 bytes in the XML, the leanest a crt 3 issuer writes: ICMS 41, PIS/COFINS 07
 * (their CST alone). 990 of them fit the authority's 500 KB per message (lib/sefaz/message-limit.ts),
 * which 990 items of anItem's (~700 bytes) do not.
 */
export function aCompactItem(overrides: Partial<Item> = {}): Item {
  return anItem({ icms: { origem: 0, cst: '41' }, pis: { cst: '07' }, cofins: { cst: '07' }, ...overrides } as Partial<Item>);
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

// --- A catalogue of valid item variants (one per tax family), for rule and XML tests alike ---

const diesel = { cProdANP: '820101034', descANP: 'OLEO DIESEL B S10 - COMUM', ufConsumo: 'SP' };
const fuel = (icms: Item['icms']): Partial<Item> => ({
  codigo: 'DIESEL-S10', descricao: 'Oleo diesel S10', ncm: '27101921', cfop: '5656', unidade: 'L', quantidade: 100, valorUnitario: 6,
  icms, combustivel: diesel, pis: { cst: '04' }, cofins: { cst: '04' },
});
const st = { modBCST: 4, pMVAST: 40, vBCST: 140, pICMSST: 18, vICMSST: 7.2 } as const;
const ownFull = { modBC: 3, vBC: 100, pICMS: 18, vICMS: 18 } as const;

export interface ItemVariant {
  /** Issuer regimes the variant is valid for. */
  crt: readonly (1 | 2 | 3 | 4)[];
  /** Valid in NFC-e too. */
  nfce: boolean;
  item: Item;
}

/** Every supported ICMS/CSOSN variant and the IPI, PIS/COFINS and IBS/CBS shapes, each valid as is. */
export const ITEM_VARIANTS: Readonly<Record<string, ItemVariant>> = {
  'cst-00': { crt: [2, 3], nfce: true, item: anItem() },
  'cst-00-classic-names': { crt: [2, 3], nfce: true, item: anItem({ icms: { origem: 0, cst: '00', baseCalculo: 100, aliquota: 18, valor: 18 } }) },
  'cst-00-fcp': { crt: [2, 3], nfce: true, item: anItem({ icms: { origem: 0, cst: '00', ...ownFull, vBCFCP: 100, pFCP: 2, vFCP: 2 } }) },
  'cst-10-st-fcpst': { crt: [2, 3], nfce: false, item: anItem({ icms: { origem: 0, cst: '10', ...ownFull, ...st, vBCFCPST: 140, pFCPST: 2, vFCPST: 2.8 } }) },
  'cst-20-reduction-deson': { crt: [2, 3], nfce: true, item: anItem({ icms: { origem: 0, cst: '20', modBC: 3, pRedBC: 10, vBC: 90, pICMS: 18, vICMS: 16.2, vICMSDeson: 1.8, motDesICMS: 9 } }) },
  'cst-30': { crt: [2, 3], nfce: false, item: anItem({ icms: { origem: 0, cst: '30', ...st } }) },
  'cst-40': { crt: [2, 3], nfce: true, item: anItem({ icms: { origem: 0, cst: '40' } }) },
  'cst-41-deson': { crt: [2, 3], nfce: true, item: anItem({ icms: { origem: 1, cst: '41', vICMSDeson: 18, motDesICMS: 7 } }) },
  'cst-50': { crt: [2, 3], nfce: false, item: anItem({ icms: { origem: 0, cst: '50' } }) },
  'cst-51': { crt: [2, 3], nfce: false, item: anItem({ icms: { origem: 0, cst: '51', modBC: 3, pRedBC: 0, vBC: 100, pICMS: 12, vICMS: 12 } }) },
  'cst-60': { crt: [2, 3], nfce: true, item: anItem({ icms: { origem: 0, cst: '60' } }) },
  'cst-70': { crt: [2, 3], nfce: false, item: anItem({ icms: { origem: 0, cst: '70', modBC: 3, pRedBC: 10, vBC: 90, pICMS: 18, vICMS: 16.2, ...st } }) },
  'cst-90-own-st': { crt: [2, 3], nfce: false, item: anItem({ icms: { origem: 0, cst: '90', ...ownFull, ...st } }) },
  'cst-90-empty': { crt: [2, 3], nfce: true, item: anItem({ icms: { origem: 0, cst: '90' } }) },
  'cst-02-monofasico': { crt: [1, 2, 3, 4], nfce: false, item: anItem(fuel({ origem: 0, cst: '02', qBCMono: 100, adRemICMS: 1.12, vICMSMono: 112 })) },
  'cst-61-monofasico-retido': { crt: [1, 2, 3, 4], nfce: true, item: anItem(fuel({ origem: 0, cst: '61', qBCMonoRet: 100, adRemICMSRet: 1.12, vICMSMonoRet: 112 })) },
  'csosn-102': { crt: [1, 4], nfce: true, item: aSimplesItem() },
  'csosn-103': { crt: [1], nfce: true, item: aSimplesItem({ icms: { origem: 0, csosn: '103' } }) },
  'csosn-300': { crt: [1, 4], nfce: true, item: aSimplesItem({ icms: { origem: 0, csosn: '300' } }) },
  'csosn-400': { crt: [1, 4], nfce: true, item: aSimplesItem({ icms: { origem: 0, csosn: '400' } }) },
  'csosn-201': { crt: [1], nfce: false, item: aSimplesItem({ icms: { origem: 0, csosn: '201', ...st, pCredSN: 2.56, vCredICMSSN: 2.56 } }) },
  'csosn-202-fcpst': { crt: [1], nfce: false, item: aSimplesItem({ icms: { origem: 0, csosn: '202', ...st, vBCFCPST: 140, pFCPST: 2, vFCPST: 2.8 } }) },
  'csosn-203': { crt: [1], nfce: false, item: aSimplesItem({ icms: { origem: 0, csosn: '203', ...st } }) },
  'ipi-rate': { crt: [2, 3], nfce: false, item: anItem({ ipi: { cst: '50', cEnq: '999', baseCalculo: 100, aliquota: 6.5, valor: 6.5 } }) },
  'ipi-quantity': { crt: [2, 3], nfce: false, item: anItem({ ipi: { cst: '99', cEnq: '001', quantidadeUnidadeTributavel: 2, valorUnidadeTributavel: 1.5, valor: 3 } }) },
  'ipi-untaxed': { crt: [2, 3], nfce: false, item: anItem({ ipi: { cst: '53', cEnq: '999' } }) },
  'pis-cofins-quantity': { crt: [2, 3], nfce: true, item: anItem({ pis: { cst: '03', quantidadeVendida: 2, valorAliquotaUnidade: 0.1, valor: 0.2 }, cofins: { cst: '03', quantidadeVendida: 2, valorAliquotaUnidade: 0.5, valor: 1 } }) },
  'ibs-cbs': { crt: [2, 3], nfce: true, item: anItem({ ibsCbs: IBS_CBS }) },
  'ibs-cbs-reduction': { crt: [2, 3], nfce: true, item: anItem({ ibsCbs: { cst: '200', cClassTrib: '200003', ibsUf: { p: 0.04, pNominal: 0.1, pRedAliq: 60 }, ibsMun: { p: 0 }, cbs: { p: 0.36, pNominal: 0.9, pRedAliq: 60 } } }) },
  'tax-unit-box-of-12': { crt: [2, 3], nfce: true, item: anItem({ unidade: 'CX', quantidade: 1, valorUnitario: 100, unidadeTributavel: 'UN', quantidadeTributavel: 12, valorUnitarioTributavel: 8.3333333333 }) },
  'kit-component-indtot-0': { crt: [2, 3], nfce: true, item: anItem({ indTot: 0 }) },
  'discount-freight-cest': { crt: [2, 3], nfce: true, item: anItem({ cest: '28.038.00', desconto: 5, valorFrete: 10, valorSeguro: 1, outrasDespesas: 2, icms: { origem: 0, cst: '00', vBC: 108, pICMS: 18, vICMS: 19.44 } }) },
};

/**
 * Payments that close on the note total for these items, computed independently of lib/nfe/totals.ts
 * from the same spec formula: products (indTot 1) − discount + freight + insurance + other + IPI +
 * ST + FCP ST (− exempted ICMS with indDeduzDeson 1).
 */
export function closingPayments(items: readonly Item[]): Pagamento[] {
  const c = (v: number | undefined) => (v === undefined ? 0n : BigInt(Math.round(v * 100)));
  let total = 0n;
  for (const i of items) {
    const product = i.valorTotal !== undefined ? c(i.valorTotal) : lineCents(i.quantidade, i.valorUnitario);
    total += (i.indTot === 1 ? product : 0n) - c(i.desconto) + c(i.valorFrete) + c(i.valorSeguro) + c(i.outrasDespesas)
      + (i.ipi && ['00', '49', '50', '99'].includes(i.ipi.cst) ? c(i.ipi.valor) : 0n) + c(i.icms.vICMSST) + c(i.icms.vFCPST)
      - (i.icms.indDeduzDeson === 1 ? c(i.icms.vICMSDeson) : 0n);
  }
  return [{ forma: '01', valor: Number(formatCents(total)) }];
}

/** An issuer of the first regime the variant supports. */
export const issuerFor = (variant: ItemVariant): IssuerSnapshot => anIssuer({ crt: variant.crt[0]! });
