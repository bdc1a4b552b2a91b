import test from 'ava';
import { receiveDocument } from '../../../../lib/sefin/simulator/reception.js';
import { toGzipBase64 } from '../../../../lib/sefin/payload.js';
import { NFSE_SCHEMAS } from '../../../../lib/xml/schemas.js';
import { buildSignedDps } from '../../../../lib/nfse/document.js';
import { createSigner } from '../../../../lib/sign/signer.js';
import { testSigningMaterial } from '../../../support/checked-note-factories.js';
import { aDpsContext, checked, nfseScenarios } from '../../../support/nfse-scenarios.js';

const s = nfseScenarios()[0]!;
const dps = buildSignedDps(checked(s).dps, aDpsContext(s.issuer, 9), createSigner(testSigningMaterial()));
const codeOf = (b64: unknown, root = 'DPS') => {
  const r = receiveDocument(b64, root, NFSE_SCHEMAS.dps);
  if (r.ok) { r.doc.dispose(); return 'ok'; }
  return r.erro.codigo;
};

test('receiveDocument accepts a signed DPS (XML declaration allowed) and hands over the parsed document', (t) => {
  t.is(codeOf(toGzipBase64(dps.xml)), 'ok');
  t.is(codeOf(toGzipBase64(`<?xml version="1.0" encoding="UTF-8"?>${dps.xml}`)), 'ok');
});

test('receiveDocument applies the reception rules in order: E1225, E1226, E1242, E1228, E1229, E1235', (t) => {
  t.is(codeOf(undefined), 'E1225');
  t.is(codeOf('não é base64'), 'E1225');
  t.is(codeOf(Buffer.from(dps.xml).toString('base64')), 'E1226');
  t.is(codeOf(toGzipBase64('<DPS><sem fim')), 'E1226');
  t.is(codeOf(toGzipBase64(dps.xml.replace('<infDPS', '<x:infDPS xmlns:x="urn:x"').replace('</infDPS>', '</x:infDPS>'))), 'E1228');
  t.is(codeOf(toGzipBase64(dps.xml), 'NFSe'), 'E1242');
  t.is(codeOf(toGzipBase64(`<?xml version="1.0" encoding="ISO-8859-1"?>${dps.xml}`)), 'E1229');
  const schema = receiveDocument(toGzipBase64(dps.xml.replace(/<nDPS>\d+<\/nDPS>/, '<nDPS>0</nDPS>')), 'DPS', NFSE_SCHEMAS.dps);
  t.false(schema.ok);
  if (!schema.ok) {
    t.is(schema.erro.codigo, 'E1235');
    t.regex(schema.erro.complemento ?? '', /nDPS/);
  }
});
