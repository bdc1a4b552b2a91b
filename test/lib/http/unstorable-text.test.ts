import test from 'ava';
import { findUnstorableText, unstorableTextRefusal } from '../../../lib/http/unstorable-text.js';

test('findUnstorableText finds U+0000 and lone surrogates in values and keys, with their path', (t) => {
  t.is(findUnstorableText({ notas: [{ naturezaOperacao: '\udfff\ud800' }] }), 'notas[0].naturezaOperacao');
  t.is(findUnstorableText({ items: [{}, { descricao: 'a\u0000b' }] }), 'items[1].descricao');
  t.is(findUnstorableText({ a: { 'x\ud800': 1 } }), 'a.x\ud800');
  t.is(findUnstorableText(['ok', '\udc00']), '[1]');
  t.is(findUnstorableText('\ud800'), '');
});

test('findUnstorableText accepts paired surrogates (emoji), accents, control characters other than U+0000, and non-strings', (t) => {
  t.is(findUnstorableText({ nome: '🤖 Ação \u0001\t', n: 1, b: true, z: null, arr: [{ ok: '\ud83e\udd16' }] }), null);
});

test('unstorableTextRefusal is a 400 VALIDATION_ERROR naming the field', (t) => {
  const err = unstorableTextRefusal({ razaoSocial: 'a\u0000' })!;
  t.is(err.type, 'VALIDATION_ERROR');
  t.is(err.code, 400);
  t.deepEqual(err.data, { errors: [{ field: 'razaoSocial', message: "O campo 'razaoSocial' contém caractere não permitido (U+0000 ou surrogate UTF-16 isolado)." }] });
  t.is(unstorableTextRefusal({ razaoSocial: 'ok' }), null);
});

test('findUnstorableText walks any depth and a long array without overflowing or slowing down', (t) => {
  let deep: unknown = 'x\u0000';
  for (let i = 0; i < 100_000; i++) deep = { a: deep };
  t.is(findUnstorableText(deep)?.split('.').length, 100_000);
  t.is(findUnstorableText(Array.from({ length: 200_000 }, () => 'ok')), null);
});
