import test from 'ava';
import { checkDecimal } from '../../../lib/validation/decimal.js';
import { sharedValidator } from '../../../lib/validation/validator.js';
import { toValidationError } from '../../../lib/validation/field-errors.js';

const money = { intDigits: 13, fracDigits: 2 };

test('checkDecimal accepts 1, 1.5 and 1.55 and refuses 1.005 (API.md precision rule 1)', (t) => {
  t.is(checkDecimal(1, money), null);
  t.is(checkDecimal(1.5, money), null);
  t.is(checkDecimal(1.55, money), null);
  t.is(checkDecimal(1.005, money), 'fracDigits');
});

test('checkDecimal tolerates binary residue far below half a cent', (t) => {
  t.is(checkDecimal(0.1 + 0.2, money), null);
  t.is(checkDecimal(1.1 * 3, money), null);
});

test('checkDecimal counts integer digits: 13v2 takes 9999999999999.99 and refuses 14 digits', (t) => {
  t.is(checkDecimal(9999999999999.99, money), null);
  t.is(checkDecimal(10000000000000, money), 'intDigits');
  // Values that print with an exponent (from 1e21) are far too wide, never "5 characters".
  for (const huge of [1e21, 1e22, 1.797693134862316e306, Number.MAX_VALUE]) t.is(checkDecimal(huge, money), 'intDigits', String(huge));
  t.is(checkDecimal(999999999999999, { intDigits: 15, fracDigits: 2 }), null);
  t.is(checkDecimal(1e15, { intDigits: 15, fracDigits: 2 }), 'intDigits');
  t.is(checkDecimal(1.234, { intDigits: 12, fracDigits: 3 }), null);
  t.is(checkDecimal(1.2345, { intDigits: 12, fracDigits: 3 }), 'fracDigits');
});

test('checkDecimal refuses huge numbers that print with an exponent (1e308, 1.7e304, 1e21) as too many integer digits', (t) => {
  for (const v of [1e308, -1e308, 1.797693134862316e304, 1e21, 1e16, Number.MAX_VALUE]) t.is(checkDecimal(v, money), 'intDigits', String(v));
  t.is(checkDecimal(99999999999.9999, { intDigits: 11, fracDigits: 4 }), null);
  t.is(checkDecimal(100000000000, { intDigits: 11, fracDigits: 4 }), 'intDigits');
});

test('checkDecimal refuses non-numbers', (t) => {
  t.is(checkDecimal('1.00', money), 'type');
  t.is(checkDecimal(Number.NaN, money), 'type');
});

test('the decimal rule reports the field path and the limit in Portuguese', async (t) => {
  const check = sharedValidator().compile({ $$strict: true, pagamentos: { type: 'array', items: { type: 'object', strict: true, props: { valor: { type: 'decimal', intDigits: 13, fracDigits: 2 } } } } });
  const result = await check({ pagamentos: [{ valor: 10 }, { valor: 1.005 }] });
  t.not(result, true);
  const err = toValidationError(result as any[]);
  t.deepEqual(err.data, { errors: [{ field: 'pagamentos[1].valor', message: "O campo 'pagamentos[1].valor' aceita no máximo 2 casas decimais." }] });
});

test('unknown keys become one camposDesconhecidos entry each, with the hint as motivo', async (t) => {
  const check = sharedValidator().compile({ $$strict: true, items: { type: 'array', items: { type: 'object', strict: true, props: { codigo: 'string' } } } });
  const result = await check({ items: [{ codigo: 'A', baseCalculoST: 1 }], itens: [] });
  const err = toValidationError(result as any[], { itens: 'O grupo se chama items.' });
  t.is(err.type, 'VALIDATION_ERROR');
  t.deepEqual((err.data as any).details.camposDesconhecidos, [
    { campo: 'baseCalculoST', caminho: 'items[0].baseCalculoST', objeto: 'items[0]' },
    { campo: 'itens', caminho: 'itens', objeto: '', motivo: 'O grupo se chama items.' },
  ]);
  t.is((err.data as any).errors.length, 2);
});

test('an unknown key named like an Object.prototype member gets no motivo', async (t) => {
  const check = sharedValidator().compile({ $$strict: true, a: 'string' });
  const result = await check({ a: 'x', constructor: 1, __proto__x: 2 });
  const err = toValidationError(result as any[], { itens: 'O grupo se chama items.' });
  t.deepEqual((err.data as any).details.camposDesconhecidos, [
    { campo: 'constructor', caminho: 'constructor', objeto: '' },
    { campo: '__proto__x', caminho: '__proto__x', objeto: '' },
  ]);
});
