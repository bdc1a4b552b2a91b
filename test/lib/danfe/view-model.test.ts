import test from 'ava';
import { buildDanfeView } from '../../../lib/danfe/view-model.js';
import { aNfce, anItem } from '../../support/checked-note-factories.js';
import { scenarios } from '../../support/note-scenarios.js';
import { authorizedProc, PROTOCOL, RECEIVED_AT, signedNote } from '../../support/danfe-notes.js';
import { readSample } from '../../support/samples.js';

const fixture = (path: string) => readSample(path);
const RS = fixture('nfe/procNFe_RS_hom_43180906929383000163550010000000261000010301.xml');
const SP = fixture('nfe/procNFe_SP_prod_35180834128745000152550010000476051695511860.xml');
const BIG = fixture('nfe/procNFe_41itens_anonimizada.xml');
const NFCE = fixture('nfce/NFe_nfce_BA_hom_offline_29181033657677000156650010001654399001654399.xml');

test('buildDanfeView reads the RS homologation nfeProc: identity, protocol, parties, billing, totals, homologation mark', (t) => {
  const v = buildDanfeView(RS);
  t.like(v, {
    model: '55', accessKey: '43180906929383000163550010000000261000010301', numero: 26, serie: 1, tpNF: '1', tpAmb: 2, tpEmis: 1,
    dhEmi: '2018-09-25T00:00:00-03:00', dhSaiEnt: '2018-09-25T15:14:00-03:00', naturezaOperacao: 'Venda de producao do estabelecimento',
    emitente: { nome: 'UMA RAZAO SOCIAL DE TESTE QUALQUER', documento: '06929383000163', ie: '0018000762', crt: '1', endereco: { municipio: 'SAPIRANGA', uf: 'RS', cep: '93800000' } },
    destinatario: { documento: '58716523000119', ie: '112006603110', endereco: { logradouro: 'Av. Teste', uf: 'SP' } },
    protocolo: { numero: '143180006932433', dhRecbto: '2018-09-25T16:21:05-03:00' },
    fatura: { numero: '173', valorOriginal: '1.00', valorDesconto: '0.00', valorLiquido: '1.00' },
    totais: { vProd: '500.00', vNF: '500.00', vICMS: '0.00' },
    transporte: { modFrete: '9', transportador: null, veiculo: null, volumes: [] },
    contingencia: null, qrCode: '', urlChave: '',
  });
  t.deepEqual(v.duplicatas, [{ numero: '001', vencimento: '2018-12-31', valor: '1.00' }]);
  t.deepEqual(v.pagamentos, [{ forma: '01', descricao: '', valor: '500.00' }]);
  t.deepEqual(v.marcas, ['SEM_VALOR_FISCAL']);
  t.like(v.items, [{ nItem: 1, codigo: '11007', descricao: 'UM PRODUTO TESTE QUALQUER', ncm: '64011000', cfop: '6101', unidade: 'UN', quantidade: '10.0000', valorTotal: '500.00' }]);
});

test('buildDanfeView of a production note carries no mark, and CANCELADA only when the status says so', (t) => {
  t.deepEqual(buildDanfeView(SP).marcas, []);
  t.deepEqual(buildDanfeView(SP, { cancelada: true }).marcas, ['CANCELADA']);
  const v = buildDanfeView(SP);
  t.like(v.transporte, { transportador: { nome: 'Alimentos Ltda.', documento: '34128745000152', ie: '803879214167' }, volumes: [{ pesoLiquido: '32.000', pesoBruto: '32.000' }] });
  t.like(v.items[0], { codigo: '1095', cst: '070', cfop: '5910', bcIcms: '102.73', valorIcms: '18.49', aliquotaIcms: '18.00' });
});

test('buildDanfeView reads all 41 items with ICMS and IPI columns, in order', (t) => {
  const v = buildDanfeView(BIG);
  t.is(v.items.length, 41);
  t.deepEqual(v.items.map((i) => i.nItem), Array.from({ length: 41 }, (_, i) => i + 1));
  t.like(v.items[0], {
    codigo: '/136520', descricao: 'FRIGIDEIRA RETA ALTA 20 SEM TPA - CEREJA', ncm: '76151000', cst: '000', cfop: '6101', unidade: 'PC',
    quantidade: '200.0000', valorUnitario: '18.9000000000', valorTotal: '3780.00', bcIcms: '3780.00', valorIcms: '453.60', aliquotaIcms: '12.0000',
    valorIpi: '245.70', aliquotaIpi: '6.5000', infAdProd: '7896554412009',
  });
});

