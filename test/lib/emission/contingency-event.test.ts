import test from 'ava';
import { contingencyEventData } from '../../../lib/emission/contingency-event.js';
import { contingencyInfo } from '../../../lib/emission/contingency.js';
import { emissionView, type DocumentRecord } from '../../../lib/emission/document.js';

const at = new Date('2026-11-22T15:00:00Z');
const doc: DocumentRecord = {
  id: '0b0f8a36-5a53-4b6c-9f49-1a7e3bb4c7a1', partnerId: 'p1', issuerId: '5d5b1f8e-8f7c-4c1e-9d7e-3a2b1c0d9e8f', model: '65', series: 1, number: 10,
  environment: 2, uf: 'SP', keyKind: 'live', accessKey: '3'.repeat(44), cnf: '12345678', tpEmis: 9, emittedAt: at,
  status: 'CONTINGENCIA_PENDENTE', amountCents: 2100n, protocol: null, authorizedAt: null, erros: null, motivo: null, createdAt: at, updatedAt: at,
  nextCheckAt: null, checkAttempts: 0, transmissions: 0, transmittingUntil: null, qrCode: 'https://qr?p=1', hasTransmittedXml: true, hasAuthorizedXml: false,
  contingencia: contingencyInfo('solicitada', 'Sem comunicacao com a SEFAZ', at),
};
const block = { motivo: 'solicitada', justificativa: 'Sem comunicacao com a SEFAZ', prazo: '2026-11-23T15:00:00.000Z' };

test('contingencyEventData carries the invoice, its QR code and the contingencia block, not the final-outcome flag', (t) => {
  t.deepEqual(contingencyEventData(doc), {
    invoiceId: doc.id, model: '65', number: 10, series: 1, accessKey: doc.accessKey, status: 'CONTINGENCIA_PENDENTE', amount: '21.00', qrCode: 'https://qr?p=1', contingencia: block,
    issuerId: doc.issuerId, cnpj: '33333333333333', protocol: null,
    links: { self: `/v1/nfce/${doc.id}`, xml: `/v1/nfce/${doc.id}/xml`, eventos: `/v1/nfce/${doc.id}/eventos`, danfe: `/v1/nfce/${doc.id}/danfce.pdf`, danfeHtml: `/v1/nfce/${doc.id}/danfce.html` },
  });
  t.throws(() => contingencyEventData({ ...doc, contingencia: null }));
});

test('emissionView of a contingency note adds qrCode and contingencia; a normal note has neither', (t) => {
  t.like(emissionView(doc), { status: 'CONTINGENCIA_PENDENTE', protocol: null, qrCode: 'https://qr?p=1', contingencia: block });
  const normal = emissionView({ ...doc, tpEmis: 1, status: 'AUTHORIZED', contingencia: null });
  t.false('contingencia' in normal);
  t.false('qrCode' in normal);
});
