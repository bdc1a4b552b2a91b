import test from 'ava';
import { startSefazStack, createA1, type SefazStack } from '../../support/sefaz-stack.js';
import { signedDps } from '../../support/sefin.js';
import { verifyDfe, verifyNfseDocument } from '../../support/verify-dfe.js';
import { validateXml } from '../../../lib/xml/xsd.js';
import { NFSE_SCHEMAS } from '../../../lib/xml/schemas.js';

const CNPJ = '12345678000195';
let s: SefazStack;
let a1: ReturnType<typeof createA1>;
let nDPS = 1;

test.before(async () => {
  s = await startSefazStack({ SIMULATOR_SEFIN_NAO_ADERENTES: '3304557' });
  a1 = createA1(s.ca, { cnpj: CNPJ });
  s.addIssuer('iss-1', a1);
});
test.after.always(async () => { await s?.stack.stop(); });
test.afterEach.always(async () => { await s.clearFaults(); });

const target = { issuerId: 'iss-1', ambiente: 2 } as const;
const submit = (dps: { xml: string; id: string }) => s.call('v1.sefaz.nfseSubmit', { ...target, signedDpsXml: dps.xml, idDps: dps.id });

test.serial('nfseSubmit authorizes a DPS built by buildSignedDps: 50-digit chave, NFS-e valid against the XSD, both signatures verified', async (t) => {
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  const r = await submit(dps);
  t.is(r.kind, 'authorized', JSON.stringify(r));
  t.regex(r.chaveAcesso, /^\d{50}$/);
  t.is(r.idDps, dps.id);
  t.regex(r.numeroNfse, /^[1-9]\d*$/);
  t.regex(r.authorizedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$/);
  t.deepEqual(r.alertas, []);
  t.true(r.nfseXml.includes(`Id="NFS${r.chaveAcesso}"`));
  t.deepEqual(validateXml(NFSE_SCHEMAS.nfse, r.nfseXml).errors, []);
  const sent = verifyDfe({ dps: dps.xml });
  t.true(sent.ok, sent.output);
  const nfse = verifyNfseDocument(r.nfseXml);
  t.true(nfse.ok, nfse.output);
  t.regex(nfse.output, /validates[\s\S]*OK[\s\S]*OK/);
});

test.serial('nfseConsultDps finds the NFS-e of a submitted DPS and answers not-found for another', async (t) => {
  const dps = signedDps(a1, { nDPS: nDPS++, now: new Date() });
  const sent = await submit(dps);
  const found = await s.call('v1.sefaz.nfseConsultDps', { ...target, idDps: dps.id });
  t.is(found.kind, 'authorized');
  t.like(found, { chaveAcesso: sent.chaveAcesso, idDps: dps.id, numeroNfse: sent.numeroNfse, nfseXml: sent.nfseXml });
  const none = await s.call('v1.sefaz.nfseConsultDps', { ...target, idDps: `DPS${'1'.repeat(42)}` });
  t.deepEqual(none, { kind: 'not-found' });
});
