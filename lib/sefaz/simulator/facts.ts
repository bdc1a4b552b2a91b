import { child, parseXml, text } from '../xml.js';
import { NFE_NS } from '../services.js';

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
  /** infAdic/infAdFisco and infAdic/infCpl (where a sandbox user writes a rejection trigger). */
  additionalInfo: string;
  hasInfRespTec: boolean;
  digestValue: string | null;
}

/** The facts of the first NFe of a document (an NFe, or an enviNFe). */
export function nfeFacts(xml: string): NfeFacts {
  const doc = parseXml(xml);
  return nfeFactsOf((doc.getElementsByTagNameNS(NFE_NS, 'NFe')[0] as Element | undefined) ?? doc.documentElement!);
}

/** The NFe elements of a parsed enviNFe, in order. */
export function nfeElements(doc: Document): Element[] {
  return Array.from(doc.getElementsByTagNameNS(NFE_NS, 'NFe')) as Element[];
}

export function nfeFactsOf(nfe: Element): NfeFacts {
  const inf = child(nfe, 'infNFe');
  const ide = inf ? child(inf, 'ide') : null;
  const get = (name: string) => text(ide, name) ?? '';
  const emit = inf ? child(inf, 'emit') : null;
  const enderEmit = emit ? child(emit, 'enderEmit') : null;
  const dest = inf ? child(inf, 'dest') : null;
  const enderDest = dest ? child(dest, 'enderDest') : null;
  const infAdic = inf ? child(inf, 'infAdic') : null;
  const digest = nfe.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'DigestValue')[0];
  const items = inf ? Array.from(inf.getElementsByTagNameNS(NFE_NS, 'det')) : [];
  // The dest/IE is the recipient's; emit/IE must not be read through a generic descendant search.
  const directText = (parent: Element | null, name: string): string | null => {
    if (!parent) return null;
    for (let c = parent.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1 && (c as Element).localName === name) return ((c as Element).textContent ?? '').trim();
    }
    return null;
  };
  return {
    id: inf?.getAttribute('Id') ?? '',
    cUF: get('cUF'), cNF: get('cNF'), mod: get('mod'), serie: get('serie'), nNF: get('nNF'), dhEmi: get('dhEmi'),
    tpEmis: get('tpEmis'), cDV: get('cDV'), tpAmb: get('tpAmb'), idDest: get('idDest'), indFinal: get('indFinal'), cMunFG: get('cMunFG'),
    emitCnpj: directText(emit, 'CNPJ'),
    emit: { ie: directText(emit, 'IE'), uf: text(enderEmit, 'UF') ?? '', cMun: text(enderEmit, 'cMun') ?? '' },
    dest: dest ? {
      cnpj: directText(dest, 'CNPJ'), cpf: directText(dest, 'CPF'), ie: directText(dest, 'IE'), indIEDest: directText(dest, 'indIEDest'),
      uf: text(enderDest, 'UF'), cMun: text(enderDest, 'cMun'),
    } : null,
    indIEDest: directText(dest, 'indIEDest'),
    itemsWithoutIcmsUfDest: items.filter((d) => !child(d, 'ICMSUFDest')).map((d) => d.getAttribute('nItem') ?? '?'),
    additionalInfo: [text(infAdic, 'infAdFisco'), text(infAdic, 'infCpl')].filter(Boolean).join(' '),
    hasInfRespTec: !!(inf && child(inf, 'infRespTec')),
    digestValue: digest ? (digest.textContent ?? '').trim() : null,
  };
}

/** The raw `<tag …>…</tag>` substrings of a message (byte-exact, for signature checks). */
export function rawElements(xml: string, tag: string): string[] {
  return xml.match(new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}>`, 'g')) ?? [];
}
