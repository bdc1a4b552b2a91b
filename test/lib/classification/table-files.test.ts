import test from 'ava';
import { parseTableFiles, scaledDecimal } from '../../../lib/classification/table-files.js';
import { defaultTableFiles } from '../../../services/classification/default-tables.js';

test('parseTableFiles reads the shipped version: 164 classes, 18 CSTs, 351 annex items, 2026 rates', (t) => {
  const parsed = parseTableFiles(defaultTableFiles());
  if (!parsed.ok) return t.fail(JSON.stringify(parsed.erros));
  const { classes, csts, anexos, aliquotas } = parsed.table;
  t.deepEqual([classes.length, csts.length, anexos.length], [164, 18, 351]);
  t.deepEqual(aliquotas.map((a) => [a.ano, a.cbs, a.ibsUf, a.ibsMun]), [[2026, 9000, 1000, 0]]);
  t.like(classes.find((c) => c.cClassTrib === '200034'), { cst: '200', anexo: 'VII', pRedIBS: 600_000, pRedCBS: 600_000, indNFe: true, indNFCe: true, artigo: 'Art. 135', vigenciaInicio: '2026-01-01', vigenciaFim: null });
  t.is(classes.find((c) => c.cClassTrib === '000002')!.anexo, null, 'ANEXO 90111 is an article reference of the service tables');
  t.deepEqual(csts.find((c) => c.cst === '515')!.grupos, ['gIBSCBS', 'gRed', 'gDif']);
});

test('parseTableFiles reads the ind_g* group flags of each class, and refuses a table without them or with a value other than 0/1', (t) => {
  const parsed = parseTableFiles(defaultTableFiles());
  if (!parsed.ok) return t.fail(JSON.stringify(parsed.erros));
  const grupos = (code: string) => parsed.table.classes.find((c) => c.cClassTrib === code)!.grupos;
  t.deepEqual(
    ['000001', '550001', '000003', '620001', '620002', '620003', '620004', '410026'].map((c) => [c, grupos(c)]),
    [['000001', []], ['550001', ['gTribRegular']], ['000003', ['gCredPresOper']], ['620001', ['gMonoPadrao']], ['620002', ['gMonoPadrao', 'gMonoReten']],
      ['620003', ['gMonoDif']], ['620004', ['gMonoRet', 'gpBioDiferenca']], ['410026', ['gEstornoCred']]],
  );
  const files = defaultTableFiles();
  const withoutFlag = files.cclasstrib.replace(',ind_gEstornoCred,', ',ind_xEstornoCred,');
  const missing = parseTableFiles({ ...files, cclasstrib: withoutFlag });
  t.false(missing.ok);
  if (!missing.ok) t.deepEqual(missing.erros[0], { arquivo: 'cclasstrib', linha: 2, motivo: 'colunas ausentes: ind_gEstornoCred' });
  // 000001's flags start right after pRedIBS,pRedCBS (0,0): the first one made "x".
  const badValue = parseTableFiles({ ...files, cclasstrib: files.cclasstrib.replace('Padrão,0,0,0,0,0,0,0,0,0,0,1,2026-01-01', 'Padrão,0,0,x,0,0,0,0,0,0,0,1,2026-01-01') });
  t.false(badValue.ok);
  if (!badValue.ok) t.deepEqual(badValue.erros, [{ arquivo: 'cclasstrib', linha: 2, motivo: 'ind_gTribRegular deve ser 0 ou 1' }]);
});

test('parseTableFiles refuses a version whole, naming every bad line of every file', (t) => {
  const files = defaultTableFiles();
  const cclasstrib = files.cclasstrib.replace('\n000,Tributação integral,000001,', '\n000,Tributação integral,00001,');
  const parsed = parseTableFiles({ ...files, cclasstrib, anexos: '{"x":1}', aliquotas: 'ano,cbs,ibsUf,ibsMun\n2026,0.9%,0.001,0\n' });
  t.false(parsed.ok);
  if (parsed.ok) return;
  t.deepEqual(parsed.erros, [
    { arquivo: 'cclasstrib', linha: 2, motivo: 'cClassTrib inválido: "00001"' },
    { arquivo: 'anexos', motivo: 'esperada uma lista de itens de anexo' },
    { arquivo: 'aliquotas', linha: 2, motivo: 'alíquota inválida em cbs (fração: 0.009 = 0,9 %)' },
  ]);
});

