import test from 'ava';
import { sharedValidator } from '../../../lib/validation/validator.js';
import { boundedValidationError, MAX_REPORTED_FIELDS, reportTotals, toValidationError } from '../../../lib/validation/field-errors.js';

const check = sharedValidator().compile({ $$strict: true, nome: { type: 'string' }, idade: { type: 'number', optional: true } });

test('toValidationError reports at most 50 unknown fields and gives the full counts', (t) => {
  const body: Record<string, unknown> = { nome: 'Ana' };
  for (let i = 0; i < 300; i++) body[`x${i}`] = i;
  const err = toValidationError(check(body) as any);
  const data = err.data as any;
  t.is(err.type, 'VALIDATION_ERROR');
  t.is(data.errors.length, MAX_REPORTED_FIELDS);
  t.is(data.details.camposDesconhecidos.length, MAX_REPORTED_FIELDS);
  t.is(data.details.totalErros, 300);
  t.is(data.details.totalCamposDesconhecidos, 300);
  t.deepEqual(data.details.camposDesconhecidos[49], { campo: 'x49', caminho: 'x49', objeto: '' });
  t.deepEqual(reportTotals(data), { errors: 300, unknown: 300 });
});

test('toValidationError adds no count while the lists are whole', (t) => {
  const err = toValidationError(check({ nome: 1, extra: true }) as any);
  t.deepEqual(Object.keys((err.data as any).details), ['camposDesconhecidos']);
  t.is((err.data as any).errors.length, 2);
  t.deepEqual(reportTotals(err.data as any), { errors: 2, unknown: 1 });
});

test('boundedValidationError keeps the counts a caller already summed (a batch of notes)', (t) => {
  const errors = Array.from({ length: 60 }, (_, i) => ({ field: `notas[${i}].x`, message: 'm' }));
  const err = boundedValidationError(errors, [], { errors: 700, unknown: 0 });
  t.deepEqual(err.data, { errors: errors.slice(0, 50), details: { totalErros: 700 } });
});
