import test from 'ava';
import { XmlDocument } from 'libxml2-wasm';
import { assembleEvento, buildInfEvento } from '../../../../lib/sefin/simulator/event-xml.js';
import { verifyEnvelopedSignature } from '../../../../lib/sefin/simulator/signature.js';
import { createSigner } from '../../../../lib/sign/signer.js';
import { NFSE_SCHEMAS } from '../../../../lib/xml/schemas.js';
import { validateXml } from '../../../../lib/xml/xsd.js';
import { createA1, createCa } from '../../../support/certificates.js';
import { materialOf, signedCancellation } from '../../../support/sefin.js';

const EVENTO_XSD = NFSE_SCHEMAS.pedRegEvento.replace('pedRegEvento_v1.01.xsd', 'evento_v1.01.xsd');

test('buildInfEvento + assembleEvento: the registered cancellation, valid against evento_v1.01.xsd, both signatures verify', (t) => {
  const a1 = createA1(createCa(), { cnpj: '12345678000195' });
  const chave = '3550308'.padEnd(50, '1');
  const ped = signedCancellation(a1, chave, new Date('2026-11-25T15:00:00Z'));
  const pedCanonical = ped.replace(' xmlns="http://www.sped.fazenda.gov.br/nfse"', '');
  const inf = buildInfEvento({ chaveAcesso: chave, tipoEvento: '101101', nSeqEvento: 1, dhProc: '2026-11-25T12:00:01-03:00', nDFSe: 7, pedRegEventoCanonical: pedCanonical });
  t.is(inf.id, `EVT${chave}101101001`);
  const signer = createSigner(materialOf(createA1(createCa('Sefin'), { cnpj: '00394460000141' }), 'sefin'));
  const xml = assembleEvento(inf.element, signer.sign(inf.canonical, inf.id).signatureXml);
  t.deepEqual(validateXml(EVENTO_XSD, xml).errors, []);
  const doc = XmlDocument.fromString(xml);
  try {
    t.true(verifyEnvelopedSignature(doc, inf.id).valid);
    t.true(verifyEnvelopedSignature(doc, `PRE${chave}101101`).valid);
  } finally {
    doc.dispose();
  }
});
