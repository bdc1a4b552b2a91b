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
