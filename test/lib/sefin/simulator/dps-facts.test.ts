import test from 'ava';
import { XmlDocument } from 'libxml2-wasm';
import { buildSignedDps } from '../../../../lib/nfse/document.js';
import { dpsFacts } from '../../../../lib/sefin/simulator/dps-facts.js';
import { createSigner } from '../../../../lib/sign/signer.js';
import { testSigningMaterial } from '../../../support/checked-note-factories.js';
import { aDpsContext, checked, nfseScenarios } from '../../../support/nfse-scenarios.js';

test('dpsFacts reads identity, issuer, place, service codes and amounts of a DPS built by lib/nfse', (t) => {
  const s = nfseScenarios().find((x) => x.name === 'lucro-presumido-retencoes-inss-irrf-csll')!;
  const dps = buildSignedDps(checked(s).dps, aDpsContext(s.issuer, 42), createSigner(testSigningMaterial()));
  const doc = XmlDocument.fromString(dps.xml);
  try {
    const f = dpsFacts(doc);
    t.like(f, {
      id: dps.id, versao: '1.01', tpAmb: '2', dhEmi: '2026-11-22T17:40:00-03:00', nDPS: '42', cLocEmi: '3550308', cTribNac: '170101',
      prest: { cnpj: '12345678000195', im: '12345678', fone: '1133334444', email: 'fiscal@prestador.com.br' },
      cLocPrestacao: '3304557',
      valores: { vServ: '25000.00', vDescIncond: '100.00', vDescCond: '50.50', vDR: '1000.00', tribISSQN: '1', pAliq: '5.00', tpRetISSQN: '1', vRetCP: '2750.00', vRetIRRF: '375.00', vRetCSLL: '250.00' },
    });
    t.is(f.prest.xNome, undefined);
  } finally {
    doc.dispose();
  }
});

test('dpsFacts refuses a document without infDPS', (t) => {
  const doc = XmlDocument.fromString('<DPS xmlns="http://www.sped.fazenda.gov.br/nfse"></DPS>');
  try {
    t.throws(() => dpsFacts(doc), { message: 'DPS without infDPS' });
  } finally {
    doc.dispose();
  }
});
