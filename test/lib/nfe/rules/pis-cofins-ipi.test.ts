import test from 'ava';
import { checkNfe } from '../../../../lib/nfe/check.js';
import { checkIpi, checkPisCofins } from '../../../../lib/nfe/rules/pis-cofins-ipi.js';
import { aValidNfeBody, anIssuer, anItem } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

test('checkPisCofins refuses rate and quantity groups together (TRIBUTO_GRUPOS_MISTURADOS)', (t) => {
  const err = throwsCode(t, () => checkPisCofins({ cst: '99', baseCalculo: 100, aliquota: 1.65, quantidadeVendida: 10, valor: 1.65 }, 'pis', 1), 'TRIBUTO_GRUPOS_MISTURADOS');
  t.like(err.data, { item: 1, campos: ['items[1].pis.baseCalculo', 'items[1].pis.aliquota', 'items[1].pis.quantidadeVendida'] });
  throwsCode(t, () => checkIpi({ cst: '50', cEnq: '999', aliquota: 10, valorUnidadeTributavel: 1, valor: 1 }, 0, '55'), 'TRIBUTO_GRUPOS_MISTURADOS');
});

test('checkPisCofins accepts CST 01 by rate, CST 03 by quantity and CST 99 by either', (t) => {
  t.notThrows(() => checkPisCofins({ cst: '01', baseCalculo: 100, aliquota: 7.6, valor: 7.6 }, 'cofins', 0));
  // The tax quantity may differ from the item quantity (API.md): 10 × 0.8620 = 8.62.
  t.notThrows(() => checkPisCofins({ cst: '03', quantidadeVendida: 10, valorAliquotaUnidade: 0.862, valor: 8.62 }, 'pis', 0));
  t.notThrows(() => checkPisCofins({ cst: '99', quantidadeVendida: 10, valorAliquotaUnidade: 0.862, valor: 8.62 }, 'pis', 0));
  t.notThrows(() => checkPisCofins({ cst: '07' }, 'pis', 0));
});

test('checkPisCofins refuses incoherent or incomplete groups and unknown CST (PIS_COFINS_INVALIDO)', (t) => {
  const err = throwsCode(t, () => checkPisCofins({ cst: '01', baseCalculo: 100, aliquota: 1.65, valor: 1.67 }, 'pis', 0), 'PIS_COFINS_INVALIDO');
  t.like(err.data, { esperado: '1.65', recebido: '1.67' });
  throwsCode(t, () => checkPisCofins({ cst: '01', baseCalculo: 100, aliquota: 1.65 }, 'pis', 0), 'PIS_COFINS_INVALIDO');
  throwsCode(t, () => checkPisCofins({ cst: '03', baseCalculo: 100, aliquota: 1.65, valor: 1.65 }, 'pis', 0), 'PIS_COFINS_INVALIDO');
  throwsCode(t, () => checkPisCofins({ cst: '07', valor: 1 }, 'pis', 0), 'PIS_COFINS_INVALIDO');
  throwsCode(t, () => checkPisCofins({ cst: '10' }, 'pis', 0), 'PIS_COFINS_INVALIDO');
  throwsCode(t, () => checkPisCofins({ cst: '99' }, 'pis', 0), 'PIS_COFINS_INVALIDO');
});

test('checkIpi accepts taxed CSTs by rate or by quantity and untaxed CSTs with only cst and cEnq', (t) => {
  t.notThrows(() => checkIpi({ cst: '50', cEnq: '999', baseCalculo: 100, aliquota: 6.5, valor: 6.5 }, 0, '55'));
  t.notThrows(() => checkIpi({ cst: '99', cEnq: '999', quantidadeUnidadeTributavel: 12, valorUnidadeTributavel: 0.5, valor: 6 }, 0, '55'));
  for (const cst of ['01', '02', '03', '04', '05', '51', '52', '53', '54', '55']) t.notThrows(() => checkIpi({ cst, cEnq: '999' }, 0, '55'), cst);
});

test('checkIpi refuses values with untaxed CST, missing values with taxed CST and unknown CST (IPI_INVALIDO)', (t) => {
  throwsCode(t, () => checkIpi({ cst: '53', cEnq: '999', valor: 1 }, 0, '55'), 'IPI_INVALIDO');
  throwsCode(t, () => checkIpi({ cst: '50', cEnq: '999' }, 0, '55'), 'IPI_INVALIDO');
  throwsCode(t, () => checkIpi({ cst: '50', cEnq: '999', baseCalculo: 100, aliquota: 10, valor: 9 }, 0, '55'), 'IPI_INVALIDO');
  const err = throwsCode(t, () => checkIpi({ cst: '06', cEnq: '999' }, 4, '55'), 'IPI_INVALIDO');
  t.like(err.data, { item: 4, campo: 'items[4].ipi.cst' });
});

test('checkNfe adds IPI to the total the payments must close on', (t) => {
  const ipi = { cst: '50', cEnq: '999', baseCalculo: 100, aliquota: 10, valor: 10 };
  t.notThrows(() => checkNfe(aValidNfeBody({ items: [anItem({ ipi })], pagamentos: [{ forma: '15', valor: 110 }] }), anIssuer()));
  throwsCode(t, () => checkNfe(aValidNfeBody({ items: [anItem({ ipi })] }), anIssuer()), 'PAGAMENTO_DIVERGENTE_DO_TOTAL');
});
