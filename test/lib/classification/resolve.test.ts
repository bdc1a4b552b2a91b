import test from 'ava';
import { indexTable } from '../../../lib/classification/correlation.js';
import { confirmClass, recordMulticlassRefusal } from '../../../lib/classification/memory.js';
import { CODE_OF, resolveItems, type ItemToResolve, type ResolveInput } from '../../../lib/classification/resolve.js';
import type { ProductClass } from '../../../lib/classification/types.js';
import { CLASS_GROUP_FLAGS } from '../../../lib/classification/table-files.js';
import { aClass, aSmallTable } from '../../support/class-table.js';

const index = indexTable(aSmallTable());
const RICE = { index: 0, codigo: 'ARROZ', ncm: '10063021', cfop: '5102' };
const SHIRT = { index: 0, codigo: 'CAMISA', ncm: '61091000', cfop: '5102' };
const SHRIMP = { index: 0, codigo: 'CAMARAO', ncm: '03061700', cfop: '5102' };

function run(items: ItemToResolve[], over: Partial<ResolveInput> = {}, memory: ProductClass[] = []) {
  return resolveItems({ index, model: '55', day: '2026-11-25', items, memory: new Map(memory.map((m) => [m.codigo, m])), ...over });
}
const only = (r: ReturnType<typeof run>) => {
  if (r.unresolved.length) throw new Error(JSON.stringify(r.unresolved));
  return r.resolved[0]!;
};

test('the single candidate of the NCM is used (ncm_unica) with the year\'s full rates, and is not recorded (memory rule 1)', (t) => {
  const r = run([{ ...SHIRT, sent: { kind: 'none' } }]);
  t.deepEqual(only(r), {
    index: 0, origem: 'ncm_unica', cst: '000', cClassTrib: '000001', nome: 'Classe 000001',
    rates: { ibsUf: { nominal: 1000, pRed: 0, p: 1000 }, ibsMun: { nominal: 0, pRed: 0, p: 0 }, cbs: { nominal: 9000, pRed: 0, p: 9000 } },
  });
  t.deepEqual(r.sentClasses, []);
});

test('the stored class of the item code is reused (memoria) when it is still an admitted candidate; a reduced class has effective rates', (t) => {
  const r = only(run([{ ...SHRIMP, sent: { kind: 'none' } }], {}, [confirmClass('CAMARAO', '03061700', '200034', false)]));
  t.like(r, { origem: 'memoria', cClassTrib: '200034', cst: '200' });
  t.deepEqual(r.rates, { ibsUf: { nominal: 1000, pRed: 600_000, p: 400 }, ibsMun: { nominal: 0, pRed: 600_000, p: 0 }, cbs: { nominal: 9000, pRed: 600_000, p: 3600 } });
  const reused = run([{ ...SHRIMP, sent: { kind: 'none' } }], {}, [confirmClass('CAMARAO', '03061700', '200034', false)]);
  t.deepEqual(reused.sentClasses, [], 'a reused class is not recorded (memory rule 1)');
});

test('NCM_MULTICLASSE: several admitted candidates and no stored class, with the candidates listed', (t) => {
  const r = run([{ ...SHRIMP, sent: { kind: 'none' } }], {}, [recordMulticlassRefusal(undefined, 'CAMARAO', '03061700')]);
  t.is(CODE_OF[r.unresolved[0]!.motivo], 'NCM_MULTICLASSE');
  t.deepEqual(r.unresolved[0]!.candidatas!.map((c) => c.cClassTrib), ['000001', '200034']);
});

