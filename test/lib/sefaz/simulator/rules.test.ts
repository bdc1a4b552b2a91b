import test from 'ava';
import { authorizationCStat, checkNote, duplicateMotivo, emissionDateCStat, keyMatchesFields, withItem, type NoteCheckInput } from '../../../../lib/sefaz/simulator/rules.js';
import { nfeFacts } from '../../../../lib/sefaz/simulator/facts.js';
import { cstatText } from '../../../../lib/sefaz/cstat.js';
import { createA1, createCa } from '../../../support/certificates.js';
import { sampleNfe } from '../../../support/sample-nfe.js';

const a1 = createA1(createCa(), { cnpj: '12345678000195' });
const facts = (o: Record<string, unknown> = {}) => nfeFacts(sampleNfe({ cnpj: a1.cnpj, keyPem: a1.keyPem, certPem: a1.certPem, numero: 5, ...o }).xml);
const input = (over: Partial<NoteCheckInput> = {}): NoteCheckInput => ({
  facts: facts(), signatureCStat: null, signerCStat: null, signerCnpj: '12345678000195', clientCnpj: '12345678000195',
  thirdPartyTransmitter: true, infRespTecRequired: true, authorizerServesUf: true, svc: null, now: new Date(), ...over,
});

test('checkNote accepts a consistent signed note from the certificate owner', (t) => {
  t.is(checkNote(input()), null);
  t.is(checkNote(input({ signerCnpj: '12345678999999' })), null, 'same CNPJ base (branch)');
  t.is(checkNote(input({ clientCnpj: '99999999000191' })), null, 'a third party transmits where the UF allows it');
});

test('checkNote: signature, signer certificate, 213, 252, 226, 502, 972, 696 in the authority order', (t) => {
  t.deepEqual(checkNote(input({ facts: facts({ wrongCheckDigit: true }), signatureCStat: 297 })), { cStat: 297 });
  t.deepEqual(checkNote(input({ signerCStat: 291 })), { cStat: 291 });
  t.deepEqual(checkNote(input({ signerCnpj: '99999999000191' })), { cStat: 213 });
  t.deepEqual(checkNote(input({ thirdPartyTransmitter: false, clientCnpj: '99999999000191' })), { cStat: 213 });
  t.deepEqual(checkNote(input({ facts: facts({ tpAmb: 1 }) })), { cStat: 252 });
  t.deepEqual(checkNote(input({ authorizerServesUf: false })), { cStat: 226 });
  t.deepEqual(checkNote(input({ facts: facts({ wrongCheckDigit: true }) })), { cStat: 502 });
  t.deepEqual(checkNote(input({ facts: facts({ withoutInfRespTec: true }) })), { cStat: 972 });
  t.is(checkNote(input({ facts: facts({ withoutInfRespTec: true }), infRespTecRequired: false })), null);
  t.deepEqual(checkNote(input({ facts: facts({ nonContributorNotFinal: true }) })), { cStat: 696 });
});

test('emissionDateCStat: 703 ahead of 5 minutes, 228 for a normal NF-e over 30 days, 704 for a normal NFC-e over 5 minutes', (t) => {
  const now = new Date('2026-03-10T12:00:00Z');
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  t.is(emissionDateCStat({ dhEmi: at(6 * 60_000), tpEmis: '1', mod: '55' }, now), 703);
  t.is(emissionDateCStat({ dhEmi: at(4 * 60_000), tpEmis: '1', mod: '55' }, now), null);
  t.is(emissionDateCStat({ dhEmi: at(-31 * 86_400_000), tpEmis: '1', mod: '55' }, now), 228);
  t.is(emissionDateCStat({ dhEmi: at(-31 * 86_400_000), tpEmis: '9', mod: '65' }, now), null);
  t.is(emissionDateCStat({ dhEmi: at(-6 * 60_000), tpEmis: '1', mod: '65' }, now), 704);
  t.is(authorizationCStat({ dhEmi: at(-25 * 3_600_000), tpEmis: '9' }, now), 150);
  t.is(authorizationCStat({ dhEmi: at(-25 * 3_600_000), tpEmis: '1' }, now), 100);
});

test('keyMatchesFields catches a field that differs from the key', (t) => {
  const f = facts();
  t.true(keyMatchesFields(f));
  t.false(keyMatchesFields({ ...f, nNF: '6' }));
  t.false(keyMatchesFields({ ...f, cNF: '00000001' }));
  t.false(keyMatchesFields({ ...f, dhEmi: '2020-01-01T10:00:00-03:00' }));
});

test('duplicateMotivo fills nRec and chNFe into the authority texts', (t) => {
  t.deepEqual(duplicateMotivo({ kind: 'same-key', receipt: '351000000000042' }, cstatText(204)), { cStat: 204, xMotivo: 'Rejeição: Duplicidade de NF-e [nRec:351000000000042]' });
  const k = '3'.repeat(44);
  t.deepEqual(duplicateMotivo({ kind: 'same-number', accessKey: k, receipt: '351000000000042' }, cstatText(539)),
    { cStat: 539, xMotivo: `Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso [chNFe:${k}][nRec:351000000000042]` });
});

test('withItem fills the item number of a per-item rule', (t) => {
  t.is(withItem(cstatText(694), '3'), 'Rejeição: Não informado o grupo de ICMS para a UF de destino [nItem:3]');
  t.is(withItem(cstatText(213), undefined), cstatText(213));
});
