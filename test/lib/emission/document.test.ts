import test from 'ava';
import { detailView, emissionView, eventData, indeterminateView, type DocumentRecord } from '../../../lib/emission/document.js';

const doc: DocumentRecord = {
  id: '0b0f8a36-5a53-4b6c-9f49-1a7e3bb4c7a1', partnerId: 'p1', issuerId: '5d5b1f8e-8f7c-4c1e-9d7e-3a2b1c0d9e8f', model: '65', series: 1, number: 10,
  environment: 2, uf: 'SP', keyKind: 'live', accessKey: '3'.repeat(44), cnf: '12345678', tpEmis: 1, emittedAt: new Date('2026-11-22T15:00:00Z'),
  status: 'REJECTED', amountCents: 123456789012345n, protocol: null, authorizedAt: null, erros: [{ codigo: '539', descricao: 'Duplicidade' }],
  motivo: '539 - Duplicidade', createdAt: new Date('2026-11-22T15:00:00Z'), updatedAt: new Date('2026-11-22T15:00:01Z'), nextCheckAt: null,
  checkAttempts: 0, transmissions: 1, transmittingUntil: null, qrCode: 'https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode?p=1', hasTransmittedXml: true, hasAuthorizedXml: false,
};

test('emissionView prints amount as a decimal string and links NFC-e paths', (t) => {
  t.deepEqual(emissionView(doc), {
    id: doc.id, status: 'REJECTED', model: '65', accessKey: doc.accessKey, number: 10, series: 1, amount: '1234567890123.45', protocol: null,
    issuerId: doc.issuerId, createdAt: '2026-11-22T15:00:00.000Z', links: { self: `/v1/nfce/${doc.id}`, xml: `/v1/nfce/${doc.id}/xml`, eventos: `/v1/nfce/${doc.id}/eventos`, danfe: `/v1/nfce/${doc.id}/danfce.pdf`, danfeHtml: `/v1/nfce/${doc.id}/danfce.html` },
  });
});

const links = { self: `/v1/nfce/${doc.id}`, xml: `/v1/nfce/${doc.id}/xml`, eventos: `/v1/nfce/${doc.id}/eventos`, danfe: `/v1/nfce/${doc.id}/danfce.pdf`, danfeHtml: `/v1/nfce/${doc.id}/danfce.html` };

test('eventData of a rejection has accessKey null, erros, and the first cStat/xMotivo; the issuer, its CNPJ and links ride along', (t) => {
  t.deepEqual(eventData(doc), {
    invoiceId: doc.id, model: '65', number: 10, series: 1, accessKey: null, status: 'REJECTED', amount: '1234567890123.45', erros: doc.erros!,
    issuerId: doc.issuerId, cnpj: '33333333333333', links, protocol: null, cStat: 539, xMotivo: 'Duplicidade',
  });
});

test('eventData of an authorization carries its protocol and no cStat', (t) => {
  const authorized = eventData({ ...doc, status: 'AUTHORIZED', erros: null, protocol: '135260000000042' });
  t.like(authorized, { accessKey: doc.accessKey, protocol: '135260000000042', issuerId: doc.issuerId, cnpj: '33333333333333', links });
  t.false('cStat' in authorized);
});

test('eventData of a contingency note says emitidaEmContingencia', (t) => {
  t.like(eventData({ ...doc, status: 'AUTHORIZED', erros: null, tpEmis: 9 }), { accessKey: doc.accessKey, status: 'AUTHORIZED', emitidaEmContingencia: true });
});

test('open documents are indeterminate with their next check; terminal ones are not', (t) => {
  const open = { ...doc, status: 'TRANSMITTING' as const, nextCheckAt: new Date('2026-11-22T15:02:00Z') };
  t.like(detailView(open), { situacao: 'indeterminada', proximaVerificacaoEm: '2026-11-22T15:02:00.000Z' });
  t.like(detailView(doc), { situacao: null, proximaVerificacaoEm: null, qrCode: doc.qrCode });
  t.false('qrCode' in detailView({ ...doc, model: '55' }));
  t.like(indeterminateView(open), { situacao: 'indeterminada', status: 'TRANSMITTING', proximaVerificacaoEm: '2026-11-22T15:02:00.000Z', motivo: '539 - Duplicidade' });
});
