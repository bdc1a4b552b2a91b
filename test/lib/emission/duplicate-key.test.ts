import test from 'ava';
import { isSameKeyDuplicate, settleDuplicate } from '../../../lib/emission/duplicate-key.js';

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