test('the CBS rate of a year comes from the official table (aliquotas_cbs_*.csv); the hand file gives the IBS, and a CBS only where the official one has none', (t) => {
  const files = defaultTableFiles();
  const shipped = parseTableFiles(files);
  if (!shipped.ok) return t.fail(JSON.stringify(shipped.erros));
  t.deepEqual(shipped.table.aliquotas, [{
    ano: 2026, cbs: 9000, ibsUf: 1000, ibsMun: 0,
    fonte: 'CBS: tabela oficial de alíquotas da CBS (Portal Nacional da NF-e, Tabela_Aliquotas_CBS); IBS: LC 214/2025 art. 343 (alíquota estadual de 0,1 % em 2026, sem parcela municipal); não há tabela oficial de alíquotas do IBS. CBS: vazia, lida de aliquotas_cbs_2026-05-12.csv',
  }]);
  /** null: no official file. */
  const rates = (aliquotas: string, aliquotasCbs: string | null = files.aliquotasCbs!) => {
    const parsed = parseTableFiles({ ...files, aliquotas, aliquotasCbs: aliquotasCbs ?? undefined });
    return parsed.ok ? parsed.table.aliquotas.map((a) => [a.ano, a.cbs, a.fonte]) : parsed.erros;
  };
  // 2027 "aguarda legislação" in the official table: a hand cbs is used, with its own source; none refuses.
  t.deepEqual(rates('ano,cbs,ibsUf,ibsMun,fonte\n2027,0.088,0.001,0,projeção\n'), [[2027, 88_000, 'projeção']]);
  t.deepEqual(rates('ano,cbs,ibsUf,ibsMun,fonte\n2027,,0.001,0,x\n'), [{ arquivo: 'aliquotas', linha: 2, motivo: 'ano 2027 sem alíquota da CBS: a tabela oficial não a traz e a coluna cbs está vazia' }]);
  // A hand cbs that contradicts the official rate refuses the version; the same value is accepted.
  t.deepEqual(rates('ano,cbs,ibsUf,ibsMun,fonte\n2026,0.01,0.001,0,x\n'), [{ arquivo: 'aliquotas', linha: 2, motivo: 'cbs 0.01 diverge da tabela oficial da CBS (0.009) para 2026' }]);
  t.deepEqual(rates('ano,cbs,ibsUf,ibsMun,fonte\n2026,0.009,0.001,0,x\n').map((r: any) => r.slice(0, 2)), [[2026, 9000]]);
  // Without the official file the hand file must price the CBS itself (a version as loaded before).
  t.deepEqual(rates('ano,cbs,ibsUf,ibsMun,fonte\n2026,,0.001,0,x\n', null), [{ arquivo: 'aliquotas', linha: 2, motivo: 'alíquota inválida em cbs (fração: 0.009 = 0,9 %)' }]);
  t.deepEqual(rates(files.aliquotas, 'Ano;Aliquota\n'), [{ arquivo: 'aliquotasCbs', motivo: 'cabeçalho "Ano,Alíquota" ausente' }, { arquivo: 'aliquotas', linha: 2, motivo: 'ano 2026 sem alíquota da CBS: a tabela oficial não a traz e a coluna cbs está vazia' }]);
});

test('scaledDecimal is exact and refuses what it cannot represent', (t) => {
  t.is(scaledDecimal('0.009', 6), 9000);
  t.is(scaledDecimal('60', 4), 600_000);
  t.is(scaledDecimal('12.5', 4), 125_000);
  t.is(scaledDecimal('0.0000001', 6), null);
  t.is(scaledDecimal('-1', 4), null);
  t.is(scaledDecimal('1e3', 4), null);
});

test('parseTableFiles refuses U+0000 in a CSV and U+0000 or a lone surrogate escaped in the annexes JSON', (t) => {
  const files = defaultTableFiles();
  const cst = files.cst.replace('\n000,Tributação integral,', '\n000,Tributação\u0000integral,');
  const anexos = JSON.parse(files.anexos) as Record<string, unknown>[];
  const escaped = JSON.stringify([{ ...anexos[0], descricao: 'a\u0000b' }, anexos[1], { ...anexos[2], item: '\ud800' }, ...anexos.slice(3)]);
  t.true(escaped.includes('\\u0000') && escaped.includes('\\ud800'));
  const parsed = parseTableFiles({ ...files, cst, anexos: escaped });
  t.deepEqual(parsed, {
    ok: false,
    erros: [
      { arquivo: 'cst', linha: 2, motivo: 'caractere nulo (U+0000)' },
      { arquivo: 'anexos', linha: 1, motivo: 'texto com caractere não permitido (U+0000 ou surrogate UTF-16 isolado)' },
      { arquivo: 'anexos', linha: 3, motivo: 'texto com caractere não permitido (U+0000 ou surrogate UTF-16 isolado)' },
    ],
  });
});
