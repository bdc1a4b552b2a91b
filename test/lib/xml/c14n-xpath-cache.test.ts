import test from 'ava';
import { XmlC14NMode, XmlDocument, type XmlElement } from 'libxml2-wasm';
import { canonicalSubtree } from '../../../lib/xml/c14n.js';
import { compiledXPath } from '../../../lib/xml/xpath-cache.js';

const NS = { n: 'urn:a' } as const;
const OTHER = { n: 'urn:b' } as const;
const xml = '<?xml version="1.0"?>\n<!-- antes --><r xmlns="urn:a" xmlns:x="urn:x" b="2"  a="1"><c  Id="k"><d x:y="1">t&amp;<!-- c --><e/></d></c><z/></r><?pi fora?>';

test('canonicalSubtree is the element-level C14N 1.0 (inherited namespaces, attributes ordered, comments out unless asked)', (t) => {
  const doc = XmlDocument.fromString(xml);
  try {
    for (const el of [doc.root, doc.get('//n:c', NS) as XmlElement, doc.get('//n:d', NS) as XmlElement]) {
      t.is(canonicalSubtree(doc, el), el.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0 }));
      t.is(canonicalSubtree(doc, el, true), el.canonicalizeToString({ mode: XmlC14NMode.XML_C14N_1_0, withComments: true }));
    }
    t.is(canonicalSubtree(doc, doc.get('//n:c', NS) as XmlElement), '<c xmlns="urn:a" xmlns:x="urn:x" Id="k"><d x:y="1">t&amp;<e></e></d></c>');
  } finally {
    doc.dispose();
  }
});

test('compiledXPath compiles an expression once per namespace map and evaluates like the text form', (t) => {
  t.is(compiledXPath('//n:c', NS), compiledXPath('//n:c', NS));
  t.not(compiledXPath('//n:c', NS), compiledXPath('//n:c', OTHER));
  const doc = XmlDocument.fromString(xml);
  try {
    t.is(doc.get(compiledXPath('//n:c/@Id', NS))?.content, 'k');
    t.is(doc.get(compiledXPath('//n:c', OTHER)), null);
  } finally {
    doc.dispose();
  }
});
