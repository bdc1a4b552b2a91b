import test from 'ava';
import { danfeSource } from '../../../lib/danfe/source.js';
import { DOCUMENT_STATUSES } from '../../../lib/emission/state.js';
import { DomainError } from '../../../lib/errors/index.js';

const stored = { authorized: '<nfeProc/>', transmitted: '<NFe/>' };

test('danfeSource prints an authorized or canceled note from its nfeProc, marking the canceled one', (t) => {
  t.deepEqual(danfeSource({ status: 'AUTHORIZED', model: '55' }, stored), { xml: '<nfeProc/>', cancelada: false });
  t.deepEqual(danfeSource({ status: 'CANCELADA', model: '65' }, stored), { xml: '<nfeProc/>', cancelada: true });
});

test('danfeSource prints a pending contingency NFC-e from its signed XML', (t) => {
  t.deepEqual(danfeSource({ status: 'CONTINGENCIA_PENDENTE', model: '65' }, { authorized: null, transmitted: '<NFe/>' }), { xml: '<NFe/>', cancelada: false });
});

test('danfeSource refuses every other status with 409 DOCUMENTO_SEM_DANFE and the status', (t) => {
  for (const status of DOCUMENT_STATUSES.filter((s) => !['AUTHORIZED', 'CANCELADA', 'CONTINGENCIA_PENDENTE'].includes(s))) {
    const err = t.throws(() => danfeSource({ status, model: '55' }, stored), { instanceOf: DomainError });
    t.like(err, { type: 'DOCUMENTO_SEM_DANFE', code: 409, data: { status } });
  }
  t.like(t.throws(() => danfeSource({ status: 'CONTINGENCIA_PENDENTE', model: '55' }, stored)), { type: 'DOCUMENTO_SEM_DANFE' });
  t.like(t.throws(() => danfeSource({ status: 'AUTHORIZED', model: '55' }, { authorized: null, transmitted: '<NFe/>' })), { type: 'DOCUMENTO_SEM_DANFE' });
});
