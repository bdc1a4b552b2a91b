import test from 'ava';
import { XmlDocument, type XmlElement } from 'libxml2-wasm';
import { XPathContext } from '../../../lib/xml/xpath-context.js';
import { xpath, XPATH_NS } from '../../../lib/sefaz/simulator/xpath.js';

const NFE = 'http://www.portalfiscal.inf.br/nfe';
const XML = `<enviNFe xmlns="${NFE}"><NFe><infNFe Id="NFe1"><det nItem="1"><v> a &amp; b </v></det><det nItem="2"><v>c<!-- x --><![CDATA[<d>]]></v></det></infNFe></NFe>`
  + '<NFe><infNFe Id="NFe2"></infNFe></NFe></enviNFe>';

test('XPathContext answers as libxml2-wasm\'s get, find and content with the same compiled expressions', (t) => {
  const doc = XmlDocument.fromString(XML);
  const x = new XPathContext(doc, XPATH_NS);
  try {
    const root = XPathContext.ref(doc);
    const nfes = x.all(root, '//n:NFe');
    t.deepEqual(nfes, doc.find(xpath('//n:NFe')).map((e) => XPathContext.ref(e)));
    const first = doc.get(xpath('//n:NFe')) as XmlElement;
    for (const path of ['n:infNFe/@Id', 'n:infNFe/n:det/n:v', 'n:infNFe/n:det[2]/n:v', 'n:infNFe/n:det/@nItem', 'n:infNFe/n:nada']) {
      t.is(x.text(nfes[0]!, path), first.get(xpath(path))?.content ?? null, path);
      t.deepEqual(x.all(nfes[0]!, path).map(XPathContext.content), first.find(xpath(path)).map((n) => n.content), path);
    }
    t.is(x.text(nfes[0]!, 'n:infNFe/n:det[2]/n:v'), 'c<d>', 'text of the element, comments left out');
    t.is(x.first(nfes[1]!, 'n:infNFe/n:det'), null);
  } finally {
    x.dispose();
    doc.dispose();
  }
  t.throws(() => x.all(XPathContext.ref(doc), '//n:NFe'), { message: 'XPathContext used after dispose' });
});
