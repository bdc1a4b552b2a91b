import test from 'ava';
import { diag, XmlDocument } from 'libxml2-wasm';
import { XmlNodeSetStruct } from 'libxml2-wasm/lib/libxml2.mjs';
import { AuthorityAnswer } from '../../../lib/sefaz/answer.js';
import * as P from '../../../lib/sefaz/parsers.js';
import { readSample } from '../../support/samples.js';

const NS = 'xmlns="http://www.portalfiscal.inf.br/nfe"';
const KEY = '43211105730928000145650010000002401717268120';

/** Bytes of libxml2's wasm memory (grows, never shrinks): a view of the heap carries its buffer. */
const wasmHeapBytes = () => XmlNodeSetStruct.nodeTable(0, 0).buffer.byteLength;

/** XmlDocuments made while `run` ran and not disposed (libxml2-wasm's memory diagnostics). */
function undisposedDocuments(run: () => void): number {
  diag.configure({ enabled: true });
  try {
    run();
    const report = diag.report() as Record<string, { totalInstances: number }>;
    return report.XmlDocument?.totalInstances ?? 0; // collected wrappers included: their memory is still held
  } finally {
    diag.configure({ enabled: false });
  }
}

test('AuthorityAnswer.read refuses broken XML with libxml2\'s message, and a DOCTYPE\'s entities as xmldom did', (t) => {
  t.throws(() => AuthorityAnswer.read(`<retEnviNFe ${NS}><cStat>104</xMotivo></retEnviNFe>`), { message: /^malformed XML: Opening and ending tag mismatch: cStat line 1 and xMotivo$/ });
  t.throws(() => AuthorityAnswer.read('<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>'), { message: /^malformed XML: \[xmldom error\]\tentity not found:&e;/ });
  t.throws(() => AuthorityAnswer.read('<soap:Envelope xmlns:soap="urn:s"><soap:Body/></soap:Envelope>'), { message: 'no nfeResultMsg in the SOAP envelope' });
  const a = AuthorityAnswer.read('<!DOCTYPE retEnviNFe><retEnviNFe xmlns="http://www.portalfiscal.inf.br/nfe"><cStat>104</cStat></retEnviNFe>');
  t.deepEqual(P.rootStatus(a), { cStat: 104, xMotivo: '' });
  a.dispose();
  t.throws(() => a.content(a.root), { message: 'AuthorityAnswer used after dispose' });
});

test('the parsers dispose the answer they read on every path: result, refusal, wrong message, malformed', (t) => {
  const answers = [readSample('sefaz/retEnviNFe.xml'), readSample('sefaz/soap12_retInutNFe_response.xml'), `<retEnviNFe ${NS}/>`, `<retConsStatServ ${NS}><cStat>x</cStat></retConsStatServ>`, '<html/>', '<a><b></a>'];
  const all = () => {
    for (const xml of answers) {
      try { P.parseRetEnviNFe(xml, KEY); } catch { /* refused: still disposed */ }
      try { P.parseRetInutNFe(xml, '<inutNFe/>'); } catch { /* idem */ }
      try { P.parseRetConsStatServ(xml, 'now'); } catch { /* idem */ }
      P.rootStatus(xml);
    }
  };
  t.is(undisposedDocuments(all), 0);
  // The checks see what is left undisposed.
  t.is(undisposedDocuments(() => { AuthorityAnswer.read(answers[0]!); }), 1);
});

test('reading 10,000 answers, refused ones included, does not grow libxml2\'s memory; leaking their documents does', (t) => {
  const ok = readSample('sefaz/retEnviNFe.xml');
  const wrong = `<retConsStatServ ${NS}><cStat>104</cStat></retConsStatServ>`;
  const loop = (n: number, each: () => void) => { for (let i = 0; i < n; i++) each(); };
  const read = () => {
    const a = P.readAnswer(ok);
    try { P.rootStatus(a); P.parseRetEnviNFe(a, KEY); } finally { a.dispose(); }
    t.throws(() => P.parseRetEnviNFe(wrong, KEY));
  };
  loop(500, read); // settle the heap
  const before = wasmHeapBytes();
  loop(10_000, read);
  t.is(wasmHeapBytes(), before);
  const leaked: XmlDocument[] = [];
  loop(10_000, () => { leaked.push(XmlDocument.fromString(ok)); });
  t.true(wasmHeapBytes() > before);
  for (const doc of leaked) doc.dispose();
});
