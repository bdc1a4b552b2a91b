import test from 'ava';
import { checkNfe } from '../../../../lib/nfe/check.js';
import { aValidNfeBody, anAccessKey, anIssuer } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

const ref = [{ chaveAcesso: anAccessKey() }];
const noPayment = [{ forma: '90', valor: 0 }];

for (const finNFe of [2, 3, 4] as const) {
  test(`checkNfe refuses finNFe ${finNFe} without referenciadas (FINALIDADE_SEM_NFREF)`, (t) => {
    const err = throwsCode(t, () => checkNfe(aValidNfeBody({ finNFe, ...(finNFe === 2 ? {} : { pagamentos: noPayment }) }), anIssuer()), 'FINALIDADE_SEM_NFREF');
    t.deepEqual(err.data, { finNFe, campo: 'referenciadas' });
  });
}

test('checkNfe accepts finNFe 1, 5 and 6 without referenciadas and 2 with one', (t) => {
  for (const finNFe of [1, 5, 6] as const) t.notThrows(() => checkNfe(aValidNfeBody({ finNFe }), anIssuer()));
  t.notThrows(() => checkNfe(aValidNfeBody({ finNFe: 2, referenciadas: ref }), anIssuer()));
});

test('checkNfe refuses finNFe 3 and 4 with a real payment (FINALIDADE_EXIGE_SEM_PAGAMENTO)', (t) => {
  const err = throwsCode(t, () => checkNfe(aValidNfeBody({ finNFe: 4, referenciadas: ref }), anIssuer()), 'FINALIDADE_EXIGE_SEM_PAGAMENTO');
  t.deepEqual(err.data, { finNFe: 4, campo: 'pagamentos', recebido: [{ forma: '01', valor: 100 }] });
  throwsCode(t, () => checkNfe(aValidNfeBody({ finNFe: 3, referenciadas: ref, pagamentos: [{ forma: '90', valor: 0 }, { forma: '90', valor: 0 }] }), anIssuer()), 'FINALIDADE_EXIGE_SEM_PAGAMENTO');
  throwsCode(t, () => checkNfe(aValidNfeBody({ finNFe: 3, referenciadas: ref, pagamentos: [{ forma: '90', valor: 1 }] }), anIssuer()), 'FINALIDADE_EXIGE_SEM_PAGAMENTO');
});

test('checkNfe accepts finNFe 3 and 4 with a single forma 90 of valor 0', (t) => {
  for (const finNFe of [3, 4] as const) {
    t.notThrows(() => checkNfe(aValidNfeBody({ finNFe, referenciadas: ref, pagamentos: noPayment }), anIssuer()));
  }
});
