import test from 'ava';
import { checkKeyKind, missingFields, preflight, selectIssuer } from '../../../lib/issuer/preflight.js';
import { anIssuerRecord } from './factories.js';

const now = new Date('2026-06-01T00:00:00Z');

function refusal(fn: () => unknown) {
  try { fn(); } catch (err: any) { return { type: err.type, code: err.code, message: err.message, data: err.data }; }
  throw new Error('did not throw');
}

test('selectIssuer: one issuer makes issuerId optional; several require it; unknown is 404', (t) => {
  const a = anIssuerRecord({ id: 'a' });
  const b = anIssuerRecord({ id: 'b' });
  t.is(selectIssuer([a], undefined), a);
  t.is(selectIssuer([a, b], 'b'), b);
  t.deepEqual(refusal(() => selectIssuer([a, b], undefined)), { type: 'BAD_REQUEST', code: 400, message: 'informe issuerId: sua conta tem 2 emissores', data: undefined });
  t.like(refusal(() => selectIssuer([a], 'zzz')), { type: 'NOT_FOUND', code: 404 });
  t.like(refusal(() => selectIssuer([], undefined)), { type: 'NOT_FOUND', code: 404 });
  t.like(refusal(() => selectIssuer([a], undefined, { requireId: true })), { type: 'BAD_REQUEST', message: 'informe issuerId: NFS-e exige issuerId' });
});

test('checkKeyKind: ek_test_ refused only for a production issuer that is not sandbox', (t) => {
  t.like(refusal(() => checkKeyKind({ ambienteFiscal: 1, sandbox: false }, 'test')), { type: 'CHAVE_TESTE_EMISSOR_PRODUCAO', code: 403 });
  t.notThrows(() => checkKeyKind({ ambienteFiscal: 1, sandbox: true }, 'test'));
  t.notThrows(() => checkKeyKind({ ambienteFiscal: 2, sandbox: false }, 'test'));
  t.notThrows(() => checkKeyKind({ ambienteFiscal: 1, sandbox: false }, 'live'));
  t.notThrows(() => checkKeyKind({ ambienteFiscal: 1, sandbox: false }, null));
});

test('missingFields lists every missing field at once; NFS-e needs the inscrição municipal instead of IE', (t) => {
  const bare = anIssuerRecord({ profile: { ie: null, crt: null, endereco: { uf: 'SP' } } });
  const address = ['endereco.logradouro', 'endereco.numero', 'endereco.bairro', 'endereco.codigoMunicipio', 'endereco.municipio', 'endereco.cep'];
  t.deepEqual(missingFields(bare, '55'), ['ie', 'crt', ...address]);
  t.deepEqual(missingFields(bare, 'NFSe'), ['crt', 'inscricaoMunicipal', ...address]);
  t.deepEqual(missingFields(anIssuerRecord(), '65'), []);
  t.deepEqual(missingFields(anIssuerRecord(), 'NFSe'), ['inscricaoMunicipal']);
  t.deepEqual(missingFields(anIssuerRecord({ profile: { inscricaoMunicipal: '12345678' } }), 'NFSe'), []);
});

test('preflight order: certificate, complete record, then CSC for NFC-e only', (t) => {
  t.deepEqual(refusal(() => preflight(anIssuerRecord({ certificate: null, profile: { ie: null } }), '55', now)), { type: 'CERTIFICADO_AUSENTE', code: 422, message: 'Emissor sem certificado A1 válido instalado.', data: undefined });
  const expired = anIssuerRecord({ certificate: { subject: 's', serial: '1', notBefore: '2025-01-01T00:00:00.000Z', notAfter: '2026-05-31T00:00:00.000Z', cnpj: '11222333000181' } });
  t.like(refusal(() => preflight(expired, '55', now)), { type: 'CERTIFICADO_AUSENTE', data: { notAfter: '2026-05-31T00:00:00.000Z' } });
  t.deepEqual(refusal(() => preflight(anIssuerRecord({ profile: { ie: null, csc: null, endereco: {} } }), '65', now)).data, {
    camposFaltando: ['ie', 'endereco.logradouro', 'endereco.numero', 'endereco.bairro', 'endereco.codigoMunicipio', 'endereco.municipio', 'endereco.uf', 'endereco.cep'],
  });
  t.deepEqual(refusal(() => preflight(anIssuerRecord({ profile: { csc: null } }), '65', now)), { type: 'CSC_AUSENTE', code: 422, message: 'NFC-e exige csc e cscId cadastrados no emissor.', data: { camposFaltando: ['csc'] } });
  t.notThrows(() => preflight(anIssuerRecord({ profile: { csc: null, cscId: null } }), '55', now));
  t.notThrows(() => preflight(anIssuerRecord(), '65', now));
});

test('selectIssuer: an issuer the partner removed answers 404 EMISSOR_INEXISTENTE, not NOT_FOUND', (t) => {
  const a = anIssuerRecord({ id: 'a' });
  t.like(refusal(() => selectIssuer([a], 'gone', { removedIds: new Set(['gone']) })), { type: 'EMISSOR_INEXISTENTE', code: 404, message: 'Emissor não existe mais.' });
  t.like(refusal(() => selectIssuer([a], 'other', { removedIds: new Set(['gone']) })), { type: 'NOT_FOUND' });
});
