import { XmlDocument, XmlElement } from 'libxml2-wasm';
import { xpath } from './xpath.js';

/** What the simulator's rules read from a received NFe (raw element text, as it was signed). */
export interface NfeFacts {
  id: string;
  cUF: string;
  cNF: string;
  mod: string;
  serie: string;
  nNF: string;
  dhEmi: string;
  tpEmis: string;
  /** ide/dhCont and ide/xJust: entry into contingency (null when absent). */
  dhCont: string | null;
  xJust: string | null;
  cDV: string;
  tpAmb: string;
  idDest: string;
  indFinal: string;
  cMunFG: string;
  emitCnpj: string | null;
  emit: { ie: string | null; uf: string; cMun: string };
  /** null when the note has no recipient (an NFC-e to an unidentified consumer). */
  dest: { cnpj: string | null; cpf: string | null; ie: string | null; indIEDest: string | null; uf: string | null; cMun: string | null } | null;
  indIEDest: string | null;
  /** nItem of every item without the ICMSUFDest group (rule 694). */
  itemsWithoutIcmsUfDest: string[];
  /** nItem of every item with the ICMSUFDest group (rule 695). */
  itemsWithIcmsUfDest: string[];
  /** Whether some item is a service (ISSQN group): ICMSUFDest never applies to it (rule 695). */
  hasIssqn: boolean;
  /** entrega/UF, when the note names a delivery place (rule 695, exceção 2). */
  entregaUf: string | null;
  /** retirada/UF, when the note names a pick-up place (rule 698, exceção 4). */
  retiradaUf: string | null;
  tpNF: string;
  finNFe: string;
  /** Keys of the referenced NF-e (rule 699 reads the year of the first one on a non-normal note). */
  refNFe: string[];
  /** The ICMSUFDest group of every item that has it, and ICMSTot's partilha totals (partilha.ts). */
  partilha: { items: PartilhaItemFacts[]; totals: PartilhaTotalsFacts };
  /** infAdic/infAdFisco and infAdic/infCpl (where a sandbox user writes a rejection trigger). */
  additionalInfo: string;
  hasInfRespTec: boolean;
  digestValue: string | null;
}

/** One item's ICMSUFDest, raw text; orig from its ICMS group (any CST/CSOSN variant). */
export interface PartilhaItemFacts {
  nItem: string;
  cfop: string;
  orig: string;
  pICMSInter: string;
  pICMSInterPart: string;
  vFCPUFDest: string | null;
  vICMSUFDest: string;
  vICMSUFRemet: string;
}

/** ICMSTot/vFCPUFDest, vICMSUFDest, vICMSUFRemet (null when absent: the layout makes them optional). */
export interface PartilhaTotalsFacts { vFCPUFDest: string | null; vICMSUFDest: string | null; vICMSUFRemet: string | null }

/** The facts of every NFe of a document (an NFe, or an enviNFe), read with libxml2 XPath (compiled once: xpath.ts). */
export function nfeFactsList(xml: string | XmlDocument): NfeFacts[] {
  const doc = typeof xml === 'string' ? XmlDocument.fromString(xml) : xml;
  try {
    const nfes = doc.find(xpath('//n:NFe')).filter((e): e is XmlElement => e instanceof XmlElement);
    return nfes.map(factsOf);
  } finally {
    if (doc !== xml) doc.dispose();
  }
}

/** The facts of the first NFe of a document. */
export function nfeFacts(xml: string): NfeFacts {
  const first = nfeFactsList(xml)[0];
  if (!first) throw new Error('no NFe in the document');
  return first;
}

