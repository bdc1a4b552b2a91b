import test from 'ava';
import { messageFields, usesNamespacePrefix } from '../../../../lib/sefaz/simulator/message.js';

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
