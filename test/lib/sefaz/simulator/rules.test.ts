import test from 'ava';
import { checkNote, duplicateMotivo, keyMatchesFields, schemaMotivo, withinCancelWindow } from '../../../../lib/sefaz/simulator/rules.js';
import { nfeFacts } from '../../../../lib/sefaz/simulator/facts.js';
import { cstatText } from '../../../../lib/sefaz/cstat.js';
import { createA1, createCa } from '../../../support/certificates.js';
import { sampleNfe } from '../../../support/sample-nfe.js';

const a1 = createA1(createCa(), { cnpj: '12345678000195' });
const facts = (o: Record<string, unknown> = {}) => nfeFacts(sampleNfe({ cnpj: a1.cnpj, keyPem: a1.keyPem, certPem: a1.certPem, numero: 5, ...o }).xml);

test('checkNote accepts a consistent signed note from the certificate owner', (t) => {
  t.is(checkNote({ facts: facts(), signatureValid: true, clientCnpj: '12345678000195' }), null);
  t.is(checkNote({ facts: facts(), signatureValid: true, clientCnpj: '12345678999999' }), null, 'same CNPJ base (branch)');
});

test('checkNote: 297 signature, then 213 certificate, then 502 key, 972 infRespTec, 696 indFinal', (t) => {
  t.is(checkNote({ facts: facts({ wrongCheckDigit: true }), signatureValid: false, clientCnpj: null }), 297);
  t.is(checkNote({ facts: facts(), signatureValid: true, clientCnpj: '99999999000191' }), 213);
  t.is(checkNote({ facts: facts({ wrongCheckDigit: true }), signatureValid: true, clientCnpj: '12345678000195' }), 502);
  t.is(checkNote({ facts: facts({ withoutInfRespTec: true }), signatureValid: true, clientCnpj: '12345678000195' }), 972);
  t.is(checkNote({ facts: facts({ nonContributorNotFinal: true }), signatureValid: true, clientCnpj: '12345678000195' }), 696);
});

test('keyMatchesFields catches a field that differs from the key', (t) => {
  const f = facts();
  t.true(keyMatchesFields(f));
  t.false(keyMatchesFields({ ...f, nNF: '6' }));
  t.false(keyMatchesFields({ ...f, cNF: '00000001' }));
  t.false(keyMatchesFields({ ...f, dhEmi: '2020-01-01T10:00:00-03:00' }));
});

test('duplicateMotivo fills nRec and chNFe into the authority texts', (t) => {
  t.deepEqual(duplicateMotivo({ kind: 'same-key', receipt: '351000000000042' }, cstatText(204)), { cStat: 204, xMotivo: 'Duplicidade de NF-e [nRec:351000000000042]' });
  const k = '3'.repeat(44);
  t.deepEqual(duplicateMotivo({ kind: 'same-number', accessKey: k, receipt: '351000000000042' }, cstatText(539)),
    { cStat: 539, xMotivo: `Duplicidade de NF-e com diferença na Chave de Acesso [chNFe: ${k}][nRec:351000000000042]` });
});

test('schemaMotivo appends the first libxml2 message within 255 characters', (t) => {
  const m = schemaMotivo(cstatText(225), `Element 'x': ${'y'.repeat(400)}`);
  t.is(m.length, 255);
  t.true(m.startsWith('Rejeição: Falha no Schema XML do lote de NFe: Element'));
});

test('withinCancelWindow is 24 hours by default', (t) => {
  const at = new Date('2026-01-01T00:00:00Z');
  t.true(withinCancelWindow(at, new Date('2026-01-02T00:00:00Z')));
  t.false(withinCancelWindow(at, new Date('2026-01-02T00:00:01Z')));
});
