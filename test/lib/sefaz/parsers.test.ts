import test from 'ava';
import * as P from '../../../lib/sefaz/parsers.js';
import { readSample } from '../../support/samples.js';

const fixture = (p: string) => readSample(p);
const NS = 'xmlns="http://www.portalfiscal.inf.br/nfe"';

test('parseRetEnviNFe reads the authorized protNFe of the real SVRS answer', (t) => {
  const r = P.parseRetEnviNFe(fixture('sefaz/retEnviNFe.xml'), '43211105730928000145650010000002401717268120');
  t.like(r, { kind: 'authorized', cStat: 100, xMotivo: 'Autorizado o uso da NF-e', protocol: '143220000009921', receivedAt: '2022-01-06T17:07:34-03:00', digest: 'aWpBMlDjIlWUn2ALNSdwzLi2ntE=' });
  t.regex((r as any).protNFeXml, /^<protNFe versao="4\.00" xmlns="http:\/\/www\.portalfiscal\.inf\.br\/nfe"><infProt>/);
});

test('parseRetEnviNFe refuses a protNFe for another key', (t) => {
  t.throws(() => P.parseRetEnviNFe(fixture('sefaz/retEnviNFe.xml'), '3'.repeat(44)), { message: /expected/ });
});

test('parseRetEnviNFe maps denial, batch receipt and batch rejection', (t) => {
  const prot = (c: number, m: string) => `<protNFe versao="4.00"><infProt><tpAmb>2</tpAmb><verAplic>x</verAplic><chNFe>${'1'.repeat(44)}</chNFe><dhRecbto>2026-01-01T10:00:00-03:00</dhRecbto><nProt>135260000000001</nProt><cStat>${c}</cStat><xMotivo>${m}</xMotivo></infProt></protNFe>`;
  t.like(P.parseRetEnviNFe(`<retEnviNFe ${NS} versao="4.00"><cStat>104</cStat><xMotivo>Lote processado</xMotivo>${prot(302, 'Uso Denegado')}</retEnviNFe>`), { kind: 'denied', cStat: 302, protocol: '135260000000001' });
  t.deepEqual(P.parseRetEnviNFe(`<retEnviNFe ${NS} versao="4.00"><cStat>103</cStat><xMotivo>Lote recebido com sucesso</xMotivo><infRec><nRec>351000000000001</nRec><tMed>1</tMed></infRec></retEnviNFe>`),
    { kind: 'processing', receipt: '351000000000001', cStat: 103, xMotivo: 'Lote recebido com sucesso' });
  t.deepEqual(P.parseRetEnviNFe(`<retEnviNFe ${NS} versao="4.00"><cStat>656</cStat><xMotivo>Rejeição: Consumo Indevido</xMotivo></retEnviNFe>`),
    { kind: 'rejected', cStat: 656, xMotivo: 'Rejeição: Consumo Indevido' });
});

test('parseRetEnviNFe: 108/109 is the service stopped, a failure before processing, never a rejection', (t) => {
  t.deepEqual(P.parseRetEnviNFe(`<retEnviNFe ${NS} versao="4.00"><tpAmb>2</tpAmb><cStat>108</cStat><xMotivo>Serviço Paralisado Momentaneamente (curto prazo)</xMotivo></retEnviNFe>`),
    { kind: 'failed', reason: 'authority-down', detail: '108 - Serviço Paralisado Momentaneamente (curto prazo)' });
  t.deepEqual(P.parseRetEnviNFe(`<retEnviNFe ${NS} versao="4.00"><cStat>109</cStat><xMotivo>Serviço Paralisado sem Previsão</xMotivo></retEnviNFe>`),
    { kind: 'failed', reason: 'authority-down', detail: '109 - Serviço Paralisado sem Previsão' });
});

test('rootStatus reads the service status of any authority answer, and null for anything else', (t) => {
  t.deepEqual(P.rootStatus(fixture('sefaz/retEnviNFe.xml')), { cStat: 104, xMotivo: 'Lote processado' });
  t.deepEqual(P.rootStatus(`<retConsStatServ ${NS} versao="4.00"><tpAmb>2</tpAmb><verAplic>x</verAplic><cStat>109</cStat><xMotivo>Serviço Paralisado sem Previsão</xMotivo></retConsStatServ>`),
    { cStat: 109, xMotivo: 'Serviço Paralisado sem Previsão' });
  t.is(P.rootStatus('<html><body>Service Unavailable</body></html>'), null);
  t.is(P.rootStatus('not xml'), null);
});

