import test from 'ava';
import { checkNfe } from '../../../../lib/nfe/check.js';
import { checkIcms } from '../../../../lib/nfe/rules/icms.js';
import type { Icms } from '../../../../lib/nfe/types.js';
import { aValidNfeBody, anIssuer, anItem } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

const ctx = { crt: 3, model: '55', cfop: '5102' } as const;
const icms = (fields: Partial<Icms>): Icms => ({ origem: 0, ...fields });
const st = { modBCST: 4, pMVAST: 40, vBCST: 140, pICMSST: 18, vICMSST: 7.2 };

test('checkIcms refuses the old ST names (ICMS_ST_NAO_SUPORTADO)', (t) => {
  const err = throwsCode(t, () => checkIcms({ ...icms({ cst: '00', vBC: 100, pICMS: 18, vICMS: 18 }), baseCalculoST: 1, valorST: 2 } as Icms, 0, ctx), 'ICMS_ST_NAO_SUPORTADO');
  t.deepEqual(err.data, { item: 0, campos: ['items[0].icms.baseCalculoST', 'items[0].icms.valorST'], motivo: 'use modBCST, vBCST, pICMSST e vICMSST' });
});

test('checkNfe refuses the old ST names through the whole chain', (t) => {
  throwsCode(t, () => checkNfe(aValidNfeBody({ items: [anItem({ icms: { origem: 0, cst: '00', vBC: 100, pICMS: 18, vICMS: 18, aliquotaST: 1 } as Icms })] }), anIssuer()), 'ICMS_ST_NAO_SUPORTADO');
});

test('checkIcms accepts CST 00 with classic names and writes them as layout names with modBC 3', (t) => {
  t.deepEqual(checkIcms(icms({ cst: '00', baseCalculo: 100, aliquota: 18, valor: 18 }), 0, ctx), icms({ cst: '00', vBC: 100, pICMS: 18, vICMS: 18, modBC: 3 }));
});

test('checkIcms refuses CST 00 whose vICMS differs from vBC × pICMS by more than 0.01 (ICMS_INVALIDO)', (t) => {
  const err = throwsCode(t, () => checkIcms(icms({ cst: '00', vBC: 100, pICMS: 18, vICMS: 18.02 }), 0, ctx), 'ICMS_INVALIDO');
  t.like(err.data, { esperado: '18.00', recebido: '18.02' });
  t.notThrows(() => checkIcms(icms({ cst: '00', vBC: 100, pICMS: 18, vICMS: 18.01 }), 0, ctx));
  t.notThrows(() => checkIcms(icms({ cst: '00', vBC: 33.33, pICMS: 17.5, vICMS: 5.83 }), 0, ctx));
});

test('checkIcms refuses classic names with ST and benefit CSTs', (t) => {
  throwsCode(t, () => checkIcms(icms({ cst: '10', baseCalculo: 100, aliquota: 18, valor: 18, ...st }), 0, ctx), 'ICMS_ST_INVALIDO');
  throwsCode(t, () => checkIcms(icms({ cst: '20', baseCalculo: 90, aliquota: 18, valor: 16.2, pRedBC: 10 }), 0, ctx), 'ICMS_BENEFICIO_INVALIDO');
  throwsCode(t, () => checkIcms(icms({ cst: '00', baseCalculo: 100, vBC: 100, pICMS: 18, vICMS: 18 }), 0, ctx), 'ICMS_INVALIDO');
});

test('checkIcms refuses ST CST whose own vICMS is incoherent (ICMS_ST_INVALIDO)', (t) => {
  throwsCode(t, () => checkIcms(icms({ cst: '10', vBC: 100, pICMS: 18, vICMS: 20, ...st }), 0, ctx), 'ICMS_ST_INVALIDO');
  throwsCode(t, () => checkIcms(icms({ cst: '70', pRedBC: 10, vBC: 90, pICMS: 18, vICMS: 10, ...st }), 0, ctx), 'ICMS_ST_INVALIDO');
});

test('checkIcms accepts CST 10 and 70 with complete own ICMS and ST (vICMSST never recomputed)', (t) => {
  t.notThrows(() => checkIcms(icms({ cst: '10', vBC: 100, pICMS: 18, vICMS: 18, ...st, vICMSST: 999 }), 0, ctx));
  t.notThrows(() => checkIcms(icms({ cst: '70', pRedBC: 10, vBC: 90, pICMS: 18, vICMS: 16.2, ...st }), 0, ctx));
});

test('checkIcms refuses benefit CST whose vICMS is incoherent or pRedBC missing (ICMS_BENEFICIO_INVALIDO)', (t) => {
  throwsCode(t, () => checkIcms(icms({ cst: '20', pRedBC: 10, vBC: 90, pICMS: 18, vICMS: 18 }), 0, ctx), 'ICMS_BENEFICIO_INVALIDO');
  const err = throwsCode(t, () => checkIcms(icms({ cst: '20', vBC: 90, pICMS: 18, vICMS: 16.2 }), 0, ctx), 'ICMS_BENEFICIO_INVALIDO');
  t.like(err.data, { campos: ['items[0].icms.pRedBC'] });
  throwsCode(t, () => checkIcms(icms({ cst: '51', vBC: 100, pICMS: 18 }), 0, ctx), 'ICMS_BENEFICIO_INVALIDO');
  throwsCode(t, () => checkIcms(icms({ cst: '90', vBC: 100, pICMS: 18, vICMS: 1 }), 0, ctx), 'ICMS_BENEFICIO_INVALIDO');
  throwsCode(t, () => checkIcms(icms({ cst: '40', vICMSDeson: 10 }), 0, ctx), 'ICMS_BENEFICIO_INVALIDO');
});

