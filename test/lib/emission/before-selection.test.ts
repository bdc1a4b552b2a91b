import test from 'ava';
import { answersBeforeSelection, validateBeforeSelection } from '../../../lib/emission/before-selection.js';
import { DomainError } from '../../../lib/errors/index.js';

const unknownField = new DomainError('VALIDATION_ERROR', { errors: [{ field: 'x', message: "Campo desconhecido 'x'." }], details: { camposDesconhecidos: [{ campo: 'x', caminho: 'x', objeto: '' }] } });
const sizeOnly = new DomainError('VALIDATION_ERROR', { errors: [{ field: 'serie', message: "O campo 'serie' deve ser maior ou igual a 0." }] });

test('answersBeforeSelection: unknown fields and a sent, malformed issuerId answer before the selection; other violations after it', (t) => {
  t.true(answersBeforeSelection(unknownField, {}));
  t.true(answersBeforeSelection(sizeOnly, { issuerId: 'abc' }));
  t.true(answersBeforeSelection(sizeOnly, { issuerId: 7 }));
  t.true(answersBeforeSelection(sizeOnly, { issuerId: '' }));
  t.false(answersBeforeSelection(sizeOnly, {}));
  t.false(answersBeforeSelection(sizeOnly, { issuerId: null }), 'null is not sent');
  t.false(answersBeforeSelection(sizeOnly, { issuerId: 'ffffffff-ffff-ffff-ffff-ffffffffffff' }));
  t.false(answersBeforeSelection(new DomainError('CFOP_IDDEST_DIVERGENTE'), { issuerId: 'abc' }), 'only strict validation answers here');
});

test('validateBeforeSelection throws an early refusal now, keeps any other for after the selection, and validates once', async (t) => {
  await t.throwsAsync(validateBeforeSelection(() => { throw unknownField; }, {}), { is: unknownField });
  let calls = 0;
  const later = await validateBeforeSelection(() => { calls++; throw sizeOnly; }, {});
  t.throws(later, { is: sizeOnly });
  const valid = await validateBeforeSelection(async () => { calls++; return { serie: 1 }; }, {});
  t.deepEqual(valid(), { serie: 1 });
  t.is(calls, 2);
});
