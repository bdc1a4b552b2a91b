import test from 'ava';
import { validateXml } from '../../../../lib/xml/xsd.js';
import { NFE_SCHEMAS } from '../../../../lib/xml/schemas.js';
import * as R from '../../../../lib/sefaz/simulator/responses.js';
import { parseRetConsSitNFe, parseRetEnviNFe, parseRetInutNFe } from '../../../../lib/sefaz/parsers.js';

const ok = { valid: true, errors: [] };
const head = { tpAmb: '2', cUF: '35', dhRecbto: '2026-01-10T09:00:00-03:00' };
const key = '35260112345678000195550010000001231234567890';
const prot = R.protNFe({ cStat: 100, xMotivo: 'Autorizado o uso da NF-e', tpAmb: '2', chNFe: key, dhRecbto: head.dhRecbto, nProt: '135260000000001', digVal: 'aWpBMlDjIlWUn2ALNSdwzLi2ntE=' });

test('simulator answers validate against the official return schemas', (t) => {
  t.deepEqual(validateXml(NFE_SCHEMAS.retEnviNFe, R.retEnviNFe(head, { cStat: 104, xMotivo: 'Lote processado' }, { prot })), ok);
  t.deepEqual(validateXml(NFE_SCHEMAS.retEnviNFe, R.retEnviNFe(head, { cStat: 103, xMotivo: 'Lote recebido com sucesso' }, { receipt: '351000000000001' })), ok);
  t.deepEqual(validateXml(NFE_SCHEMAS.retConsReciNFe, R.retConsReciNFe({ ...head, nRec: '351000000000001' }, { cStat: 104, xMotivo: 'Lote processado' }, prot)), ok);
  t.deepEqual(validateXml(NFE_SCHEMAS.retConsSitNFe, R.retConsSitNFe({ ...head, chNFe: key }, { cStat: 100, xMotivo: 'Autorizado o uso da NF-e' }, prot)), ok);
  t.deepEqual(validateXml(NFE_SCHEMAS.retConsStatServ, R.retConsStatServ(head, { cStat: 107, xMotivo: 'Serviço em Operação' })), ok);
  t.deepEqual(validateXml(NFE_SCHEMAS.retEnvEvento, R.retEnvEvento({ idLote: '1', tpAmb: '2', cOrgao: '35' }, { cStat: 128, xMotivo: 'Lote de Evento Processado' }, {
    cStat: 135, xMotivo: 'Evento registrado e vinculado a NF-e', tpAmb: '2', cOrgao: '35', chNFe: key, tpEvento: '110111', nSeqEvento: '1', dhRegEvento: head.dhRecbto, nProt: '135260000000002',
  })), ok);
  t.deepEqual(validateXml(NFE_SCHEMAS.retInutNFe, R.retInutNFe({ ...head, cStat: 102, xMotivo: 'Inutilização de número homologado', ano: '26', CNPJ: '12345678000195', mod: '55', serie: '1', nNFIni: '1', nNFFin: '2', nProt: '135260000000003' })), ok);
});

test('infProt, infEvento and infInut carry no Id and retEvento no xEvento, as the authorities answer', (t) => {
  t.regex(prot, /<infProt><tpAmb>/);
  const ev = R.retEvento({ cStat: 135, xMotivo: 'Evento registrado e vinculado a NF-e', tpAmb: '2', cOrgao: '35', chNFe: key, tpEvento: '110111', nSeqEvento: '1', dhRegEvento: head.dhRecbto, nProt: '135260000000002' });
  t.regex(ev, /^<retEvento versao="1.00"><infEvento><tpAmb>/);
  t.notRegex(ev, /xEvento/);
  t.regex(R.retInutNFe({ ...head, cStat: 102, xMotivo: 'x', nProt: '135260000000003' }), /<infInut><tpAmb>/);
});

test('simulator answers round-trip through the client parsers', (t) => {
  t.like(parseRetEnviNFe(R.retEnviNFe(head, { cStat: 104, xMotivo: 'Lote processado' }, { prot }), key), { kind: 'authorized', protocol: '135260000000001' });
  t.like(parseRetConsSitNFe(R.retConsSitNFe({ ...head, chNFe: key }, { cStat: 101, xMotivo: 'Cancelamento de NF-e homologado' }, prot)), { kind: 'canceled', cStat: 101 });
  t.like(parseRetInutNFe(R.retInutNFe({ ...head, cStat: 241, xMotivo: 'Rejeição: Um número da faixa já foi utilizado' }), '<inutNFe/>'), { kind: 'rejected', cStat: 241 });
});

test('protocol and receipt numbers have 15 digits; nProt starts with the authorizer digit', (t) => {
  const at = new Date('2026-05-01T00:00:00Z');
  t.is(R.protocolNumber('SP', '35', at, 42n), '135260000000042');
  t.is(R.protocolNumber('SVRS', '15', at, 42n), '315260000000042');
  t.is(R.protocolNumber('SVAN', '21', at, 42n), '221260000000042');
  t.is(R.protocolNumber('AN', '91', at, 42n), '891260000000042');
  t.is(R.receiptNumber('35', 7), '351000000000007');
});

test('a consult lists the registered events as procEventoNFe, and the parser returns them with the 155 late cancellation', (t) => {
  const ret = (cStat: number, tpEvento: string, nSeq: string, nProt: string) => R.retEvento({
    cStat, xMotivo: 'Evento registrado', tpAmb: '2', cOrgao: '35', chNFe: key, tpEvento, nSeqEvento: nSeq, dhRegEvento: head.dhRecbto, nProt,
  });
  const evento = `<evento xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.00"><infEvento Id="ID110111${key}01"><tpEvento>110111</tpEvento></infEvento></evento>`;
  const xml = R.retConsSitNFe({ ...head, chNFe: key }, { cStat: 101, xMotivo: 'Cancelamento de NF-e homologado' }, prot, [
    R.procEventoNFe(evento.replace('110111', '110110'), ret(135, '110110', '1', '135260000000004')),
    R.procEventoNFe(evento, ret(155, '110111', '1', '135260000000005')),
  ]);
  const r = parseRetConsSitNFe(xml);
  t.is(r.kind, 'canceled');
  const events = (r as any).events as any[];
  t.deepEqual(events.map((e) => [e.tpEvento, e.sequence, e.cStat, e.protocol, e.registeredAt]), [
    ['110110', 1, 135, '135260000000004', head.dhRecbto], ['110111', 1, 155, '135260000000005', head.dhRecbto],
  ]);
  t.regex(events[1].procEventoXml, /^<procEventoNFe xmlns="http:\/\/www.portalfiscal.inf.br\/nfe" versao="1.00"><evento/);
});
