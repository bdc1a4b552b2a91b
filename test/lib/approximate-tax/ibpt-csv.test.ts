import test from 'ava';
import { decodeTableText, parseIbptTable, parseTableDate, splitLine, ufFromFileName } from '../../../lib/approximate-tax/ibpt-csv.js';
import { TEST_TABLE_CSV, TEST_TABLE_FILE } from '../../support/approximate-tax.js';

const HEADER = 'codigo;ex;tipo;descricao;nacionalfederal;importadosfederal;estadual;municipal;vigenciainicio;vigenciafim;chave;versao;fonte';
const line = (over: Partial<Record<string, string>> = {}) => {
  const v = { codigo: '96081000', ex: '', tipo: '0', descricao: 'Canetas', nf: '13.00', if: '17.00', est: '18.00', mun: '0.00', ini: '01/11/2026', fim: '31/12/2026', chave: 'K1', versao: '99.9.T', fonte: 'TESTE', ...over };
  return [v.codigo, v.ex, v.tipo, v.descricao, v.nf, v.if, v.est, v.mun, v.ini, v.fim, v.chave, v.versao, v.fonte].join(';');
};
const table = (...lines: string[]) => [HEADER, ...lines].join('\n');

test('parseIbptTable reads the NCM lines of a table, UF from the file name, and ignores service lines', (t) => {
  const r = parseIbptTable(TEST_TABLE_CSV, { fileName: TEST_TABLE_FILE });
  if (!r.ok) return t.fail(JSON.stringify(r.erros));
  t.like(r.table, { uf: 'SP', versao: '99.9.T', fonte: 'TESTE', chave: 'TESTE1', vigenciaInicio: '2026-11-01', vigenciaFim: '2026-12-31', ignoradas: 1 });
  t.is(r.table.rates.length, 4);
  t.deepEqual(r.table.rates[0], {
    uf: 'SP', ncm: '96081000', ex: '', descricao: 'Canetas esferográficas; com ponta',
    nacionalFederal: 130000n, importadosFederal: 170000n, estadual: 180000n, municipal: 0n,
    vigenciaInicio: '2026-11-01', vigenciaFim: '2026-12-31', versao: '99.9.T', chave: 'TESTE1', fonte: 'TESTE',
  });
  t.like(r.table.rates[1], { ncm: '96081000', ex: '01' });
  t.like(r.table.rates[2], { ncm: '61091000', nacionalFederal: 134500n, importadosFederal: 186100n });
});

test('parseIbptTable takes the UF from the operator and refuses one that contradicts the file name', (t) => {
  t.like(parseIbptTable(table(line()), { uf: 'rj' }), { ok: true, table: { uf: 'RJ' } });
  t.deepEqual(parseIbptTable(table(line()), { uf: 'RJ', fileName: 'TabelaIBPTaxSP26.1.A.csv' }), { ok: false, erros: [{ linha: 0, motivo: 'UF RJ diverge da UF SP do nome do arquivo' }] });
  t.deepEqual(parseIbptTable(table(line()), {}), { ok: false, erros: [{ linha: 0, motivo: 'UF não informada e ausente do nome do arquivo (TabelaIBPTax<UF>…)' }] });
  t.deepEqual(parseIbptTable(table(line()), { uf: 'XX' }), { ok: false, erros: [{ linha: 0, motivo: 'UF desconhecida: XX' }] });
});

test('parseIbptTable refuses a header without the layout columns', (t) => {
  t.deepEqual(parseIbptTable('codigo;ex;tipo;descricao\n96081000;;0;x', { uf: 'SP' }), {
    ok: false, erros: [{ linha: 1, motivo: 'cabeçalho sem as colunas nacionalfederal, importadosfederal, estadual, municipal, vigenciainicio, vigenciafim, chave, versao, fonte' }],
  });
});

test('parseIbptTable accepts the importadofederal header spelling and columns in any order', (t) => {
  const text = 'fonte;versao;chave;vigenciafim;vigenciainicio;municipal;estadual;importadofederal;nacionalfederal;descricao;tipo;ex;codigo\nTESTE;1;K;31/12/2026;01/11/2026;0;18;17;13;Canetas;0;;96081000';
  const r = parseIbptTable(text, { uf: 'SP' });
  t.like(r, { ok: true, table: { rates: [{ ncm: '96081000', importadosFederal: 170000n, nacionalFederal: 130000n }] } });
});