test('NCM_SEM_CLASSE_AUTOMATICA: an operation that is not a sale, a 2-digit NCM, or no candidate admitted in the model', (t) => {
  const notSale = run([{ ...SHIRT, cfop: '5910', sent: { kind: 'none' } }]).unresolved[0]!;
  t.deepEqual([CODE_OF[notSale.motivo], notSale.mensagem], ['NCM_SEM_CLASSE_AUTOMATICA', 'CFOP 5910 não é venda: a classe depende da operação; informe em ibsCbs.cClassTrib a classe da operação (ex.: 410001 bonificação, 410003 doação) ou a do produto']);
  t.is(run([{ ...SHIRT, ncm: '61', sent: { kind: 'none' } }]).unresolved[0]!.motivo, 'ncm_sem_classe_automatica');
  const nfceOnly = indexTable({ ...aSmallTable(), classes: aSmallTable().classes.map((c) => ({ ...c, indNFCe: false })) });
  const none = run([{ ...SHIRT, sent: { kind: 'none' } }], { index: nfceOnly, model: '65' }).unresolved[0]!;
  t.deepEqual([none.motivo, none.mensagem], ['ncm_sem_classe_automatica', 'nenhuma classe candidata do NCM 61091000 é admitida na NFC-e']);
});

test('CCLASSTRIB_INVALIDO_PARA_NCM: a hint that is not a candidate, unknown, or out of force', (t) => {
  const wrong = run([{ ...SHIRT, sent: { kind: 'hint', cClassTrib: '200003' } }]).unresolved[0]!;
  t.deepEqual([CODE_OF[wrong.motivo], wrong.mensagem], ['CCLASSTRIB_INVALIDO_PARA_NCM', 'cClassTrib 200003 não é classe candidata do NCM 61091000']);
  t.is(run([{ ...SHIRT, sent: { kind: 'hint', cClassTrib: '999999' } }]).unresolved[0]!.mensagem, 'cClassTrib 999999 não existe na tabela teste');
  t.is(run([{ ...RICE, sent: { kind: 'hint', cClassTrib: '200003' } }], { day: '2025-12-31' }).unresolved[0]!.mensagem, 'cClassTrib 200003 fora de vigência em 2025-12-31');
});

test('CCLASSTRIB_INADMISSIVEL_NO_MODELO: a candidate with indNFCe = 0 sent in an NFC-e', (t) => {
  const r = run([{ ...RICE, sent: { kind: 'hint', cClassTrib: '200003' } }], { model: '65' }).unresolved[0]!;
  t.deepEqual([CODE_OF[r.motivo], r.mensagem], ['CCLASSTRIB_INADMISSIVEL_NO_MODELO', 'cClassTrib 200003 não é admitido na NFC-e (indNFCe = 0)']);
  t.deepEqual(r.candidatas!.map((c) => c.cClassTrib), ['000001']);
});

test('ESPELHO_FISCAL_DIVERGENTE: an explicit reduction or CST that contradicts the class', (t) => {
  const complete = (pRed: number) => ({ kind: 'complete' as const, cClassTrib: '200034', pRedAliq: { ibsUf: pRed, ibsMun: 0, cbs: pRed }, nominal: { ibsUf: 1000, ibsMun: 0, cbs: 9000 } });
  const r = run([{ ...SHRIMP, sent: complete(1_000_000) }]).unresolved[0]!;
  t.deepEqual([CODE_OF[r.motivo], r.mensagem], ['ESPELHO_FISCAL_DIVERGENTE', 'redução informada (ibsUf.pRedAliq 100 %, cbs.pRedAliq 100 %) diverge da classe 200034 (pRedIBS 60 %, pRedCBS 60 %)']);
  // The matching reduction passes (ibsMun, whose full rate is 0, is not compared) and the class is recorded.
  const ok = run([{ ...SHRIMP, sent: complete(600_000) }]);
  t.deepEqual([ok.unresolved, ok.resolved, ok.sentClasses], [[], [], [{ codigo: 'CAMARAO', ncm: '03061700', cClassTrib: '200034' }]]);
  const cst = run([{ ...SHRIMP, sent: { kind: 'hint', cClassTrib: '200034', cst: '000' } }]).unresolved[0]!;
  t.deepEqual([cst.motivo, cst.mensagem], ['espelho_fiscal_divergente', 'CST 000 informado diverge do CST 200 da classe 200034']);
});

