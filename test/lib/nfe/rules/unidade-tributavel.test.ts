import test from 'ava';
import { checkNfe } from '../../../../lib/nfe/check.js';
import { resolveItemValues } from '../../../../lib/nfe/rules/unidade-tributavel.js';
import { aValidNfeBody, anIssuer, anItem } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

test('resolveItemValues repeats the commercial unit when the tax unit is absent', (t) => {
  t.deepEqual(resolveItemValues(anItem({ eanTributavel: undefined }), 0), {
    valorTotalCents: 10000n, eanTributavel: 'SEM GTIN', unidadeTributavel: 'UN', quantidadeTributavel: 2, valorUnitarioTributavel: 50,
  });
});

test('resolveItemValues accepts a box of 12 taxed per unit when the products match', (t) => {
  const values = resolveItemValues(anItem({ unidade: 'CX', quantidade: 2, valorUnitario: 60, unidadeTributavel: 'UN', quantidadeTributavel: 24, valorUnitarioTributavel: 5 }), 0);
  t.like(values, { valorTotalCents: 12000n, unidadeTributavel: 'UN', quantidadeTributavel: 24, valorUnitarioTributavel: 5 });
});

test('resolveItemValues refuses a tax product different from the commercial one (UNIDADE_TRIBUTAVEL_INVALIDA)', (t) => {
  const err = throwsCode(t, () => resolveItemValues(anItem({ unidade: 'CX', quantidade: 2, valorUnitario: 60, unidadeTributavel: 'UN', quantidadeTributavel: 24, valorUnitarioTributavel: 5.01 }), 3), 'UNIDADE_TRIBUTAVEL_INVALIDA');
  t.like(err.data, { item: 3, campo: 'items[3].quantidadeTributavel', esperado: '120.00', recebido: '120.24' });
});

test('resolveItemValues refuses the same unit with a different quantity (UNIDADE_TRIBUTAVEL_INVALIDA)', (t) => {
  const err = throwsCode(t, () => resolveItemValues(anItem({ unidadeTributavel: 'un', quantidadeTributavel: 1, valorUnitarioTributavel: 100 }), 0), 'UNIDADE_TRIBUTAVEL_INVALIDA');
  t.like(err.data, { item: 0, campo: 'items[0].unidadeTributavel' });
});

test('resolveItemValues accepts the same unit repeated with the same quantity and value', (t) => {
  t.notThrows(() => resolveItemValues(anItem({ unidadeTributavel: 'UN', quantidadeTributavel: 2, valorUnitarioTributavel: 50 }), 0));
});

test('resolveItemValues refuses a discount larger than the product (DESCONTO_SUPERIOR_AO_PRODUTO)', (t) => {
  throwsCode(t, () => resolveItemValues(anItem({ desconto: 100.01 }), 0), 'DESCONTO_SUPERIOR_AO_PRODUTO');
  t.notThrows(() => resolveItemValues(anItem({ desconto: 100 }), 0));
});

test('checkNfe refuses an incoherent tax unit before anything else of the item', (t) => {
  throwsCode(t, () => checkNfe(aValidNfeBody({ items: [anItem({ unidadeTributavel: 'KG', quantidadeTributavel: 1, valorUnitarioTributavel: 99 })] }), anIssuer()), 'UNIDADE_TRIBUTAVEL_INVALIDA');
});
