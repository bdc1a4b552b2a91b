import test from 'ava';
import { buildIde } from '../../../../lib/nfe/xml/ide.js';
import { buildEmit } from '../../../../lib/nfe/xml/emit.js';
import { buildDest, HOMOLOGACAO_XNOME } from '../../../../lib/nfe/xml/dest.js';
import { buildProd, HOMOLOGACAO_XPROD_NFCE } from '../../../../lib/nfe/xml/det-prod.js';
import { buildDet } from '../../../../lib/nfe/xml/det.js';
import { aContext, aNfce, aNfe, anIssuer, anItem } from '../../../support/checked-note-factories.js';

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

test('buildEmit writes IM and CNAE only with a municipal registration', (t) => {
  t.false(buildEmit(anIssuer()).includes('<IM>'));
  t.true(buildEmit(anIssuer({ inscricaoMunicipal: '1234567', cnae: '4751201' })).includes('<IE>123456789012</IE><IM>1234567</IM><CNAE>4751201</CNAE><CRT>3</CRT>'));
});

test('buildDest writes the homologation literal name and IE only for contributors', (t) => {
  const note = aNfe();
  t.true(buildDest(note, 2)!.includes(`<xNome>${HOMOLOGACAO_XNOME}</xNome>`));
  t.true(buildDest(note, 1)!.includes('<xNome>CLIENTE CONTRIBUINTE SA</xNome>'));
  const nonContributor = aNfe(undefined, { destinatario: { cnpjCpf: '52998224725', nome: 'ANA', indicadorIE: 9, ie: '123', endereco: (note.destinatario as any).endereco } });
  t.regex(buildDest(nonContributor, 1)!, /^<dest><CPF>52998224725<\/CPF>.*<indIEDest>9<\/indIEDest><\/dest>$/);
});

test('buildDest writes the NFC-e consumer without address, and nothing when unidentified', (t) => {
  t.is<string | undefined, string | undefined>(buildDest(aNfce(), 1), undefined);
  t.is<string | undefined, string | undefined>(buildDest(aNfce(undefined, { destinatario: { cnpjCpf: '52998224725', nome: 'JOAO', indicadorIE: 9 } }), 1), '<dest><CPF>52998224725</CPF><xNome>JOAO</xNome><indIEDest>9</indIEDest></dest>');
});

test('buildProd formats quantity with 4 decimals and unit value up to 10, omitting zero freight', (t) => {
  const xml = buildProd(anItem({ quantidade: 3, valorUnitario: 0.1234567891, valorTotalCents: 37n }), '55', 1);
  t.true(xml.includes('<qCom>3.0000</qCom><vUnCom>0.1234567891</vUnCom><vProd>0.37</vProd>'));
  t.false(xml.includes('vFrete'));
});

test('buildProd writes the homologation description on the first NFC-e item only', (t) => {
  t.true(buildProd(anItem({ nItem: 1 }), '65', 2).includes(`<xProd>${HOMOLOGACAO_XPROD_NFCE}</xProd>`));
  t.false(buildProd(anItem({ nItem: 2 }), '65', 2).includes(HOMOLOGACAO_XPROD_NFCE));
  t.false(buildProd(anItem({ nItem: 1 }), '55', 2).includes(HOMOLOGACAO_XPROD_NFCE));
});

test('buildDet carries nItem as attribute and infAdProd after imposto', (t) => {
  t.regex(buildDet(anItem({ nItem: 7, informacoesAdicionais: 'Lote 5' }), '55', 1), /^<det nItem="7"><prod>.*<\/imposto><infAdProd>Lote 5<\/infAdProd><\/det>$/);
});
