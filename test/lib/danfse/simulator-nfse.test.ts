import test from 'ava';
import { XmlC14NMode, XmlDocument } from 'libxml2-wasm';
import { buildSignedDps } from '../../../lib/nfse/document.js';
import { dpsFacts, NFSE_NS } from '../../../lib/sefin/simulator/dps-facts.js';
import { assembleNfse, buildInfNfse } from '../../../lib/sefin/simulator/nfse-xml.js';
import { createSigner } from '../../../lib/sign/signer.js';
import { buildDanfseView } from '../../../lib/danfse/view-model.js';
import { danfseSections } from '../../../lib/danfse/rows.js';
import { testSigningMaterial } from '../../support/checked-note-factories.js';
import { aDpsContext, checked, nfseScenarios } from '../../support/nfse-scenarios.js';

/** The NFS-e the Sefin simulator generates for a scenario's signed DPS, as the emission route stores it. */
const signer = createSigner(testSigningMaterial());
function simulatorNfse(name: string): string {
  const s = nfseScenarios().find((x) => x.name === name)!;
  const dps = buildSignedDps(checked(s).dps, aDpsContext(s.issuer, 7), signer);
  const doc = XmlDocument.fromString(dps.xml);
  try {
    const canonical = doc.root.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0 }).replace(` xmlns="${NFSE_NS}"`, '');
    const inf = buildInfNfse({
      dps: dpsFacts(doc), dpsCanonical: canonical, chaveAcesso: '33045572212345678000195000000000000726111234567893', nNFSe: 7, nDFSe: 70,
      dhProc: '2026-11-25T13:00:00-03:00', emitente: { xNome: 'EMPRESA TESTE LTDA', xLgr: 'Rua das Flores', nro: '100', xBairro: 'Centro', cMun: '3550308', uf: 'SP', cep: '01001000' },
    });
    return assembleNfse(inf.element, signer.sign(inf.canonical, inf.id).signatureXml);
  } finally {
    doc.dispose();
  }
}

test('the DANFSe of a simulator NFS-e with deductions, discounts and federal withholdings prints what Sefin computed', (t) => {
  const v = buildDanfseView(simulatorNfse('lucro-presumido-retencoes-inss-irrf-csll'));
  t.like(v, { numero: '7', homologacao: true, municipioEmissor: 'São Paulo - SP', emitente: { nome: 'EMPRESA TESTE LTDA', simplesNacional: 'Não optante' } });
  // Sefin's valores (test/lib/sefin/simulator/nfse-xml.test.ts): base 23 900.00, ISS 1 195.00, retained 3 375.00, net 21 474.50.
  const total = danfseSections(v).find((s) => s.title === 'Valor total da NFS-e')!.rows.flat().map((f) => `${f.label}: ${f.value}`);
  t.deepEqual(total, [
    'Valor do serviço: R$ 25.000,00', 'Desconto condicionado: R$ 50,50', 'Desconto incondicionado: R$ 100,00', 'ISSQN retido: -',
    'Total das retenções federais: R$ 3.375,00', 'PIS/COFINS - débito apur. própria: -', 'Valor líquido da NFS-e: R$ 21.474,50',
  ]);
  t.like(v.tribMun, { vBC: '23900.00', vISSQN: '1195.00', vDeducoes: '1000.00', retencao: 'Não retido' });
  t.like(v.tribFed, { cp: '2750.00', irrf: '375.00', contribSociais: '250.00', descricaoContribSociais: 'PIS/COFINS/CSLL retidos' });
});

test('the DANFSe of a simulator NFS-e whose ISS the taker withholds shows it in the totals', (t) => {
  const v = buildDanfseView(simulatorNfse('iss-retido-pelo-tomador'));
  t.like(v.tribMun, { retencao: 'Retido pelo tomador', vISSQN: '45.00' });
  t.like(v.valores, { issqnRetido: '45.00', vLiq: '1455.00', retencoesFederais: '' });
});