test('buildDanfeView of the offline NFC-e: no protocol, contingency pending, the QR code text and urlChave exactly as stored', (t) => {
  const v = buildDanfeView(NFCE);
  const qr = /<qrCode>([^<]+)<\/qrCode>/.exec(NFCE)![1];
  t.like(v, { model: '65', tpEmis: 9, protocolo: null, contingencia: { dhCont: '2018-10-01T14:54:34-04:00', xJust: 'PROBLEMAS TECNICOS' }, urlChave: 'http://hinternet.sefaz.ba.gov.br/nfce/consulta' });
  t.is(v.qrCode, qr);
  t.deepEqual(v.marcas, ['SEM_VALOR_FISCAL', 'CONTINGENCIA_PENDENTE']);
  t.deepEqual(v.pagamentos, [{ forma: '04', descricao: '', valor: '150.00' }]);
  t.is(v.items.length, 2);
});

test('buildDanfeView of our own note with transport, billing, card and change', (t) => {
  const s = scenarios().find((x) => x.name === 'transport-billing-card-change')!;
  const signed = signedNote(s.note, { issuer: s.issuer });
  const v = buildDanfeView(authorizedProc(signed));
  t.is(v.accessKey, signed.accessKey);
  t.deepEqual(v.protocolo, { numero: PROTOCOL, dhRecbto: RECEIVED_AT });
  t.like(v, {
    emitente: { nome: 'COMERCIO DE TESTES LTDA', documento: '12345678000195', endereco: { complemento: 'Sala 2', fone: '1133334444' } },
    destinatario: { nome: 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL' },
    fatura: { numero: 'FAT-1234', valorOriginal: '112.50', valorLiquido: '112.50' },
    transporte: {
      modFrete: '0', transportador: { nome: 'TRANSPORTES RAPIDOS LTDA', documento: '11222333000181', uf: 'SP' }, veiculo: { placa: 'ABC1D23', uf: 'SP', rntc: '12345678' },
      volumes: [{ quantidade: '3', especie: 'CAIXA', marca: 'ACME', numeracao: '1-3', pesoLiquido: '12.500', pesoBruto: '13.750' }],
    },
    totais: { vFrete: '15.00', vSeg: '5.00', vDesc: '10.00', vOutro: '2.50', vNF: '112.50' },
    troco: '7.50',
  });
  t.deepEqual(v.duplicatas.map((d) => d.numero), ['001', '002']);
  t.deepEqual(v.pagamentos.map((p) => [p.forma, p.valor]), [['03', '100.00'], ['01', '20.00']]);
});

test('buildDanfeView of our own contingency NFC-e keeps the QR code the builder wrote', (t) => {
  const signed = signedNote(aNfce([anItem({ cfop: '5102' })]), { tpEmis: 9 });
  const v = buildDanfeView(signed.xml);
  t.is(v.qrCode, signed.qrCode!.qrCode);
  t.is(v.urlChave, signed.qrCode!.urlChave);
  t.deepEqual(v.marcas, ['SEM_VALOR_FISCAL', 'CONTINGENCIA_PENDENTE']);
  t.is(v.protocolo, null);
});

test('buildDanfeView fails loudly on XML that is not an NF-e', (t) => {
  t.throws(() => buildDanfeView('<procEventoNFe xmlns="http://www.portalfiscal.inf.br/nfe"/>'), { message: /no infNFe/ });
  t.throws(() => buildDanfeView('<NFe><broken'), { message: /malformed/ });
});

test('buildDanfeView reads the partilha totals (vFCPUFDest, vICMSUFDest, vICMSUFRemet), empty when the note has none', (t) => {
  const s = scenarios().find((x) => x.name === 'difal-partilha-rj-fcp')!;
  const v = buildDanfeView(authorizedProc(signedNote(s.note, { issuer: s.issuer })));
  t.like(v.totais, { vFCPUFDest: '4.00', vICMSUFDest: '24.00', vICMSUFRemet: '0.00' });
  t.like(buildDanfeView(SP).totais, { vFCPUFDest: '', vICMSUFDest: '', vICMSUFRemet: '' });
  t.like(buildDanfeView(RS).totais, { vICMSUFDest: '0.00' });
});
