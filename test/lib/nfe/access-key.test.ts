import test from 'ava';
import { buildAccessKey, chooseCnf, modulo11, parseAccessKey } from '../../../lib/nfe/access-key.js';
import { readSample } from '../../support/samples.js';

const vectors = JSON.parse(readSample('vectors/check_digits_and_qrcode.json'));

test('parseAccessKey accepts every real authorized key and decomposes its fields', (t) => {
  for (const v of vectors.access_keys) {
    const r = parseAccessKey(v.chave);
    t.true(r.ok, v.chave);
    if (!r.ok) continue;
    const f = v.fields;
    t.is(r.parts.cUF, f.cUF);
    t.is(r.parts.aamm, f.AAMM);
    t.is(r.parts.document, f.CNPJ_CPF);
    t.is(r.parts.model, f.mod);
    t.is(r.parts.serie, Number(f.serie));
    t.is(r.parts.numero, Number(f.nNF));
    t.is(r.parts.tpEmis, Number(f.tpEmis));
    t.is(r.parts.cNF, f.cNF);
    t.is(r.parts.cDV, Number(f.cDV));
  }
});

test('buildAccessKey rebuilds every real key from its fields', (t) => {
  for (const v of vectors.access_keys) {
    const f = v.fields;
    t.is(buildAccessKey({ cUF: f.cUF, aamm: f.AAMM, document: f.CNPJ_CPF, model: f.mod, serie: Number(f.serie), numero: Number(f.nNF), tpEmis: Number(f.tpEmis), cNF: f.cNF }), v.chave);
  }
});

test('parseAccessKey refuses the negative vectors with a wrong check digit', (t) => {
  for (const v of vectors.invalid_access_keys) t.deepEqual(parseAccessKey(v.chave), { ok: false, problem: 'digito' }, v.chave);
});

test('access key with an alphanumeric CNPJ (NT 2025.001) uses charCode - 48 in modulo 11', (t) => {
  const ex = vectors.cnpj_alfanumerico.computed_access_key_example;
  t.true(parseAccessKey(ex.chave).ok);
  t.is(buildAccessKey({ cUF: '35', aamm: '2607', document: '12ABC34501DE35', model: '55', serie: 1, numero: 123, tpEmis: 1, cNF: '12345678' }), ex.chave);
});

test('modulo11 gives 0 for remainders 0 and 1', (t) => {
  t.is(modulo11('0'), 0); // 0 → remainder 0
  t.is(modulo11('6'), 0); // 6×2 = 12 → remainder 1
  t.is(modulo11('5'), 1); // 5×2 = 10 → remainder 10 → 11 − 10
});

test('parseAccessKey names the first broken rule: format, UF, month, model, number', (t) => {
  const good = vectors.access_keys[0].chave as string;
  t.deepEqual(parseAccessKey(good.slice(1)), { ok: false, problem: 'formato' });
  t.deepEqual(parseAccessKey('99' + good.slice(2)), { ok: false, problem: 'uf' });
  t.deepEqual(parseAccessKey(good.slice(0, 4) + '13' + good.slice(6)), { ok: false, problem: 'mes' });
  t.deepEqual(parseAccessKey(good.slice(0, 20) + '57' + good.slice(22)), { ok: false, problem: 'modelo' });
  t.deepEqual(parseAccessKey(good.slice(0, 25) + '000000000' + good.slice(34)), { ok: false, problem: 'numero' });
});

test('chooseCnf never returns the note number nor zeros', (t) => {
  const seq = [0, 0.00001234, 0.5];
  let i = 0;
  t.is(chooseCnf(1234, () => seq[i++]!), '50000000');
});
