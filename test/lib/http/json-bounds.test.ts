import test from 'ava';
import { jsonBoundsViolation, MAX_JSON_NODES, MAX_KEYS_PER_OBJECT } from '../../../lib/http/json-bounds.js';
import { jsonBoundsRefusal } from '../../../lib/http/json-bounds-refusal.js';

const withKeys = (n: number): Record<string, number> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

test('jsonBoundsViolation accepts exactly the key bound and names the first object past it', (t) => {
  t.is(jsonBoundsViolation(withKeys(MAX_KEYS_PER_OBJECT)), null);
  t.deepEqual(jsonBoundsViolation(withKeys(MAX_KEYS_PER_OBJECT + 1)), { kind: 'keys', limit: MAX_KEYS_PER_OBJECT, caminho: '' });
  t.deepEqual(jsonBoundsViolation({ notas: [{ ok: 1 }, { items: [withKeys(MAX_KEYS_PER_OBJECT + 1)] }] }), { kind: 'keys', limit: MAX_KEYS_PER_OBJECT, caminho: 'notas[1].items[0]' });
});

test('jsonBoundsViolation counts every value as a node and stops at the bound', (t) => {
  t.is(jsonBoundsViolation(new Array(MAX_JSON_NODES - 1).fill(0)), null); // the array itself is a node
  t.deepEqual(jsonBoundsViolation(new Array(MAX_JSON_NODES).fill(0)), { kind: 'nodes', limit: MAX_JSON_NODES });
  t.deepEqual(jsonBoundsViolation({ a: [1, 2, 3] }, { depth: 32, keysPerObject: 10, nodes: 5 }), null); // object, array, three leaves
  t.deepEqual(jsonBoundsViolation({ a: [1, 2, 3, 4] }, { depth: 32, keysPerObject: 10, nodes: 5 }), { kind: 'nodes', limit: 5 });
});

test('jsonBoundsViolation keeps the depth bound and survives 100 000 levels', (t) => {
  t.deepEqual(jsonBoundsViolation(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)), { kind: 'depth', limit: 32 });
  t.is(jsonBoundsViolation('texto'), null);
  t.is(jsonBoundsViolation(null), null);
});

test('jsonBoundsRefusal is a one-line 400 for each bound', (t) => {
  const keys = jsonBoundsRefusal({ kind: 'keys', limit: 500, caminho: 'destinatario' });
  t.like(keys, { type: 'BAD_REQUEST', code: 400, message: "Objeto 'destinatario' do corpo com mais de 500 chaves.", data: { chavesMaximasPorObjeto: 500, objeto: 'destinatario' } });
  t.like(jsonBoundsRefusal({ kind: 'keys', limit: 500, caminho: '' }), { message: 'Objeto raiz do corpo com mais de 500 chaves.' });
  t.like(jsonBoundsRefusal({ kind: 'nodes', limit: 10 }), { type: 'BAD_REQUEST', message: 'Corpo da requisição com mais de 10 valores.', data: { valoresMaximos: 10 } });
  t.like(jsonBoundsRefusal({ kind: 'depth', limit: 32 }), { type: 'BAD_REQUEST', message: 'Corpo da requisição aninhado além de 32 níveis.', data: { profundidadeMaxima: 32 } });
});
