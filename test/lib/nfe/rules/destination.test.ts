import test from 'ava';
import { checkNfce, checkNfe } from '../../../../lib/nfe/check.js';
import { resolveIdDest, resolveIndFinal } from '../../../../lib/nfe/rules/destination.js';
import { aValidNfceBody, aValidNfeBody, anIssuer, anItem } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

const exempt = { origem: 0, cst: '40' };

test('resolveIdDest maps the first CFOP digit to 1, 2 and 3', (t) => {
  t.is(resolveIdDest([{ cfop: '5102' }, { cfop: '1202' }], undefined), 1);
  t.is(resolveIdDest([{ cfop: '6102' }, { cfop: '2202' }], undefined), 2);
  t.is(resolveIdDest([{ cfop: '7101' }, { cfop: '3101' }], undefined), 3);
});

test('checkNfe refuses items deriving different idDest (CFOP_IDDEST_DIVERGENTE), even with idDest sent', (t) => {
  const items = [anItem({ icms: exempt }), anItem({ cfop: '6102', icms: exempt })];
  const body = aValidNfeBody({ items, pagamentos: [{ forma: '01', valor: 200 }] });
  const err = throwsCode(t, () => checkNfe(body, anIssuer()), 'CFOP_IDDEST_DIVERGENTE');
  t.deepEqual(err.data, { itens: [{ item: 0, cfop: '5102', idDest: 1 }, { item: 1, cfop: '6102', idDest: 2 }] });
  throwsCode(t, () => checkNfe({ ...body, idDest: 2 }, anIssuer()), 'CFOP_IDDEST_DIVERGENTE');
});

test('checkNfe accepts entry and exit CFOP of the same destination together', (t) => {
  const items = [anItem({ icms: exempt }), anItem({ cfop: '1202', icms: exempt })];
  t.is(checkNfe(aValidNfeBody({ items, pagamentos: [{ forma: '01', valor: 200 }] }), anIssuer()).idDest, 1);
});

test('resolveIndFinal refuses 0 with a CPF or a non-contributor (INDFINAL_INCOERENTE_COM_DESTINATARIO)', (t) => {
  const err = throwsCode(t, () => resolveIndFinal({ cnpjCpf: '52998224725', indicadorIE: 1 }, 0), 'INDFINAL_INCOERENTE_COM_DESTINATARIO');
  t.deepEqual(err.data, { campo: 'indFinal', indicadorIE: 1, documento: 'CPF' });
  throwsCode(t, () => resolveIndFinal({ cnpjCpf: '11444777000161', indicadorIE: 9 }, 0), 'INDFINAL_INCOERENTE_COM_DESTINATARIO');
  throwsCode(t, () => checkNfe(aValidNfeBody({ indFinal: 0 }), anIssuer()), 'INDFINAL_INCOERENTE_COM_DESTINATARIO');
});

test('resolveIndFinal accepts 0 for a contributor and 1 for anyone, defaulting by recipient', (t) => {
  t.is(resolveIndFinal({ cnpjCpf: '11444777000161', indicadorIE: 1 }, 0), 0);
  t.is(resolveIndFinal({ cnpjCpf: '11444777000161', indicadorIE: 2 }, undefined), 0);
  t.is(resolveIndFinal({ cnpjCpf: '11444777000161', indicadorIE: 1 }, 1), 1);
  t.is(resolveIndFinal({ cnpjCpf: '11444777000161', indicadorIE: 9 }, undefined), 1);
  t.is(resolveIndFinal({ cnpjCpf: '52998224725', indicadorIE: 2 }, undefined), 1);
});

test('checkNfce refuses an interstate CFOP (CFOP_IDDEST_DIVERGENTE) and accepts 5xxx', (t) => {
  const err = throwsCode(t, () => checkNfce(aValidNfceBody({ items: [anItem({ cfop: '6102' })] }), anIssuer()), 'CFOP_IDDEST_DIVERGENTE');
  t.like(err.data, { itens: [{ item: 0, cfop: '6102', idDest: 2 }] });
  t.notThrows(() => checkNfce(aValidNfceBody(), anIssuer()));
});