function factsOf(nfe: XmlElement): NfeFacts {
  const opt = (path: string): string | null => {
    const node = nfe.get(xpath(path));
    return node ? node.content.trim() : null;
  };
  const get = (name: string) => opt(`n:infNFe/n:ide/n:${name}`) ?? '';
  const inf = nfe.get(xpath('n:infNFe')) as XmlElement | null;
  const hasDest = !!nfe.get(xpath('n:infNFe/n:dest'));
  const dest = (name: string) => opt(`n:infNFe/n:dest/${name}`);
  return {
    id: inf?.attr('Id')?.value ?? '',
    cUF: get('cUF'), cNF: get('cNF'), mod: get('mod'), serie: get('serie'), nNF: get('nNF'), dhEmi: get('dhEmi'),
    tpEmis: get('tpEmis'), dhCont: opt('n:infNFe/n:ide/n:dhCont'), xJust: opt('n:infNFe/n:ide/n:xJust'), cDV: get('cDV'), tpAmb: get('tpAmb'), idDest: get('idDest'), indFinal: get('indFinal'), cMunFG: get('cMunFG'),
    emitCnpj: opt('n:infNFe/n:emit/n:CNPJ'),
    emit: { ie: opt('n:infNFe/n:emit/n:IE'), uf: opt('n:infNFe/n:emit/n:enderEmit/n:UF') ?? '', cMun: opt('n:infNFe/n:emit/n:enderEmit/n:cMun') ?? '' },
    dest: hasDest ? {
      cnpj: dest('n:CNPJ'), cpf: dest('n:CPF'), ie: dest('n:IE'), indIEDest: dest('n:indIEDest'),
      uf: dest('n:enderDest/n:UF'), cMun: dest('n:enderDest/n:cMun'),
    } : null,
    indIEDest: dest('n:indIEDest'),
    itemsWithoutIcmsUfDest: nfe.find(xpath('n:infNFe/n:det[not(n:imposto/n:ICMSUFDest)]')).map((d) => (d as XmlElement).attr('nItem')?.value ?? '?'),
    itemsWithIcmsUfDest: nfe.find(xpath('n:infNFe/n:det[n:imposto/n:ICMSUFDest]')).map((d) => (d as XmlElement).attr('nItem')?.value ?? '?'),
    hasIssqn: !!nfe.get(xpath('n:infNFe/n:det/n:imposto/n:ISSQN')),
    entregaUf: opt('n:infNFe/n:entrega/n:UF'),
    retiradaUf: opt('n:infNFe/n:retirada/n:UF'),
    tpNF: get('tpNF'), finNFe: get('finNFe'),
    refNFe: nfe.find(xpath('n:infNFe/n:ide/n:NFref/n:refNFe')).map((e) => e.content.trim()),
    partilha: partilhaOf(nfe, opt),
    additionalInfo: [opt('n:infNFe/n:infAdic/n:infAdFisco'), opt('n:infNFe/n:infAdic/n:infCpl')].filter(Boolean).join(' '),
    hasInfRespTec: !!nfe.get(xpath('n:infNFe/n:infRespTec')),
    digestValue: opt('ds:Signature/ds:SignedInfo/ds:Reference/ds:DigestValue'),
  };
}

function partilhaOf(nfe: XmlElement, opt: (path: string) => string | null): NfeFacts['partilha'] {
  const items = nfe.find(xpath('n:infNFe/n:det[n:imposto/n:ICMSUFDest]')).map((node) => {
    const det = node as XmlElement;
    const text = (path: string) => det.get(xpath(path))?.content.trim() ?? null;
    const g = (name: string) => text(`n:imposto/n:ICMSUFDest/n:${name}`);
    return {
      nItem: det.attr('nItem')?.value ?? '?', cfop: text('n:prod/n:CFOP') ?? '', orig: text('n:imposto/n:ICMS/*/n:orig') ?? '',
      pICMSInter: g('pICMSInter') ?? '', pICMSInterPart: g('pICMSInterPart') ?? '',
      vFCPUFDest: g('vFCPUFDest'), vICMSUFDest: g('vICMSUFDest') ?? '', vICMSUFRemet: g('vICMSUFRemet') ?? '',
    };
  });
  const total = (name: string) => opt(`n:infNFe/n:total/n:ICMSTot/n:${name}`);
  return { items, totals: { vFCPUFDest: total('vFCPUFDest'), vICMSUFDest: total('vICMSUFDest'), vICMSUFRemet: total('vICMSUFRemet') } };
}

/** The raw `<tag …>…</tag>` substrings of a message (byte-exact, for signature checks). */
export function rawElements(xml: string, tag: string): string[] {
  return xml.match(new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}>`, 'g')) ?? [];
}
