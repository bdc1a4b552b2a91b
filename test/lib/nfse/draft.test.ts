import test from 'ava';
import { DomainError } from '../../../lib/errors/index.js';
import { buildSignedDps, draftDps, finishDps, PROVISIONAL_NDPS, type SignedDps } from '../../../lib/nfse/document.js';
import { buildInfDps } from '../../../lib/nfse/xml/dps.js';
import { renumberInfDps } from '../../../lib/nfse/xml/renumber.js';
import { createSigner, type Signer } from '../../../lib/sign/signer.js';
import { verifyXmlSignature } from '../../../lib/sign/verify.js';
import { testSigningMaterial } from '../../support/checked-note-factories.js';
import { aValidNfseBody, anNfseIssuer } from '../../support/nfse-factories.js';
import { aDpsContext, checked, nfseScenarios } from '../../support/nfse-scenarios.js';
import { verifyDfeFiles } from '../../support/verify-dfe.js';

const signer = createSigner(testSigningMaterial());
/** The edges of TSNumDPS's width (1-15 digits), the provisional number itself included. */
const NUMBERS = [1, 9, 10, 99, 100, 999_999_999, 1_000_000_000, 99_999_999_999_999, 100_000_000_000_000, 999_999_999_999_999];
const draftContext = (ctx: ReturnType<typeof aDpsContext>) => ({ issuer: ctx.issuer, dhEmi: ctx.dhEmi, tpAmb: ctx.tpAmb, verAplic: ctx.verAplic });

/** Free text that holds what the renumbering looks for: it must stay as written. */
const lookalike = {
  name: 'texto-com-id-e-numero-provisorios',
  issuer: anNfseIssuer(),
  body: aValidNfseBody({
    servico: { ...aValidNfseBody().servico, discriminacao: `Id="DPS355030821234567800019500001${PROVISIONAL_NDPS}"> <nDPS>${PROVISIONAL_NDPS}</nDPS>` },
    informacoesComplementares: `nDPS ${PROVISIONAL_NDPS}`,
  }),
};

const finished: Record<string, SignedDps> = {};

test('a draft finished with the claimed nDPS is byte for byte what buildSignedDps writes for it, in every scenario and at every width of nDPS', async (t) => {
  let count = 0;
  for (const s of [...nfseScenarios(), lookalike]) {
    const dps = checked(s).dps;
    const draft = draftDps(dps, draftContext(aDpsContext(s.issuer)), signer);
    t.is(draft.ctx.nDPS, PROVISIONAL_NDPS);
    for (const nDPS of NUMBERS) {
      const expected = buildSignedDps(dps, aDpsContext(s.issuer, nDPS), signer);
      const got = await finishDps(draft, nDPS, signer);
      t.is(got.xml, expected.xml, `${s.name} numbered ${nDPS}`);
      t.deepEqual(got, expected);
      finished[`${s.name}-${nDPS}`] = got;
      count++;
    }
  }
  t.is(count, (nfseScenarios().length + 1) * NUMBERS.length);
  t.true(finished[`${lookalike.name}-1`]!.xml.includes(`<xDescServ>Id="DPS355030821234567800019500001${PROVISIONAL_NDPS}"&gt; &lt;nDPS&gt;${PROVISIONAL_NDPS}&lt;/nDPS&gt;</xDescServ>`));
  t.true(finished[`${lookalike.name}-1`]!.xml.includes(`<serie>1</serie><nDPS>1</nDPS><dCompet>`));
});

test('finished DPS carry a signature that verifies on their own Id and pass the independent xmllint + xmlsec1 check (verify-dfe.sh)', async (t) => {
  const s = nfseScenarios()[0]!;
  const draft = draftDps(checked(s).dps, draftContext(aDpsContext(s.issuer)), signer);
  const docs: Record<string, string> = {};
  for (const nDPS of NUMBERS) {
    const doc = await finishDps(draft, nDPS, signer);
    t.is(doc.id, `DPS3550308212345678000195${'00001'}${String(nDPS).padStart(15, '0')}`);
    const check = verifyXmlSignature(doc.xml, doc.id);
    t.true(check.valid, `${nDPS}: ${check.reason}`);
    docs[`finished-${nDPS}`] = doc.xml;
  }
  const result = await verifyDfeFiles(docs);
  t.true(result.ok, result.output);
  t.regex(result.output, new RegExp(`${NUMBERS.length} passed, 0 failed`));
});

