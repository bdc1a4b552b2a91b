import test from 'ava';
import { buildIde } from '../../../../lib/nfe/xml/ide.js';
import { aContext, aNfce, aNfe, anIssuer } from '../../../support/checked-note-factories.js';

test('buildIde writes the layout sequence with cDV taken from the key', (t) => {
  const note = aNfe();
  const ctx = aContext(note);
  const xml = buildIde(note, ctx);
  t.is<string, string>(xml, `<ide><cUF>35</cUF><cNF>87654321</cNF><natOp>Venda de mercadoria</natOp><mod>55</mod><serie>1</serie><nNF>1234</nNF><dhEmi>2026-11-22T17:40:00-03:00</dhEmi><tpNF>1</tpNF><idDest>1</idDest><cMunFG>3550308</cMunFG><tpImp>1</tpImp><tpEmis>1</tpEmis><cDV>${ctx.accessKey[43]}</cDV><tpAmb>2</tpAmb><finNFe>1</finNFe><indFinal>0</indFinal><indPres>1</indPres><procEmi>0</procEmi><verProc>fiscal-api 2.1.0</verProc></ide>`);
});

test('buildIde writes NFref per referenced key, tpImp 4 for NFC-e and dhCont/xJust in contingency', (t) => {
  const ref = '35180834128745000152550010000476051695511860';
  t.true(buildIde(aNfe(undefined, { referenciadas: [ref] }), aContext(aNfe())).endsWith(`<NFref><refNFe>${ref}</refNFe></NFref></ide>`));
  const nfce = aNfce();
  const xml = buildIde(nfce, aContext(nfce, { tpEmis: 9 }));
  t.true(xml.includes('<tpImp>4</tpImp><tpEmis>9</tpEmis>'));
  t.regex(xml, /<verProc>[^<]+<\/verProc><dhCont>2026-11-22T17:30:00-03:00<\/dhCont><xJust>[^<]{15,}<\/xJust><\/ide>$/);
});

test('buildIde writes dhSaiEnt right after dhEmi when the note has it (B10, TDateTimeUTC)', (t) => {
  const note = { ...aNfe(), dhSaiEnt: '2026-11-25T14:30:00-03:00' };
  t.true(buildIde(note, aContext(note)).includes('<dhEmi>2026-11-22T17:40:00-03:00</dhEmi><dhSaiEnt>2026-11-25T14:30:00-03:00</dhSaiEnt><tpNF>1</tpNF>'));
});

test("buildIde writes the issuer's DANFE format as tpImp of an NF-e (1 by default), never of an NFC-e", (t) => {
  const note = aNfe();
  t.true((buildIde(note, aContext(note)) as string).includes('<tpImp>1</tpImp>'));
  for (const formatoDanfe of [2, 3] as const) {
    t.true((buildIde(note, aContext(note, { issuer: anIssuer({ formatoDanfe }) })) as string).includes(`<tpImp>${formatoDanfe}</tpImp>`));
  }
  const nfce = aNfce();
  t.true((buildIde(nfce, aContext(nfce, { issuer: anIssuer({ formatoDanfe: 2 }) })) as string).includes('<tpImp>4</tpImp>'));
});
