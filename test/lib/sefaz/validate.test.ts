import test from 'ava';
import { assertOutgoing } from '../../../lib/sefaz/validate.js';
import { buildConsStatServ, buildEnviNFe } from '../../../lib/sefaz/messages.js';
import { createA1, createCa } from '../../support/certificates.js';
import { sampleNfe } from '../../support/sample-nfe.js';

const a1 = createA1(createCa(), { cnpj: '12345678000195' });
const note = sampleNfe({ cnpj: '12345678000195', keyPem: a1.keyPem, certPem: a1.certPem, numero: 1, at: new Date('2026-01-10T12:00:00Z') });
const lot = (signedNfeXml: string) => buildEnviNFe({ idLote: '1', signedNfeXml });
const refusal = { message: /^enviNFe does not validate against the official XSD: the lot must carry exactly one signed NFe/ };

test('assertOutgoing passes an enviNFe wrapping one signed NFe without validating the NFe again', (t) => {
  t.notThrows(() => assertOutgoing('enviNFe', lot(note.xml)));
  t.notThrows(() => assertOutgoing('enviNFe', buildEnviNFe({ idLote: '123456789012345', signedNfeXml: note.xml, sync: false })));
});

test('assertOutgoing refuses an enviNFe that does not carry exactly one signed NFe', (t) => {
  const nfe = note.xml.replace(/^<\?xml[^>]*\?>/, '');
  t.throws(() => assertOutgoing('enviNFe', lot(nfe.replace(/<Signature[\s\S]*<\/Signature>/, ''))), refusal);
  t.throws(() => assertOutgoing('enviNFe', lot(nfe + nfe)), refusal);
  t.throws(() => assertOutgoing('enviNFe', lot(buildConsStatServ({ ambiente: 2, cUF: '35' }))), refusal);
  t.throws(() => assertOutgoing('enviNFe', lot(nfe.replace('<NFe xmlns="http://www.portalfiscal.inf.br/nfe">', '<NFe xmlns="urn:other">'))), refusal);
});

test('assertOutgoing still validates every other message against its XSD', (t) => {
  t.notThrows(() => assertOutgoing('consStatServ', buildConsStatServ({ ambiente: 2, cUF: '35' })));
  t.throws(() => assertOutgoing('consStatServ', buildConsStatServ({ ambiente: 2, cUF: '35' }).replace('<xServ>STATUS</xServ>', '')), { message: /^consStatServ does not validate against the official XSD/ });
});