test('checkIcms accepts CST 20, 51 and 90 coherent, 51 and 90 without values, desoneração complete', (t) => {
  t.notThrows(() => checkIcms(icms({ cst: '20', pRedBC: 10, vBC: 90, pICMS: 18, vICMS: 16.2, vICMSDeson: 1.8, motDesICMS: 9 }), 0, ctx));
  t.notThrows(() => checkIcms(icms({ cst: '51', pRedBC: 0, vBC: 100, pICMS: 18, vICMS: 18 }), 0, ctx));
  t.notThrows(() => checkIcms(icms({ cst: '51' }), 0, ctx));
  t.notThrows(() => checkIcms(icms({ cst: '90' }), 0, ctx));
  t.notThrows(() => checkIcms(icms({ cst: '40', vICMSDeson: 10, motDesICMS: 7 }), 0, ctx));
});

test('checkIcms refuses ST charged without its required fields (ICMS_ST_INCOMPLETO)', (t) => {
  const err = throwsCode(t, () => checkIcms(icms({ cst: '30', modBCST: 4, vBCST: 140 }), 0, ctx), 'ICMS_ST_INCOMPLETO');
  t.like(err.data, { campos: ['items[0].icms.pICMSST', 'items[0].icms.vICMSST'] });
  throwsCode(t, () => checkIcms(icms({ cst: '10', vBC: 100, pICMS: 18, vICMS: 18 }), 0, ctx), 'ICMS_ST_INCOMPLETO');
  throwsCode(t, () => checkIcms(icms({ cst: '90', vICMSST: 1 }), 0, ctx), 'ICMS_ST_INCOMPLETO');
});

test('checkIcms accepts CST 30 with the four ST fields only', (t) => {
  t.notThrows(() => checkIcms(icms({ cst: '30', modBCST: 4, vBCST: 140, pICMSST: 18, vICMSST: 7.2 }), 0, ctx));
  throwsCode(t, () => checkIcms(icms({ cst: '30', vBC: 1, modBCST: 4, vBCST: 140, pICMSST: 18, vICMSST: 7.2 }), 0, ctx), 'ICMS_ST_INVALIDO');
});

test('checkIcms refuses a partial FCP block (FCP_INCOMPLETO) and accepts a complete one', (t) => {
  const err = throwsCode(t, () => checkIcms(icms({ cst: '00', vBC: 100, pICMS: 18, vICMS: 18, pFCP: 2, vFCP: 2 }), 0, ctx), 'FCP_INCOMPLETO');
  t.like(err.data, { campos: ['items[0].icms.vBCFCP'] });
  throwsCode(t, () => checkIcms(icms({ cst: '10', vBC: 100, pICMS: 18, vICMS: 18, ...st, vFCPST: 1 }), 0, ctx), 'FCP_INCOMPLETO');
  t.notThrows(() => checkIcms(icms({ cst: '00', vBC: 100, pICMS: 18, vICMS: 18, vBCFCP: 100, pFCP: 2, vFCP: 2 }), 0, ctx));
  t.notThrows(() => checkIcms(icms({ cst: '10', vBC: 100, pICMS: 18, vICMS: 18, ...st, vBCFCPST: 140, pFCPST: 2, vFCPST: 2.8 }), 0, ctx));
});

test('checkIcms refuses CSTs outside the domain and values on CSTs without them (ICMS_INVALIDO)', (t) => {
  for (const cst of ['01', '99', '80']) throwsCode(t, () => checkIcms(icms({ cst }), 0, ctx), 'ICMS_INVALIDO');
  throwsCode(t, () => checkIcms(icms({ cst: '40', vBC: 1 }), 0, ctx), 'ICMS_INVALIDO');
  throwsCode(t, () => checkIcms(icms({ cst: '60', pFCP: 1, vBCFCP: 1, vFCP: 0.01 }), 0, ctx), 'ICMS_INVALIDO');
  throwsCode(t, () => checkIcms(icms({}), 0, ctx), 'ICMS_INVALIDO');
});

test('checkIcms refuses a CST from a Simples issuer and a CSOSN from a regime-normal issuer (ICMS_INVALIDO)', (t) => {
  throwsCode(t, () => checkIcms(icms({ cst: '00', vBC: 100, pICMS: 18, vICMS: 18 }), 0, { ...ctx, crt: 1 }), 'ICMS_INVALIDO');
  throwsCode(t, () => checkIcms(icms({ csosn: '102' }), 0, ctx), 'ICMS_INVALIDO');
  t.notThrows(() => checkIcms(icms({ cst: '00', vBC: 100, pICMS: 18, vICMS: 18 }), 0, { ...ctx, crt: 2 }));
});
