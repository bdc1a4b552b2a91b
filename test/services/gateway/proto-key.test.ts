import test from 'ava';
import { restoreProtoKey } from '../../../services/gateway/proto-key.js';

/** What moleculer-web does with a parsed body (src/index.js, "Merge params"). */
function merged(body: Record<string, unknown>, query: Record<string, unknown> = {}) {
  const params = {};
  Object.assign(params, body, query);
  return params as Record<string, unknown>;
}

test('restoreProtoKey puts a JSON "__proto__" key back as an own key and the params get their plain prototype', (t) => {
  const body = JSON.parse('{"__proto__":{"polluted":1},"issuerId":"x"}');
  const params = merged(body);
  t.deepEqual(Object.keys(params), ['issuerId'], 'the merge lost the key (why this exists)');
  restoreProtoKey(params, body);
  t.deepEqual(Object.keys(params), ['issuerId', '__proto__']);
  t.deepEqual(Object.getOwnPropertyDescriptor(params, '__proto__')!.value, { polluted: 1 });
  t.is(Object.getPrototypeOf(params), Object.prototype);
  t.is(params.polluted, undefined);
  t.is(({} as any).polluted, undefined);
});

test('restoreProtoKey keeps a null or primitive "__proto__" value as sent, and leaves params without one untouched', (t) => {
  const nullBody = JSON.parse('{"__proto__":null,"a":1}');
  const nullParams = merged(nullBody);
  t.is(Object.getPrototypeOf(nullParams), null, 'the merge made a null-prototype object');
  restoreProtoKey(nullParams, nullBody);
  t.is(Object.getPrototypeOf(nullParams), Object.prototype);
  t.deepEqual(Object.keys(nullParams), ['a', '__proto__']);
  const numberBody = JSON.parse('{"__proto__":1}');
  const numberParams = merged(numberBody);
  restoreProtoKey(numberParams, numberBody);
  t.is(Object.getOwnPropertyDescriptor(numberParams, '__proto__')!.value, 1);
  const plain = merged({ a: 1 }, { b: '2' });
  restoreProtoKey(plain, { a: 1 });
  t.deepEqual(plain, { a: 1, b: '2' });
  t.notThrows(() => restoreProtoKey(merged({}), [1, 2]));
});
