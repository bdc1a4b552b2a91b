import test from 'ava';
import { isDuplicateDps, nfseTransition } from '../../../../lib/emission/nfse/state.js';
import type { IssuedNfse } from '../../../../lib/sefin/results.js';

const issued: IssuedNfse = { chaveAcesso: '1'.repeat(50), idDps: 'DPS' + '1'.repeat(42), numeroNfse: '7', nfseXml: '<NFSe/>', authorizedAt: '2026-11-22T17:40:01-03:00' };

test('nfseTransition: Sefin submit answers', (t) => {
  t.deepEqual(nfseTransition('TRANSMITTING', { kind: 'submit', result: { kind: 'authorized', alertas: [], ...issued } }), { to: 'AUTHORIZED', motivo: null, event: 'invoice.authorized' });
  t.deepEqual(nfseTransition('TRANSMITTING', { kind: 'submit', result: { kind: 'rejected', httpStatus: 400, erros: [{ codigo: 'E0312', descricao: 'x' }, { codigo: 'E0699', descricao: 'y' }] } }),
    { to: 'REJECTED', motivo: 'E0312 - x; E0699 - y', event: 'invoice.rejected' });
  t.like(nfseTransition('TRANSMITTING', { kind: 'submit', result: { kind: 'failed', reason: 'connect', detail: 'refused' } }), { to: 'ERROR', event: null });
  const unknown = nfseTransition('TRANSMITTING', { kind: 'submit', result: { kind: 'unknown', reason: 'timeout-after-send', detail: 'read timeout' } });
  t.is(unknown.to, null, 'may have been processed: stays, consulted by idDps');
});

test('nfseTransition: the consult by idDps authorizes, asks to send the same DPS again, or waits', (t) => {
  t.deepEqual(nfseTransition('ERROR', { kind: 'consult', result: { kind: 'authorized', ...issued } }), { to: 'AUTHORIZED', motivo: null, event: 'invoice.authorized' });
  t.like(nfseTransition('CREATED', { kind: 'consult', result: { kind: 'not-found' } }), { to: null, retransmit: true });
  const failed = nfseTransition('TRANSMITTING', { kind: 'consult', result: { kind: 'failed', reason: 'connect', detail: 'x' } });
  t.is(failed.to, null);
  t.false('retransmit' in failed && failed.retransmit === true);
});

test('nfseTransition: a final NFS-e is never moved by a later answer', (t) => {
  for (const from of ['AUTHORIZED', 'REJECTED', 'CANCELADA'] as const) {
    t.deepEqual(nfseTransition(from, { kind: 'consult', result: { kind: 'authorized', ...issued } }), { to: null, motivo: null }, from);
  }
});

test('isDuplicateDps: only a rejection made of E0014 alone', (t) => {
  t.true(isDuplicateDps({ kind: 'rejected', httpStatus: 400, erros: [{ codigo: 'E0014', descricao: 'DPS já existente' }] }));
  t.false(isDuplicateDps({ kind: 'rejected', httpStatus: 400, erros: [{ codigo: 'E0014', descricao: 'a' }, { codigo: 'E0312', descricao: 'b' }] }));
  t.false(isDuplicateDps({ kind: 'failed', reason: 'connect', detail: 'x' }));
});
