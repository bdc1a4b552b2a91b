import test from 'ava';
import { buildDpsId } from '../../../../lib/nfse/xml/id.js';

test('buildDpsId follows the real sample: DPS + cMun + 2 (CNPJ) + CNPJ + série(5) + nDPS(15)', (t) => {
  t.is(buildDpsId('3304557', '11905971000105', 333, 6), 'DPS330455721190597100010500333000000000000006');
  t.is(buildDpsId('4106902', '11222333000181', 1, 123), 'DPS410690221122233300018100001000000000000123');
});

test('buildDpsId writes tpInsc 1 and a zero-padded CPF for a natural person', (t) => {
  t.is(buildDpsId('3550308', '52998224725', 0, 1), 'DPS3550308' + '1' + '00052998224725' + '00000' + '000000000000001');
});

test('buildDpsId refuses inputs that cannot form a 45-character Id (a wiring bug)', (t) => {
  t.throws(() => buildDpsId('355030', '11905971000105', 1, 1), { instanceOf: RangeError });
  t.throws(() => buildDpsId('3550308', '1190597100010', 1, 1), { instanceOf: RangeError });
  t.throws(() => buildDpsId('3550308', '11905971000105', 100000, 1), { instanceOf: RangeError });
  t.throws(() => buildDpsId('3550308', '11905971000105', 1, 0), { instanceOf: RangeError });
  t.throws(() => buildDpsId('3550308', '11905971000105', 1, 1e15), { instanceOf: RangeError });
  t.is(buildDpsId('3550308', '11905971000105', 99999, 999999999999999).length, 45);
});
