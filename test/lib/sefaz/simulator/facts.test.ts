import test from 'ava';
import { readdirSync } from 'node:fs';
import { XmlDocument, type XmlElement } from 'libxml2-wasm';
import { nfeFactsList } from '../../../../lib/sefaz/simulator/facts.js';
import { xpath } from '../../../../lib/sefaz/simulator/xpath.js';
import { readSample, samplePath } from '../../../support/samples.js';

const NFE = 'http://www.portalfiscal.inf.br/nfe';
const DS = 'http://www.w3.org/2000/09/xmldsig#';

const nfe = (n: string, body: string) => `<NFe xmlns="${NFE}"><infNFe Id="NFe${n}" versao="4.00">${body}</infNFe>`
  + `<Signature xmlns="${DS}"><SignedInfo><Reference URI="#NFe${n}"><DigestValue> dv${n}= </DigestValue></Reference></SignedInfo></Signature></NFe>`;
const BATCH = `<enviNFe xmlns="${NFE}" versao="4.00"><idLote>1</idLote>`
  + nfe('1', '<ide><cUF> 35 </cUF><cNF>1</cNF><mod>55</mod><serie>2</serie><nNF>3</nNF><dhEmi>2026-11-26T10:00:00-03:00</dhEmi><tpNF>1</tpNF><idDest>2</idDest>'
    + '<cMunFG>3550308</cMunFG><tpEmis>1</tpEmis><cDV>4</cDV><tpAmb>2</tpAmb><finNFe>4</finNFe><indFinal>1</indFinal>'
    + '<NFref><refNFe>35000000000000000000000000000000000000000001</refNFe></NFref><NFref><refNFe> 35000000000000000000000000000000000000000002 </refNFe></NFref></ide>'
    + '<emit><CNPJ>11222333000181</CNPJ><enderEmit><cMun>3550308</cMun><UF>SP</UF></enderEmit><IE>110042490114</IE></emit>'
    + '<dest><CPF>52998224725</CPF><enderDest><cMun>3304557</cMun><UF>RJ</UF></enderDest><indIEDest>9</indIEDest></dest>'
    + '<retirada><UF>MG</UF></retirada><entrega><UF>ES</UF></entrega>'
    + '<det nItem="1"><prod><CFOP>6102</CFOP></prod><imposto><ICMS><ICMS00><orig>1</orig></ICMS00></ICMS><ICMSUFDest><pICMSInter>4.00</pICMSInter>'
    + '<pICMSInterPart>100.00</pICMSInterPart><vICMSUFDest>8.00</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet></ICMSUFDest></imposto></det>'
    + '<det nItem="2"><imposto><ISSQN></ISSQN></imposto></det><det><prod></prod></det>'
    + '<total><ICMSTot><vICMSUFDest>8.00</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet></ICMSTot></total>'
    + '<infAdic><infAdFisco>fisco &amp; cia</infAdFisco><infCpl>rejeitar 778</infCpl></infAdic><infRespTec></infRespTec>')
  + nfe('2', '<ide><cUF>41</cUF><mod>65</mod></ide><emit><CPF>52998224725</CPF></emit>')
  + '</enviNFe>';

test('nfeFactsList reads every NFe of a batch: trimmed text, null for what is absent, items by nItem', (t) => {
  t.deepEqual(nfeFactsList(BATCH), [
    {
      id: 'NFe1', cUF: '35', cNF: '1', mod: '55', serie: '2', nNF: '3', dhEmi: '2026-11-26T10:00:00-03:00', tpEmis: '1', dhCont: null, xJust: null,
      cDV: '4', tpAmb: '2', idDest: '2', indFinal: '1', cMunFG: '3550308', emitCnpj: '11222333000181',
      emit: { ie: '110042490114', uf: 'SP', cMun: '3550308' },
      dest: { cnpj: null, cpf: '52998224725', ie: null, indIEDest: '9', uf: 'RJ', cMun: '3304557' }, indIEDest: '9',
      itemsWithoutIcmsUfDest: ['2'], itemsWithIcmsUfDest: ['1'], hasIssqn: true, entregaUf: 'ES', retiradaUf: 'MG', tpNF: '1', finNFe: '4',
      refNFe: ['35000000000000000000000000000000000000000001', '35000000000000000000000000000000000000000002'],
      partilha: {
        items: [{ nItem: '1', cfop: '6102', orig: '1', pICMSInter: '4.00', pICMSInterPart: '100.00', vFCPUFDest: null, vICMSUFDest: '8.00', vICMSUFRemet: '0.00' }],
        totals: { vFCPUFDest: null, vICMSUFDest: '8.00', vICMSUFRemet: '0.00' },
      },
      additionalInfo: 'fisco & cia rejeitar 778', hasInfRespTec: true, digestValue: 'dv1=',
    },
    {
      id: 'NFe2', cUF: '41', cNF: '', mod: '65', serie: '', nNF: '', dhEmi: '', tpEmis: '', dhCont: null, xJust: null, cDV: '', tpAmb: '', idDest: '',
      indFinal: '', cMunFG: '', emitCnpj: null, emit: { ie: null, uf: '', cMun: '' }, dest: null, indIEDest: null,
      itemsWithoutIcmsUfDest: [], itemsWithIcmsUfDest: [], hasIssqn: false, entregaUf: null, retiradaUf: null, tpNF: '', finNFe: '', refNFe: [],
      partilha: { items: [], totals: { vFCPUFDest: null, vICMSUFDest: null, vICMSUFRemet: null } },
      additionalInfo: '', hasInfRespTec: false, digestValue: 'dv2=',
    },
  ]);
});

