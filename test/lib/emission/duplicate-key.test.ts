import test from 'ava';
import { isSameKeyDuplicate, keyNamedByDuplicate, settleDuplicate, settleHeldKey } from '../../../lib/emission/duplicate-key.js';

const protocol = { protocol: '135260000000001', receivedAt: '2026-11-22T12:00:00-03:00', digest: 'abc=', protNFeXml: '<protNFe/>' };

test('isSameKeyDuplicate is true only for a 204 rejection', (t) => {
  t.true(isSameKeyDuplicate({ kind: 'rejected', cStat: 204, xMotivo: 'Rejeição: Duplicidade de NF-e' }));
  t.false(isSameKeyDuplicate({ kind: 'rejected', cStat: 539, xMotivo: 'Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso' }));
  t.false(isSameKeyDuplicate({ kind: 'authorized', cStat: 100, xMotivo: 'Autorizado o uso da NF-e', ...protocol }));
  t.false(isSameKeyDuplicate({ kind: 'unknown', reason: 'timeout-after-send', detail: 'x' }));
});

test('settleDuplicate takes the authorization or denial the consult found', (t) => {
  const authorized = { kind: 'authorized', cStat: 100, xMotivo: 'Autorizado o uso da NF-e', ...protocol } as const;
  t.deepEqual(settleDuplicate(authorized), authorized);
  const denied = { kind: 'denied', cStat: 302, xMotivo: 'Uso Denegado' } as const;
  t.deepEqual(settleDuplicate(denied), denied);
});

test('settleDuplicate leaves the outcome unknown (never rejected) when the consult does not settle it', (t) => {
  t.deepEqual(settleDuplicate({ kind: 'failed', reason: 'connect', detail: 'ECONNREFUSED' }), { kind: 'unknown', reason: 'duplicate-key', detail: '204 (duplicidade de chave) e a consulta falhou: ECONNREFUSED' });
  t.deepEqual(settleDuplicate({ kind: 'not-found', cStat: 217, xMotivo: 'NF-e não consta na base de dados da SEFAZ' }), { kind: 'unknown', reason: 'duplicate-key', detail: '204 (duplicidade de chave) e a consulta respondeu 217: NF-e não consta na base de dados da SEFAZ' });
});

const K1 = '35261111222333000181650010000000011000000015';

test('keyNamedByDuplicate reads the chNFe a 539 names in its xMotivo, with or without a space', (t) => {
  t.is(keyNamedByDuplicate({ kind: 'rejected', cStat: 539, xMotivo: `Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso [chNFe: ${K1}][nRec:351000000000001]` }), K1);
  t.is(keyNamedByDuplicate({ kind: 'rejected', cStat: 539, xMotivo: `Rejeicao: Duplicidade de NF-e com diferenca na Chave de Acesso [chNFe:${K1}]` }), K1);
});

test('keyNamedByDuplicate is null for a 539 without a key, another rejection or another answer', (t) => {
  t.is(keyNamedByDuplicate({ kind: 'rejected', cStat: 539, xMotivo: 'Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso' }), null);
  t.is(keyNamedByDuplicate({ kind: 'rejected', cStat: 539, xMotivo: `[chNFe: ${K1.slice(1)}]` }), null, '43 digits are no key');
  t.is(keyNamedByDuplicate({ kind: 'rejected', cStat: 204, xMotivo: `Rejeição: Duplicidade de NF-e [chNFe: ${K1}]` }), null);
  t.is(keyNamedByDuplicate({ kind: 'unknown', reason: 'timeout-after-send', detail: `[chNFe: ${K1}]` }), null);
});

test('settleHeldKey takes the registration of the held key, and is unknown (never rejected) otherwise', (t) => {
  const authorized = { kind: 'authorized', cStat: 100, xMotivo: 'Autorizado o uso da NF-e', ...protocol } as const;
  t.deepEqual(settleHeldKey(authorized, K1), authorized);
  t.deepEqual(settleHeldKey({ kind: 'failed', reason: 'connect', detail: 'ECONNREFUSED' }, K1), { kind: 'unknown', reason: 'duplicate-key', detail: `539 (número registrado com a chave anterior ${K1}) e a consulta dela falhou: ECONNREFUSED` });
  t.deepEqual(settleHeldKey({ kind: 'not-found', cStat: 217, xMotivo: 'NF-e não consta' }, K1), { kind: 'unknown', reason: 'duplicate-key', detail: `539 (número registrado com a chave anterior ${K1}) e a consulta dela respondeu 217: NF-e não consta` });
});
