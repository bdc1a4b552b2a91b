import test from 'ava';
import { numberedFailure } from '../../../lib/emission/numbered-failure.js';
import { DomainError } from '../../../lib/errors/index.js';

const doc = { id: 'd-1', status: 'TRANSMITTING' as const };

test('numberedFailure keeps a refusal (4xx) as it is', (t) => {
  const refusal = new DomainError('DOCUMENTO_EM_TRANSMISSAO', { invoiceId: 'd-1' });
  t.deepEqual(numberedFailure(refusal, doc), { error: refusal, fault: false });
  const rejected = { code: 400, type: 'BAD_REQUEST', data: { erros: [] }, message: 'Rejeição' };
  t.is(numberedFailure(rejected, doc).error, rejected);
});

test('numberedFailure adds the document to a catalogued 5xx that lacks it, and keeps one that names it', (t) => {
  const { error, fault } = numberedFailure(new DomainError('AUTORIDADE_INDISPONIVEL', { situacao: 'indeterminada' }), doc);
  t.false(fault);
  t.like(error, { type: 'AUTORIDADE_INDISPONIVEL', code: 503, data: { situacao: 'indeterminada', invoiceId: 'd-1', status: 'TRANSMITTING' } });
  const named = new DomainError('CONTINGENCIA_SITUACAO_INDETERMINADA', { invoiceId: 'd-9', status: 'ERROR' });
  t.is(numberedFailure(named, doc).error, named);
});

test('numberedFailure answers a database outage or a cut call 503 SERVICE_UNAVAILABLE naming the document', (t) => {
  for (const err of [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), new Error('Connection terminated unexpectedly'), { name: 'RequestRejectedError', code: 503, type: 'REQUEST_REJECTED', retryable: true }]) {
    const { error, fault } = numberedFailure(err, doc);
    t.false(fault);
    t.true(error instanceof DomainError);
    t.like(error, { type: 'SERVICE_UNAVAILABLE', code: 503, data: { invoiceId: 'd-1', status: 'TRANSMITTING' } });
  }
});

test('numberedFailure answers a fault of ours 500 INTERNAL_ERROR naming the document, and says it is one', (t) => {
  const { error, fault } = numberedFailure(new TypeError("Cannot read properties of undefined (reading 'x')"), { id: 'd-2', status: 'CREATED' });
  t.true(fault);
  t.like(error, { type: 'INTERNAL_ERROR', code: 500, data: { invoiceId: 'd-2', status: 'CREATED' } });
});

test('numberedFailure names an NFS-e as nfseId, and keeps a 5xx that already names it', (t) => {
  const { error } = numberedFailure(new Error('Connection terminated unexpectedly'), { id: 'n-1', status: 'CREATED' }, 'nfseId');
  t.like(error, { type: 'SERVICE_UNAVAILABLE', code: 503, data: { nfseId: 'n-1', status: 'CREATED' } });
  t.false('invoiceId' in (error as DomainError).data!);
  const named = new DomainError('AUTORIDADE_INDISPONIVEL', { nfseId: 'n-2', status: 'TRANSMITTING' });
  t.is(numberedFailure(named, doc, 'nfseId').error, named);
});