/** The same reading through libxml2-wasm's public get/find, one call per field (how facts.ts read them before issue 18's context). */
function publicApiFacts(xml: string) {
  const doc = XmlDocument.fromString(xml);
  try {
    return doc.find(xpath('//n:NFe')).map((node) => {
      const nfe = node as XmlElement;
      const opt = (path: string, from: XmlElement = nfe) => from.get(xpath(path))?.content.trim() ?? null;
      const nItems = (path: string) => nfe.find(xpath(path)).flatMap((d) => (d as XmlElement).attr('nItem')?.value ?? []);
      return {
        id: (nfe.get(xpath('n:infNFe')) as XmlElement | null)?.attr('Id')?.value ?? '',
        fields: ['cUF', 'cNF', 'mod', 'serie', 'nNF', 'dhEmi', 'tpEmis', 'dhCont', 'xJust', 'cDV', 'tpAmb', 'idDest', 'indFinal', 'cMunFG', 'tpNF', 'finNFe'].map((n) => opt(`n:infNFe/n:ide/n:${n}`)),
        other: ['n:emit/n:CNPJ', 'n:emit/n:IE', 'n:emit/n:enderEmit/n:UF', 'n:dest/n:CPF', 'n:dest/n:enderDest/n:UF', 'n:entrega/n:UF'].map((p) => opt(`n:infNFe/${p}`)),
        without: nItems('n:infNFe/n:det[not(n:imposto/n:ICMSUFDest)]'),
        with: nItems('n:infNFe/n:det[n:imposto/n:ICMSUFDest]'),
        partilha: nfe.find(xpath('n:infNFe/n:det[n:imposto/n:ICMSUFDest]')).map((d) => [opt('n:prod/n:CFOP', d as XmlElement), opt('n:imposto/n:ICMS/*/n:orig', d as XmlElement), opt('n:imposto/n:ICMSUFDest/n:vICMSUFDest', d as XmlElement)]),
        refNFe: nfe.find(xpath('n:infNFe/n:ide/n:NFref/n:refNFe')).map((e) => e.content.trim()),
        digestValue: opt('ds:Signature/ds:SignedInfo/ds:Reference/ds:DigestValue'),
      };
    });
  } finally {
    doc.dispose();
  }
}

test('nfeFactsList reads the published sample notes as libxml2-wasm\'s public XPath API reads them', (t) => {
  const files = [...readdirSync(samplePath('nfe')).filter((f) => f.endsWith('.xml')).map((f) => `nfe/${f}`),
    ...readdirSync(samplePath('nfe/ibscbs')).filter((f) => f.endsWith('.xml')).map((f) => `nfe/ibscbs/${f}`)];
  t.true(files.length >= 8);
  for (const file of files) {
    const xml = readSample(file);
    const ours = nfeFactsList(xml).map((f) => ({
      id: f.id,
      fields: [f.cUF, f.cNF, f.mod, f.serie, f.nNF, f.dhEmi, f.tpEmis, f.dhCont, f.xJust, f.cDV, f.tpAmb, f.idDest, f.indFinal, f.cMunFG, f.tpNF, f.finNFe],
      other: [f.emitCnpj, f.emit.ie, f.emit.uf, f.dest?.cpf ?? null, f.dest?.uf ?? null, f.entregaUf],
      without: f.itemsWithoutIcmsUfDest,
      with: f.itemsWithIcmsUfDest,
      partilha: f.partilha.items.map((i) => [i.cfop, i.orig, i.vICMSUFDest]),
      refNFe: f.refNFe,
      digestValue: f.digestValue,
    }));
    const reference = publicApiFacts(xml).map((r) => ({
      ...r,
      fields: r.fields.map((v, i) => (i === 7 || i === 8 ? v : v ?? '')),
      other: r.other.map((v, i) => (i === 2 ? v ?? '' : v)),
      partilha: r.partilha.map(([cfop, orig, v]) => [cfop ?? '', orig ?? '', v ?? '']),
    }));
    t.true(ours.length >= 1, file);
    t.deepEqual(ours, reference, file);
  }
});
