import test from 'ava';
import { resolveIbsCbs } from '../../../../lib/nfe/rules/ibs-cbs.js';
import { anItem } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

const rates = { ibsUf: { p: 0.1 }, ibsMun: { p: 0.05 }, cbs: { p: 0.9 } };

test('resolveIbsCbs is absent when the item has no ibsCbs group', (t) => {
  t.is(resolveIbsCbs(anItem(), 0, 10000n), undefined);
});

test('resolveIbsCbs computes vBC, each v = p × vBC rounded and vIbs', (t) => {
  const item = anItem({ desconto: 10, valorFrete: 5, valorSeguro: 2.5, outrasDespesas: 1.25, ibsCbs: { cst: '000', cClassTrib: '000001', ...rates } });
  // vBC = 100.00 − 10.00 + 5.00 + 2.50 + 1.25 = 98.75
  t.deepEqual(resolveIbsCbs(item, 0, 10000n), {
    cst: '000', cClassTrib: '000001', vBC: 9875n,
    ibsUf: { p: '0.1000', v: 10n }, ibsMun: { p: '0.0500', v: 5n }, cbs: { p: '0.9000', v: 89n }, vIbs: 15n,
  });
});

test('resolveIbsCbs keeps sent values and the reduction pair', (t) => {
  const item = anItem({
    ibsCbs: { cst: '200', cClassTrib: '200003', vBC: 50, ibsUf: { p: 0.04, pNominal: 0.1, pRedAliq: 60, v: 0.03 }, ibsMun: { p: 0 }, cbs: { p: 0.36, pNominal: 0.9, pRedAliq: 60 }, vIbs: 0.02 },
  });
  t.deepEqual(resolveIbsCbs(item, 0, 10000n), {
    cst: '200', cClassTrib: '200003', vBC: 5000n,
    ibsUf: { p: '0.0400', pNominal: '0.1000', pRedAliq: '60.0000', v: 3n }, ibsMun: { p: '0.0000', v: 0n },
    cbs: { p: '0.3600', pNominal: '0.9000', pRedAliq: '60.0000', v: 18n }, vIbs: 2n,
  });
});

test('resolveIbsCbs refuses a group without its rate objects (IBSCBS_INCOMPLETO)', (t) => {
  const err = throwsCode(t, () => resolveIbsCbs(anItem({ ibsCbs: { cst: '000', cClassTrib: '000001', cbs: { p: 0.9 } } }), 2, 10000n), 'IBSCBS_INCOMPLETO');
  t.like(err.data, { item: 2, campos: ['items[2].ibsCbs.ibsUf', 'items[2].ibsCbs.ibsMun'] });
});

test('resolveIbsCbs refuses pRedAliq without pNominal (IBSCBS_INCOMPLETO)', (t) => {
  const err = throwsCode(t, () => resolveIbsCbs(anItem({ ibsCbs: { cst: '200', cClassTrib: '200003', ...rates, cbs: { p: 0.36, pRedAliq: 60 } } }), 0, 10000n), 'IBSCBS_INCOMPLETO');
  t.like(err.data, { campos: ['items[0].ibsCbs.cbs.pNominal'] });
});
