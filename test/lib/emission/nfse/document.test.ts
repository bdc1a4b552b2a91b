import test from 'ava';
import { nfseDetailView, nfseEmissionView, nfseEventData, nfseIndeterminateView, type NfseRecord } from '../../../../lib/emission/nfse/document.js';

const at = new Date('2026-11-22T20:40:00.000Z');
const record = (over: Partial<NfseRecord> = {}): NfseRecord => ({
  id: '5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a', partnerId: 'p1', issuerId: 'i1', serie: 1, nDps: 12, environment: 2, keyKind: 'live',
  idDps: 'DPS355030821122233300018100001000000000000012', codigoMunicipio: '3550308', emittedAt: at, status: 'AUTHORIZED', amountCents: 150050n,
  chaveAcesso: '3'.repeat(50), numeroNfse: '9', authorizedAt: at, erros: null, avisos: [], alertas: [], motivo: null, createdAt: at, updatedAt: at,
  nextCheckAt: null, checkAttempts: 0, transmissions: 1, transmittingUntil: null, canceledAt: null, ...over,
});

test('nfseEmissionView: the 201 body with decimal-string amount, nDPS, numero (nNFSe) and links', (t) => {
  t.deepEqual(nfseEmissionView(record()), {
    id: '5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a', status: 'AUTHORIZED', model: 'NFSe', chaveAcesso: '3'.repeat(50), numero: '9', serie: 1, nDPS: 12,
    idDps: 'DPS355030821122233300018100001000000000000012', amount: '1500.50', issuerId: 'i1', createdAt: '2026-11-22T20:40:00.000Z', avisos: [], alertas: [],
    links: {
      self: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a', xml: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/xml', cancelamento: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/cancelamento',
      danfse: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/danfse.pdf', danfseHtml: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/danfse.html',
    },
  });
});

test('nfseDetailView and nfseIndeterminateView mark open DPS as indeterminada with the next check', (t) => {
  const open = record({ status: 'TRANSMITTING', chaveAcesso: null, numeroNfse: null, nextCheckAt: new Date('2026-11-22T20:42:00.000Z') });
  t.like(nfseDetailView(open), { situacao: 'indeterminada', proximaVerificacaoEm: '2026-11-22T20:42:00.000Z', chaveAcesso: null });
  t.like(nfseDetailView(record()), { situacao: null, proximaVerificacaoEm: null, authorizedAt: '2026-11-22T20:40:00.000Z' });
  t.like(nfseIndeterminateView(open), { situacao: 'indeterminada', idDps: open.idDps, status: 'TRANSMITTING', nDPS: 12 });
});

test('nfseEventData: nfseId and model NFSe, the key as accessKey (as every invoice event) and chaveAcesso; a rejection carries erros[] and no key', (t) => {
  t.deepEqual(nfseEventData(record()), {
    nfseId: '5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a', model: 'NFSe', number: 12, series: 1, idDps: 'DPS355030821122233300018100001000000000000012',
    accessKey: '3'.repeat(50), chaveAcesso: '3'.repeat(50), numeroNfse: '9', status: 'AUTHORIZED', amount: '1500.50', issuerId: 'i1', cnpj: '11222333000181',
    links: {
      self: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a', xml: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/xml', cancelamento: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/cancelamento',
      danfse: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/danfse.pdf', danfseHtml: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/danfse.html',
    },
  });
  const erros = [{ codigo: 'E0312', descricao: 'x' }];
  t.like(nfseEventData(record({ status: 'REJECTED', erros, chaveAcesso: null })), { status: 'REJECTED', accessKey: null, chaveAcesso: null, erros, codigo: 'E0312', descricao: 'x' });
});
