import test from 'ava';
import { annexItemsOf, candidatesOf, candidateView, indexTable } from '../../../lib/classification/correlation.js';
import { aClass, aSmallTable, shippedIndex } from '../../support/class-table.js';

const classesOf = (ncm: string, index = shippedIndex(), day = '2026-11-25') => candidatesOf(index, ncm, day).classes.map((c) => c.cClassTrib);

test('annexItemsOf: an included prefix of any length matches, an exception prefix removes the item', (t) => {
  const index = indexTable(aSmallTable());
  t.deepEqual(annexItemsOf(index, '10063021').map((i) => `${i.anexo}/${i.item}`), ['I/1']);
  t.deepEqual(annexItemsOf(index, '03061700').map((i) => i.anexo), ['VII']);
  t.deepEqual(annexItemsOf(index, '03061190'), [], 'excepted by the 6-digit prefix 030611');
  t.deepEqual(annexItemsOf(index, '03061500'), [], 'excepted by the full code');
  t.deepEqual(annexItemsOf(index, '10061000'), [], '1006.10 is not 1006.30');
  t.deepEqual(annexItemsOf(index, '10'), [], 'a 2-digit NCM is never correlated');
});

test('candidatesOf: 000001 always, plus the classes of each matching annex that the builder can write and that are in force', (t) => {
  const index = indexTable(aSmallTable());
  t.deepEqual(classesOf('61091000', index), ['000001']);
  t.deepEqual(classesOf('10063021', index), ['000001', '200003']);
  // 515001 needs gDif, a group this API does not write.
  t.deepEqual(classesOf('03061700', index), ['000001', '200034']);
  t.deepEqual(classesOf('10', index), []);
  const expired = indexTable({ ...aSmallTable(), classes: [aClass({ cClassTrib: '000001' }), aClass({ cClassTrib: '200003', anexo: 'I', vigenciaFim: '2026-06-30', pRedIBS: 1, pRedCBS: 1 })], csts: aSmallTable().csts });
  t.deepEqual(classesOf('10063021', expired, '2026-07-01'), ['000001']);
  t.deepEqual(classesOf('10063021', expired, '2026-06-30'), ['000001', '200003']);
});

// Hand-checked against the annex texts of LC 214/2025 (one NCM per annex of the shipped correlation).
const HAND_CHECKED: [string, string, string[]][] = [
  ['Anexo I item 1, arroz 1006.30', '10063021', ['000001', '200003']],
  ['Anexo I item 19, carnes de aves 02.07', '02071100', ['000001', '200003']],
  ['Anexo I item 19, exceto foies gras 0207.43.00', '02074300', ['000001']],
  ['Anexo IV item 1, bolsa para drenagem 3926.90.30', '39269030', ['000001', '200005', '200030']],
  ['Anexo V item 1.1, comando de embreagem manual 8708.99.10', '87089910', ['000001', '200008', '200031']],
  ['Anexo VI item 1, acetato de dextroalfatocoferol 2936.28.12', '29362812', ['000001', '200011', '200033']],
  ['Anexo VII item 1, crustáceos 0306.1', '03061700', ['000001', '200034']],
  ['Anexo VII item 1, exceto lagostas 0306.11', '03061100', ['000001']],
  ['Anexo VIII item 1, sabões de toucador 3401.11.90', '34011190', ['000001', '200035']],
  ['Anexo IX item 1, biofertilizantes 3101.00.00 (515001 needs gDif)', '31010000', ['000001', '200038']],
  ['Anexo X item 42, fotografias artísticas 4911.91.00', '49119100', ['000001', '200039']],
  ['Anexo XI item 2.2, carro blindado 8710.00.00 (200044 is in no goods document)', '87100000', ['000001', '200043']],
  ['Anexo XII item 1.1, eletrocardiógrafos 9018.11.00', '90181100', ['000001', '200004']],
  ['Anexo XIII item 1, barra de apoio 8302.41.00', '83024100', ['000001', '200007']],
  ['Anexo XV item 1, ovos 0407.2', '04072100', ['000001', '200014']],
  ['Anexo XV item 2, hortícolas 07.09, exceto cogumelos 0709.5', '07095100', ['000001']],
  ['Anexo XVII (Imposto Seletivo, no IBS/CBS class)', '87032100', ['000001']],
  ['no annex: camiseta 6109.10.00', '61091000', ['000001']],
];
for (const [what, ncm, expected] of HAND_CHECKED) {
  test(`candidatesOf (shipped correlation): ${what}`, (t) => {
    t.deepEqual(classesOf(ncm), expected);
  });
}

test('candidateView: reductions in percent and the legal basis with the annex items that matched', (t) => {
  const index = shippedIndex();
  const c = candidatesOf(index, '10063021', '2026-11-25');
  t.deepEqual(c.classes.map((k) => candidateView(k, c.annexItems)), [
    { cClassTrib: '000001', nome: 'Situações tributadas integralmente pelo IBS e CBS.', cst: '000', pRedIBS: 0, pRedCBS: 0, fundamentoLegal: 'LC 214/2025', admitidaNFe: true, admitidaNFCe: true },
    { cClassTrib: '200003', nome: 'Vendas de produtos destinados à alimentação humana (Anexo I)', cst: '200', pRedIBS: 100, pRedCBS: 100, fundamentoLegal: 'LC 214/2025, Art. 125 (Anexo I, item 1)', admitidaNFe: true, admitidaNFCe: true },
  ]);
});
