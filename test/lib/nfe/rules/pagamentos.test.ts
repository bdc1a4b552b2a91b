import test from 'ava';
import { checkNfce, checkNfe } from '../../../../lib/nfe/check.js';
import { checkPaymentsCloseTotal, checkSemPagamento } from '../../../../lib/nfe/rules/pagamentos.js';
import { aValidNfceBody, aValidNfeBody, anIssuer } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

test('checkSemPagamento refuses forma 90 with a value (SEM_PAGAMENTO_INVALIDO, authority 904)', (t) => {
  const err = throwsCode(t, () => checkSemPagamento([{ forma: '90', valor: 0.01 }], '55'), 'SEM_PAGAMENTO_INVALIDO');
  t.deepEqual(err.data, { campo: 'pagamentos[0].valor', motivo: 'forma 90 exige valor 0' });
});

test('checkSemPagamento refuses forma 90 together with another form (SEM_PAGAMENTO_INVALIDO)', (t) => {
  const err = throwsCode(t, () => checkNfe(aValidNfeBody({ pagamentos: [{ forma: '01', valor: 100 }, { forma: '90', valor: 0 }] }), anIssuer()), 'SEM_PAGAMENTO_INVALIDO');
  t.deepEqual(err.data, { campo: 'pagamentos', motivo: 'forma 90 não pode ser combinada com outras formas' });
});

test('checkNfe accepts a lone forma 90 with valor 0 in NF-e (no closing on the total)', (t) => {
  t.notThrows(() => checkNfe(aValidNfeBody({ pagamentos: [{ forma: '90', valor: 0 }] }), anIssuer()));
});

test('checkNfce refuses forma 90 (SEM_PAGAMENTO_VEDADO_NFCE)', (t) => {
  const err = throwsCode(t, () => checkNfce(aValidNfceBody({ pagamentos: [{ forma: '90', valor: 0 }] }), anIssuer()), 'SEM_PAGAMENTO_VEDADO_NFCE');
  t.deepEqual(err.data, { campo: 'pagamentos[0].forma' });
});

test('checkNfce accepts cash with change', (t) => {
  t.notThrows(() => checkNfce(aValidNfceBody({ pagamentos: [{ forma: '01', valor: 120 }], troco: 20 }), anIssuer()));
});

test('checkPaymentsCloseTotal compares exact cents, including binary residue', (t) => {
  t.notThrows(() => checkPaymentsCloseTotal([{ forma: '01', valor: 0.1 }, { forma: '03', valor: 0.2 }], undefined, 30n));
  throwsCode(t, () => checkPaymentsCloseTotal([{ forma: '01', valor: 0.3 }], 0.01, 30n), 'PAGAMENTO_DIVERGENTE_DO_TOTAL');
});