test('parseRetInutNFe reads the real GO answer and assembles ProcInutNFe', (t) => {
  const r = P.parseRetInutNFe(fixture('sefaz/soap12_retInutNFe_response.xml'), '<inutNFe/>');
  t.like(r, { kind: 'homologated', cStat: 102, xMotivo: 'Inutilização de número homologado', protocol: '152250025831513', receivedAt: '2025-02-10T14:31:01-03:00' });
  t.regex((r as any).procInutXml, /^<ProcInutNFe [^>]+><inutNFe\/><retInutNFe/);
});

test('parseRetEnvEvento reads the retEvento of the real CC-e and builds procEventoNFe', (t) => {
  const proc = fixture('events/procEventoNFe_CCe_110110_DF_prod_53181011028793000173550010000066701204276800.xml');
  const retEvento = /<retEvento\b[\s\S]*<\/retEvento>/.exec(proc)![0];
  const evento = /<evento\b[\s\S]*<\/evento>/.exec(proc)![0];
  const body = `<retEnvEvento ${NS} versao="1.00"><idLote>1</idLote><tpAmb>1</tpAmb><verAplic>x</verAplic><cOrgao>53</cOrgao><cStat>128</cStat><xMotivo>Lote de Evento Processado</xMotivo>${retEvento}</retEnvEvento>`;
  const r = P.parseRetEnvEvento(body, evento);
  t.is(r.kind, 'registered');
  t.is((r as any).cStat, 135);
  t.regex((r as any).protocol, /^\d{15}$/);
});

test('parseRetConsSitNFe maps 217, 101 and unknown codes', (t) => {
  const sit = (c: number, m: string) => `<retConsSitNFe ${NS} versao="4.00"><tpAmb>2</tpAmb><verAplic>x</verAplic><cStat>${c}</cStat><xMotivo>${m}</xMotivo><cUF>35</cUF><dhRecbto>2026-01-01T10:00:00-03:00</dhRecbto><chNFe>${'1'.repeat(44)}</chNFe></retConsSitNFe>`;
  t.deepEqual(P.parseRetConsSitNFe(sit(217, 'Rejeição: NF-e não consta na base de dados da SEFAZ')), { kind: 'not-found', cStat: 217, xMotivo: 'Rejeição: NF-e não consta na base de dados da SEFAZ' });
  t.like(P.parseRetConsSitNFe(sit(101, 'Cancelamento de NF-e homologado')), { kind: 'canceled', cStat: 101 });
  t.like(P.parseRetConsSitNFe(sit(236, 'Rejeição: Chave de Acesso com dígito verificador inválido')), { kind: 'rejected', cStat: 236 });
  t.throws(() => P.parseRetConsSitNFe(sit(100, 'Autorizado')), { message: /without protNFe/ });
});

test('parseRetConsStatServ maps 107 up, 108/109 down, and an answer about the request (252, 289, 656) refused, never down; garbage throws', (t) => {
  const st = (c: number) => `<retConsStatServ ${NS} versao="4.00"><tpAmb>2</tpAmb><verAplic>x</verAplic><cStat>${c}</cStat><xMotivo>m</xMotivo><cUF>35</cUF><dhRecbto>2026-01-01T10:00:00-03:00</dhRecbto></retConsStatServ>`;
  t.is(P.parseRetConsStatServ(st(107), 'now').kind, 'up');
  t.is(P.parseRetConsStatServ(st(108), 'now').kind, 'down');
  t.is(P.parseRetConsStatServ(st(109), 'now').kind, 'down');
  for (const cStat of [252, 289, 656]) t.like(P.parseRetConsStatServ(st(cStat), 'now'), { kind: 'refused', cStat, xMotivo: 'm' });
  t.throws(() => P.parseRetConsStatServ('<html>502 Bad Gateway</html>', 'now'));
  t.throws(() => P.parseRetConsStatServ(`<retEnviNFe ${NS}/>`, 'now'), { message: /expected retConsStatServ/ });
});
