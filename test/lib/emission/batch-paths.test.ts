import test from 'ava';
import { prefixFieldErrors, prefixUnknownFields } from '../../../lib/emission/batch-paths.js';

test('prefixFieldErrors puts notas[i] in front of each path and in the message', (t) => {
  t.deepEqual(prefixFieldErrors([
    { field: 'items[0].cfop', message: "O campo 'items[0].cfop' deve ter 4 dígitos." },
    { field: 'body', message: 'O corpo deve ser um objeto JSON.' },
    { field: 'notas[2].x', message: 'já prefixado' },
  ], 'notas[2]'), [
    { field: 'notas[2].items[0].cfop', message: "O campo 'notas[2].items[0].cfop' deve ter 4 dígitos." },
    { field: 'notas[2]', message: 'O corpo deve ser um objeto JSON.' },
    { field: 'notas[2].x', message: 'já prefixado' },
  ]);
});

test('prefixUnknownFields rewrites caminho and objeto, keeps campo and motivo', (t) => {
  t.deepEqual(prefixUnknownFields([
    { campo: 'desconto', caminho: 'desconto', objeto: '' },
    { campo: 'pRedBC', caminho: 'items[0].icms.pRedBC', objeto: 'items[0].icms', motivo: 'grupo não suportado' },
  ], 'notas[1]'), [
    { campo: 'desconto', caminho: 'notas[1].desconto', objeto: 'notas[1]' },
    { campo: 'pRedBC', caminho: 'notas[1].items[0].icms.pRedBC', objeto: 'notas[1].items[0].icms', motivo: 'grupo não suportado' },
  ]);
});
