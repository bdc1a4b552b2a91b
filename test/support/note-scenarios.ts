import type { CheckedItem, CheckedNote, Icms, ResolvedIcmsUfDest } from '../../lib/nfe/types.js';
import type { IssuerSnapshot } from '../../lib/issuer/types.js';
import type { TpEmis } from '../../lib/nfe/xml/context.js';
import { aNfce, aNfe, anIssuer, anItem, ibsCbsFor, round2 } from './checked-note-factories.js';
import { aRate, ratesByNcm } from './approximate-tax.js';
import { applyApproximateTax } from '../../lib/nfe/approximate-tax.js';

/**
 * Dozens of varied, fiscally sensible checked notes: each ICMS CST and CSOSN family, ST, FCP,
 * monofasic fuel, IPI, PIS/COFINS groups, IBS/CBS with and without reduction, ICMS partilha, transport,
 * billing, cards with change, references, escaping, NFC-e online and offline contingency.
 */
export interface Scenario {
  name: string;
  note: CheckedNote;
  issuer?: IssuerSnapshot;
  tpEmis?: TpEmis;
  tpAmb?: 1 | 2;
}

const simples = anIssuer({ crt: 1, razaoSocial: 'MERCADINHO SIMPLES ME' });
const snPisCofins = { pis: { cst: '49', baseCalculo: 0, aliquota: 0, valor: 0 }, cofins: { cst: '49', baseCalculo: 0, aliquota: 0, valor: 0 } };

/** 2 × 50.00 = 100.00: round numbers make ST and FCP values easy to check by eye. */
function item(icms: Omit<Icms, 'origem'> & { origem?: number }, over: Partial<CheckedItem> = {}): CheckedItem {
  return anItem({ quantidade: 2, valorUnitario: 50, icms: { origem: 0, ...icms }, ...over });
}

const ST = { modBCST: 4, pMVAST: 40, vBCST: 140, pICMSST: 18, vICMSST: 7.2 };
const FCPST = { vBCFCPST: 140, pFCPST: 2, vFCPST: 2.8 };
const OWN = { modBC: 3, vBC: 100, pICMS: 18, vICMS: 18 };
const I00 = { cst: '00', ...OWN };

const fuel = (icms: Icms): CheckedItem => anItem({
  codigo: 'GAS01', descricao: 'GASOLINA C COMUM', ncm: '27101259', cfop: '5656', unidade: 'L', quantidade: 100, valorUnitario: 6.19,
  unidadeTributavel: 'L', quantidadeTributavel: 100, valorUnitarioTributavel: 6.19, icms,
  combustivel: { cProdANP: '320102001', descANP: 'GASOLINA C COMUM', ufConsumo: 'SP' },
});

