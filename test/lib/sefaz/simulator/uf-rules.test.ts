import test from 'ava';
import { readFileSync } from 'node:fs';
import { cancellationCStat, ufRules } from '../../../../lib/sefaz/simulator/uf-rules.js';

test('ufRules: the default of data/sefaz/simulator-uf-rules.json (24 h, third-party transmitter as SVRS, infRespTec)', (t) => {
  t.deepEqual(ufRules('SP'), { cancelWindowHours: 24, lateCancelUntilHours: 0, thirdPartyTransmitter: true, infRespTecRequired: true });
  t.deepEqual(ufRules(null), ufRules('RS'));
});

test('cancellationCStat answers the code whose text matches the elapsed time', (t) => {
  const at = new Date('2026-01-01T00:00:00Z');
  const after = (h: number) => new Date(at.getTime() + h * 3_600_000);
  const rules = ufRules('SP');
  t.is(cancellationCStat(at, after(24), rules), 135);
  t.is(cancellationCStat(at, after(25), rules), 220);
  t.is(cancellationCStat(at, after(168), rules), 220);
  t.is(cancellationCStat(at, after(169), rules), 501);
  t.is(cancellationCStat(at, after(30), { ...rules, lateCancelUntilHours: 48 }), 155);
});

test('ufRules: MT homologates a late cancellation (155) for 168 h, its cancelamento extemporaneo; every entry is cited', (t) => {
  t.deepEqual(ufRules('MT'), { cancelWindowHours: 24, lateCancelUntilHours: 168, thirdPartyTransmitter: true, infRespTecRequired: true });
  const at = new Date('2026-01-01T00:00:00Z');
  t.is(cancellationCStat(at, new Date(at.getTime() + 30 * 3_600_000), ufRules('MT')), 155);
  t.is(cancellationCStat(at, new Date(at.getTime() + 169 * 3_600_000), ufRules('MT')), 501);
  const file = JSON.parse(readFileSync(new URL('../../../../data/sefaz/simulator-uf-rules.json', import.meta.url), 'utf8')) as { ufs: Record<string, unknown>; sources: Record<string, string> };
  for (const uf of Object.keys(file.ufs)) t.regex(file.sources[uf] ?? '', /\b(?:Portaria|Ajuste|Decreto|NT|MOC) [\w./-]+/, `a citation for ${uf}`);
});
