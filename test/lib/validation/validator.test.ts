import test from 'ava';
import { createValidator } from '../../../lib/validation/validator.js';
import { converterKeys, toValidationError } from '../../../lib/validation/field-errors.js';

test('converterKeys finds own toString/valueOf keys at any depth, with their paths', (t) => {
  t.deepEqual(converterKeys({ a: [{ toString: 1 }, { b: { valueOf: null } }], toString: 'x', c: 'toString' }), [
    { campo: 'toString', caminho: 'a[0].toString', objeto: 'a[0]' },
    { campo: 'valueOf', caminho: 'a[1].b.valueOf', objeto: 'a[1].b' },
    { campo: 'toString', caminho: 'toString', objeto: '' },
  ]);
  t.deepEqual(converterKeys([{ ok: 1 }, 'toString', null, 3]), []);
});

test('a compiled checker reports a toString key as an unknown field where fastest-validator alone throws', (t) => {
  const check = createValidator().compile({ $$strict: true, nome: { type: 'string' } });
  const result = check({ nome: [{ toString: false }] });
  t.not(result, true);
  t.deepEqual(toValidationError(result as any).data, {
    errors: [{ field: 'nome[0].toString', message: "Campo desconhecido 'toString' em 'nome[0]'." }],
    details: { camposDesconhecidos: [{ campo: 'toString', caminho: 'nome[0].toString', objeto: 'nome[0]' }] },
  });
  t.is(check({ nome: 'Ana' }), true);
  t.like((check({ nome: 5 }) as any[])[0], { type: 'string', field: 'nome' });
});

test('a pattern (and the email rule\'s) runs only within the rule\'s max: an over-long value gets the length error alone, in milliseconds', (t) => {
  const check = createValidator().compile({
    $$strict: true,
    login: { type: 'email', max: 254 },
    contato: { type: 'string', max: 80, pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/ },
    codigo: { type: 'string', length: 4, pattern: /^\d+$/ },
  });
  const value = { login: `a@${'a.'.repeat(50_000)} `, contato: `a@${'.'.repeat(100_000)}@`, codigo: 'x'.repeat(100_000) };
  const started = performance.now();
  // Quadratic in the former code: 6.9 s and 19.7 s for the first two.
  const result = check(value) as any[];
  const ms = performance.now() - started;
  t.deepEqual(result.map((e) => [e.field, e.type]), [['login', 'emailMax'], ['contato', 'stringMax'], ['codigo', 'stringLength']]);
  t.true(ms < 200, `${ms.toFixed(0)} ms`);
  // Within the bound, the patterns still judge.
  t.deepEqual((check({ login: 'sem-arroba', contato: 'a b@c.d', codigo: '12x4' }) as any[]).map((e) => [e.field, e.type]), [['login', 'email'], ['contato', 'stringPattern'], ['codigo', 'stringPattern']]);
  t.is(check({ login: 'ana@example.com', contato: 'ana@example.com', codigo: '1234' }), true);
});

test('an array past its max gets the length error alone: its items are not validated one by one', (t) => {
  const check = createValidator().compile({ $$strict: true, items: { type: 'array', min: 1, max: 990, items: { type: 'object', props: { codigo: { type: 'string' } } } } });
  const items = Array.from({ length: 900_000 }, () => ({}));
  const started = performance.now();
  const result = check({ items }) as any[];
  const ms = performance.now() - started;
  // Before: 900 000 "codigo is required" errors besides this one, in seconds.
  t.deepEqual(result.map((e) => [e.field, e.type]), [['items', 'arrayMax']]);
  t.true(ms < 200, `${ms.toFixed(0)} ms`);
  t.deepEqual((check({ items: [{}, { codigo: 'A' }] }) as any[]).map((e) => [e.field, e.type]), [['items[0].codigo', 'required']]);
});
