import test from 'ava';
import { buildSignedNfe, type SignedNfe } from '../../../lib/nfe/document.js';
import { createSigner } from '../../../lib/sign/signer.js';
import { verifyXmlSignature } from '../../../lib/sign/verify.js';
import { aContext, aNfce, anIssuer, testSigningMaterial, totalsOf } from '../../support/checked-note-factories.js';
import { scenarios } from '../../support/note-scenarios.js';
import { verifyDfeFiles } from '../../support/verify-dfe.js';

const signer = createSigner(testSigningMaterial());
const built: Record<string, SignedNfe> = {};
const failures: string[] = [];
for (const s of scenarios()) {
  const ctx = aContext(s.note, { issuer: s.issuer, tpEmis: s.tpEmis, tpAmb: s.tpAmb });
  try {
    built[s.name] = buildSignedNfe(s.note, totalsOf(s.note), ctx, signer);
  } catch (err) {
    failures.push(`${s.name}: ${(err as Error).message} ${JSON.stringify((err as any).data ?? '')}`);
  }
}

test('buildSignedNfe accepts every scenario (schema-valid by our own XSD check)', (t) => {
  t.deepEqual(failures, []);
});

test('buildSignedNfe builds dozens of varied notes that xml-crypto verifies', (t) => {
  t.true(Object.keys(built).length >= 40);
  for (const [name, doc] of Object.entries(built)) {
    const check = verifyXmlSignature(doc.xml, `NFe${doc.accessKey}`);
    t.true(check.valid, `${name}: ${check.reason}`);
  }
});

test('buildSignedNfe output passes the independent xmllint XSD + xmlsec1 check (verify-dfe.sh)', async (t) => {
  const docs = Object.fromEntries(Object.entries(built).map(([name, d]) => [name, d.xml]));
  const result = await verifyDfeFiles(docs);
  t.true(result.ok, result.output);
  t.regex(result.output, new RegExp(`${Object.keys(docs).length} passed, 0 failed`));
});

test('buildSignedNfe writes each ICMS family under its layout group', (t) => {
  const group = (name: string) => /<ICMS><(ICMS\w+)>/.exec(built[name]!.xml)?.[1];
  t.is(group('icms41'), 'ICMS40');
  t.is(group('icms02-monofasic-fuel'), 'ICMS02');
  t.is(group('csosn300'), 'ICMSSN102');
  t.is(group('csosn203'), 'ICMSSN202');
  t.is(group('icms90'), 'ICMS90');
});

test('buildSignedNfe escapes & < > in text, keeps quotes and accented letters, and the signature still holds', (t) => {
  const xml = built['escaping-and-accents']!.xml;
  t.true(xml.includes('<xProd>Parafuso 3/8" &amp; porca &lt;M8&gt; \'aço\' açúcar ÇÃO</xProd>'));
  t.true(xml.includes('<infCpl>Linha 1; Linha 2 com &amp; &lt; &gt; " \' fim; acentuação: é ã ç ü ñ ß ÿ</infCpl>'));
  t.true(verifyXmlSignature(xml).valid);
});

test('buildSignedNfe adds infNFeSupl with the online QR Code for NFC-e and none for NF-e', (t) => {
  const nfce = built['nfce-online']!;
  t.truthy(nfce.qrCode);
  t.regex(nfce.qrCode!.qrCode, /\?p=\d{44}\|2\|2\|1\|[0-9A-F]{40}$/);
  t.true(nfce.xml.includes(`<infNFeSupl><qrCode>${nfce.qrCode!.qrCode}</qrCode><urlChave>`));
  t.is(built.icms00!.qrCode, undefined);
  t.false(built.icms00!.xml.includes('infNFeSupl'));
});

test('buildSignedNfe offline NFC-e carries tpEmis 9, dhCont/xJust and the QR with the digest hex', (t) => {
  const doc = built['nfce-offline-contingency']!;
  t.true(doc.xml.includes('<tpEmis>9</tpEmis>'));
  t.regex(doc.xml, /<dhCont>[^<]+<\/dhCont><xJust>Sem comunicacao/);
  const hex = Buffer.from(doc.digestValue, 'ascii').toString('hex');
  t.true(doc.qrCode!.qrCode.includes(`|2|2|22|100.00|${hex}|1|`));
});

test('buildSignedNfe is deterministic for the same input', (t) => {
  const note = aNfce();
  const ctx = aContext(note);
  t.is(buildSignedNfe(note, totalsOf(note), ctx, signer).xml, buildSignedNfe(note, totalsOf(note), ctx, signer).xml);
});

test('buildSignedNfe refuses an NFC-e when the issuer has no CSC (CSC_AUSENTE)', (t) => {
  const note = aNfce();
  const ctx = aContext(note, { issuer: anIssuer({ csc: null, cscId: null }) });
  const err = t.throws(() => buildSignedNfe(note, totalsOf(note), ctx, signer));
  t.is((err as any).type, 'CSC_AUSENTE');
});

test('buildSignedNfe refuses with XML_FORA_DO_ESQUEMA when the builder would emit a non-conforming document', (t) => {
  const note = aNfce();
  note.naturezaOperacao = ' leading space breaks TString';
  const err = t.throws(() => buildSignedNfe(note, totalsOf(note), aContext(note), signer));
  t.is((err as any).type, 'XML_FORA_DO_ESQUEMA');
  t.true(Array.isArray((err as any).data.esquema) && (err as any).data.esquema.length > 0);
});