test('the draft is refused with what buildSignedDps refuses, before any number: XML_FORA_DO_ESQUEMA', (t) => {
  const s = nfseScenarios()[0]!;
  const issuer = { ...s.issuer, email: ' com espaco ' };
  const error = t.throws(() => draftDps(checked(s).dps, draftContext(aDpsContext(issuer)), signer), { instanceOf: DomainError }) as DomainError;
  t.is(error.type, 'XML_FORA_DO_ESQUEMA');
  t.regex(JSON.stringify(error.data), /email/);
});

test('the draft is checked with a placeholder signature and never signed; finishing signs once, off the thread; the steps are told', async (t) => {
  const calls: string[] = [];
  const counting: Signer = {
    issuerId: signer.issuerId, fingerprint: signer.fingerprint,
    sign: (c, id) => { calls.push('sign'); return signer.sign(c, id); },
    signAsync: (c, id) => { calls.push('signAsync'); return signer.signAsync(c, id); },
    shape: (c, id) => { calls.push('shape'); return signer.shape(c, id); },
  };
  const s = nfseScenarios()[0]!;
  const steps: string[] = [];
  const draft = draftDps(checked(s).dps, draftContext(aDpsContext(s.issuer)), counting, (step) => steps.push(step));
  t.deepEqual(calls, ['shape']);
  t.deepEqual(steps, ['build', 'xsd']);
  await finishDps(draft, 3, counting, (step) => steps.push(step));
  t.deepEqual(calls, ['shape', 'signAsync']);
  t.deepEqual(steps, ['build', 'xsd', 'sign']);
});

test('renumbering refuses contexts that differ in more than nDPS, a draft that is not the one described, a number out of range, and a document it cannot find its parts in', (t) => {
  const s = nfseScenarios()[0]!;
  const dps = checked(s).dps;
  const from = aDpsContext(s.issuer, PROVISIONAL_NDPS);
  const infDps = buildInfDps(dps, from);
  const to = { ...from, nDPS: 5 };
  const differ = { instanceOf: RangeError, message: /differ/ };
  t.throws(() => renumberInfDps(infDps, dps.serie, from, { ...to, dhEmi: '2026-11-23T10:00:00-03:00' }), differ);
  t.throws(() => renumberInfDps(infDps, dps.serie, from, { ...to, tpAmb: 1 }), differ);
  t.throws(() => renumberInfDps(infDps, dps.serie, from, { ...to, verAplic: 'other' }), differ);
  t.throws(() => renumberInfDps(infDps, dps.serie, from, { ...to, issuer: anNfseIssuer({ cnpj: '11222333000181' }) }), differ);
  t.throws(() => renumberInfDps(infDps, dps.serie + 1, from, to), { instanceOf: RangeError, message: /is not DPS/ });
  t.throws(() => renumberInfDps(infDps, dps.serie, { ...from, nDPS: 6 }, to), { instanceOf: RangeError, message: /is not DPS/ });
  for (const nDPS of [0, -1, 1.5, 1_000_000_000_000_000]) {
    t.throws(() => renumberInfDps(infDps, dps.serie, from, { ...to, nDPS }), { instanceOf: RangeError, message: /nDPS out of range/ }, String(nDPS));
  }
  const broken = (canonical: string) => ({ ...infDps, canonical });
  t.throws(() => renumberInfDps(broken(infDps.canonical.replace(`<nDPS>${PROVISIONAL_NDPS}</nDPS>`, '<nDPS>1</nDPS>')), dps.serie, from, to), { instanceOf: RangeError, message: /<nDPS>999999999999999<\/nDPS> not found/ });
  t.throws(() => renumberInfDps(broken(infDps.canonical.replace('<dCompet>', '<nDPS>1</nDPS><dCompet>')), dps.serie, from, to), { instanceOf: RangeError, message: /not exactly one <nDPS>/ });
  t.throws(() => renumberInfDps(broken(infDps.canonical.replace(`Id="${infDps.id}"`, 'Id="x"')), dps.serie, from, to), { instanceOf: RangeError, message: /not found on infDPS/ });
  t.throws(() => renumberInfDps({ ...infDps, element: `<infDPS><x Id="${infDps.id}">` }, dps.serie, from, to), { instanceOf: RangeError, message: /not found on infDPS/ });
  t.is(renumberInfDps(infDps, dps.serie, from, from), infDps);
  t.is(renumberInfDps(infDps, dps.serie, from, { ...from, issuer: { ...from.issuer } }), infDps, 'an equal copy of the issuer is the same issuer');
});
