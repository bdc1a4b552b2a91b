import test from 'ava';
import { checkNfce } from '../../../../lib/nfe/check.js';
import { validateNfceBody } from '../../../../lib/nfe/validate.js';
import { DEFAULT_JUSTIFICATIVA_CONTINGENCIA } from '../../../../lib/nfe/rules/nfce.js';
import { aValidNfceBody, anIssuer, anItem } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

test('checkNfce refuses a justification of 14 or 257 characters (JUSTIFICATIVA_CONTINGENCIA_INVALIDA)', (t) => {
  for (const size of [14, 257]) {
    const err = throwsCode(t, () => checkNfce(aValidNfceBody({ contingencia: true, justificativaContingencia: 'x'.repeat(size) }), anIssuer()), 'JUSTIFICATIVA_CONTINGENCIA_INVALIDA');
    t.deepEqual(err.data, { campo: 'justificativaContingencia', tamanho: size, minimo: 15, maximo: 256 });
  }
});

test('checkNfce keeps a justification of 15 and 256 characters exactly as sent', (t) => {
  for (const text of ['a'.repeat(15), 'ç'.repeat(256)]) {
    const note = checkNfce(aValidNfceBody({ contingencia: true, justificativaContingencia: text }), anIssuer());
    t.deepEqual(note.contingencia, { requested: true, justificativa: text });
  }
});

test('checkNfce uses the default justification when none is sent', (t) => {
  t.deepEqual(checkNfce(aValidNfceBody({ contingencia: false }), anIssuer()).contingencia, { requested: false, justificativa: DEFAULT_JUSTIFICATIVA_CONTINGENCIA });
});

test('checkNfce refuses IPI with any content (IPI_NAO_SUPORTADO)', (t) => {
  const err = throwsCode(t, () => checkNfce(aValidNfceBody({ items: [anItem({ ipi: { cst: '53', cEnq: '999' } })] }), anIssuer()), 'IPI_NAO_SUPORTADO');
  t.deepEqual(err.data, { item: 0, campo: 'items[0].ipi' });
});

test('checkNfce refuses ICMS ST (ICMS_ST_NAO_SUPORTADO)', (t) => {
  const st = { origem: 0, cst: '10', vBC: 100, pICMS: 18, vICMS: 18, modBCST: 4, vBCST: 140, pICMSST: 18, vICMSST: 7.2 };
  throwsCode(t, () => checkNfce(aValidNfceBody({ items: [anItem({ icms: st })], pagamentos: [{ forma: '01', valor: 107.2 }] }), anIssuer()), 'ICMS_ST_NAO_SUPORTADO');
  const cst90 = { origem: 0, cst: '90', modBCST: 4, vBCST: 140, pICMSST: 18, vICMSST: 7.2 };
  throwsCode(t, () => checkNfce(aValidNfceBody({ items: [anItem({ icms: cst90 })], pagamentos: [{ forma: '01', valor: 107.2 }] }), anIssuer()), 'ICMS_ST_NAO_SUPORTADO');
});

test('checkNfce accepts CST 00, 20, 40, 41, 60, 90 without ST', (t) => {
  const variants = [
    { origem: 0, cst: '00', vBC: 100, pICMS: 18, vICMS: 18 },
    { origem: 0, cst: '20', pRedBC: 10, vBC: 90, pICMS: 18, vICMS: 16.2 },
    { origem: 0, cst: '40' }, { origem: 0, cst: '41' }, { origem: 0, cst: '60' }, { origem: 0, cst: '90' },
  ];
  for (const icms of variants) t.notThrows(() => checkNfce(aValidNfceBody({ items: [anItem({ icms })] }), anIssuer()), icms.cst);
});

test('checkNfce refuses an IPI group of any shape before the item rules (IPI_NAO_SUPORTADO, issue 22 item 3)', (t) => {
  for (const ipi of [{}, { cEnq: '999' }, 0, '', 'IPI', [], { cst: 'x' }]) {
    const body = validateNfceBody(aValidNfceBody({ items: [anItem(), anItem({ ipi: ipi as any, icms: { origem: 0, cst: '99' } })] }));
    const err = throwsCode(t, () => checkNfce(body, anIssuer()), 'IPI_NAO_SUPORTADO');
    t.deepEqual(err.data, { item: 1, campo: 'items[1].ipi' }, JSON.stringify(ipi));
  }
});
