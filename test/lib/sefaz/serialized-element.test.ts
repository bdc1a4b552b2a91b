import test from 'ava';
import { readdirSync, statSync } from 'node:fs';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { AuthorityAnswer, DOCUMENT, type ElementRef } from '../../../lib/sefaz/answer.js';
import { soapInner } from '../../../lib/sefaz/soap.js';
import * as R from '../../../lib/sefaz/simulator/responses.js';
import { readSample, SAMPLES_DIR } from '../../support/samples.js';

const NFE = 'http://www.portalfiscal.inf.br/nfe';

/** Today's reference: every element of the text as xmldom's XMLSerializer writes it, in document order. */
function xmldomElements(text: string): string[] {
  const doc = new DOMParser().parseFromString(text, 'text/xml');
  const out: string[] = [];
  const walk = (el: Element): void => {
    out.push(new XMLSerializer().serializeToString(el as unknown as Node));
    for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) walk(n as Element);
  };
  walk(doc.documentElement as unknown as Element);
  return out;
}

/** Every element of the answer, as AuthorityAnswer.serialized gives it. */
function answerElements(text: string): string[] {
  const a = AuthorityAnswer.read(text);
  try {
    return Array.from({ length: a.elementCount }, (_, i) => a.serialized(i as ElementRef));
  } finally {
    a.dispose();
  }
}

function samples(dir = ''): string[] {
  return readdirSync(SAMPLES_DIR + dir).flatMap((f) => statSync(SAMPLES_DIR + dir + f).isDirectory() ? samples(`${dir}${f}/`) : f.endsWith('.xml') ? [dir + f] : []);
}

/** The message a sample holds: inside the SOAP body of an envelope. */
function messageOf(xml: string): string {
  if (!/<(?:[\w.-]+:)?Envelope\b/.test(xml)) return xml;
  return xml.includes('nfeResultMsg') ? soapInner(xml, 'nfeResultMsg') : soapInner(xml, 'nfeDadosMsg');
}

test('serialized gives every element of every sample document as xmldom serialized it', (t) => {
  const files = samples();
  t.true(files.length >= 18);
  for (const file of files) {
    const text = messageOf(readSample(file));
    t.deepEqual(answerElements(text), xmldomElements(text), file);
  }
});

const key = '35260112345678000199550010000000011000000010';
const prot = R.protNFe({ tpAmb: '2', chNFe: key, dhRecbto: '2026-01-01T10:00:00-03:00', nProt: '135260000000001', digVal: 'aWpBMlDjIlWUn2ALNSdwzLi2ntE=', cStat: 100, xMotivo: 'Autorizado o uso da NF-e' });
const ret = R.retEvento({ tpAmb: '2', cOrgao: '35', cStat: 135, xMotivo: 'Evento registrado e vinculado a NF-e', chNFe: key, tpEvento: '110111', nSeqEvento: '1', dhRegEvento: '2026-01-01T10:00:00-03:00', nProt: '135260000000002' });
const head = { tpAmb: '2', cUF: '35', dhRecbto: '2026-01-01T10:00:00-03:00' };

test('serialized gives every element of the simulator answers as xmldom serialized it', (t) => {
  const answers = [
    R.retEnviNFe(head, { cStat: 104, xMotivo: 'Lote processado' }, { prot }),
    R.retEnviNFe(head, { cStat: 103, xMotivo: 'Lote recebido com sucesso' }, { receipt: '351000000000001' }),
    R.retConsReciNFe({ ...head, nRec: '351000000000001' }, { cStat: 104, xMotivo: 'Lote processado' }, prot),
    R.retConsSitNFe({ ...head, chNFe: key }, { cStat: 101, xMotivo: 'Cancelamento de NF-e homologado' }, prot, [R.procEventoNFe(`<evento xmlns="${NFE}" versao="1.00"><infEvento Id="ID1101113526"><x>1</x></infEvento></evento>`, ret)]),
    R.retEnvEvento({ idLote: '1', tpAmb: '2', cOrgao: '35' }, { cStat: 128, xMotivo: 'Lote de Evento Processado' }, { tpAmb: '2', cOrgao: '35', cStat: 135, xMotivo: 'Evento registrado "x" & <y>', dhRegEvento: '2026-01-01T10:00:00-03:00' }),
    R.retInutNFe({ ...head, cStat: 102, xMotivo: 'Inutilização de número homologado', ano: '26', CNPJ: '12345678000199', mod: '55', serie: '1', nNFIni: '1', nNFFin: '2', nProt: '135260000000003' }),
  ];
  for (const text of answers) t.deepEqual(answerElements(text), xmldomElements(text), text.slice(0, 40));
});

