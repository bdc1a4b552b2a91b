import test from 'ava';
import { checkNfe } from '../../../../lib/nfe/check.js';
import { aValidNfeBody, anIssuer } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

const duplicatas = [{ numero: '001', vencimento: '2026-12-10', valor: 50 }, { numero: '002', vencimento: '2027-01-10', valor: 50 }];

test('checkNfe refuses duplicatas without fatura (COBRANCA_INVALIDA)', (t) => {
  const err = throwsCode(t, () => checkNfe(aValidNfeBody({ cobranca: { duplicatas } }), anIssuer()), 'COBRANCA_INVALIDA');
  t.deepEqual(err.data, { campo: 'cobranca.fatura', motivo: 'duplicatas exigem fatura' });
});

test('checkNfe refuses a fatura whose net value is not original minus discount (COBRANCA_INVALIDA)', (t) => {
  const err = throwsCode(t, () => checkNfe(aValidNfeBody({ cobranca: { fatura: { numero: 'F1', valorOriginal: 100, valorDesconto: 10, valorLiquido: 100 } } }), anIssuer()), 'COBRANCA_INVALIDA');
  t.like(err.data, { campo: 'cobranca.fatura.valorLiquido', esperado: '90.00' });
});

test('checkNfe accepts fatura alone or with duplicatas, which do not change the total', (t) => {
  const fatura = { numero: 'F1', valorOriginal: 100, valorDesconto: 0, valorLiquido: 100 };
  t.notThrows(() => checkNfe(aValidNfeBody({ cobranca: { fatura } }), anIssuer()));
  const note = checkNfe(aValidNfeBody({ cobranca: { fatura: { numero: 'F1', valorOriginal: 150, valorLiquido: 150 }, duplicatas } }), anIssuer());
  t.deepEqual(note.cobranca?.duplicatas, duplicatas);
});
