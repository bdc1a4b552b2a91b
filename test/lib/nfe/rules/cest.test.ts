import test from 'ava';
import { checkNfe } from '../../../../lib/nfe/check.js';
import { normalizeCest } from '../../../../lib/nfe/rules/cest.js';
import { aValidNfeBody, anIssuer, anItem } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

test('normalizeCest strips the mask of a 7-digit CEST', (t) => {
  t.is(normalizeCest('01.003.00', 0), '0100300');
  t.is(normalizeCest('2805900', 0), '2805900');
  t.is(normalizeCest(undefined, 0), undefined);
});

test('checkNfe refuses a CEST that is not 7 digits (CEST_INVALIDO)', (t) => {
  for (const cest of ['123456', '12345678', '01.003.0A']) {
    const err = throwsCode(t, () => checkNfe(aValidNfeBody({ items: [anItem({ cest })] }), anIssuer()), 'CEST_INVALIDO');
    t.deepEqual(err.data, { item: 0, campo: 'items[0].cest', recebido: cest });
  }
});

test('checkNfe writes the CEST without mask in the checked item', (t) => {
  t.is(checkNfe(aValidNfeBody({ items: [anItem({ cest: '01.003-00' })] }), anIssuer()).items[0]!.cest, '0100300');
});