const CONSUMER_RJ = { cnpjCpf: '52998224725', nome: 'MARIA DA SILVA', indicadorIE: 9 as const, endereco: { logradouro: 'Rua A', numero: 'S/N', bairro: 'Centro', codigoMunicipio: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ', cep: '20010000' } };
const DIFAL_RJ: ResolvedIcmsUfDest = {
  vBCUFDest: 10000n, fcp: { vBCFCPUFDest: 10000n, pFCPUFDest: '2.00', vFCPUFDest: 200n },
  pICMSUFDest: '20.00', pICMSInter: '12.00', pICMSInterPart: '100.00', vICMSUFDest: 800n, vICMSUFRemet: 0n,
};

export function scenarios(): Scenario[] {
  const list: Scenario[] = [
    { name: 'icms00', note: aNfe([item(I00)]) },
    { name: 'icms00-fcp', note: aNfe([item({ cst: '00', ...OWN, pFCP: 2, vFCP: 2 })]) },
    { name: 'icms00-classic-names', note: aNfe([item({ cst: '00', baseCalculo: 100, aliquota: 12, valor: 12 })]) },
    { name: 'icms10-st-fcpst', note: aNfe([item({ cst: '10', ...OWN, vBCFCP: 100, pFCP: 2, vFCP: 2, ...ST, ...FCPST })]) },
    { name: 'icms20-reduction-deson', note: aNfe([item({ cst: '20', modBC: 3, pRedBC: 33.33, vBC: 66.67, pICMS: 18, vICMS: 12, vICMSDeson: 6, motDesICMS: 9 })]) },
    { name: 'icms30-st', note: aNfe([item({ cst: '30', ...ST })]) },
    { name: 'icms40-deson', note: aNfe([item({ cst: '40', vICMSDeson: 18, motDesICMS: 7 })]) },
    { name: 'icms41', note: aNfe([item({ cst: '41' })]) },
    { name: 'icms50', note: aNfe([item({ cst: '50' })]) },
    { name: 'icms51', note: aNfe([item({ cst: '51', modBC: 3, vBC: 100, pICMS: 18, vICMS: 0 })]) },
    { name: 'icms60', note: aNfe([item({ cst: '60' })]) },
    { name: 'icms70', note: aNfe([item({ cst: '70', modBC: 3, pRedBC: 10, vBC: 90, pICMS: 18, vICMS: 16.2, ...ST, ...FCPST })]) },
    { name: 'icms90', note: aNfe([item({ cst: '90', modBC: 3, vBC: 100, pRedBC: 5, pICMS: 7, vICMS: 7, ...ST })]) },
    { name: 'icms02-monofasic-fuel', note: aNfe([fuel({ origem: 0, cst: '02', qBCMono: 100, adRemICMS: 1.47, vICMSMono: 147 })], { indFinal: 1 }) },
    { name: 'icms61-monofasic-retained', note: aNfe([fuel({ origem: 0, cst: '61', qBCMonoRet: 100, adRemICMSRet: 1.47, vICMSMonoRet: 147 })]) },
    { name: 'csosn101', issuer: simples, note: aNfe([item({ csosn: '101', aliquota: 1.25, valor: 1.25 }, snPisCofins)]) },
    ...['102', '103', '300', '400'].map((csosn) => ({ name: `csosn${csosn}`, issuer: simples, note: aNfe([item({ csosn }, snPisCofins)]) })),
    { name: 'csosn201', issuer: simples, note: aNfe([item({ csosn: '201', ...ST, ...FCPST, pCredSN: 1.25, vCredICMSSN: 1.25 }, snPisCofins)]) },
    { name: 'csosn202', issuer: simples, note: aNfe([item({ csosn: '202', ...ST }, snPisCofins)]) },
    { name: 'csosn203', issuer: simples, note: aNfe([item({ csosn: '203', ...ST }, snPisCofins)]) },
    { name: 'csosn500', issuer: simples, note: aNfe([item({ csosn: '500' }, snPisCofins)]) },
    { name: 'csosn900', issuer: simples, note: aNfe([item({ csosn: '900', modBC: 3, vBC: 100, pICMS: 4, vICMS: 4, pCredSN: 1.25, vCredICMSSN: 1.25 }, snPisCofins)]) },
    { name: 'ipi-rate', note: aNfe([item(I00, { cfop: '5101', ipi: { cst: '50', cEnq: '999', baseCalculo: 100, aliquota: 10, valor: 10 } })]) },
    { name: 'ipi-unit', note: aNfe([item(I00, { cfop: '5101', ipi: { cst: '50', cEnq: '999', quantidadeUnidadeTributavel: 2, valorUnidadeTributavel: 1.5, valor: 3 } })]) },
    { name: 'ipi-not-taxed', note: aNfe([item(I00, { cfop: '5101', ipi: { cst: '53', cEnq: '999' } })]) },
    {
      name: 'pis-cofins-quantity-nt-other',
      note: aNfe([
        item(I00, { pis: { cst: '03', quantidadeVendida: 2, valorAliquotaUnidade: 0.1, valor: 0.2 }, cofins: { cst: '03', quantidadeVendida: 2, valorAliquotaUnidade: 0.5, valor: 1 } }),
        item(I00, { pis: { cst: '07' }, cofins: { cst: '07' } }),
        item(I00, { pis: { cst: '99', baseCalculo: 100, aliquota: 0.65, valor: 0.65 }, cofins: { cst: '99', baseCalculo: 100, aliquota: 3, valor: 3 } }),
      ]),
    },
    { name: 'ibscbs-full-rate', note: aNfe([item(I00, { ibsCbsResolved: ibsCbsFor(10000n) })]) },
    { name: 'ibscbs-reduction', note: aNfe([item(I00, { ibsCbsResolved: ibsCbsFor(10000n, true) })]) },
    { name: 'ibscbs-immune-410', note: aNfe([item(I00, { ibsCbsResolved: { ...ibsCbsFor(0n), cst: '410', cClassTrib: '410001' } })]) },
    {
      name: 'transport-billing-card-change',
      note: aNfe([item({ cst: '00', modBC: 3, vBC: 112.5, pICMS: 18, vICMS: 20.25 }, { valorFrete: 15, valorSeguro: 5, desconto: 10, outrasDespesas: 2.5 })], {
        transporte: {
          modFrete: 0,
          transportador: { cnpjCpf: '11222333000181', nome: 'TRANSPORTES RAPIDOS LTDA', ie: '111222333444', endereco: 'Rod. Anhanguera km 10', municipio: 'Sao Paulo', uf: 'SP' },
          veiculo: { placa: 'ABC1D23', uf: 'SP', rntc: '12345678' },
          volumes: [{ quantidade: 3, especie: 'CAIXA', marca: 'ACME', numeracao: '1-3', pesoLiquido: 12.5, pesoBruto: 13.75 }],
        },
        cobranca: { fatura: { numero: 'FAT-1234', valorOriginal: 112.5, valorDesconto: 0, valorLiquido: 112.5 }, duplicatas: [{ numero: '001', vencimento: '2026-12-22', valor: 56.25 }, { numero: '002', vencimento: '2027-01-21', valor: 56.25 }] },
        pagamentos: [{ forma: '03', valor: 100, indPag: 1, cartao: { tpIntegra: 2, cnpjInstituicao: '01027058000191', bandeira: '01', autorizacao: 'A1B2C3' } }, { forma: '01', valor: 20 }],
        troco: 7.5,
      }),
    },
    {
      name: 'escaping-and-accents',
      note: aNfe([item(I00, { descricao: 'Parafuso 3/8" & porca <M8> \'aço\' açúcar ÇÃO', informacoesAdicionais: 'Lote A&B <1>' })], {
        naturezaOperacao: 'Venda de produção & revenda',
        informacoesComplementares: 'Linha 1; Linha 2 com & < > " \' fim; acentuação: é ã ç ü ñ ß ÿ',
        informacoesFisco: 'Tributação conforme RICMS/SP art. 52 & anexo <I>',
        processosReferenciados: [{ numero: 'PROC-2026/0001', origem: 0, tipoAto: '08' }],
      }),
    },
    { name: 'recipient-cpf-final-consumer', note: aNfe([item(I00)], { indFinal: 1, destinatario: { cnpjCpf: '52998224725', nome: 'MARIA DA SILVA', indicadorIE: 9, endereco: { logradouro: 'Rua A', numero: 'S/N', bairro: 'Centro', codigoMunicipio: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ', cep: '20010000' } }, idDest: 2 }) },
    {
      // Partilha SP → RJ (EC 87/2015): 100.00 × (20 − 12) % = 8.00 and FCP 2 % = 2.00; the imported item at 4 %.
      name: 'difal-partilha-rj-fcp',
      note: aNfe([
        item({ ...I00, pICMS: 12, vICMS: 12 }, { cfop: '6102', icmsUfDestResolved: DIFAL_RJ }),
        item({ ...I00, origem: 1, pICMS: 4, vICMS: 4 }, { cfop: '6102', icmsUfDestResolved: { ...DIFAL_RJ, pICMSInter: '4.00', vICMSUFDest: 1600n } }),
      ], { indFinal: 1, idDest: 2, destinatario: CONSUMER_RJ }),
    },
    {
      // SP → BA: 7 % interstate, BA 20.5 %, no general FCP: no FCP fields.
      name: 'difal-partilha-ba-no-fcp',
      note: aNfe([item({ ...I00, pICMS: 7, vICMS: 7 }, {
        cfop: '6102', icmsUfDestResolved: { vBCUFDest: 10000n, pICMSUFDest: '20.50', pICMSInter: '7.00', pICMSInterPart: '100.00', vICMSUFDest: 1350n, vICMSUFRemet: 0n },
      })], { indFinal: 1, idDest: 2, destinatario: { ...CONSUMER_RJ, endereco: { ...CONSUMER_RJ.endereco, codigoMunicipio: '2927408', municipio: 'Salvador', uf: 'BA', cep: '40010000' } } }),
    },
    { name: 'return-with-reference', note: aNfe([item(I00, { cfop: '5202' })], { finNFe: 4, tpNF: 0, referenciadas: ['35180834128745000152550010000476051695511860'], pagamentos: [{ forma: '90', valor: 0 }] }) },
    { name: 'production-environment', tpAmb: 1, note: aNfe([item(I00)]) },
    {
      // National 100.00 × (13 + 18) % and imported (origem 1) 100.00 × (17 + 18) %: vTotTrib 31.00 + 35.00.
      name: 'approximate-tax-enabled', issuer: anIssuer({ valorAproximadoTributosEnabled: true }),
      note: applyApproximateTax(aNfe([item(I00), item({ ...I00, origem: 1 })]), ratesByNcm(aRate()), 'SP', '2026-11-22'),
    },
    {
      name: 'nfce-approximate-tax-with-text', issuer: anIssuer({ valorAproximadoTributosEnabled: true }),
      note: applyApproximateTax(aNfce([item({ cst: '60' }, { cfop: '5405', desconto: 10 })], { informacoesComplementares: 'Obrigado & volte sempre' }), ratesByNcm(aRate({ municipal: 25000n })), 'SP', '2026-11-22'),
    },
    { name: 'fifty-items', note: aNfe(Array.from({ length: 50 }, (_, i) => anItem({ codigo: `P${i}`, quantidade: 1 + (i % 7), valorUnitario: 1.2345678901 + i }))) },
    { name: 'nfce-online', note: aNfce([item({ cst: '60' }, { cfop: '5405' }), item(I00)]) },
    { name: 'nfce-consumer-cpf', note: aNfce([item(I00)], { destinatario: { cnpjCpf: '52998224725', nome: 'JOAO CONSUMIDOR', indicadorIE: 9 } }) },
    { name: 'nfce-simples-csosn102', issuer: simples, note: aNfce([item({ csosn: '102' }, snPisCofins)]) },
    {
      name: 'nfce-offline-contingency', tpEmis: 9,
      note: aNfce([item(I00)], { contingencia: { requested: true, justificativa: 'Sem comunicacao com a SEFAZ autorizadora no momento' }, pagamentos: [{ forma: '17', valor: 100, cartao: { tpIntegra: 2 } }] }),
    },
    { name: 'nfce-production-online', tpAmb: 1, note: aNfce([item(I00)]) },
  ];
  return list;
}

export { round2 };
