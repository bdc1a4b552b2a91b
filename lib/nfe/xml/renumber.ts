import type { EmissionContext } from './context.js';
import type { InfNFeXml } from './nfe.js';

/**
 * A built infNFe under another identity of the same note: the number (nNF), the random code (cNF),
 * the key's check digit (cDV) and the key in the Id attribute, the only parts of infNFe that come
 * from the number (lib/nfe/xml/ide.ts, nfe.ts). The rest of the contexts must be the same; this is
 * checked on the keys (cUF, AAMM, CNPJ, model, series, tpEmis) and on dhEmi, and a context that
 * differs elsewhere is a wiring bug (RangeError).
 *
 * Each part is found by its own tag, first occurrence: ide is infNFe's first child and nNF, cNF and
 * cDV come before its NFref (whose refNF also has an nNF), and no free text can hold a `<`, which
 * the writer escapes. A part not found where the builder puts it is a RangeError, never a silent
 * half-renumbered document.
 */
export function renumberInfNFe(infNFe: InfNFeXml, from: EmissionContext, to: EmissionContext): InfNFeXml {
  if (from.accessKey === to.accessKey && from.numero === to.numero && from.cNF === to.cNF) return infNFe;
  const same = from.accessKey.slice(0, 25) === to.accessKey.slice(0, 25) && from.accessKey[34] === to.accessKey[34]
    && from.dhEmi === to.dhEmi && from.serie === to.serie && from.tpAmb === to.tpAmb && from.tpEmis === to.tpEmis;
  if (!same) throw new RangeError('renumberInfNFe: the contexts differ in more than the number, cNF and key');
  const swaps: [string, string][] = [
    [`<cNF>${from.cNF}</cNF>`, `<cNF>${to.cNF}</cNF>`],
    [`<nNF>${from.numero}</nNF>`, `<nNF>${to.numero}</nNF>`],
    [`<cDV>${from.accessKey.charAt(43)}</cDV>`, `<cDV>${to.accessKey.charAt(43)}</cDV>`],
  ];
  const fromId = `NFe${from.accessKey}`;
  const toId = `NFe${to.accessKey}`;
  // Every part is in the head, up to </ide>: the swaps copy only that, and the items follow as they are
  // (a 990-item note: one 480 KB copy where each swap made its own).
  const rewrite = (xml: string) => {
    const end = xml.indexOf('</ide>');
    if (end < 0) throw new RangeError('renumberInfNFe: </ide> not found');
    return swapAll(swapFirst(xml.slice(0, end), `Id="${fromId}"`, `Id="${toId}"`), swaps) + xml.slice(end);
  };
  return { id: toId, element: rewrite(infNFe.element), canonical: rewrite(infNFe.canonical) };
}

function swapAll(xml: string, swaps: readonly [string, string][]): string {
  let out = xml;
  for (const [from, to] of swaps) out = swapFirst(out, from, to);
  return out;
}

function swapFirst(xml: string, from: string, to: string): string {
  const at = xml.indexOf(from);
  if (at < 0) throw new RangeError(`renumberInfNFe: ${from} not found`);
  return xml.slice(0, at) + to + xml.slice(at + from.length);
}
