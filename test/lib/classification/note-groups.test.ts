import test from 'ava';
import { applyResolution, defaultCsosn, itemsToResolve, sentIbsCbs } from '../../../lib/classification/note-groups.js';
import type { ResolvedClass } from '../../../lib/classification/resolve.js';
import { validateNfeBody } from '../../../lib/nfe/validate.js';
import { checkNfe } from '../../../lib/nfe/check.js';
import { aValidNfeBody, anIssuer, anItem } from '../../support/nfe-factories.js';

const reduced: ResolvedClass = {
  index: 0, origem: 'ncm_unica', cst: '200', cClassTrib: '200034', nome: 'Alimentos (Anexo VII)',
  rates: { ibsUf: { nominal: 1000, pRed: 600_000, p: 400 }, ibsMun: { nominal: 0, pRed: 600_000, p: 0 }, cbs: { nominal: 9000, pRed: 600_000, p: 3600 } },
};

test('sentIbsCbs tells nothing, a hint (cst only when really sent) and a complete group apart; a partial group is left to IBSCBS_INCOMPLETO', (t) => {
  const raw = { ibsCbs: { cClassTrib: '200003' } };
  const body = validateNfeBody(aValidNfeBody({ items: [anItem({ ibsCbs: raw.ibsCbs as any })] }));
  t.deepEqual(sentIbsCbs(body.items[0]!, raw), { kind: 'hint', cClassTrib: '200003' });
  t.deepEqual(sentIbsCbs(anItem(), {}), { kind: 'none' });
  const complete = { cst: '200', cClassTrib: '200034', ibsUf: { p: 0.04, pNominal: 0.1, pRedAliq: 60 }, ibsMun: { p: 0 }, cbs: { p: 0.36, pNominal: 0.9, pRedAliq: 60 } };
  t.deepEqual(sentIbsCbs(anItem({ ibsCbs: complete as any }), { ibsCbs: complete }), {
    kind: 'complete', cClassTrib: '200034', cst: '200', pRedAliq: { ibsUf: 600_000, ibsMun: 0, cbs: 600_000 }, nominal: { ibsUf: 1000, ibsMun: 0, cbs: 9000 },
  });
  t.is(sentIbsCbs(anItem({ ibsCbs: { cst: '000', cClassTrib: '000001', cbs: { p: 0.9 } } as any }), {}), null);
  t.deepEqual(itemsToResolve([anItem({ ibsCbs: { cst: '000', cClassTrib: '000001', cbs: { p: 0.9 } } as any }), anItem()], [{}, {}]).map((i) => i.index), [1]);
});

test('defaultCsosn: 102 for a Simples plain sale with only the origin; never over a sent one; MEI only 5102/6102', (t) => {
  t.is(defaultCsosn({ origem: 0 } as any, '5102', 1, '55'), '102');
  t.is(defaultCsosn({ origem: 0, csosn: '103' } as any, '5102', 1, '55'), null);
  t.is(defaultCsosn({ origem: 0 } as any, '5102', 3, '55'), null, 'regime normal uses CST');
  t.is(defaultCsosn({ origem: 0 } as any, '5405', 1, '55'), null, 'a sale under ST is not a plain sale');
  t.is(defaultCsosn({ origem: 0 } as any, '6102', 4, '55'), '102');
  t.is(defaultCsosn({ origem: 0 } as any, '5101', 4, '55'), null);
  t.is(defaultCsosn({ origem: 0 } as any, '6102', 4, '65'), null);
});

test('applyResolution fills the group (pNominal/pRedAliq only with a reduction) and the rules compute vBC and the values', (t) => {
  const body = validateNfeBody(aValidNfeBody());
  const { body: filled, views } = applyResolution(body, [reduced], new Map(), 'fonte');
  t.deepEqual(filled.items[0]!.ibsCbs, { cst: '200', cClassTrib: '200034', ibsUf: { p: 0.04, pNominal: 0.1, pRedAliq: 60 }, ibsMun: { p: 0, pNominal: 0, pRedAliq: 60 }, cbs: { p: 0.36, pNominal: 0.9, pRedAliq: 60 } });
  t.is(body.items[0]!.ibsCbs, undefined, 'the input body is not mutated');
  t.deepEqual(views, [{ index: 0, codigo: 'SKU-001', ibsCbs: { cst: '200', cClassTrib: '200034', nome: 'Alimentos (Anexo VII)', origem: 'ncm_unica', fonte: 'fonte', pIBSUF: 0.04, pIBSMun: 0, pCBS: 0.36, pRedIBS: 60, pRedCBS: 60 } }]);
  const checked = checkNfe(filled, anIssuer());
  t.like(checked.items[0]!.ibsCbsResolved, { vBC: 10_000n, vIbs: 4n, cbs: { p: '0.3600', pNominal: '0.9000', pRedAliq: '60.0000', v: 36n } });
});
