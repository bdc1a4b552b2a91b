import test from 'ava';
import { resolveSeries } from '../../../lib/emission/series.js';

const issuer = { serieNfe: 2, serieNfce: 5 };

test('resolveSeries defaults to the issuer series of the model', (t) => {
  t.is(resolveSeries(undefined, issuer, '55'), 2);
  t.is(resolveSeries(undefined, issuer, '65'), 5);
  t.is(resolveSeries(0, issuer, '55'), 0);
  t.is(resolveSeries(889, issuer, '65'), 889);
});

test('resolveSeries refuses SERIE_NAO_PERMITIDA for the reserved series 890-999', (t) => {
  for (const s of [890, 899, 900, 999]) {
    const err = t.throws(() => resolveSeries(s, issuer, '55')) as any;
    t.is(err.type, 'SERIE_NAO_PERMITIDA');
    t.is(err.code, 422);
    t.deepEqual(err.data, { serie: s });
  }
});
