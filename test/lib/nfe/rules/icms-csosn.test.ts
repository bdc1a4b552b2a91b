import test from 'ava';
import { checkNfce, checkNfe } from '../../../../lib/nfe/check.js';
import { checkIcms } from '../../../../lib/nfe/rules/icms.js';
import type { Icms } from '../../../../lib/nfe/types.js';
import { aSimplesIssuer, aSimplesItem, aValidNfceBody, aValidNfeBody } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

const sn = { crt: 1, model: '55', cfop: '5102' } as const;
const mei = { crt: 4, model: '55', cfop: '5102' } as const;
const icms = (fields: Partial<Icms>): Icms => ({ origem: 0, ...fields });
const st = { modBCST: 4, vBCST: 140, pICMSST: 18, vICMSST: 7.2 };

test('checkIcms accepts the NF-e CSOSN domain for crt 1', (t) => {
  for (const csosn of ['102', '103', '300', '400']) t.notThrows(() => checkIcms(icms({ csosn }), 0, sn), csosn);
  t.notThrows(() => checkIcms(icms({ csosn: '201', ...st, pCredSN: 2.5, vCredICMSSN: 2.5 }), 0, sn));
  for (const csosn of ['202', '203']) t.notThrows(() => checkIcms(icms({ csosn, ...st }), 0, sn), csosn);
});

test('checkIcms refuses CSOSN 500, 900, 101 and unknown values (CSOSN_NAO_SUPORTADO)', (t) => {
  for (const csosn of ['500', '900', '101', '999']) {
    const err = throwsCode(t, () => checkIcms(icms({ csosn }), 0, sn), 'CSOSN_NAO_SUPORTADO');
    t.like(err.data, { item: 0, campos: ['items[0].icms.csosn'] });
  }
});

test('checkIcms refuses ST CSOSN for MEI and in NFC-e (CSOSN_NAO_SUPORTADO)', (t) => {
  throwsCode(t, () => checkIcms(icms({ csosn: '202', ...st }), 0, mei), 'CSOSN_NAO_SUPORTADO');
  throwsCode(t, () => checkIcms(icms({ csosn: '103' }), 0, mei), 'CSOSN_NAO_SUPORTADO');
  throwsCode(t, () => checkIcms(icms({ csosn: '202', ...st }), 0, { ...sn, model: '65' }), 'CSOSN_NAO_SUPORTADO');
  throwsCode(t, () => checkNfce(aValidNfceBody({ items: [aSimplesItem({ icms: icms({ csosn: '201', ...st, pCredSN: 1, vCredICMSSN: 1 }) })], pagamentos: [{ forma: '01', valor: 107.2 }] }), aSimplesIssuer()), 'CSOSN_NAO_SUPORTADO');
});

test('checkNfce accepts CSOSN 102 for a Simples issuer', (t) => {
  t.notThrows(() => checkNfce(aValidNfceBody({ items: [aSimplesItem()] }), aSimplesIssuer()));
});

test('checkIcms refuses values with CSOSN without ICMS (CSOSN_VALORES_NAO_SUPORTADOS)', (t) => {
  for (const field of ['aliquota', 'baseCalculo', 'valor'] as const) {
    const err = throwsCode(t, () => checkIcms(icms({ csosn: '102', [field]: 1 }), 2, sn), 'CSOSN_VALORES_NAO_SUPORTADOS');
    t.like(err.data, { item: 2, campos: [`items[2].icms.${field}`] });
  }
  throwsCode(t, () => checkIcms(icms({ csosn: '400', vBC: 1 }), 0, sn), 'CSOSN_VALORES_NAO_SUPORTADOS');
});

test('checkIcms requires the ST group and the credit pair with CSOSN 201 (ICMS_ST_INCOMPLETO)', (t) => {
  const noCredit = throwsCode(t, () => checkIcms(icms({ csosn: '201', ...st, pCredSN: 2.5 }), 0, sn), 'ICMS_ST_INCOMPLETO');
  t.like(noCredit.data, { campos: ['items[0].icms.vCredICMSSN'] });
  throwsCode(t, () => checkIcms(icms({ csosn: '202', modBCST: 4 }), 0, sn), 'ICMS_ST_INCOMPLETO');
});

test('checkIcms refuses credit with 202/203 and own ICMS or cst with ST CSOSN (ICMS_ST_INVALIDO)', (t) => {
  throwsCode(t, () => checkIcms(icms({ csosn: '202', ...st, pCredSN: 1, vCredICMSSN: 1 }), 0, sn), 'ICMS_ST_INVALIDO');
  throwsCode(t, () => checkIcms(icms({ csosn: '203', ...st, vBC: 100 }), 0, sn), 'ICMS_ST_INVALIDO');
  throwsCode(t, () => checkIcms(icms({ csosn: '201', ...st, pCredSN: 1, vCredICMSSN: 1, modBC: 3 }), 0, sn), 'ICMS_ST_INVALIDO');
  throwsCode(t, () => checkIcms(icms({ csosn: '201', cst: '10', ...st, pCredSN: 1, vCredICMSSN: 1 }), 0, sn), 'ICMS_ST_INVALIDO');
});

test('checkNfe refuses MEI CSOSN 102 with a CFOP other than 5102/6102 (CSOSN_CFOP_MEI_INCOMPATIVEL)', (t) => {
  const err = throwsCode(t, () => checkNfe(aValidNfeBody({ items: [aSimplesItem({ cfop: '5405' })] }), aSimplesIssuer({ crt: 4 })), 'CSOSN_CFOP_MEI_INCOMPATIVEL');
  t.like(err.data, { item: 0, campo: 'items[0].cfop', cfop: '5405' });
  throwsCode(t, () => checkNfce(aValidNfceBody({ items: [aSimplesItem({ cfop: '5405' })] }), aSimplesIssuer({ crt: 4 })), 'CSOSN_CFOP_MEI_INCOMPATIVEL');
});

test('checkNfe accepts MEI CSOSN 102 with 5102 and 6102, NFC-e with 5102', (t) => {
  const meiIssuer = aSimplesIssuer({ crt: 4 });
  t.notThrows(() => checkNfe(aValidNfeBody({ items: [aSimplesItem()] }), meiIssuer));
  t.notThrows(() => checkNfe(aValidNfeBody({ items: [aSimplesItem({ cfop: '6102' })] }), meiIssuer));
  t.notThrows(() => checkNfce(aValidNfceBody({ items: [aSimplesItem()] }), meiIssuer));
});