test('parseIbptTable refuses the whole file naming each bad line', (t) => {
  const r = parseIbptTable(table(
    line(),
    line({ codigo: '9608100' }),
    line({ codigo: '12345678', nf: '13.456789' }),
    line({ codigo: '12345679', ini: '31/02/2026' }),
    line({ codigo: '12345680', ini: '01/12/2026', fim: '01/11/2026' }),
    line({ codigo: '12345681', versao: '99.9.U' }),
    line(),
    line({ codigo: '12345682', tipo: '7' }),
    '12345683;;0;"aberta;13;17;18;0;01/11/2026;31/12/2026;K;99.9.T;TESTE',
    line({ codigo: '12345684', ex: 'AB' }),
    line({ codigo: '12345685', versao: 'v'.repeat(21) }),
  ), { uf: 'SP' });
  t.deepEqual(r, {
    ok: false,
    erros: [
      { linha: 3, motivo: 'NCM inválido: "9608100"' },
      { linha: 4, motivo: 'percentual inválido em nacionalFederal' },
      { linha: 5, motivo: 'vigência inválida (esperado dd/mm/aaaa)' },
      { linha: 6, motivo: 'vigência termina antes de começar' },
      { linha: 7, motivo: 'versão 99.9.U diverge da versão 99.9.T das linhas anteriores' },
      { linha: 8, motivo: 'NCM 96081000 repetido' },
      { linha: 9, motivo: 'tipo desconhecido: "7"' },
      { linha: 10, motivo: 'aspas sem fechamento' },
      { linha: 11, motivo: 'exceção tarifária inválida: "AB"' },
      { linha: 12, motivo: 'versão com mais de 20 caracteres' },
    ],
  });
});

test('parseIbptTable refuses a table with no NCM line', (t) => {
  t.deepEqual(parseIbptTable(table(line({ codigo: '1.07', tipo: '2' })), { uf: 'SP' }), { ok: false, erros: [{ linha: 0, motivo: 'nenhuma linha de NCM (tipo 0) na tabela' }] });
});

test('parseIbptTable stops listing after 20 bad lines', (t) => {
  const bad = Array.from({ length: 30 }, () => line({ codigo: 'x' }));
  const r = parseIbptTable(table(...bad), { uf: 'SP' });
  t.false(r.ok);
  if (!r.ok) t.is(r.erros.length, 20);
});

test('decodeTableText reads UTF-8 with or without BOM and falls back to Windows-1252', (t) => {
  t.is(decodeTableText(new TextEncoder().encode('\uFEFFção')), 'ção');
  t.is(decodeTableText(Uint8Array.from([0xe7, 0xe3, 0x6f, 0x20, 0x96, 0x20, 0x80])), 'ção – €');
});

test('ufFromFileName, parseTableDate and splitLine handle the layout details', (t) => {
  t.is(ufFromFileName('/tmp/TabelaIBPTaxmg26.1.B.csv'), 'MG');
  t.is(ufFromFileName('tabela.csv'), undefined);
  t.is(parseTableDate('29/02/2028'), '2028-02-29');
  t.is(parseTableDate('29/02/2027'), undefined);
  t.is(parseTableDate('2026-11-01'), '2026-11-01');
  t.deepEqual(splitLine('a;"b;""c""";d;'), ['a', 'b;"c"', 'd', '']);
  t.is(splitLine('a;"b'), undefined);
});

test('parseIbptTable reads a header that starts with a byte-order mark', (t) => {
  t.like(parseIbptTable(`\uFEFF${table(line())}`, { uf: 'SP' }), { ok: true, table: { rates: [{ ncm: '96081000' }] } });
});

test('parseIbptTable refuses a line holding U+0000, which Postgres cannot store', (t) => {
  const text = TEST_TABLE_CSV.replace('Canetas de luxo', 'Canetas\u0000de luxo').replace(';TESTE1;99.9.T;TESTE\r\n27101259', ';TESTE1;99.9.T;TES\u0000TE\r\n27101259');
  t.deepEqual(parseIbptTable(text, { fileName: TEST_TABLE_FILE }), {
    ok: false, erros: [{ linha: 3, motivo: 'caractere nulo (U+0000) na linha' }, { linha: 4, motivo: 'caractere nulo (U+0000) na linha' }],
  });
});
