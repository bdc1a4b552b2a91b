import test from 'ava';
import { buildTotal } from '../../../../lib/nfe/xml/total.js';
import { buildTransp } from '../../../../lib/nfe/xml/transp.js';
import { buildCobr } from '../../../../lib/nfe/xml/cobr.js';
import { buildPag } from '../../../../lib/nfe/xml/pag.js';
import { buildInfAdic, DEFAULT_INF_CPL } from '../../../../lib/nfe/xml/inf-adic.js';
import { buildInfRespTec } from '../../../../lib/nfe/xml/inf-resp-tec.js';
import { aNfe, anItem, ibsCbsFor, RESP_TEC, totalsOf } from '../../../support/checked-note-factories.js';

test('buildTotal writes ICMSTot and vTotTrib only when the issuer enables it', (t) => {
  const totals = totalsOf(aNfe(), 512n);
  t.false(buildTotal(totals, false).includes('vTotTrib'));
  t.true(buildTotal(totals, true).includes('<vNF>21.00</vNF><vTotTrib>5.12</vTotTrib></ICMSTot>'));
});

test('buildTotal writes monofasic totals (qBCMono with 2 decimals) only when present and IBSCBSTot with IBS/CBS', (t) => {
  const totals = totalsOf(aNfe([anItem({ ibsCbsResolved: ibsCbsFor(2100n) })]));
  totals.qBCMono = 1_000_055n; totals.vICMSMono = 14_700n;
  const xml = buildTotal(totals, false);
  t.true(xml.includes('<vFCPSTRet>0.00</vFCPSTRet><qBCMono>100.01</qBCMono><vICMSMono>147.00</vICMSMono><vProd>'));
  t.true(xml.includes('<IBSCBSTot><vBCIBSCBS>21.00</vBCIBSCBS><gIBS><gIBSUF><vDif>0.00</vDif><vDevTrib>0.00</vDevTrib><vIBSUF>0.02</vIBSUF></gIBSUF>'));
});

test('buildTransp defaults modFrete to 9 and writes carrier, vehicle and volumes', (t) => {
  t.is<string | undefined, string | undefined>(buildTransp(undefined), '<transp><modFrete>9</modFrete></transp>');
  t.is<string | undefined, string | undefined>(buildTransp({ modFrete: 1, transportador: { cnpjCpf: '52998224725', nome: 'JOSE' }, veiculo: { placa: 'ABC1234', uf: 'SP' }, volumes: [{ quantidade: 2, pesoBruto: 1.5 }] }),
    '<transp><modFrete>1</modFrete><transporta><CPF>52998224725</CPF><xNome>JOSE</xNome></transporta><veicTransp><placa>ABC1234</placa><UF>SP</UF></veicTransp><vol><qVol>2</qVol><pesoB>1.500</pesoB></vol></transp>');
});

test('buildCobr writes fat and dup, and nothing without billing', (t) => {
  t.is<string | undefined, string | undefined>(buildCobr(undefined), undefined);
  t.is<string | undefined, string | undefined>(buildCobr({ fatura: { numero: '1', valorOriginal: 10, valorLiquido: 10 }, duplicatas: [{ numero: '001', vencimento: '2026-12-01', valor: 10 }] }),
    '<cobr><fat><nFat>1</nFat><vOrig>10.00</vOrig><vDesc>0.00</vDesc><vLiq>10.00</vLiq></fat><dup><nDup>001</nDup><dVenc>2026-12-01</dVenc><vDup>10.00</vDup></dup></cobr>');
});

test('buildPag writes card data and vTroco only when there is change', (t) => {
  t.is<string | undefined, string | undefined>(buildPag([{ forma: '01', valor: 10 }], 0), '<pag><detPag><tPag>01</tPag><vPag>10.00</vPag></detPag></pag>');
  t.is<string | undefined, string | undefined>(buildPag([{ forma: '03', valor: 50, indPag: 0, cartao: { tpIntegra: 1, cnpjInstituicao: '01027058000191', bandeira: '02', autorizacao: 'XYZ' } }], 2.5),
    '<pag><detPag><indPag>0</indPag><tPag>03</tPag><vPag>50.00</vPag><card><tpIntegra>1</tpIntegra><CNPJ>01027058000191</CNPJ><tBand>02</tBand><cAut>XYZ</cAut></card></detPag><vTroco>2.50</vTroco></pag>');
});

test('buildInfAdic writes the platform default text when none was sent, fisco text and procRef', (t) => {
  t.is<string | undefined, string | undefined>(buildInfAdic(aNfe()), `<infAdic><infCpl>${DEFAULT_INF_CPL}</infCpl></infAdic>`);
  t.is<string | undefined, string | undefined>(buildInfAdic(aNfe(undefined, { informacoesComplementares: 'Obs', informacoesFisco: 'Fisco', processosReferenciados: [{ numero: 'P1', origem: 1 }] })),
    '<infAdic><infAdFisco>Fisco</infAdFisco><infCpl>Obs</infCpl><procRef><nProc>P1</nProc><indProc>1</indProc></procRef></infAdic>');
});

test('buildInfRespTec writes the platform technician', (t) => {
  t.is<string | undefined, string | undefined>(buildInfRespTec(RESP_TEC), '<infRespTec><CNPJ>11222333000181</CNPJ><xContato>Suporte Plataforma Fiscal</xContato><email>suporte@plataforma.example</email><fone>11999990000</fone></infRespTec>');
});
