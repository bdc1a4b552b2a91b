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

test('the simulator\'s rejections read as the authority writes them: "Rejeição: …" (duplicities and 218 name the earlier record)', (t) => {
  const named = new Set([204, 218, 539]);
  for (const code of SIMULATOR_CSTATS.filter((c) => c > 200 && !named.has(c))) {
    t.regex(table.get(code)!, /^Rejeição: \S/, `cStat ${code}`);
  }
});

test('texts corrected in the table against the MOC/NT (help texts removed, 972 added)', (t) => {
  t.is(table.get(694), 'Rejeição: Não informado o grupo de ICMS para a UF de destino [nItem:999]');
  t.is(table.get(698), 'Rejeição: Alíquota interestadual do ICMS incompatível com as UF envolvidas na operação [nItem:999]');
  t.is(table.get(696), 'Rejeição: Operacao com nao contribuinte deve indicar operacao com consumidor final');
  t.is(table.get(972), 'Rejeição: Obrigatória as informações do responsável técnico');
});