test('TRIBUTACAO_NAO_RESOLVIDA: a year without loaded rates', (t) => {
  const r = run([{ ...SHIRT, sent: { kind: 'none' } }], { day: '2027-01-04' }).unresolved[0]!;
  t.deepEqual([CODE_OF[r.motivo], r.mensagem], ['TRIBUTACAO_NAO_RESOLVIDA', 'alíquotas do IBS/CBS de 2027 não carregadas (tabela teste)']);
});

test('a sent hint is resolved as informada and listed for the memory; every item is judged, not only the first', (t) => {
  const r = run([{ ...RICE, sent: { kind: 'hint', cClassTrib: '200003' } }, { ...SHIRT, index: 1, sent: { kind: 'hint', cClassTrib: '200003' } }, { ...SHRIMP, index: 2, sent: { kind: 'none' } }]);
  t.deepEqual(r.resolved.map((x) => [x.index, x.origem, x.cClassTrib]), [[0, 'informada', '200003']]);
  t.deepEqual(r.unresolved.map((u) => [u.index, u.motivo]), [[1, 'cclasstrib_invalido_para_ncm'], [2, 'ncm_multiclasse']]);
  t.deepEqual(r.sentClasses, [{ codigo: 'ARROZ', ncm: '10063021', cClassTrib: '200003' }]);
});

/** The small table plus operation classes (ANEXO empty): a bonus (CST 410, no gIBSCBS) and a suspension flagged gTribRegular. */
function withOperationClasses(flagged: Partial<Parameters<typeof aClass>[0]> = {}) {
  const base = aSmallTable();
  return indexTable({
    ...base,
    classes: [...base.classes, aClass({ cClassTrib: '410001' }), aClass({ cClassTrib: '410004', indNFCe: false }), aClass({ cClassTrib: '550001', grupos: ['gTribRegular'], ...flagged })],
    csts: [...base.csts, { cst: '410', descricao: 'Imunidade', grupos: [] }, { cst: '550', descricao: 'Suspensão', grupos: ['gIBSCBS'] }],
  });
}

test('an operation that is not a sale accepts the operation class it sends (ANEXO empty, in force, admitted), with zero rates for CST 410, not recorded', (t) => {
  const ops = withOperationClasses();
  const r = run([{ ...SHIRT, cfop: '5910', sent: { kind: 'hint', cClassTrib: '410001' } }], { index: ops });
  t.deepEqual(only(r), {
    index: 0, origem: 'informada', cst: '410', cClassTrib: '410001', nome: 'Classe 410001',
    rates: { ibsUf: { nominal: 0, pRed: 0, p: 0 }, ibsMun: { nominal: 0, pRed: 0, p: 0 }, cbs: { nominal: 0, pRed: 0, p: 0 } },
  });
  t.deepEqual(r.sentClasses, [], 'the class of the operation is not the product\'s class');
  // The NCM's own classes still work for a non-sale, and are recorded.
  t.deepEqual(run([{ ...RICE, cfop: '5910', sent: { kind: 'hint', cClassTrib: '200003' } }], { index: ops }).sentClasses, [{ codigo: 'ARROZ', ncm: '10063021', cClassTrib: '200003' }]);
  // In an NFC-e, 410004 (indNFCe = 0) is inadmissible; on a sale an operation class is no candidate.
  t.is(run([{ ...SHIRT, cfop: '5910', sent: { kind: 'hint', cClassTrib: '410004' } }], { index: ops, model: '65' }).unresolved[0]!.motivo, 'cclasstrib_inadmissivel_no_modelo');
  const onSale = run([{ ...SHIRT, sent: { kind: 'hint', cClassTrib: '410001' } }], { index: ops }).unresolved[0]!;
  t.deepEqual([onSale.motivo, onSale.mensagem], ['cclasstrib_invalido_para_ncm', 'cClassTrib 410001 não é classe candidata do NCM 61091000; classe de operação só com CFOP que não é venda (CFOP 5102 é venda)']);
  // A class tied to an annex is never an operation class: 200003 is not a candidate of a shirt.
  t.is(run([{ ...SHIRT, cfop: '5910', sent: { kind: 'hint', cClassTrib: '200003' } }], { index: ops }).unresolved[0]!.motivo, 'cclasstrib_invalido_para_ncm');
});

