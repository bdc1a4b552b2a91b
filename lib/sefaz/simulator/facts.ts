import { child, parseXml, text } from '../xml.js';

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
  cDV: string;
  tpAmb: string;
  indFinal: string;
  emitCnpj: string | null;
  indIEDest: string | null;
  hasInfRespTec: boolean;
  digestValue: string | null;
}

export function nfeFacts(nfeXml: string): NfeFacts {
  const doc = parseXml(nfeXml);
  const inf = child(doc, 'infNFe');
  const ide = inf ? child(inf, 'ide') : null;
  const get = (name: string) => text(ide, name) ?? '';
  const emit = inf ? child(inf, 'emit') : null;
  const dest = inf ? child(inf, 'dest') : null;
  const digest = doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'DigestValue')[0];
  return {
    id: inf?.getAttribute('Id') ?? '',
    cUF: get('cUF'), cNF: get('cNF'), mod: get('mod'), serie: get('serie'), nNF: get('nNF'), dhEmi: get('dhEmi'),
    tpEmis: get('tpEmis'), cDV: get('cDV'), tpAmb: get('tpAmb'), indFinal: get('indFinal'),
    emitCnpj: text(emit, 'CNPJ'),
    indIEDest: text(dest, 'indIEDest'),
    hasInfRespTec: !!(inf && child(inf, 'infRespTec')),
    digestValue: digest ? (digest.textContent ?? '').trim() : null,
  };
}

/** The raw `<tag …>…</tag>` substrings of a message (byte-exact, for signature checks). */
export function rawElements(xml: string, tag: string): string[] {
  return xml.match(new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}>`, 'g')) ?? [];
}
