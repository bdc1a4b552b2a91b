import test from 'ava';
import { XmlC14NMode, XmlDocument, type XmlElement } from 'libxml2-wasm';
import { canonicalElementText } from '../../../lib/xml/canonical-text.js';
import { elementSpans } from '../../../lib/xml/markup.js';
import { buildEnviNFe } from '../../../lib/sefaz/messages.js';
import { createA1, createCa } from '../../support/certificates.js';
import { sampleNfe } from '../../support/sample-nfe.js';
import { signedDpsShapes } from '../../support/nfse-signed.js';
import { generator, mutated, mutations } from '../../support/xml-mutations.js';

/**
 * canonicalElementText against libxml2's C14N 1.0 of the same element as a document subset (with
 * and without comments): on every element of many documents made non-canonical in the ways other
 * signers and hand edits differ, whenever it answers it answers libxml2's bytes.
 */
const a1 = createA1(createCa(), { cnpj: '12345678000195' });
/** A signed batch made canonical as a whole (xml-crypto writes `<Transform …/>`). */
const NFE_BATCH = (() => {
  const doc = XmlDocument.fromString(buildEnviNFe({ idLote: '1', signedNfeXml: sampleNfe({ cnpj: a1.cnpj, keyPem: a1.keyPem, certPem: a1.certPem, numero: 7 }).xml, sync: true }));
  try {
    return doc.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0 });
  } finally {
    doc.dispose();
  }
})();
const SMALL = '<r xmlns="urn:a" xmlns:p="urn:p"><p:x a="1" b="2">t&amp;&lt;&gt;"\'<y xmlns="">u</y><z xmlns:q="urn:q">w</z></p:x><e></e></r>';

function libxml2(doc: XmlDocument, el: XmlElement, withComments: boolean): string {
  return doc.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0, withComments, nodeSet: new Set([el]) });
}

/** Each element (or those `pick` keeps, by index): [ours, libxml2's without comments, libxml2's with comments]. */
function compare(xml: string, pick: (i: number) => boolean = () => true): [string | null, string, string][] {
  const doc = XmlDocument.fromString(xml);
  try {
    const spans = elementSpans(xml);
    const elements = doc.find('//*') as XmlElement[];
    if (!spans || spans.length !== elements.length) throw new Error(`spans ${spans?.length} for ${elements.length} elements`);
    return elements.flatMap((el, i) => (pick(i) ? [[canonicalElementText(xml, spans, i), libxml2(doc, el, false), libxml2(doc, el, true)] as [string | null, string, string]] : []));
  } finally {
    doc.dispose();
  }
}

test('canonicalElementText answers every element of canonical text, as libxml2 does', (t) => {
  for (const xml of [NFE_BATCH, SMALL]) {
    for (const [ours, plain, withComments] of compare(xml)) {
      t.is(ours, plain);
      t.is(ours, withComments);
    }
  }
});

test('canonicalElementText declares on the element every namespace in scope, and nothing for no default namespace', (t) => {
  const xml = '<a xmlns:z="urn:z" xmlns="urn:d"><b xmlns:c="urn:c"><c:k v="1"></c:k></b><n xmlns=""><m></m></n></a>';
  const spans = elementSpans(xml)!;
  t.is(canonicalElementText(xml, spans, 2), '<c:k xmlns="urn:d" xmlns:c="urn:c" xmlns:z="urn:z" v="1"></c:k>');
  t.is(canonicalElementText(xml, spans, 4), '<m xmlns:z="urn:z"></m>');
});

test('canonicalElementText gives up (null) on what is not canonical already', (t) => {
  const cases = [
    '<r><a b="1" a="2"></a></r>', // attributes out of order
    "<r><a b='1'></a></r>", // single quotes
    '<r><a></a><b/></r>', // empty-element tag
    '<r><a>&#65;</a></r>', // a character reference C14N does not write
    '<r><a b="&gt;"></a></r>', // > escaped in a value
    '<r><a>x>y</a></r>', // > not escaped in text
    '<r><a><!-- c --></a></r>', // a comment
    '<r xmlns="urn:x"><a xmlns="urn:x"></a></r>', // a declaration already in scope
    '<r><a xmlns=""></a></r>', // no default namespace to undeclare
    '<r><a>\r\n</a></r>', // CR
    '<r><a  b="1"></a></r>', // spacing inside a tag
    '<r><a b="\t"></a></r>', // tab in a value (normalized by the parser)
    '<r><a><![CDATA[x]]></a></r>', // CDATA
    '<r><a><?p x?></a></r>', // PI
    '<r xml:lang="pt"><a></a></r>', // an xml: attribute the apex inherits
  ];
  for (const xml of cases) {
    const [top, a] = compare(xml);
    t.is(top![0], null, xml);
    if (xml.includes('xml:lang')) t.is(a![0], null, xml);
  }
});

test('canonicalElementText agrees with libxml2 on the elements of 300 documents made non-canonical at random', (t) => {
  const rnd = generator(20261127);
  const mutate = mutations(rnd);
  let answered = 0;
  let gaveUp = 0;
  for (let k = 0; k < 300; k++) {
    const xml = mutated(rnd, rnd(2) ? NFE_BATCH : SMALL, mutate);
    try {
      XmlDocument.fromString(xml).dispose();
    } catch {
      continue; // a mutation that broke well-formedness
    }
    // The outer elements and a fifth of the others (libxml2's C14N of a subset is the slow side).
    for (const [i, [ours, plain, withComments]] of compare(xml, (i) => i < 6 || rnd(5) === 0).entries()) {
      if (ours === null) { gaveUp++; continue; }
      answered++;
      // Without comments inside, both modes are the same bytes; with one, ours must have given up.
      if (ours !== plain || ours !== withComments) t.fail(`element ${i} of ${xml}\nours ${ours}\nlibxml2 ${plain}`);
    }
  }
  t.log(`answered ${answered}, gave up ${gaveUp}`);
  t.true(answered > 5_000);
  t.true(gaveUp > 500, 'the mutations reached the refusals');
});

test('canonicalElementText agrees with libxml2 on the elements of 150 signed DPS (every scenario) made non-canonical at random', (t) => {
  const rnd = generator(20261126);
  const mutate = mutations(rnd);
  const shapes = signedDpsShapes().map((d) => d.xml);
  // As signed, every element of every shape is answered (the fast path is taken, not skipped).
  for (const xml of shapes) for (const [ours, plain] of compare(xml)) t.is(ours, plain);
  let answered = 0;
  let gaveUp = 0;
  for (let k = 0; k < 150; k++) {
    const xml = mutated(rnd, shapes[k % shapes.length]!, mutate);
    try {
      XmlDocument.fromString(xml).dispose();
    } catch {
      continue;
    }
    for (const [i, [ours, plain, withComments]] of compare(xml, (i) => i < 3 || rnd(4) === 0).entries()) {
      if (ours === null) { gaveUp++; continue; }
      answered++;
      if (ours !== plain || ours !== withComments) t.fail(`element ${i} of ${xml}\nours ${ours}\nlibxml2 ${plain}`);
    }
  }
  t.log(`answered ${answered}, gave up ${gaveUp}`);
  t.true(answered > 1_000);
  t.true(gaveUp > 200, 'the mutations reached the refusals');
});
