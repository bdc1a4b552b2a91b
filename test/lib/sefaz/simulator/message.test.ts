import test from 'ava';
import { XmlDocument } from 'libxml2-wasm';
import { elementFields, messageFields, usesNamespacePrefix } from '../../../../lib/sefaz/simulator/message.js';

const NFE = 'http://www.portalfiscal.inf.br/nfe';
const DS = 'http://www.w3.org/2000/09/xmldsig#';

test('usesNamespacePrefix: any prefixed element of the data area, the Signature excepted', (t) => {
  t.false(usesNamespacePrefix(`<consStatServ xmlns="${NFE}"><tpAmb>2</tpAmb></consStatServ>`));
  t.true(usesNamespacePrefix(`<nfe:consStatServ xmlns:nfe="${NFE}"><nfe:tpAmb>2</nfe:tpAmb></nfe:consStatServ>`));
  t.true(usesNamespacePrefix(`<consSitNFe xmlns="${NFE}" xmlns:n="${NFE}"><n:tpAmb>2</n:tpAmb></consSitNFe>`), 'one prefixed field is enough');
  t.false(usesNamespacePrefix(`<inutNFe xmlns="${NFE}"><infInut/><ds:Signature xmlns:ds="${DS}"><ds:SignedInfo/></ds:Signature></inutNFe>`));
  t.false(usesNamespacePrefix(`<consStatServ xmlns="${NFE}" xmlns:unused="urn:x"><xServ>a:b &lt;c:d</xServ></consStatServ>`), 'declarations and text are not elements');
});

test('messageFields: the NF-e namespace whatever the prefix, null when absent, other namespaces ignored', (t) => {
  t.deepEqual(messageFields(`<p:consSitNFe xmlns:p="${NFE}"><p:tpAmb> 1 </p:tpAmb><p:chNFe>35</p:chNFe></p:consSitNFe>`, ['tpAmb', 'chNFe', 'cUF']), { tpAmb: '1', chNFe: '35', cUF: null });
  t.deepEqual(messageFields(`<consStatServ xmlns="urn:other"><tpAmb>2</tpAmb></consStatServ>`, ['tpAmb']), { tpAmb: null });
  t.deepEqual(messageFields('<broken', ['tpAmb']), { tpAmb: null });
});

test('elementFields: the Id and fields of the first element of the batch only, trimmed, null when absent', (t) => {
  const doc = XmlDocument.fromString(`<envEvento xmlns="${NFE}"><idLote>1</idLote>`
    + `<evento><infEvento Id="ID1"><tpAmb> 2 </tpAmb><detEvento><xJust>a <b/>b</xJust></detEvento></infEvento></evento>`
    + `<evento><infEvento Id="ID2"><tpAmb>1</tpAmb><CNPJ>1</CNPJ></infEvento></evento>`
    + `<infEvento xmlns="urn:other" Id="ID0"/></envEvento>`);
  try {
    t.deepEqual(elementFields(doc, 'infEvento', ['tpAmb', 'xJust', 'CNPJ', 'idLote']), { id: 'ID1', fields: { tpAmb: '2', xJust: 'a b', CNPJ: null, idLote: null } });
    t.is(elementFields(doc, 'infInut', ['tpAmb']), null);
  } finally {
    doc.dispose();
  }
});