test('serialized writes what xmldom wrote for text it would write otherwise (quotes, spacing, references, comments, prefixes, DOCTYPE)', (t) => {
  const cases = [
    `<ret xmlns="${NFE}"><protNFe versao="4.00"></protNFe><a/><b x="1"/></ret>`,
    `<ret xmlns="${NFE}"><protNFe versao='4.00' ><infProt Id = "x" >a&#233;b&#x1F600;</infProt ></protNFe></ret>`,
    `<ret xmlns="${NFE}"><protNFe><x a="&apos;&#9;&#10;" b="&gt;&lt;&amp;&quot;">&apos;&quot;&gt;></x></protNFe></ret>`,
    `<ret xmlns="${NFE}"><protNFe><x>a > b</x><y>&quot;</y></protNFe><z>&#60;</z></ret>`,
    `<ret xmlns="${NFE}"><protNFe a="x>y" b="it's"/><c d="1" /><e f="&#34;"/></ret>`,
    `<ret xmlns="${NFE}"><protNFe><!-- c --><x><![CDATA[<d> & ]]></x><?pi x?></protNFe></ret>`,
    `<n:ret xmlns:n="${NFE}"><n:protNFe versao="4.00"><n:infProt><n:cStat>100</n:cStat></n:infProt></n:protNFe></n:ret>`,
    `<ret xmlns="${NFE}" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><protNFe><ds:Signature><ds:x/></ds:Signature></protNFe></ret>`,
    `<ret xmlns="${NFE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><protNFe xsi:type="t" a="1"/></ret>`,
    `<ret xmlns="${NFE}"><protNFe xmlns="${NFE}" a="1"/><procEventoNFe xmlns=""><y/></procEventoNFe></ret>`,
    `<ret xmlns="${NFE}"><protNFe a="x\ny" b="x\r\ny">a\r\nb\rc</protNFe></ret>`,
    `<ret\n  xmlns="${NFE}"\n  versao="4.00">\n  <protNFe\n versao="4.00">\n    <infProt>\n      <cStat>100</cStat>\n    </infProt>\n  </protNFe>\n</ret>`,
    `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<ret xmlns="${NFE}"><protNFe><x>Situação</x><Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo/></Signature></protNFe></ret>`,
    `<!DOCTYPE ret><ret xmlns="${NFE}"><protNFe a="1"><x>1</x></protNFe></ret>`,
    `<ret xmlns="${NFE}" xmlns:p="urn:p"><protNFe><p:x p:a="1">t</p:x></protNFe><p:y/></ret>`,
  ];
  for (const text of cases) t.deepEqual(answerElements(text), xmldomElements(text), text);
});

test('serialized takes the compact answer\'s own text, declaring the namespace the element inherited', (t) => {
  const a = AuthorityAnswer.read(readSample('sefaz/retEnviNFe.xml'));
  try {
    const own = /<protNFe\b[\s\S]*<\/protNFe>/.exec(a.text)![0];
    t.is(a.serialized(a.descendant(DOCUMENT, 'protNFe', NFE)!), own.replace('<protNFe versao="4.00">', `<protNFe versao="4.00" xmlns="${NFE}">`));
    t.is(a.serialized(a.root), a.text.trim());
  } finally {
    a.dispose();
  }
});
