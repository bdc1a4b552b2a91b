import test from 'ava';
import { readFileSync } from 'node:fs';
import { SIMULATOR_CSTATS, motivo } from '../../../../lib/sefaz/simulator/codes.js';

const table = new Map((JSON.parse(readFileSync(new URL('../../../../data/sefaz/cstat.json', import.meta.url), 'utf8')) as { cod: string; msg: string }[])
  .map((r) => [Number(r.cod), r.msg]));

test('every cStat the simulator answers is in data/sefaz/cstat.json, and motivo() answers its text verbatim', (t) => {
  for (const code of SIMULATOR_CSTATS) {
    t.true(table.has(code), `cStat ${code} missing from cstat.json`);
    t.deepEqual(motivo(code), { cStat: code, xMotivo: table.get(code)! });
  }
});

test('the simulator\'s rejections read as the authority writes them: "Rejeição: …", the duplicities and 218 too (MOC rules 2B08-10..30)', (t) => {
  for (const code of SIMULATOR_CSTATS.filter((c) => c > 200)) {
    t.regex(table.get(code)!, /^Rejeição: \S/, `cStat ${code}`);
  }
});

test('texts corrected in the table against the MOC/NT (help texts removed, 972 added)', (t) => {
  t.is(table.get(694), 'Rejeição: Não informado o grupo de ICMS para a UF de destino [nItem:999]');
  t.is(table.get(698), 'Rejeição: Alíquota interestadual do ICMS incompatível com as UF envolvidas na operação [nItem:999]');
  t.is(table.get(696), 'Rejeição: Operacao com nao contribuinte deve indicar operacao com consumidor final');
  t.is(table.get(972), 'Rejeição: Obrigatória as informações do responsável técnico');
});

test('texts corrected against the MOC rule table (2B08, 2AB08, B26, C02): the prefix, the placeholders, the current layout\'s meaning', (t) => {
  t.is(table.get(204), 'Rejeição: Duplicidade de NF-e [nRec:999999999999999]');
  t.is(table.get(539), 'Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso [chNFe:99999999999999999999999999999999999999999999][nRec:999999999999999]');
  t.is(table.get(218), 'Rejeição: NF-e já está cancelada na base de dados da SEFAZ [nRec:999999999999999]');
  t.is(table.get(206), 'Rejeição: NF-e já está inutilizada na Base de Dados da SEFAZ');
  t.is(table.get(692), 'Rejeição: Existe EPEC registrado para esta Série e Número [Chave EPEC: xxxxxxxxxxx]');
  t.is(table.get(244), 'Rejeição: Processo de Emissão pelo Contribuinte incompatível com a Série da NF');
  t.is(table.get(652), 'Rejeição: NF-e para emitente pessoa física');
});

test('every text is in composed form (NFC), as the authority sends it, and none starts with its own code', (t) => {
  for (const [code, msg] of table) {
    if (!msg) continue;
    t.is(msg, msg.normalize('NFC'), `cStat ${code}`);
    t.false(msg.startsWith(`${code}-`), `cStat ${code}`);
  }
});
