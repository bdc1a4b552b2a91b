import test from 'ava';
import { XmlC14NMode, XmlDocument } from 'libxml2-wasm';
import { buildSignedDps } from '../../../../lib/nfse/document.js';
import { dpsFacts, NFSE_NS, type DpsFacts } from '../../../../lib/sefin/simulator/dps-facts.js';
import { assembleNfse, buildInfNfse, buildValoresNfse } from '../../../../lib/sefin/simulator/nfse-xml.js';
import { verifyEnvelopedSignature } from '../../../../lib/sefin/simulator/signature.js';
import { createSigner } from '../../../../lib/sign/signer.js';
import { NFSE_SCHEMAS } from '../../../../lib/xml/schemas.js';
import { validateXml } from '../../../../lib/xml/xsd.js';
import { testSigningMaterial } from '../../../support/checked-note-factories.js';
import { aDpsContext, checked, nfseScenarios } from '../../../support/nfse-scenarios.js';

const signer = createSigner(testSigningMaterial());
const emitente = { xNome: 'EMPRESA TESTE LTDA', xLgr: 'Rua das Flores', nro: '100', xBairro: 'Centro', cMun: '3550308', uf: 'SP', cep: '01001000' };

function parsed(name: string): { facts: DpsFacts; canonical: string } {
  const s = nfseScenarios().find((x) => x.name === name)!;
  const dps = buildSignedDps(checked(s).dps, aDpsContext(s.issuer, 3), signer);
  const doc = XmlDocument.fromString(dps.xml);
  try {
    return { facts: dpsFacts(doc), canonical: doc.root.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0 }).replace(` xmlns="${NFSE_NS}"`, '') };
  } finally {
    doc.dispose();
  }
}

test('buildValoresNfse: ISS base × rate, nothing retained, vLiq the service value', (t) => {
  const { facts } = parsed('simples-me-epp-ptottribsn');
  t.is(facts.valores.vServ, '1500.00');
  t.is(String(buildValoresNfse(facts)), '<valores><vBC>1500.00</vBC><pAliqAplic>2.00</pAliqAplic><vISSQN>30.00</vISSQN><vLiq>1500.00</vLiq></valores>');
});

test('buildValoresNfse: unconditional discount and deductions lower the base; withheld ISS and federal retentions lower vLiq', (t) => {
  const { facts } = parsed('lucro-presumido-retencoes-inss-irrf-csll');
  // 25000 - 100 (incond.) - 1000 (deduções) = 23900 × 5% = 1195; retained 2750 + 375 + 250; vLiq 25000 - 100 - 50.50 - 3375.
  t.is(String(buildValoresNfse(facts)), '<valores><vCalcDR>1000.00</vCalcDR><vBC>23900.00</vBC><pAliqAplic>5.00</pAliqAplic><vISSQN>1195.00</vISSQN><vTotalRet>3375.00</vTotalRet><vLiq>21474.50</vLiq></valores>');
  const retido = parsed('iss-retido-pelo-tomador').facts;
  t.regex(buildValoresNfse(retido), /<vISSQN>45\.00<\/vISSQN><vTotalRet>45\.00<\/vTotalRet><vLiq>1455\.00<\/vLiq>/);
});

test('buildInfNfse + assembleNfse: a signed NFS-e valid against NFSe_v1.01.xsd, DPS embedded with its signature intact', (t) => {
  const { facts, canonical } = parsed('simples-me-epp-ptottribsn');
  const chave = '3550308221234567800019500000000000012611123456789' + '3';
  const inf = buildInfNfse({ dps: facts, dpsCanonical: canonical, chaveAcesso: chave, nNFSe: 1, nDFSe: 10, dhProc: '2026-11-25T13:00:00-03:00', emitente });
  const xml = assembleNfse(inf.element, signer.sign(inf.canonical, inf.id).signatureXml);
  t.deepEqual(validateXml(NFSE_SCHEMAS.nfse, xml).errors, []);
  t.true(xml.includes('<xLocEmi>São Paulo</xLocEmi>'));
  t.true(xml.includes('<xTribNac>Análise e desenvolvimento de sistemas.</xTribNac>'));
  const doc = XmlDocument.fromString(xml);
  try {
    t.true(verifyEnvelopedSignature(doc, inf.id).valid);
    t.true(verifyEnvelopedSignature(doc, facts.id).valid);
  } finally {
    doc.dispose();
  }
});
