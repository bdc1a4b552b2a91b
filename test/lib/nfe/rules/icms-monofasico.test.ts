import test from 'ava';
import { checkNfce, checkNfe } from '../../../../lib/nfe/check.js';
import type { Combustivel, Icms } from '../../../../lib/nfe/types.js';
import { aSimplesIssuer, aValidNfceBody, aValidNfeBody, anIssuer, anItem } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

const diesel: Combustivel = { cProdANP: '820101034', descANP: 'OLEO DIESEL B S10 - COMUM', ufConsumo: 'SP' };
const glp: Combustivel = { cProdANP: '210203001', descANP: 'GLP', pGLP: 100, pGNn: 0, pGNi: 0, ufConsumo: 'SP' };
// 100 L × R$ 1.1200/L = 112.00 of monofasic ICMS.
const mono02: Icms = { origem: 0, cst: '02', qBCMono: 100, adRemICMS: 1.12, vICMSMono: 112 };
const mono61: Icms = { origem: 0, cst: '61', qBCMonoRet: 100, adRemICMSRet: 1.12, vICMSMonoRet: 112 };
const fuelItem = (icms: Icms, extra: object = {}) => anItem({ cfop: '5656', unidade: 'L', quantidade: 100, valorUnitario: 6, ncm: '27101921', icms, combustivel: diesel, ...extra });
const paid = { pagamentos: [{ forma: '01', valor: 600 }] };

test('checkNfe accepts monofasic CST 02 and 61 with the fuel group, in both regimes', (t) => {
  t.notThrows(() => checkNfe(aValidNfeBody({ items: [fuelItem(mono02)], ...paid }), anIssuer()));
  t.notThrows(() => checkNfe(aValidNfeBody({ items: [fuelItem(mono61)], ...paid }), anIssuer()));
  t.notThrows(() => checkNfe(aValidNfeBody({ items: [fuelItem(mono61)], ...paid }), aSimplesIssuer()));
});

test('checkNfce accepts CST 61 and refuses CST 02 (ICMS_MONOFASICO_NAO_SUPORTADO)', (t) => {
  t.notThrows(() => checkNfce(aValidNfceBody({ items: [fuelItem(mono61, { cfop: '5656' })], ...paid }), anIssuer()));
  throwsCode(t, () => checkNfce(aValidNfceBody({ items: [fuelItem(mono02)], ...paid }), anIssuer()), 'ICMS_MONOFASICO_NAO_SUPORTADO');
});

test('checkNfe refuses monofasic CST 15 and 53 (ICMS_MONOFASICO_NAO_SUPORTADO)', (t) => {
  for (const cst of ['15', '53']) {
    const err = throwsCode(t, () => checkNfe(aValidNfeBody({ items: [fuelItem({ origem: 0, cst })], ...paid }), anIssuer()), 'ICMS_MONOFASICO_NAO_SUPORTADO');
    t.like(err.data, { item: 0, campos: ['items[0].icms.cst'] });
  }
});

test('checkNfe refuses a monofasic value different from quantity × ad rem rate (ICMS_INVALIDO)', (t) => {
  const err = throwsCode(t, () => checkNfe(aValidNfeBody({ items: [fuelItem({ ...mono02, vICMSMono: 112.02 })], ...paid }), anIssuer()), 'ICMS_INVALIDO');
  t.like(err.data, { esperado: '112.00' });
  throwsCode(t, () => checkNfe(aValidNfeBody({ items: [fuelItem({ origem: 0, cst: '61', vICMSMonoRet: 1 })], ...paid }), anIssuer()), 'ICMS_INVALIDO');
});

test('checkNfe refuses monofasic CST or a fuel CFOP without combustivel (COMBUSTIVEL_GRUPO_OBRIGATORIO)', (t) => {
  const err = throwsCode(t, () => checkNfe(aValidNfeBody({ items: [fuelItem(mono61, { combustivel: undefined })], ...paid }), anIssuer()), 'COMBUSTIVEL_GRUPO_OBRIGATORIO');
  t.like(err.data, { item: 0, campo: 'items[0].combustivel' });
  throwsCode(t, () => checkNfe(aValidNfeBody({ items: [fuelItem({ origem: 0, cst: '60' }, { combustivel: undefined })], ...paid }), anIssuer()), 'COMBUSTIVEL_GRUPO_OBRIGATORIO');
});

test('checkNfe accepts a fuel CFOP with the combustivel group, and a non-fuel CFOP without it', (t) => {
  t.notThrows(() => checkNfe(aValidNfeBody({ items: [fuelItem({ origem: 0, cst: '60' })], ...paid }), anIssuer()));
  t.notThrows(() => checkNfe(aValidNfeBody(), anIssuer()));
});

test('checkNfe requires the tax unit kg for GLP (UNIDADE_TRIBUTAVEL_INVALIDA)', (t) => {
  const bottle = { unidade: 'BOTIJ', quantidade: 1, valorUnitario: 130, combustivel: glp, cfop: '5656', icms: { origem: 0, cst: '60' } };
  const err = throwsCode(t, () => checkNfe(aValidNfeBody({ items: [anItem(bottle)], pagamentos: [{ forma: '01', valor: 130 }] }), anIssuer()), 'UNIDADE_TRIBUTAVEL_INVALIDA');
  t.like(err.data, { campo: 'items[0].unidadeTributavel', recebido: 'BOTIJ' });
  const inKg = anItem({ ...bottle, unidadeTributavel: 'kg', quantidadeTributavel: 13, valorUnitarioTributavel: 10 });
  t.notThrows(() => checkNfe(aValidNfeBody({ items: [inKg], pagamentos: [{ forma: '01', valor: 130 }] }), anIssuer()));
});