for (const flag of CLASS_GROUP_FLAGS) {
  const group = flag.slice(4);
  test(`CCLASSTRIB_EXIGE_GRUPO: a class flagged ${flag} is never emitted, whether single candidate, stored or sent`, (t) => {
    const flaggedFull = indexTable({ ...aSmallTable(), classes: aSmallTable().classes.map((c) => (c.cClassTrib === '000001' ? { ...c, grupos: [group] } : c)) });
    const single = run([{ ...SHIRT, sent: { kind: 'none' } }], { index: flaggedFull });
    t.deepEqual([single.resolved, single.sentClasses], [[], []]);
    t.deepEqual(single.unresolved, [{ index: 0, codigo: 'CAMISA', ncm: '61091000', motivo: 'cclasstrib_exige_grupo', mensagem: `cClassTrib 000001 exige ${group}, grupo que a API não preenche: informe outra classe` }]);
    t.is(CODE_OF[single.unresolved[0]!.motivo], 'CCLASSTRIB_EXIGE_GRUPO');
    const flaggedReduced = indexTable({ ...aSmallTable(), classes: aSmallTable().classes.map((c) => (c.cClassTrib === '200034' ? { ...c, grupos: [group] } : c)) });
    const stored = run([{ ...SHRIMP, sent: { kind: 'none' } }], { index: flaggedReduced }, [confirmClass('CAMARAO', '03061700', '200034', false)]);
    t.deepEqual(stored.unresolved.map((u) => u.motivo), ['cclasstrib_exige_grupo']);
    const hint = run([{ ...SHRIMP, sent: { kind: 'hint', cClassTrib: '200034' } }], { index: flaggedReduced });
    t.deepEqual([hint.unresolved.map((u) => u.motivo), hint.sentClasses], [['cclasstrib_exige_grupo'], []]);
    const complete = run([{ ...SHRIMP, sent: { kind: 'complete', cClassTrib: '200034', pRedAliq: { ibsUf: 600_000, ibsMun: 0, cbs: 600_000 }, nominal: { ibsUf: 1000, ibsMun: 0, cbs: 9000 } } }], { index: flaggedReduced });
    t.deepEqual([complete.unresolved.map((u) => u.motivo), complete.sentClasses], [['cclasstrib_exige_grupo'], []]);
  });
}

test('CCLASSTRIB_EXIGE_GRUPO: an operation class flagged gTribRegular (550001) or whose CST needs gDif (515001) is refused naming the group', (t) => {
  const r = run([{ ...SHIRT, cfop: '5949', sent: { kind: 'hint', cClassTrib: '550001' } }], { index: withOperationClasses() }).unresolved[0]!;
  t.deepEqual([CODE_OF[r.motivo], r.mensagem], ['CCLASSTRIB_EXIGE_GRUPO', 'cClassTrib 550001 exige gTribRegular, grupo que a API não preenche: informe outra classe']);
  const dif = indexTable({ ...aSmallTable(), classes: aSmallTable().classes.map((c) => (c.cClassTrib === '515001' ? { ...c, anexo: null } : c)) });
  const d = run([{ ...SHIRT, cfop: '5949', sent: { kind: 'hint', cClassTrib: '515001' } }], { index: dif }).unresolved[0]!;
  t.deepEqual([d.motivo, d.mensagem], ['cclasstrib_exige_grupo', 'cClassTrib 515001 exige gDif, grupo que a API não preenche: informe outra classe']);
});
